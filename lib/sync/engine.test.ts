/**
 * The sync engine against a fake media element and a fake room (no browser, jest's fake clock):
 * what each client's player does and what it sends, including the no-echo rule, the correction
 * loop, buffering, live movies, clock skew, network delay and the SYNC budget.
 */
import { ServerClock } from './clock';
import { COMMON_LEAD_SEC, SyncEngine, type AutoplayOutcome } from './engine';
import { FakeMedia } from './testing/fake-media';
import { FakeRoom, type FakeConnection } from './testing/fake-room';
import { destroyEngines, elapse, makeEngine, playingSteadily, readyMedia, RecordingTransport, seeks } from './testing/harness';
import type { PlaybackState } from '@/lib/contract/playback';

const rateChanges = (media: FakeMedia) => media.fired.filter((event) => event === 'ratechange').length;

/** Local − room (s) for an engine following a status received at `atMs` (Date.now) with no network delay. */
/** Reads the element's real position from now on (the jitter of `positionJitterMs` off). */
function readExactly(media: FakeMedia): void {
  media.positionJitterMs = 0;
}

function driftFrom(media: FakeMedia, status: PlaybackState, atMs: number): number {
  const room = status.isPlaying ? status.currentTime + ((Date.now() - atMs) / 1000) * status.playbackRate : status.currentTime;
  return media.currentTime - room;
}

// Simulated sessions of up to 20 s in 10 ms steps.
jest.setTimeout(30_000);

beforeEach(() => {
  jest.useFakeTimers({ now: 1_700_000_000_000 });
});

afterEach(() => {
  // Every scenario keeps to the phase table (./phase.ts PHASE_TRANSITIONS).
  const invalid = destroyEngines();
  expect(invalid).toBe(0);
  jest.useRealTimers();
});

describe('applying a remote status', () => {
  it('starts a paused element where the room is, in sync from its first frame, and sends nothing back', async () => {
    const media = await readyMedia();
    const transport = new RecordingTransport();
    const engine = makeEngine(media, transport);
    const status = { isPlaying: true, currentTime: 20, playbackRate: 1 };
    const at = Date.now();
    engine.onRemoteStatus(status);
    await elapse(400, media);
    expect(media.paused).toBe(false);
    expect(Math.abs(driftFrom(media, status, at))).toBeLessThan(0.005);
    expect(seeks(media)).toBe(1);
    expect(transport.statuses).toEqual([]);
  });

  it('moves a paused element to the exact paused room position (ignoring sub-5 ms rounding)', async () => {
    const media = await readyMedia();
    const engine = makeEngine(media, new RecordingTransport());
    media.currentTime = 10.004;
    await elapse(20, media);
    const before = seeks(media);
    engine.onRemoteStatus({ isPlaying: false, currentTime: 10, playbackRate: 1 });
    await elapse(20, media);
    expect(seeks(media)).toBe(before);
    engine.onRemoteStatus({ isPlaying: false, currentTime: 9.99, playbackRate: 1 });
    await elapse(20, media);
    expect(media.currentTime).toBe(9.99);
  });

  it('applies the rate without publishing the resulting ratechange', async () => {
    const media = await readyMedia();
    const transport = new RecordingTransport();
    const engine = makeEngine(media, transport);
    engine.onRemoteStatus({ isPlaying: false, currentTime: 0, playbackRate: 1.5 });
    await elapse(10, media);
    expect(media.playbackRate).toBe(1.5);
    expect(transport.statuses).toEqual([]);
  });

  it('pauses at the exact position the room paused at', async () => {
    const media = await readyMedia();
    const transport = new RecordingTransport();
    const engine = makeEngine(media, transport);
    engine.onRemoteStatus({ isPlaying: true, currentTime: 0, playbackRate: 1 });
    await elapse(1000, media);
    engine.onRemoteStatus({ isPlaying: false, currentTime: 0.9, playbackRate: 1 });
    await elapse(50, media);
    expect(media.paused).toBe(true);
    expect(media.currentTime).toBe(0.9);
    expect(transport.statuses).toEqual([]);
  });

  it('does not echo its own pause even when the room resumed before the pause event fired', async () => {
    const media = await readyMedia();
    const transport = new RecordingTransport();
    const engine = makeEngine(media, transport);
    engine.onRemoteStatus({ isPlaying: true, currentTime: 0, playbackRate: 1 });
    await elapse(500, media);
    engine.onRemoteStatus({ isPlaying: false, currentTime: 0.5, playbackRate: 1 });
    engine.onRemoteStatus({ isPlaying: true, currentTime: 0.5, playbackRate: 1 }); // before `pause` is dispatched
    await elapse(500, media);
    expect(transport.statuses).toEqual([]);
    expect(media.paused).toBe(false);
  });

  it('does not restart an element that reached the end while the room still counts', async () => {
    const media = await readyMedia();
    media.duration = 30;
    const engine = makeEngine(media, new RecordingTransport());
    engine.onRemoteStatus({ isPlaying: true, currentTime: 45, playbackRate: 1 });
    await elapse(100, media);
    expect(media.paused).toBe(true);
    expect(media.currentTime).toBe(30);
  });
});

describe('publishing local user actions', () => {
  it('sends STATUS on a user pause and play; the play is a common start: the room reaches the position a lead later, when the element starts there', async () => {
    const media = await readyMedia();
    const transport = new RecordingTransport();
    const engine = makeEngine(media, transport);
    engine.onRemoteStatus({ isPlaying: true, currentTime: 5, playbackRate: 1 });
    await elapse(1000, media);

    media.pause(); // the user
    await elapse(10, media);
    expect(transport.statuses).toHaveLength(1);
    expect(transport.statuses[0].isPlaying).toBe(false);
    const pausedAt = transport.statuses[0].currentTime;
    expect(pausedAt).toBeCloseTo(media.currentTime, 5);

    await media.play(); // the user
    const playedAt = Date.now();
    await elapse(10, media);
    expect(transport.statuses).toHaveLength(2);
    expect(transport.statuses[1]).toMatchObject({ isPlaying: true, playbackRate: 1 });
    // the room is a lead behind the element's position: everyone reaches it at the same instant
    expect(transport.statuses[1].currentTime).toBeCloseTo(pausedAt - COMMON_LEAD_SEC, 3);
    expect(media.paused).toBe(true);
    expect(media.currentTime).toBeCloseTo(pausedAt, 3);
    await elapse(COMMON_LEAD_SEC * 1000 + 300, media);
    // started on time: where the room is, and within the lead of the user's click
    expect(media.paused).toBe(false);
    expect(Math.abs(driftFrom(media, transport.statuses[1], playedAt))).toBeLessThan(0.005);
    expect(transport.statuses).toHaveLength(2);
  });

  it('sends a single seek at once', async () => {
    const media = await readyMedia();
    const transport = new RecordingTransport();
    makeEngine(media, transport);
    media.currentTime = 30;
    await jest.advanceTimersByTimeAsync(20);
    expect(transport.statuses).toEqual([{ isPlaying: false, currentTime: 30, playbackRate: 1 }]);
  });

  it('sends a seek while playing when it starts, not when the element has finished seeking, and only once', async () => {
    const media = await readyMedia();
    media.bufferedSeekDelayMs = 80;
    const transport = new RecordingTransport();
    const engine = makeEngine(media, transport);
    engine.onRemoteStatus({ isPlaying: true, currentTime: 10, playbackRate: 1 });
    await elapse(2000, media);
    media.currentTime = 40;
    await elapse(20, media);
    expect(media.seeking).toBe(true);
    // Led back by the time until the element runs again: 0.1 s inside the buffer before it is learned.
    expect(transport.statuses).toEqual([{ isPlaying: true, currentTime: expect.closeTo(39.9, 3), playbackRate: 1 }]);
    await elapse(1000, media);
    expect(transport.statuses).toHaveLength(1);
  });

  it('leads a seek outside the buffer back by a far start, which waits for the data', async () => {
    const media = await readyMedia();
    const transport = new RecordingTransport();
    const engine = makeEngine(media, transport);
    engine.onRemoteStatus({ isPlaying: true, currentTime: 10, playbackRate: 1 });
    await elapse(2000, media);
    media.bufferedRanges = [[0, 20]];
    media.currentTime = 40;
    await elapse(20, media);
    // The defaults: a far seek until it can play (0.3 s) and the start (0.06 s).
    expect(transport.statuses).toEqual([{ isPlaying: true, currentTime: expect.closeTo(39.64, 3), playbackRate: 1 }]);
  });

  it('collapses a burst of seeks (scrubbing) into the first and one trailing STATUS with the final position', async () => {
    const media = await readyMedia();
    const transport = new RecordingTransport();
    makeEngine(media, transport);
    for (const position of [30, 31, 32, 40]) {
      media.currentTime = position;
      await elapse(50, media);
    }
    await elapse(300, media);
    expect(transport.statuses).toEqual([
      { isPlaying: false, currentTime: 30, playbackRate: 1 },
      { isPlaying: false, currentTime: 40, playbackRate: 1 },
    ]);
  });

  it('keeps the room playing when the user scrubs right after pressing play (the element held still for the common start)', async () => {
    const media = await readyMedia();
    const transport = new RecordingTransport();
    makeEngine(media, transport);
    await media.play();
    await elapse(50, media);
    for (const to of [20, 40, 57]) {
      media.currentTime = to;
      await elapse(60, media);
    }
    await elapse(1000, media);
    expect(transport.statuses.every((status) => status.isPlaying)).toBe(true);
    expect(transport.statuses.at(-1)?.currentTime).toBeGreaterThan(56);
    expect(media.paused).toBe(false);
    expect(media.currentTime).toBeGreaterThan(57);
  });

  it('sends a user rate change', async () => {
    const media = await readyMedia();
    const transport = new RecordingTransport();
    makeEngine(media, transport);
    media.playbackRate = 2;
    await elapse(10, media);
    expect(transport.statuses).toEqual([{ isPlaying: false, currentTime: 0, playbackRate: 2 }]);
  });

  it('publishes a user seek that overrides a seek the engine started', async () => {
    const media = await readyMedia({ buffered: false });
    media.seekDelayMs = 100;
    const transport = new RecordingTransport();
    const engine = makeEngine(media, transport);
    engine.onRemoteStatus({ isPlaying: false, currentTime: 20, playbackRate: 1 });
    await elapse(20, media);
    media.currentTime = 50; // the user, before the engine's seek completed
    await elapse(400, media);
    expect(transport.statuses).toEqual([{ isPlaying: false, currentTime: 50, playbackRate: 1 }]);
  });

  it('ignores a small jump while playing (the player skipping a gap)', async () => {
    const media = await readyMedia();
    const transport = new RecordingTransport();
    const engine = makeEngine(media, transport);
    engine.onRemoteStatus({ isPlaying: true, currentTime: 10, playbackRate: 1 });
    await elapse(1000, media);
    media.currentTime += 0.1;
    await elapse(300, media);
    expect(transport.statuses).toEqual([]);
  });

  it('publishes nothing for a live movie', async () => {
    const media = await readyMedia();
    const transport = new RecordingTransport();
    makeEngine(media, transport, { live: true });
    await media.play();
    media.pause();
    media.currentTime = 30;
    media.playbackRate = 1.5;
    await elapse(300, media);
    expect(transport.statuses).toEqual([]);
  });

  it('restores the room state instead of publishing when the user may not control playback', async () => {
    const media = await readyMedia();
    const transport = new RecordingTransport();
    const denied = jest.fn();
    const engine = makeEngine(media, transport, { canControl: false, onControlDenied: denied });
    engine.setConnected(true);
    engine.onRemoteStatus({ isPlaying: true, currentTime: 0, playbackRate: 1 });
    await elapse(500, media);
    expect(media.paused).toBe(false);
    const syncsBefore = transport.syncs;
    media.pause(); // the user
    await elapse(10, media);
    expect(transport.statuses).toEqual([]);
    expect(denied).toHaveBeenCalledTimes(1);
    expect(transport.syncs).toBe(syncsBefore + 1);
  });
});

