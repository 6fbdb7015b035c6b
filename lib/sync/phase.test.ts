/**
 * The sync engine phase by phase (./phase.ts): how the engine enters each phase, what it does there,
 * and how it leaves, seen through `debug()` (the `?debug=sync` overlay's data) and the element.
 */
import { canTransition, DecisionLog, PHASE_TRANSITIONS, type SyncPhase } from './phase';
import { Latencies } from './latency';
import { destroyEngines, elapse, makeEngine, playingSteadily, readyMedia, RecordingTransport, seeks } from './testing/harness';
import { FakeMedia } from './testing/fake-media';

jest.setTimeout(30_000);

beforeEach(() => {
  jest.useFakeTimers({ now: 1_700_000_000_000 });
});

afterEach(() => {
  expect(destroyEngines()).toBe(0);
  jest.useRealTimers();
});

const PLAYING = { isPlaying: true, currentTime: 10, playbackRate: 1 };

describe('the phase table', () => {
  it('never lets a waiting element track without a start in between, and every phase can reach idle, paused and live', () => {
    for (const from of ['idle', 'paused', 'scheduled'] as SyncPhase[]) expect(canTransition(from, 'tracking')).toBe(false);
    for (const from of Object.keys(PHASE_TRANSITIONS) as SyncPhase[]) {
      for (const to of ['paused', 'live'] as SyncPhase[]) if (from !== to) expect(canTransition(from, to)).toBe(true);
      if (from !== 'idle') expect(canTransition(from, 'idle')).toBe(true);
    }
  });

  it('keeps the newest decisions only', () => {
    const log = new DecisionLog(3);
    for (let i = 0; i < 5; i += 1) log.add({ atMs: i, kind: 'follow', phase: 'idle', detail: String(i) });
    expect(log.list().map((entry) => entry.detail)).toEqual(['2', '3', '4']);
  });
});

describe('idle', () => {
  it('is where an engine starts, and stays while the element has no metadata even with a status to follow', async () => {
    const media = new FakeMedia();
    const engine = makeEngine(media, new RecordingTransport());
    expect(engine.debug().phase).toBe('idle');
    engine.onRemoteStatus(PLAYING);
    await elapse(300, media);
    expect(engine.debug().phase).toBe('idle');
    expect(media.paused).toBe(true);
    media.bufferedRanges = [[0, 120]];
    media.loadMetadata();
    await elapse(600, media);
    expect(engine.debug().phase).not.toBe('idle');
  });
});

describe('paused', () => {
  it('holds the room position: a paused room moves the element there and stays', async () => {
    const media = await readyMedia();
    const engine = makeEngine(media, new RecordingTransport());
    engine.onRemoteStatus({ isPlaying: false, currentTime: 42, playbackRate: 1 });
    await elapse(200, media);
    const debug = engine.debug();
    expect(debug.phase).toBe('paused');
    expect(media.currentTime).toBeCloseTo(42, 2);
    expect(debug.decisions.map((d) => d.kind)).toContain('hold');
  });
});

describe('scheduled', () => {
  it('waits paused ahead of the room, then starts when the room arrives (no start before)', async () => {
    const media = await readyMedia();
    const engine = makeEngine(media, new RecordingTransport());
    media.currentTime = 50; // far from the room: a scheduled start, not a start at once
    await elapse(50, media);
    engine.onRemoteStatus(PLAYING);
    await jest.advanceTimersByTimeAsync(0);
    expect(engine.debug().phase).toBe('scheduled');
    expect(media.paused).toBe(true);
    const heldAt = media.currentTime;
    expect(heldAt).toBeGreaterThan(10);
    expect(heldAt).toBeLessThan(10.5);
    await elapse(600, media);
    expect(engine.debug().phase).not.toBe('scheduled');
    expect(media.paused).toBe(false);
  });
});

describe('acquiring', () => {
  it('follows a start until the element runs steadily, then hands over to tracking', async () => {
    const media = await readyMedia();
    const engine = makeEngine(media, new RecordingTransport());
    engine.onRemoteStatus(PLAYING);
    await elapse(400, media);
    const phases = engine.debug().decisions.map((d) => d.phase);
    expect(phases).toContain('acquiring');
    await elapse(600, media);
    expect(engine.debug().phase).toBe('tracking');
  });
});