describe('the correction loop', () => {
  /** A playing element following a remote status, settled; then its position is disturbed by `offsetSec`. */
  async function playingWithDrift(offsetSec: number, setup: (media: FakeMedia) => void = () => {}) {
    const media = await readyMedia();
    setup(media);
    const transport = new RecordingTransport();
    const engine = makeEngine(media, transport);
    const status = { isPlaying: true, currentTime: 10, playbackRate: 1 };
    const at = Date.now();
    engine.onRemoteStatus(status);
    await elapse(1500, media);
    expect(Math.abs(driftFrom(media, status, at))).toBeLessThan(0.01);
    const seeksBefore = seeks(media);
    const ratesBefore = rateChanges(media);
    // A silent disturbance (no media event): the decoder fell behind or ran ahead.
    if (offsetSec < 0) media.hiccup(-offsetSec * 1000);
    else media.advance(offsetSec * 1000);
    return { media, transport, engine, status, at, seeksBefore, ratesBefore };
  }

  it('nudges a client 80 ms behind with a rate between 1 and 1.05, without a seek, and returns to the room rate', async () => {
    const { media, transport, status, at, seeksBefore } = await playingWithDrift(-0.08);
    const rates: number[] = [];
    for (let i = 0; i < 40; i += 1) {
      await elapse(100, media);
      rates.push(media.playbackRate);
    }
    expect(Math.max(...rates)).toBeGreaterThan(1);
    expect(Math.max(...rates)).toBeLessThanOrEqual(1.05);
    expect(Math.min(...rates)).toBeGreaterThanOrEqual(1);
    expect(media.playbackRate).toBe(1);
    expect(Math.abs(driftFrom(media, status, at))).toBeLessThan(0.01);
    expect(seeks(media)).toBe(seeksBefore);
    expect(transport.statuses).toEqual([]);
  });

  it('slows a client 40 ms ahead down, never below 0.95', async () => {
    const { media, status, at, seeksBefore } = await playingWithDrift(0.04);
    const rates: number[] = [];
    for (let i = 0; i < 30; i += 1) {
      await elapse(100, media);
      rates.push(media.playbackRate);
    }
    expect(Math.min(...rates)).toBeLessThan(1);
    expect(Math.min(...rates)).toBeGreaterThanOrEqual(0.95);
    expect(Math.abs(driftFrom(media, status, at))).toBeLessThan(0.01);
    expect(media.playbackRate).toBe(1);
    expect(seeks(media)).toBe(seeksBefore);
  });

  it('leaves a drift inside the dead band alone: no rate change, no seek', async () => {
    const { media, seeksBefore, ratesBefore } = await playingWithDrift(0.012);
    await elapse(5000, media);
    expect(rateChanges(media)).toBe(ratesBefore);
    expect(seeks(media)).toBe(seeksBefore);
  });

  it('only ever nudges a clock that drifts slowly (1 % slow for 20 s): no seek, rate within 1–1.05, drift under 20 ms', async () => {
    const { media, status, at, seeksBefore } = await playingWithDrift(0);
    media.clockRate = 0.99;
    const drifts: number[] = [];
    for (let i = 0; i < 200; i += 1) {
      await elapse(100, media);
      drifts.push(Math.abs(driftFrom(media, status, at)));
      expect(media.playbackRate).toBeGreaterThanOrEqual(1);
      expect(media.playbackRate).toBeLessThanOrEqual(1.05);
    }
    expect(seeks(media)).toBe(seeksBefore);
    expect(Math.max(...drifts)).toBeLessThan(0.02);
  });

  it('catches up a silent freeze (no media event) of 300 ms with one seek, but nudges a second one within 5 s', async () => {
    const { media, status, at, seeksBefore } = await playingWithDrift(-0.3);
    await elapse(1500, media);
    expect(seeks(media)).toBe(seeksBefore + 1);
    expect(Math.abs(driftFrom(media, status, at))).toBeLessThan(0.01);
    media.hiccup(300);
    await elapse(1500, media);
    expect(seeks(media)).toBe(seeksBefore + 1);
    expect(media.playbackRate).toBeCloseTo(1.05);
  });

  it("leaves alone a clock that is in step but read coarsely (Firefox's currentTime, ±20 ms): at most two rate changes in 10 s, no seek", async () => {
    const { media, seeksBefore, ratesBefore } = await playingWithDrift(0, (m) => {
      m.positionJitterMs = 20;
    });
    await elapse(10_000, media);
    expect(seeks(media)).toBe(seeksBefore);
    expect(rateChanges(media) - ratesBefore).toBeLessThanOrEqual(2);
  });

  it('still nudges a coarsely read clock (±25 ms) that is really 60 ms behind, and brings it within 15 ms', async () => {
    const { media, status, at, seeksBefore } = await playingWithDrift(-0.06, (m) => {
      m.positionJitterMs = 25;
    });
    await elapse(4000, media);
    readExactly(media);
    expect(Math.abs(driftFrom(media, status, at))).toBeLessThan(0.015);
    expect(seeks(media)).toBe(seeksBefore);
  });

  it('seeks once when steady play is more than 1 s off', async () => {
    const { media, status, at, seeksBefore } = await playingWithDrift(-1.3);
    await elapse(3000, media);
    expect(seeks(media)).toBe(seeksBefore + 1);
    expect(Math.abs(driftFrom(media, status, at))).toBeLessThan(0.01);
  });

  it('converges despite the step Chromium loses when the rate leaves 1', async () => {
    const { media, status, at, seeksBefore } = await playingWithDrift(-0.06, (m) => {
      m.rateStepMs = 25;
    });
    await elapse(4000, media);
    expect(Math.abs(driftFrom(media, status, at))).toBeLessThan(0.01);
    expect(media.playbackRate).toBe(1);
    expect(seeks(media)).toBe(seeksBefore);
    // one rate for the correction (maybe grown once after the step), and back
    expect(rateChanges(media)).toBeLessThanOrEqual(4);
  });

  it("corrects a clock that stands still 30 ms at every rate change (WebKitGTK, loaded) with one nudge and back, and stays level", async () => {
    const { media, engine, status, at, seeksBefore, ratesBefore } = await playingWithDrift(-0.06, (m) => {
      m.rateChangeStallMs = 30;
    });
    // The first corrections teach the engine what a change costs; then it stays level.
    await elapse(6000, media);
    const learnedRates = rateChanges(media);
    const drifts: number[] = [];
    for (let i = 0; i < 60; i += 1) {
      await elapse(100, media);
      drifts.push(Math.abs(driftFrom(media, status, at)));
    }
    expect(engine.debug().latencySec.nudgeEnd).toBeGreaterThan(0.02);
    expect(Math.max(...drifts)).toBeLessThan(0.03);
    expect(rateChanges(media) - learnedRates).toBeLessThanOrEqual(2);
    expect(rateChanges(media) - ratesBefore).toBeLessThanOrEqual(8);
    expect(seeks(media)).toBe(seeksBefore);
  });

  it('does not take a loss far beyond what a rate change costs (a freeze in the same readings) for its cost', async () => {
    const { media, engine } = await playingWithDrift(-0.06, (m) => {
      m.rateChangeStallMs = 140;
    });
    await elapse(6000, media);
    expect(rateChanges(media)).toBeGreaterThan(0);
    expect(engine.debug().latencySec.nudgeEnd).toBeLessThanOrEqual(0.08);
  });

  it('publishes the room rate, not the nudged one, when the user acts during a nudge', async () => {
    const { media, transport } = await playingWithDrift(-0.06);
    await elapse(400, media);
    expect(media.playbackRate).not.toBe(1);
    media.pause(); // the user
    await elapse(10, media);
    expect(transport.statuses).toHaveLength(1);
    expect(transport.statuses[0]).toMatchObject({ isPlaying: false, playbackRate: 1 });
  });

  it('publishes a user rate change made during a nudge, and nudges around the new rate after', async () => {
    const { media, transport } = await playingWithDrift(-0.06);
    await elapse(400, media);
    expect(media.playbackRate).not.toBe(1);
    media.playbackRate = 1.5; // the user
    await elapse(10, media);
    expect(transport.statuses).toHaveLength(1);
    expect(transport.statuses[0].playbackRate).toBe(1.5);
    await elapse(2000, media);
    expect(media.playbackRate).toBeGreaterThanOrEqual(1.5 * 0.95);
    expect(media.playbackRate).toBeLessThanOrEqual(1.5 * 1.05);
  });
});

describe('no echo', () => {
  it('a session of remote actions and corrections fires every kind of media event and publishes none of them', async () => {
    const media = await readyMedia();
    media.rateStepMs = 25;
    const transport = new RecordingTransport();
    const engine = makeEngine(media, transport);
    engine.onRemoteStatus({ isPlaying: true, currentTime: 3, playbackRate: 1 }); // scheduled start: pause, seek, play
    await elapse(1500, media);
    media.hiccup(60); // nudge: ratechange away from 1 and back
    await elapse(3000, media);
    engine.onRemoteStatus({ isPlaying: true, currentTime: 40, playbackRate: 1 }); // remote seek
    await elapse(1500, media);
    engine.onRemoteStatus({ isPlaying: true, currentTime: 41.5, playbackRate: 1.5 }); // remote rate
    await elapse(1500, media);
    engine.onRemoteStatus({ isPlaying: false, currentTime: 43, playbackRate: 1.5 }); // remote pause
    await elapse(500, media);
    for (const event of ['play', 'pause', 'seeked', 'ratechange']) expect(media.fired).toContain(event);
    expect(media.fired.filter((event) => event === 'ratechange').length).toBeGreaterThanOrEqual(3);
    expect(transport.statuses).toEqual([]);
  });
});

describe('after a remote action', () => {
  it('makes at most one hard seek for a remote seek, then reaches the room by nudging, even on a slow element', async () => {
    const media = await readyMedia();
    media.bufferedSeekDelayMs = 140; // slower than the default guess: the seek lands behind
    const transport = new RecordingTransport();
    const engine = makeEngine(media, transport);
    engine.onRemoteStatus({ isPlaying: true, currentTime: 5, playbackRate: 1 });
    await elapse(2000, media);
    const before = seeks(media);
    const status = { isPlaying: true, currentTime: 60, playbackRate: 1 };
    const at = Date.now();
    engine.onRemoteStatus(status);
    await elapse(6000, media);
    expect(seeks(media) - before).toBe(1);
    expect(Math.abs(driftFrom(media, status, at))).toBeLessThan(0.01);
  });

  it('learns the seek latency: the next remote seek lands within 10 ms', async () => {
    const media = await readyMedia();
    media.bufferedSeekDelayMs = 140;
    const engine = makeEngine(media, new RecordingTransport());
    engine.onRemoteStatus({ isPlaying: true, currentTime: 5, playbackRate: 1 });
    await elapse(1000, media);
    engine.onRemoteStatus({ isPlaying: true, currentTime: 60, playbackRate: 1 });
    await elapse(3000, media);
    const status = { isPlaying: true, currentTime: 30, playbackRate: 1 };
    const at = Date.now();
    engine.onRemoteStatus(status);
    await elapse(400, media); // landed and settled, before any nudge could have fixed it
    expect(Math.abs(driftFrom(media, status, at))).toBeLessThan(0.01);
  });

  it('learns the element’s own start latency: after one start, the next starts exactly', async () => {
    const media = await readyMedia();
    media.runDelayMs = 130;
    const engine = makeEngine(media, new RecordingTransport());
    engine.onRemoteStatus({ isPlaying: true, currentTime: 5, playbackRate: 1 });
    await elapse(1000, media);
    engine.onRemoteStatus({ isPlaying: false, currentTime: 7, playbackRate: 1 });
    await elapse(200, media);
    const status = { isPlaying: true, currentTime: 20, playbackRate: 1 };
    const at = Date.now();
    engine.onRemoteStatus(status);
    await elapse(450, media); // started and settled, before any nudge could have fixed it
    expect(Math.abs(driftFrom(media, status, at))).toBeLessThan(0.005);
  });

  it('retries a scheduled start once when the element started much later than learned (a loaded machine), instead of nudging for seconds', async () => {
    const media = await readyMedia();
    const engine = makeEngine(media, new RecordingTransport());
    engine.onRemoteStatus({ isPlaying: true, currentTime: 5, playbackRate: 1 });
    await elapse(2000, media);
    // The machine slows down: play() now takes 500 ms to run the clock, not the 60 ms learned.
    media.runDelayMs = 500;
    const before = seeks(media);
    const status = { isPlaying: true, currentTime: 40, playbackRate: 1 };
    const at = Date.now();
    engine.onRemoteStatus(status);
    const drifts: number[] = [];
    const paused: boolean[] = [];
    for (let i = 0; i < 30; i++) {
      await elapse(100, media);
      drifts.push(driftFrom(media, status, at));
      paused.push(media.paused);
    }
    // The first start lands about 0.44 s behind (a 5 % nudge would need about 9 s for that); the
    // retry runs it faster (it has the data) rather than pausing it to start again, and it is level
    // well within 1.5 s of the action.
    expect(Math.min(...drifts)).toBeLessThan(-0.3);
    expect(seeks(media) - before).toBe(1);
    expect(paused.slice(paused.indexOf(false))).not.toContain(true);
    expect(Math.abs(drifts[14])).toBeLessThan(0.01);
    // Only once per action: later misses are nudged, not seeked.
    await elapse(6000, media);
    expect(seeks(media) - before).toBe(1);
  });

  it('seeks from 0.1 s after a remote action but only nudges a smaller error', async () => {
    const media = await readyMedia();
    const engine = makeEngine(media, new RecordingTransport());
    engine.onRemoteStatus({ isPlaying: true, currentTime: 5, playbackRate: 1 });
    await elapse(2000, media);
    const before = seeks(media);
    engine.onRemoteStatus({ isPlaying: true, currentTime: media.currentTime + 0.06, playbackRate: 1 });
    await elapse(500, media);
    expect(seeks(media)).toBe(before);
    expect(media.playbackRate).toBeGreaterThan(1);
    engine.onRemoteStatus({ isPlaying: true, currentTime: media.currentTime + 0.2, playbackRate: 1 });
    await elapse(500, media);
    expect(seeks(media)).toBe(before + 1);
  });

  it("a person's pause pressed right after their own play, whose start missed, reaches the room (it was taken for a play of the paused element)", async () => {
    const media = await readyMedia();
    const transport = new RecordingTransport();
    const engine = makeEngine(media, transport);
    engine.onRemoteStatus({ isPlaying: false, currentTime: 5, playbackRate: 1 });
    await elapse(1000, media);
    // play() now takes 250 ms to run the clock, not the 60 ms learned: the common start misses.
    media.runDelayMs = 250;
    media.gesture = true;
    await media.play();
    media.gesture = false;
    await elapse(400, media);
    // The person presses the button that has just turned to "pause"; media-chrome's button plays a
    // paused element and pauses a playing one.
    media.gesture = true;
    if (media.paused) await media.play();
    else media.pause();
    media.gesture = false;
    await elapse(500, media);
    expect(transport.statuses.map((status) => status.isPlaying)).toEqual([true, false]);
  });

  it('starts into unbuffered media on time: it seeks ahead, waits for the data, and plays when the room arrives', async () => {
    const media = await readyMedia({ buffered: false });
    media.seekDelayMs = 350;
    const transport = new RecordingTransport();
    const engine = makeEngine(media, transport);
    const status = { isPlaying: true, currentTime: 42, playbackRate: 1 };
    const at = Date.now();
    engine.onRemoteStatus(status);
    await elapse(1500, media);
    expect(media.paused).toBe(false);
    expect(seeks(media)).toBe(1);
    expect(Math.abs(driftFrom(media, status, at))).toBeLessThan(0.005);
    expect(transport.statuses).toEqual([]);
  });
});