describe('tracking', () => {
  it('nudges the rate for a small drift and logs the decision with the drift', async () => {
    const { media, engine } = await playingSteadily();
    expect(engine.debug().phase).toBe('tracking');
    media.advance(80); // 80 ms ahead, silently
    await elapse(300, media);
    const debug = engine.debug();
    expect(debug.phase).toBe('tracking');
    expect(debug.playbackRate).toBeLessThan(1);
    const nudge = debug.decisions.find((d) => d.kind === 'nudge');
    expect(nudge?.detail).toMatch(/drift \d+ ms/);
  });
});

describe('recovering', () => {
  it('enters on a stall while the room plays and leaves once the element caught up', async () => {
    const { media, engine } = await playingSteadily();
    media.stall(2000);
    await elapse(300, media);
    expect(engine.debug().phase).toBe('recovering');
    expect(engine.debug().decisions.map((d) => d.kind)).toContain('stall');
    await elapse(4000, media);
    expect(['tracking', 'acquiring']).toContain(engine.debug().phase);
  });
});

describe('ended', () => {
  it('stops at the end when the room passes it, and is not restarted', async () => {
    const media = await readyMedia();
    media.duration = 12;
    const engine = makeEngine(media, new RecordingTransport());
    engine.onRemoteStatus({ isPlaying: true, currentTime: 11.5, playbackRate: 1 });
    await elapse(1500, media);
    expect(engine.debug().phase).toBe('ended');
    expect(engine.indicator().state).toBe('ended');
    await elapse(1000, media);
    expect(media.paused || media.ended).toBe(true);
  });
});

describe('live', () => {
  it('follows play and pause only', async () => {
    const media = await readyMedia();
    const engine = makeEngine(media, new RecordingTransport(), { live: true });
    engine.onRemoteStatus(PLAYING);
    await elapse(300, media);
    expect(engine.debug().phase).toBe('live');
    expect(media.paused).toBe(false);
    engine.onRemoteStatus({ ...PLAYING, isPlaying: false });
    await elapse(100, media);
    expect(engine.debug().phase).toBe('live');
    expect(media.paused).toBe(true);
    expect(engine.debug().decisions.filter((d) => d.kind === 'nudge' || d.kind === 'seek')).toEqual([]);
  });
});

describe('latencies', () => {
  it('replace the default on the first observation, average later close ones, and reset on a jump', () => {
    const latencies = new Latencies(0.1);
    expect(latencies.has('start')).toBe(false);
    latencies.learn('start', 0.04);
    expect(latencies.get('start')).toBeCloseTo(0.04, 5);
    latencies.learn('start', 0.06);
    expect(latencies.get('start')).toBeCloseTo(0.05, 5);
    latencies.learn('start', 0.5);
    expect(latencies.get('start')).toBeCloseTo(0.5, 5);
    latencies.learn('start', 5); // a stall, not a latency
    expect(latencies.get('start')).toBeCloseTo(0.5, 5);
  });

  it('size the lead of a scheduled start: 0.2 s before the seek latency is known, then from it', () => {
    const latencies = new Latencies(0.1);
    expect(latencies.nearLeadSec()).toBeCloseTo(0.2, 5);
    latencies.learn('readyNear', 0.01);
    latencies.learn('start', 0.05);
    expect(latencies.nearLeadSec()).toBeCloseTo(0.12, 5);
    latencies.learn('readyFar', 0.8);
    expect(latencies.farLeadSec()).toBeCloseTo(1.65, 5);
  });
});

describe('a page that cannot keep up', () => {
  it('catches up one stall with one seek, gives up seeking after three that did not hold, says so, and only nudges', async () => {
    const { media, engine } = await playingSteadily();
    const before = seeks(media);
    for (let stall = 1; stall <= 3; stall += 1) {
      media.stall(600);
      await elapse(5600, media);
      expect(seeks(media)).toBe(before + stall);
    }
    expect(engine.debug().decisions.map((d) => d.kind)).toContain('give-up');
    media.stall(600);
    await elapse(1000, media);
    expect(seeks(media)).toBe(before + 3);
    expect(engine.indicator().state).toBe('struggling');
    expect(media.playbackRate).toBeCloseTo(1.05);
  });

  it('still follows another user’s seek while it only nudges', async () => {
    const { media, engine } = await playingSteadily();
    for (let stall = 1; stall <= 3; stall += 1) {
      media.stall(600);
      await elapse(5600, media);
    }
    expect(engine.debug().decisions.map((d) => d.kind)).toContain('give-up');
    engine.onRemoteStatus({ isPlaying: true, currentTime: 60, playbackRate: 1 });
    await elapse(2000, media);
    expect(Math.abs(media.currentTime - 62)).toBeLessThan(0.05);
  });
});