describe('buffering', () => {
  it('a stall never pauses the room nor sends STATUS; afterwards the element catches up with one seek when far', async () => {
    const media = await readyMedia();
    const transport = new RecordingTransport();
    const engine = makeEngine(media, transport);
    const status = { isPlaying: true, currentTime: 10, playbackRate: 1 };
    const at = Date.now();
    engine.onRemoteStatus(status);
    await elapse(1500, media);
    const before = seeks(media);
    media.stall(600);
    await elapse(300, media);
    expect(engine.indicator().state).toBe('out-of-sync');
    await elapse(2000, media);
    expect(transport.statuses).toEqual([]);
    expect(media.paused).toBe(false);
    expect(seeks(media)).toBe(before + 1);
    expect(Math.abs(driftFrom(media, status, at))).toBeLessThan(0.01);
    expect(engine.indicator().state).toBe('in-sync');
  });

  it('after a short stall it catches up by nudging, without a seek', async () => {
    const media = await readyMedia();
    const transport = new RecordingTransport();
    const engine = makeEngine(media, transport);
    const status = { isPlaying: true, currentTime: 10, playbackRate: 1 };
    const at = Date.now();
    engine.onRemoteStatus(status);
    await elapse(1500, media);
    const before = seeks(media);
    media.stall(30); // + the 40 ms the clock needs to restart: 70 ms behind
    await elapse(3000, media);
    expect(seeks(media)).toBe(before);
    expect(transport.statuses).toEqual([]);
    expect(Math.abs(driftFrom(media, status, at))).toBeLessThan(0.01);
  });
});

describe('live movies', () => {
  it('follow play/pause only: no position sync, no nudges', async () => {
    const media = await readyMedia();
    media.duration = Infinity;
    const engine = makeEngine(media, new RecordingTransport(), { live: true });
    engine.onRemoteStatus({ isPlaying: true, currentTime: 300, playbackRate: 2 });
    await elapse(2000, media);
    expect(media.paused).toBe(false);
    expect(media.currentTime).toBeLessThan(3);
    expect(media.playbackRate).toBe(1);
    expect(seeks(media)).toBe(0);
    expect(engine.indicator()).toEqual({ state: 'live', driftMs: null });
    engine.onRemoteStatus({ isPlaying: false, currentTime: 0, playbackRate: 1 });
    await elapse(10, media);
    expect(media.paused).toBe(true);
  });
});

describe('two clients through a room (no ping-pong)', () => {
  async function clients(connections: FakeConnection[], nows: Array<() => number> = []) {
    const room = new FakeRoom();
    const media: FakeMedia[] = [];
    const list: SyncEngine[] = [];
    for (const [i, connection] of connections.entries()) {
      const m = await readyMedia();
      const now = nows[i] ?? Date.now;
      const clock = new ServerClock(now);
      const engine = makeEngine(m, room.transport({ ...connection, clock }), { clock, now, schedule: { refreshMs: 12_000 } });
      room.attach(engine);
      media.push(m);
      list.push(engine);
    }
    list.forEach((engine) => engine.setConnected(true));
    await elapse(1200, ...media); // the SYNC burst
    return { room, media, engines: list };
  }

  it('B follows A’s play, seek and pause, and only A’s actions reach the room', async () => {
    const { room, media } = await clients([{}, {}]);
    const [a, b] = media;

    await a.play();
    await elapse(1000, a, b);
    expect(b.paused).toBe(false);
    expect(Math.abs(a.currentTime - b.currentTime)).toBeLessThan(0.01);

    a.currentTime = 20;
    await elapse(1000, a, b);
    expect(b.currentTime).toBeGreaterThan(20);
    expect(Math.abs(a.currentTime - b.currentTime)).toBeLessThan(0.01);

    a.pause();
    await elapse(500, a, b);
    expect(b.paused).toBe(true);
    expect(b.currentTime).toBe(a.currentTime);

    expect(room.statusLog.map((entry) => entry.from)).toEqual([0, 0, 0]);
    await elapse(15_000, a, b);
    expect(room.statusLog).toHaveLength(3);
  });

  it('a pause and resume leave both elements together although Chromium resumes ~80 ms past a reported pause position', async () => {
    const { media } = await clients([{}, {}]);
    const [a, b] = media;
    a.pauseOvershootMs = 80;
    b.pauseOvershootMs = 80;
    await a.play();
    await elapse(2000, a, b);
    a.pause();
    await elapse(1000, a, b);
    expect(b.currentTime).toBe(a.currentTime);
    await a.play();
    await elapse(300, a, b);
    expect(Math.abs(a.currentTime - b.currentTime)).toBeLessThan(0.01);
  });

  it('a rate change travels once', async () => {
    const { room, media } = await clients([{}, {}]);
    const [a, b] = media;
    a.playbackRate = 1.5;
    await elapse(300, a, b);
    expect(b.playbackRate).toBe(1.5);
    expect(room.statusLog).toHaveLength(1);
  });

  it('a rate change while playing is taken by everyone at one instant: under 30 ms apart, no seek, even 100 ms away', async () => {
    const { room, media, engines: list } = await clients([{}, { upMs: 100, downMs: 100 }]);
    const [a, b] = media;
    await a.play();
    await elapse(3000, a, b);
    const seeksBefore = [seeks(a), seeks(b)];
    for (const rate of [1.5, 1]) {
      a.playbackRate = rate; // the user
      const apart: number[] = [];
      for (let t = 0; t < 2000; t += 10) {
        await elapse(10, a, b);
        apart.push(Math.abs(a.currentTime - b.currentTime));
      }
      // Without the common instant: 53 ms apart for a second (B took the rate a one-way delay late).
      expect(Math.max(...apart)).toBeLessThan(0.03);
      expect(a.playbackRate).toBe(rate);
      expect(b.playbackRate).toBeCloseTo(rate, 1);
      expect(Math.abs(a.currentTime - room.position())).toBeLessThan(0.015);
    }
    expect([seeks(a), seeks(b)]).toEqual(seeksBefore);
    expect(list[1].debug().decisions.map((d) => d.kind)).toContain('rate');
  });

  it('a client whose clock is 5 s off sends statuses the server credits correctly', async () => {
    for (const skewMs of [5000, -5000]) {
      const { room, media, engines: list } = await clients([{ upMs: 5, downMs: 5 }, { upMs: 5, downMs: 5 }], [() => Date.now() + skewMs]);
      const [a, b] = media;
      expect(Math.abs(list[0].clock.serverNow() - Date.now())).toBeLessThanOrEqual(1);
      await a.play(); // the skewed user
      await elapse(2000, a, b);
      expect(Math.abs(a.currentTime - room.position())).toBeLessThan(0.015);
      expect(Math.abs(a.currentTime - b.currentTime)).toBeLessThan(0.015);
      a.currentTime = 30;
      await elapse(2000, a, b);
      expect(Math.abs(a.currentTime - b.currentTime)).toBeLessThan(0.015);
      expect(destroyEngines()).toBe(0);
    }
  });

  it('a busy page that handles a STATUS 120 ms late still starts with the others: the SYNC confirmation puts it right', async () => {
    const { room, media } = await clients([{}, { statusLagMs: 120 }]);
    const [a, b] = media;
    const seeksBefore = seeks(b);
    await a.play();
    await elapse(1500, a, b);
    expect(Math.abs(a.currentTime - b.currentTime)).toBeLessThan(0.015);
    expect(Math.abs(b.currentTime - room.position())).toBeLessThan(0.015);
    expect(seeks(b) - seeksBefore).toBeLessThanOrEqual(1);
  });

  it('a member whose STATUS comes after the common start starts at once and catches up by rate, without a seek', async () => {
    const { room, media } = await clients([{}, { upMs: 300, downMs: 300 }]);
    const [a, b] = media;
    a.currentTime = 5;
    await elapse(1000, a, b);
    const seeksBefore = seeks(b);
    const clickAt = Date.now();
    await a.play();
    // The room starts 0.2 s after the click; B hears of it 0.3 s after: 0.1 s late, plus its start latency.
    const rates: number[] = [];
    let inStepAtMs: number | null = null;
    for (let t = 0; t < 2000; t += 10) {
      await elapse(10, a, b);
      rates.push(b.playbackRate);
      if (inStepAtMs === null && !b.paused && Math.abs(a.currentTime - b.currentTime) < 0.03) inStepAtMs = Date.now() - clickAt;
    }
    expect(seeks(b) - seeksBefore).toBe(0);
    expect(Math.max(...rates)).toBeGreaterThan(1.1);
    expect(b.playbackRate).toBe(1);
    expect(inStepAtMs).not.toBeNull();
    expect(inStepAtMs!).toBeLessThan(1000);
    expect(Math.abs(a.currentTime - b.currentTime)).toBeLessThan(0.015);
    expect(Math.abs(b.currentTime - room.position())).toBeLessThan(0.015);
  });

  it('a catch-up whose start takes far longer than learned is re-timed from the measured gap: level, without a seek', async () => {
    const { room, media } = await clients([{}, { upMs: 300, downMs: 300 }]);
    const [a, b] = media;
    a.currentTime = 5;
    await elapse(1000, a, b);
    // B learned a 60 ms start; this one takes 300 ms, so B is 0.1 s late and then 0.3 s more.
    b.runDelayMs = 300;
    const seeksBefore = seeks(b);
    await a.play();
    const rates: number[] = [];
    for (let t = 0; t < 3000; t += 10) {
      await elapse(10, a, b);
      rates.push(b.playbackRate);
    }
    expect(seeks(b) - seeksBefore).toBe(0);
    // The rate rose past the 1.2× the first 0.1 s asked for, to close the 0.4 s in half a second.
    expect(Math.max(...rates)).toBeGreaterThan(1.5);
    expect(b.playbackRate).toBe(1);
    expect(Math.abs(a.currentTime - b.currentTime)).toBeLessThan(0.015);
    expect(Math.abs(b.currentTime - room.position())).toBeLessThan(0.015);
  });

  it('a scheduled start whose seek took longer than its lead catches up by rate instead of seeking again', async () => {
    const media = await readyMedia();
    const engine = makeEngine(media, new RecordingTransport());
    engine.onRemoteStatus({ isPlaying: true, currentTime: 5, playbackRate: 1 });
    await elapse(2000, media);
    // The machine slows down: a seek inside the buffer now takes 350 ms, not the 15 ms learned.
    media.bufferedSeekDelayMs = 350;
    const before = seeks(media);
    const status = { isPlaying: true, currentTime: 40, playbackRate: 1 };
    const at = Date.now();
    engine.onRemoteStatus(status);
    await elapse(1500, media);
    expect(seeks(media) - before).toBe(1);
    expect(engine.debug().decisions.map((d) => d.kind)).toContain('catch-up');
    expect(Math.abs(driftFrom(media, status, at))).toBeLessThan(0.03);
    await elapse(1500, media);
    expect(Math.abs(driftFrom(media, status, at))).toBeLessThan(0.01);
    expect(media.playbackRate).toBe(1);
  });

  it("a late timer's start that catches up still learns how long the clock stood still (WebKitGTK under load), so the next start is on time", async () => {
    const media = await readyMedia();
    const engine = makeEngine(media, new RecordingTransport());
    engine.onRemoteStatus({ isPlaying: true, currentTime: 5, playbackRate: 1 });
    await elapse(2000, media);
    // The page slows down: play() now takes 400 ms to run the clock, and the start's timer runs late.
    media.runDelayMs = 400;
    engine.onRemoteStatus({ isPlaying: true, currentTime: 40, playbackRate: 1 });
    await elapse(30, media);
    jest.setSystemTime(Date.now() + 150);
    await elapse(3000, media);
    expect(engine.debug().decisions.map((d) => d.kind)).toContain('catch-up');
    expect(engine.debug().latencySec.start).toBeGreaterThan(0.3);
    // The next start leads by what was learned: level at once, no catch-up, no second seek.
    const seeksBefore = seeks(media);
    const status = { isPlaying: true, currentTime: 80, playbackRate: 1 };
    const at = Date.now();
    engine.onRemoteStatus(status);
    await elapse(1500, media);
    expect(Math.abs(driftFrom(media, status, at))).toBeLessThan(0.03);
    expect(seeks(media) - seeksBefore).toBe(1);
    expect(engine.debug().decisions.filter((d) => d.atMs >= at).map((d) => d.kind)).not.toContain('catch-up');
  });

  it('a start whose timer a busy page runs late catches up by rate instead of seeking again', async () => {
    const media = await readyMedia();
    const engine = makeEngine(media, new RecordingTransport());
    engine.onRemoteStatus({ isPlaying: true, currentTime: 5, playbackRate: 1 });
    await elapse(2000, media);
    const before = seeks(media);
    const status = { isPlaying: true, currentTime: 40, playbackRate: 1 };
    const at = Date.now();
    engine.onRemoteStatus(status);
    await elapse(30, media);
    // The seek has landed and the element waits for the room, when the page is blocked for 150 ms:
    // the wall clock (and the room) move on, and the start's timer runs that much late.
    expect(media.paused).toBe(true);
    jest.setSystemTime(Date.now() + 150);
    await elapse(1500, media);
    expect(seeks(media) - before).toBe(1);
    expect(engine.debug().decisions.map((d) => d.kind)).toContain('catch-up');
    expect(Math.abs(driftFrom(media, status, at))).toBeLessThan(0.01);
    expect(media.playbackRate).toBe(1);
  });

  /**
   * Milliseconds from now until A and B are within 100 ms of each other and stay so for a second
   * (the benchmark's "in step after an action"), sampled every 10 ms over `windowMs`.
   */
  async function inStepAfter(a: FakeMedia, b: FakeMedia, windowMs = 3000): Promise<number> {
    let since: number | null = null;
    for (let t = 0; t <= windowMs; t += 10) {
      if (Math.abs(a.currentTime - b.currentTime) < 0.1) since ??= t;
      else since = null;
      if (since !== null && t - since >= 1000) return since;
      await elapse(10, a, b);
    }
    return Infinity;
  }

  it('in step within 250 ms of a play or a seek, whoever acts, with one member 150 ms away', async () => {
    const { media } = await clients([{ upMs: 2, downMs: 2 }, { upMs: 150, downMs: 150 }]);
    const [a, b] = media;
    a.currentTime = 10; // a paused room, moved to 10 s
    await elapse(1000, a, b);

    const delays: Record<string, number> = {};
    await a.play();
    delays.play = await inStepAfter(a, b);
    a.currentTime = 30; // a first seek teaches B its seek latency (before it, B leads a joiner's 0.2 s)
    await elapse(2000, a, b);
    a.currentTime = 40; // a seek while playing
    delays.seek = await inStepAfter(a, b);
    b.pause();
    await elapse(1000, a, b);
    await b.play(); // the far member resumes
    delays.farPlay = await inStepAfter(a, b);
    b.currentTime = 20;
    delays.farSeek = await inStepAfter(a, b);
    for (const [action, ms] of Object.entries(delays)) expect([action, ms <= 250]).toEqual([action, true]);
    // and then exact, not merely within 100 ms
    await elapse(2000, a, b);
    expect(Math.abs(a.currentTime - b.currentTime)).toBeLessThan(0.01);
  });

  it('the one who plays waits no longer than the lead; a member whose STATUS came late still starts with the others', async () => {
    const { room, media } = await clients([{}, { statusLagMs: 100 }]);
    const [a, b] = media;
    a.currentTime = 5;
    await elapse(1000, a, b);
    const clickAt = Date.now();
    await a.play();
    let startedAt: number | null = null;
    for (let t = 0; t < 1000 && startedAt === null; t += 10) {
      await elapse(10, a, b);
      if (a.currentTime > 5.001) startedAt = Date.now();
    }
    expect(startedAt! - clickAt).toBeLessThanOrEqual(COMMON_LEAD_SEC * 1000 + 20);
    await elapse(500, a, b);
    expect(Math.abs(a.currentTime - b.currentTime)).toBeLessThan(0.015);
    expect(Math.abs(a.currentTime - room.position())).toBeLessThan(0.015);
  });

  it('a client 150 ms away holds the room as tightly as a near one', async () => {
    const { room, media } = await clients([{ upMs: 1, downMs: 1 }, { upMs: 150, downMs: 150 }]);
    const [a, b] = media;
    await a.play();
    await elapse(3000, a, b);
    a.currentTime = 40;
    await elapse(3000, a, b);
    const samples: number[] = [];
    for (let i = 0; i < 50; i += 1) {
      await elapse(100, a, b);
      samples.push(Math.abs(a.currentTime - b.currentTime));
    }
    expect(Math.max(...samples)).toBeLessThan(0.02);
    expect(Math.abs(b.currentTime - room.position())).toBeLessThan(0.02);
  });
});

describe('SYNC', () => {
  it('the reply is placed at the server time it carries', async () => {
    const media = await readyMedia();
    const transport = new RecordingTransport();
    const engine = makeEngine(media, transport);
    engine.setConnected(true);
    expect(transport.syncs).toBe(1);
    jest.advanceTimersByTime(200); // round trip 200 ms; the server answered at its midpoint
    engine.onSyncReply({ isPlaying: true, currentTime: 30, playbackRate: 2 }, Date.now() - 100);
    await elapse(400, media);
    // 30 + 0.1 s × 2 at the reply, then 0.4 s × 2
    expect(Math.abs(media.currentTime - (30 + 0.5 * 2))).toBeLessThan(0.01);
  });

  it('ignores the reply to a SYNC sent before the user’s own STATUS', async () => {
    const media = await readyMedia();
    const transport = new RecordingTransport();
    const engine = makeEngine(media, transport);
    engine.onRemoteStatus({ isPlaying: true, currentTime: 0, playbackRate: 1 });
    await elapse(500, media);
    engine.setConnected(true); // SYNC out
    media.pause(); // the user, before the reply
    await elapse(10, media);
    engine.onSyncReply({ isPlaying: true, currentTime: 0.5, playbackRate: 1 }, Date.now()); // the room before the pause
    await elapse(10, media);
    expect(media.paused).toBe(true);
    expect(transport.statuses).toHaveLength(1);
  });

  it('a SYNC reply sent before a scrubbing seek was published does not undo the seek', async () => {
    const media = await readyMedia();
    const transport = new RecordingTransport();
    const engine = makeEngine(media, transport);
    engine.onRemoteStatus({ isPlaying: true, currentTime: 10, playbackRate: 1 });
    await elapse(1000, media);
    media.currentTime = 40; // the user starts scrubbing: published at once
    await elapse(50, media);
    media.currentTime = 60; // ...and goes on: this one waits for the burst to end
    await elapse(20, media);
    engine.setConnected(true); // SYNC out before the trailing STATUS
    engine.onSyncReply({ isPlaying: true, currentTime: 40.07, playbackRate: 1 }, Date.now()); // the server knows only the first seek
    await elapse(400, media);
    expect(media.currentTime).toBeGreaterThan(60);
    expect(transport.statuses.map((status) => Math.floor(status.currentTime))).toEqual([39, 60]);
  });

  it('the refresh SYNC finds a remote action this client missed and corrects it', async () => {
    const room = new FakeRoom();
    const media = await readyMedia();
    const engine = makeEngine(media, room.transport(), { schedule: { refreshMs: 12_000 } });
    room.attach(engine);
    room.status = { isPlaying: true, currentTime: 0, playbackRate: 1, lastUpdateMs: Date.now() };
    engine.setConnected(true);
    await elapse(2000, media);
    // The room jumps without this client hearing the STATUS.
    room.status = { isPlaying: true, currentTime: 50, playbackRate: 1, lastUpdateMs: Date.now() };
    await elapse(14_000, media);
    expect(Math.abs(media.currentTime - room.position())).toBeLessThan(0.01);
  });

  it('the sync button resumes playback inside the click when the room plays', async () => {
    const media = await readyMedia();
    media.autoplay = 'blocked';
    const outcomes: AutoplayOutcome[] = [];
    const transport = new RecordingTransport();
    const engine = makeEngine(media, transport, { onAutoplay: (outcome) => outcomes.push(outcome) });
    engine.setConnected(true);
    engine.onRemoteStatus({ isPlaying: true, currentTime: 0.02, playbackRate: 1 });
    await elapse(400, media);
    expect(outcomes).toEqual(['blocked']);
    expect(engine.indicator().state).toBe('out-of-sync');
    media.autoplay = 'allowed'; // the click is a user gesture
    const syncs = transport.syncs;
    engine.manualSync();
    await elapse(10, media);
    expect(media.paused).toBe(false);
    expect(transport.syncs).toBe(syncs + 1);
    expect(transport.statuses).toEqual([]);
  });

  it('bursts after every (re)connect, and resyncs a target that moved while disconnected', async () => {
    const room = new FakeRoom();
    const media = await readyMedia();
    const engine = makeEngine(media, room.transport(), { schedule: { refreshMs: 12_000 } });
    room.attach(engine);
    room.status = { isPlaying: true, currentTime: 0, playbackRate: 1, lastUpdateMs: Date.now() };
    engine.setConnected(true);
    await elapse(1500, media);
    expect(room.syncCount).toBe(4);
    engine.setConnected(false);
    room.status = { isPlaying: true, currentTime: 30, playbackRate: 1, lastUpdateMs: Date.now() };
    await elapse(2000, media);
    engine.setConnected(true);
    await elapse(1500, media);
    expect(room.syncCount).toBe(8);
    expect(Math.abs(media.currentTime - room.position())).toBeLessThan(0.01);
  });

  it('costs a 200-viewer room under 20 SYNC/s: one client averages under 0.1 SYNC/s over a 10-minute session', async () => {
    const transport = new RecordingTransport();
    const media = await readyMedia();
    const engine = makeEngine(media, transport, { schedule: {}, tickMs: 60_000 });
    engine.setConnected(true);
    const sessionMs = 10 * 60_000;
    jest.advanceTimersByTime(sessionMs);
    const perSecond = transport.syncs / (sessionMs / 1000);
    expect(perSecond).toBeLessThan(0.1);
    expect(perSecond * 200).toBeLessThan(20);
    expect(transport.syncs).toBeGreaterThanOrEqual(4 + 40); // the burst, then the refresh kept running
  });
});

describe('late joiner', () => {
  it('waits for metadata, then starts where the room is by then', async () => {
    const media = new FakeMedia();
    media.runDelayMs = 40;
    const transport = new RecordingTransport();
    const engine = makeEngine(media, transport);
    const requestedAtMs = Date.now();
    jest.advanceTimersByTime(10);
    engine.loadTarget({ status: { isPlaying: true, currentTime: 42, playbackRate: 1 }, requestedAtMs, receivedAtMs: Date.now() });
    await elapse(1500, media);
    expect(media.currentTime).toBe(0);
    media.seekDelayMs = 250;
    media.loadMetadata();
    await elapse(1500, media);
    expect(media.paused).toBe(false);
    expect(Math.abs(media.currentTime - (42 + (Date.now() - requestedAtMs - 5) / 1000))).toBeLessThan(0.01);
    expect(transport.statuses).toEqual([]);
  });

  it("tells what it follows with the time the HTTP status held, not the time it took it (the player's start position)", async () => {
    const media = new FakeMedia();
    const targets: [number, number][] = [];
    const requestedAtMs = Date.now();
    const engine = makeEngine(media, new RecordingTransport(), { onTarget: (status, atMs) => targets.push([status.currentTime, atMs]) });
    // The answer came 300 ms after the request; the hall's code took it 1.5 s later (a slow phone).
    jest.advanceTimersByTime(1800);
    engine.loadTarget({ status: { isPlaying: true, currentTime: 42, playbackRate: 1 }, requestedAtMs, receivedAtMs: requestedAtMs + 300 });
    expect(targets).toEqual([[42, requestedAtMs + 150]]);
    const before = Date.now();
    engine.onRemoteStatus({ isPlaying: false, currentTime: 50, playbackRate: 1 });
    expect(targets[1][0]).toBe(50);
    expect(targets[1][1]).toBeLessThanOrEqual(before);
    expect(targets[1][1]).toBeGreaterThan(before - 1000);
  });

  it('starts paused at the status position when the room is paused', async () => {
    const media = new FakeMedia();
    const engine = makeEngine(media, new RecordingTransport());
    engine.loadTarget({ status: { isPlaying: false, currentTime: 42, playbackRate: 1 }, requestedAtMs: Date.now(), receivedAtMs: Date.now() });
    await elapse(1500, media);
    media.loadMetadata();
    await elapse(10, media);
    expect(media.currentTime).toBe(42);
    expect(media.paused).toBe(true);
  });

  it('ignores an HTTP status requested before a newer socket status arrived', async () => {
    const media = await readyMedia();
    const engine = makeEngine(media, new RecordingTransport());
    const requestedAtMs = Date.now();
    jest.advanceTimersByTime(50);
    engine.onRemoteStatus({ isPlaying: false, currentTime: 80, playbackRate: 1 });
    engine.loadTarget({ status: { isPlaying: false, currentTime: 10, playbackRate: 1 }, requestedAtMs, receivedAtMs: Date.now() });
    await elapse(20, media);
    expect(media.currentTime).toBe(80);
  });
});

describe('a source that cannot seek (a host without HTTP Range: seekable is [0, 0])', () => {
  /** A loaded element at 0 whose every seek would land on 0, with the whole file downloaded. */
  async function unseekable(): Promise<FakeMedia> {
    const media = await readyMedia();
    media.seekableRanges = [[0, 0]];
    return media;
  }

  it('a late joiner never moves the room back: it waits, paused, and says it cannot seek there', async () => {
    const media = await unseekable();
    const transport = new RecordingTransport();
    const engine = makeEngine(media, transport);
    engine.setConnected(true);
    engine.onRemoteStatus({ isPlaying: true, currentTime: 12, playbackRate: 1 });
    await elapse(3000, media);
    expect(transport.statuses).toEqual([]);
    expect(seeks(media)).toBe(0);
    expect(media.paused).toBe(true);
    expect(media.currentTime).toBe(0);
    expect(engine.indicator().state).toBe('cannot-seek');
    expect(engine.debug().phase).toBe('unreachable');
    // The room pauses back at the start: within reach again.
    engine.onRemoteStatus({ isPlaying: false, currentTime: 0, playbackRate: 1 });
    await elapse(200, media);
    expect(engine.indicator().state).toBe('in-sync');
  });

  it('an element behind by a second catches up by rate, without a seek, and never publishes', async () => {
    const media = await unseekable();
    const transport = new RecordingTransport();
    const engine = makeEngine(media, transport);
    const status = { isPlaying: true, currentTime: 1, playbackRate: 1 };
    const at = Date.now();
    engine.onRemoteStatus(status);
    await elapse(2500, media);
    expect(seeks(media)).toBe(0);
    expect(media.paused).toBe(false);
    expect(Math.abs(driftFrom(media, status, at))).toBeLessThan(0.05);
    expect(transport.statuses).toEqual([]);
  });

  it("an element a little ahead waits for the room where it is", async () => {
    const media = await readyMedia();
    await media.play();
    await elapse(2000, media);
    media.pause();
    await elapse(10, media);
    media.seekableRanges = [[0, 0]];
    const engine = makeEngine(media, new RecordingTransport());
    const status = { isPlaying: true, currentTime: 1.2, playbackRate: 1 };
    const at = Date.now();
    engine.onRemoteStatus(status);
    await elapse(2000, media);
    expect(seeks(media)).toBe(0);
    expect(media.paused).toBe(false);
    expect(Math.abs(driftFrom(media, status, at))).toBeLessThan(0.05);
  });

  it("a person's play starts the room from where the element is, and their pause keeps it there: no seek to 0", async () => {
    const media = await unseekable();
    const transport = new RecordingTransport();
    const engine = makeEngine(media, transport);
    engine.onRemoteStatus({ isPlaying: false, currentTime: 0, playbackRate: 1 });
    await elapse(100, media);
    await media.play();
    await elapse(3000, media);
    expect(transport.statuses).toEqual([{ isPlaying: true, currentTime: 0, playbackRate: 1 }]);
    media.pause();
    await elapse(200, media);
    expect(transport.statuses).toHaveLength(2);
    expect(transport.statuses[1].currentTime).toBeGreaterThan(2.5);
    expect(media.currentTime).toBeGreaterThan(2.5);
    expect(seeks(media)).toBe(0);
  });
});

describe('another source of the same movie', () => {
  it('goes back to where the room is once the new source has metadata, and publishes nothing', async () => {
    const media = await readyMedia();
    const transport = new RecordingTransport();
    const engine = makeEngine(media, transport);
    const status = { isPlaying: true, currentTime: 10, playbackRate: 1 };
    const at = Date.now();
    engine.onRemoteStatus(status);
    await elapse(1500, media);
    media.swapSource();
    await elapse(300, media);
    media.loadMetadata();
    await elapse(1500, media);
    expect(media.paused).toBe(false);
    expect(Math.abs(driftFrom(media, status, at))).toBeLessThan(0.02);
    expect(transport.statuses).toEqual([]);
  });
});

describe('a viewer without playback control', () => {
  it('gets the room back once per 2 s however often the element changes, so nothing floods the socket', async () => {
    const media = await readyMedia();
    const transport = new RecordingTransport();
    const denied = jest.fn();
    const engine = makeEngine(media, transport, { canControl: false, onControlDenied: denied });
    engine.setConnected(true);
    engine.onRemoteStatus({ isPlaying: false, currentTime: 5, playbackRate: 1 });
    await elapse(100, media);
    const syncsBefore = transport.syncs;
    for (let i = 0; i < 10; i += 1) {
      await media.play(); // a key pressed again and again
      await elapse(50, media);
      media.pause();
      await elapse(50, media);
    }
    expect(denied).toHaveBeenCalledTimes(1);
    expect(transport.syncs - syncsBefore).toBe(1);
    expect(transport.statuses).toEqual([]);
  });
});

describe('autoplay fallback', () => {
  it('mutes and retries when sound is refused', async () => {
    const media = await readyMedia();
    media.autoplay = 'muted-only';
    const outcomes: AutoplayOutcome[] = [];
    const transport = new RecordingTransport();
    const engine = makeEngine(media, transport, { onAutoplay: (outcome) => outcomes.push(outcome) });
    engine.onRemoteStatus({ isPlaying: true, currentTime: 0.02, playbackRate: 1 });
    await elapse(400, media);
    expect(media.muted).toBe(true);
    expect(media.paused).toBe(false);
    expect(outcomes).toEqual(['muted']);
    expect(transport.statuses).toEqual([]);
  });

  it('reports blocked when even muted play is refused, and a later user play is still published', async () => {
    const media = await readyMedia();
    media.autoplay = 'blocked';
    const outcomes: AutoplayOutcome[] = [];
    const transport = new RecordingTransport();
    const engine = makeEngine(media, transport, { onAutoplay: (outcome) => outcomes.push(outcome) });
    engine.onRemoteStatus({ isPlaying: true, currentTime: 0.02, playbackRate: 1 });
    await elapse(400, media);
    expect(outcomes).toEqual(['blocked']);
    expect(media.paused).toBe(true);

    engine.onRemoteStatus({ isPlaying: false, currentTime: 0, playbackRate: 1 });
    media.autoplay = 'allowed';
    await elapse(10, media);
    await media.play(); // the user: the rejected attempts left no "expected play" behind
    await elapse(10, media);
    expect(transport.statuses).toHaveLength(1);
    expect(transport.statuses[0]).toMatchObject({ isPlaying: true, playbackRate: 1 });
    expect(transport.statuses[0].currentTime).toBeLessThan(0.1);
    await elapse(500, media);
    expect(media.paused).toBe(false);
  });
});

describe('no browser moves the room (docs/browsers.md)', () => {
  /** A muted start (sound refused), in step with a playing room, with the browser's autoplay policy on. */
  async function playingMuted(webkitRate: boolean) {
    const media = await readyMedia();
    media.autoplay = 'muted-only';
    media.pausesWhenUnmuted = true;
    media.rateUnmutes = webkitRate;
    const transport = new RecordingTransport();
    const denied = jest.fn();
    const engine = makeEngine(media, transport, { personActive: () => media.gesture, onControlDenied: denied });
    const at = Date.now();
    engine.onRemoteStatus({ isPlaying: true, currentTime: 10, playbackRate: 1 });
    await elapse(1500, media);
    expect(media.muted).toBe(true);
    expect(media.paused).toBe(false);
    return { media, transport, engine, denied, room: { status: { isPlaying: true, currentTime: 10, playbackRate: 1 }, at } };
  }

  it("keeps WebKitGTK's unmute by a rate nudge and the autoplay pause after it from the room, and plays on", async () => {
    const { media, transport, denied } = await playingMuted(true);
    media.clockRate = 1.02; // 2 % fast: the engine nudges the rate, which unmutes it in WebKitGTK
    await elapse(3000, media);
    expect(media.fired.filter((type) => type === 'ratechange').length).toBeGreaterThan(0);
    expect(transport.statuses).toEqual([]);
    expect(denied).not.toHaveBeenCalled();
    expect(media.muted).toBe(true);
    expect(media.paused).toBe(false);
  });

  it("corrects a muted WebKitGTK element by seeks once a rate change unmuted it: no more rate changes, so no more of the browser's pauses, and within 70 ms", async () => {
    const { media, transport, denied, room } = await playingMuted(true);
    media.holdsCurrentData = true;
    media.clockRate = 1.02; // 2 % fast: the engine nudges once, which unmutes it
    for (let waited = 0; rateChanges(media) === 0 && waited < 3000; waited += 10) await elapse(10, media);
    expect(rateChanges(media)).toBe(1);
    media.clockRate = 1.006; // an audio clock 0.6 % fast from now on: 60 ms in 10 s
    await elapse(1000, media);
    const changesBefore = rateChanges(media);
    const pausesBefore = media.fired.filter((type) => type === 'pause').length;
    const seeksBefore = seeks(media);
    let worst = 0;
    for (let i = 0; i < 200; i += 1) {
      await elapse(100, media);
      if (!media.seeking) worst = Math.max(worst, Math.abs(driftFrom(media, room.status, room.at)));
    }
    expect(rateChanges(media) - changesBefore).toBe(0);
    expect(media.fired.filter((type) => type === 'pause').length - pausesBefore).toBe(0);
    // Corrected by seeks that play on: no pause, in which a person's press would play the element.
    expect(seeks(media) - seeksBefore).toBeGreaterThan(0);
    expect(media.muted).toBe(true);
    expect(media.paused).toBe(false);
    expect(transport.statuses).toEqual([]);
    expect(denied).not.toHaveBeenCalled();
    expect(worst).toBeLessThan(0.07);
  });

  it("keeps from the room WebKitGTK's pause of a muted start that catches up by rate (the pipeline unmutes at the play after the engine's own mute)", async () => {
    const media = await readyMedia();
    media.autoplay = 'muted-only';
    media.pausesWhenUnmuted = true;
    media.rateUnmutes = true;
    const transport = new RecordingTransport();
    const denied = jest.fn();
    const engine = makeEngine(media, transport, { personActive: () => media.gesture, onControlDenied: denied });
    engine.onRemoteStatus({ isPlaying: true, currentTime: 5, playbackRate: 1 });
    await elapse(2000, media);
    media.pause(); // set apart: the room pauses, so the next start is a fresh (muted) play()
    engine.onRemoteStatus({ isPlaying: false, currentTime: 20, playbackRate: 1 });
    await elapse(500, media);
    media.gesture = true;
    media.muted = false; // the person unmutes while paused: the next start is refused sound and muted again
    await elapse(100, media);
    media.gesture = false;
    transport.statuses.length = 0;
    // The machine slows down: its start's seek takes longer than the lead, so it catches up by rate.
    media.bufferedSeekDelayMs = 350;
    engine.onRemoteStatus({ isPlaying: true, currentTime: 40, playbackRate: 1 });
    await elapse(3000, media);
    expect(engine.debug().decisions.map((d) => d.kind)).toContain('catch-up');
    expect(media.fired).toContain('pause');
    expect(transport.statuses).toEqual([]);
    expect(denied).not.toHaveBeenCalled();
    expect(media.muted).toBe(true);
    expect(media.paused).toBe(false);
  });

  it("keeps WebKitGTK's start of a paused element its pipeline unmuted from the room: the room's pause holds", async () => {
    const { media, transport, engine, denied } = await playingMuted(true);
    media.playsAfterRateUnmute = true;
    media.clockRate = 1.02; // the engine nudges the rate while the room plays
    for (let waited = 0; media.playbackRate === 1 && waited < 3000; waited += 10) await elapse(10, media);
    expect(media.playbackRate).not.toBe(1);
    // The room pauses while the nudge is in force: the engine takes the rate back on the paused element.
    engine.onRemoteStatus({ isPlaying: false, currentTime: media.currentTime, playbackRate: 1 });
    await elapse(2000, media);
    expect(media.fired).toContain('play');
    expect(transport.statuses).toEqual([]);
    expect(denied).not.toHaveBeenCalled();
    expect(media.paused).toBe(true);
  });

  it("follows a paused room's seek that comes while its own seek to the pause is still in flight (WebKitGTK seeks slowly when paused)", async () => {
    const media = await readyMedia();
    const transport = new RecordingTransport();
    const engine = makeEngine(media, transport);
    engine.onRemoteStatus({ isPlaying: true, currentTime: 10, playbackRate: 1 });
    await elapse(1500, media);
    media.seekDelayMs = 800;
    media.bufferedSeekDelayMs = 800;
    engine.onRemoteStatus({ isPlaying: false, currentTime: 11.2, playbackRate: 1 });
    await elapse(300, media);
    expect(media.seeking).toBe(true);
    engine.onRemoteStatus({ isPlaying: false, currentTime: 20, playbackRate: 1 });
    await elapse(2000, media);
    expect(media.paused).toBe(true);
    expect(media.currentTime).toBeCloseTo(20, 2);
    expect(transport.statuses).toEqual([]);
  });

  it("keeps from the room WebKitGTK's undoing of the engine's pause during a seek that plays on (hls.js): the room's pause holds", async () => {
    const { media, transport, engine, denied } = await playingMuted(true);
    media.holdsCurrentData = true;
    media.resumesAfterPauseInSeek = true;
    media.clockRate = 1.02; // 2 % fast: the engine nudges once, which unmutes it; from then on it corrects by seeks that play on
    for (let waited = 0; rateChanges(media) === 0 && waited < 3000; waited += 10) await elapse(10, media);
    media.bufferedSeekDelayMs = 80;
    media.clockRate = 1.01; // an audio clock 1 % fast from now on: a correction seek every few seconds
    await elapse(1000, media); // long past the unmute, which is not what the next play follows
    for (let waited = 0; !media.seeking && waited < 10_000; waited += 10) await elapse(10, media);
    expect(media.seeking).toBe(true);
    expect(media.paused).toBe(false);
    const pauseAt = media.currentTime;
    const firedBefore = media.fired.length;
    engine.onRemoteStatus({ isPlaying: false, currentTime: pauseAt, playbackRate: 1 }); // the friend pauses
    await elapse(2000, media);
    expect(media.fired.slice(firedBefore)).toContain('play'); // the pipeline played again
    expect(transport.statuses).toEqual([]);
    expect(denied).not.toHaveBeenCalled();
    expect(media.paused).toBe(true);
    expect(media.currentTime).toBeCloseTo(pauseAt, 2);
  });

  it('takes a pause right after an unmute that no person made for the browser’s, not a person’s', async () => {
    const { media, transport, denied } = await playingMuted(false);
    media.muted = false; // a stored volume preference applied without a gesture
    await elapse(2000, media);
    expect(media.fired).toContain('pause');
    expect(transport.statuses).toEqual([]);
    expect(denied).not.toHaveBeenCalled();
    expect(media.paused).toBe(false);
  });

  it("takes WebKit's pause of an audible start that no gesture allowed for the browser's: muted, back to the room, and the room told nothing", async () => {
    const media = await readyMedia();
    media.autoplay = 'muted-only';
    media.admitsSoundUntilRateChange = true; // WebKitGTK lets the unmuted play() through, once
    const transport = new RecordingTransport();
    const autoplay = jest.fn();
    const engine = makeEngine(media, transport, { personActive: () => media.gesture, personHasActed: () => media.everGesture, onAutoplay: autoplay });
    engine.onRemoteStatus({ isPlaying: true, currentTime: 10, playbackRate: 1 });
    await elapse(1500, media);
    expect(media.muted).toBe(false);
    expect(media.paused).toBe(false);
    media.clockRate = 1.02; // 2 % fast: the engine nudges the rate, and the policy pauses the audible element
    for (let waited = 0; !media.fired.includes('pause') && waited < 3000; waited += 10) await elapse(10, media);
    expect(media.fired).toContain('pause');
    await elapse(2000, media);
    expect(transport.statuses).toEqual([]);
    expect(media.muted).toBe(true);
    expect(media.paused).toBe(false);
    expect(autoplay).toHaveBeenCalledWith('muted'); // the hall's Unmute
  });

  it('still tells the room of a pause no gesture made once a person has acted on the page (a media key after a click)', async () => {
    const { media, transport } = await playingSteadily(undefined, { personActive: () => false, personHasActed: () => true });
    media.pause();
    await elapse(200, media);
    expect(transport.statuses.map((status) => status.isPlaying)).toEqual([false]);
  });

  /** Holds HAVE_CURRENT_DATA after its seeks and rate changes, as WebKitGTK's element does. */
  const gstreamer = (media: FakeMedia) => {
    media.holdsCurrentData = true;
  };

  it("joins a playing room in step on WebKitGTK, whose element says `waiting` and HAVE_CURRENT_DATA after every seek and rate change while its clock runs, and stays in the loop", async () => {
    const at = Date.now();
    const { media, engine, transport } = await playingSteadily(gstreamer);
    const status = { isPlaying: true, currentTime: 10, playbackRate: 1 };
    media.clockRate = 1.01; // 1 % fast: the loop must nudge, and each nudge says `waiting`
    await elapse(6000, media);
    expect(rateChanges(media)).toBeGreaterThan(0);
    expect(media.fired).toContain('waiting');
    expect(engine.debug().phase).not.toBe('recovering');
    expect(Math.abs(driftFrom(media, status, at))).toBeLessThan(0.03);
    expect(transport.statuses).toEqual([]);
  });

  it("a person's pause, seek and play on WebKitGTK reach the room, and the play is a common start that starts (HAVE_CURRENT_DATA held after the seek)", async () => {
    const { media, engine, transport } = await playingSteadily(gstreamer);
    media.pause(); // the person
    await elapse(500, media);
    media.currentTime = 30; // the person, on the seek bar
    await elapse(1000, media);
    expect(media.readyState).toBe(2);
    void media.play(); // the person: WebKitGTK's promise never settles from HAVE_CURRENT_DATA
    const playedAt = Date.now();
    await elapse(COMMON_LEAD_SEC * 1000 + 1500, media);
    expect(transport.statuses.map((status) => status.isPlaying)).toEqual([false, false, true]);
    expect(transport.statuses[1].currentTime).toBeCloseTo(30, 2);
    const play = transport.statuses[2];
    expect(media.paused).toBe(false);
    expect(Math.abs(driftFrom(media, play, playedAt))).toBeLessThan(0.03);
    expect(engine.debug().phase).not.toBe('recovering');
  });

  it("follows the room's seek while playing on WebKitGTK and measures again after it (no `playing` follows the seek)", async () => {
    const { media, engine, transport } = await playingSteadily(gstreamer);
    const status = { isPlaying: true, currentTime: 40, playbackRate: 1 };
    const at = Date.now();
    engine.onRemoteStatus(status);
    await elapse(2000, media);
    media.advance(80); // 80 ms ahead, silently: the loop must see it
    await elapse(4000, media);
    expect(Math.abs(driftFrom(media, status, at))).toBeLessThan(0.03);
    expect(engine.debug().phase).toBe('tracking');
    expect(transport.statuses).toEqual([]);
  });

  it('never reads the seekable ranges before the element has metadata (WebKitGTK then takes the position for the duration)', async () => {
    const media = new FakeMedia();
    const engine = makeEngine(media, new RecordingTransport());
    engine.setConnected(true);
    engine.onRemoteStatus({ isPlaying: true, currentTime: 12, playbackRate: 1 });
    await elapse(1000, media);
    expect(media.seekableReadsBeforeMetadata).toBe(0);
    media.loadMetadata();
    await elapse(1000, media);
    expect(media.currentTime).toBeGreaterThan(12);
  });

  it('still tells the room of a person’s pause after their own unmute', async () => {
    const { media, transport } = await playingMuted(false);
    media.gesture = true;
    media.muted = false; // the Unmute button: allowed, the element plays on
    await elapse(50, media);
    expect(media.paused).toBe(false);
    media.pause();
    await elapse(50, media);
    expect(transport.statuses).toHaveLength(1);
    expect(transport.statuses[0]).toMatchObject({ isPlaying: false });
  });
});

describe('the sync indicator', () => {
  it('is idle with nothing to follow, correcting while it nudges, in sync after, with the drift in ms', async () => {
    const media = await readyMedia();
    const engine = makeEngine(media, new RecordingTransport());
    expect(engine.indicator()).toEqual({ state: 'idle', driftMs: null });
    engine.onRemoteStatus({ isPlaying: true, currentTime: 10, playbackRate: 1 });
    await elapse(1500, media);
    expect(engine.indicator().state).toBe('in-sync');
    media.advance(60); // 60 ms ahead, silently
    await elapse(300, media);
    const correcting = engine.indicator();
    expect(correcting.state).toBe('correcting');
    expect(correcting.driftMs).toBeGreaterThan(20);
    await elapse(3000, media);
    expect(engine.indicator().state).toBe('in-sync');
    expect(Math.abs(engine.indicator().driftMs ?? 99)).toBeLessThanOrEqual(10);
  });
});
