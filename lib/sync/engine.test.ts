/**
 * The sync engine against a fake media element and a fake room (no browser): what each client's
 * player does and what it sends, including the no-echo rule.
 */
import { SETTLE_CHECKS, SyncEngine, type AutoplayOutcome, type SyncEngineOptions, type SyncTransport } from './engine';
import { FakeMedia } from './testing/fake-media';
import { FakeRoom } from './testing/fake-room';
import type { PlaybackState } from '@/lib/ws/room-socket';

class RecordingTransport implements SyncTransport {
  statuses: PlaybackState[] = [];
  syncs = 0;
  sendStatus(status: PlaybackState): boolean {
    this.statuses.push(status);
    return true;
  }
  sendSync(): boolean {
    this.syncs += 1;
    return true;
  }
}

const engines: SyncEngine[] = [];
function makeEngine(media: FakeMedia, transport: SyncTransport, options: Partial<SyncEngineOptions> = {}): SyncEngine {
  const engine = new SyncEngine({ media, transport, syncIntervalMs: 0, ...options });
  engines.push(engine);
  return engine;
}

/** Time passes for the media elements and the timers (events, debounce, replies). */
async function elapse(ms: number, ...media: FakeMedia[]): Promise<void> {
  const step = 10;
  for (let done = 0; done < ms; done += step) {
    const slice = Math.min(step, ms - done);
    media.forEach((m) => m.advance(slice));
    await jest.advanceTimersByTimeAsync(slice);
  }
  await jest.advanceTimersByTimeAsync(0);
}

async function readyMedia(): Promise<FakeMedia> {
  const media = new FakeMedia();
  media.loadMetadata();
  await jest.advanceTimersByTimeAsync(0);
  return media;
}

beforeEach(() => {
  jest.useFakeTimers({ now: 1_700_000_000_000 });
});

afterEach(() => {
  engines.splice(0).forEach((engine) => engine.destroy());
  jest.useRealTimers();
});

describe('applying a remote status', () => {
  it('seeks, plays, and sends nothing back', async () => {
    const media = await readyMedia();
    const transport = new RecordingTransport();
    const engine = makeEngine(media, transport);
    engine.onRemoteStatus({ isPlaying: true, currentTime: 20, playbackRate: 1 });
    await elapse(50, media);
    expect(media.paused).toBe(false);
    expect(Math.abs(media.currentTime - 20.05)).toBeLessThan(0.05);
    expect(media.fired).toEqual(expect.arrayContaining(['seeked', 'play']));
    expect(transport.statuses).toEqual([]);
  });

  it('leaves a drift of up to 0.3 s alone and seeks beyond it', async () => {
    const media = await readyMedia();
    const engine = makeEngine(media, new RecordingTransport());
    media.currentTime = 10.25;
    await elapse(0, media);
    const seeksBefore = media.fired.filter((e) => e === 'seeking').length;
    engine.onRemoteStatus({ isPlaying: false, currentTime: 10, playbackRate: 1 });
    await elapse(10, media);
    expect(media.fired.filter((e) => e === 'seeking').length).toBe(seeksBefore);
    expect(media.currentTime).toBe(10.25);

    engine.onRemoteStatus({ isPlaying: false, currentTime: 9.9, playbackRate: 1 });
    await elapse(10, media);
    expect(media.currentTime).toBe(9.9);
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

  it('pauses when the room pauses', async () => {
    const media = await readyMedia();
    const transport = new RecordingTransport();
    const engine = makeEngine(media, transport);
    engine.onRemoteStatus({ isPlaying: true, currentTime: 0, playbackRate: 1 });
    await elapse(1000, media);
    engine.onRemoteStatus({ isPlaying: false, currentTime: 1, playbackRate: 1 });
    await elapse(10, media);
    expect(media.paused).toBe(true);
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
    await elapse(50, media);
    expect(transport.statuses).toEqual([]);
    expect(media.paused).toBe(false);
  });

  it('does not restart an element that reached the end while the room still counts', async () => {
    const media = await readyMedia();
    media.duration = 30;
    const engine = makeEngine(media, new RecordingTransport());
    engine.onRemoteStatus({ isPlaying: true, currentTime: 45, playbackRate: 1 });
    await elapse(10, media);
    expect(media.paused).toBe(true);
    expect(media.currentTime).toBe(30);
  });
});

describe('publishing local user actions', () => {
  it('sends STATUS on a user pause and play', async () => {
    const media = await readyMedia();
    const transport = new RecordingTransport();
    const engine = makeEngine(media, transport);
    engine.onRemoteStatus({ isPlaying: true, currentTime: 5, playbackRate: 1 });
    await elapse(1000, media);

    media.pause(); // the user
    await elapse(10, media);
    expect(transport.statuses).toHaveLength(1);
    expect(transport.statuses[0].isPlaying).toBe(false);
    expect(transport.statuses[0].currentTime).toBeCloseTo(6, 1);

    await media.play(); // the user
    await elapse(10, media);
    expect(transport.statuses).toHaveLength(2);
    expect(transport.statuses[1]).toMatchObject({ isPlaying: true, playbackRate: 1 });
  });

  it('sends a single seek at once', async () => {
    const media = await readyMedia();
    const transport = new RecordingTransport();
    makeEngine(media, transport);
    media.currentTime = 30;
    await jest.advanceTimersByTimeAsync(1);
    expect(transport.statuses).toEqual([{ isPlaying: false, currentTime: 30, playbackRate: 1 }]);
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

  it('sends a user rate change', async () => {
    const media = await readyMedia();
    const transport = new RecordingTransport();
    makeEngine(media, transport);
    media.playbackRate = 2;
    await elapse(10, media);
    expect(transport.statuses).toEqual([{ isPlaying: false, currentTime: 0, playbackRate: 2 }]);
  });

  it('publishes a user seek that overrides a seek the engine started', async () => {
    const media = await readyMedia();
    media.seekDelayMs = 100;
    const transport = new RecordingTransport();
    const engine = makeEngine(media, transport);
    engine.onRemoteStatus({ isPlaying: false, currentTime: 20, playbackRate: 1 });
    await elapse(20, media);
    media.currentTime = 50; // the user, before the engine's seek completed
    await elapse(400, media);
    expect(transport.statuses).toEqual([{ isPlaying: false, currentTime: 50, playbackRate: 1 }]);
  });

  it('ignores a seek that lands where the room already is (e.g. the player skipping a gap)', async () => {
    const media = await readyMedia();
    const transport = new RecordingTransport();
    const engine = makeEngine(media, transport);
    engine.onRemoteStatus({ isPlaying: false, currentTime: 10, playbackRate: 1 });
    await elapse(20, media);
    media.currentTime = 10.1;
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
    await elapse(300, media);
    expect(transport.statuses).toEqual([]);
  });

  it('restores the room state instead of publishing when the user may not control playback', async () => {
    const media = await readyMedia();
    const transport = new RecordingTransport();
    const denied = jest.fn();
    const engine = makeEngine(media, transport, { canControl: false, onControlDenied: denied });
    engine.setConnected(true);
    const syncsAfterOpen = transport.syncs;
    engine.onRemoteStatus({ isPlaying: true, currentTime: 0, playbackRate: 1 });
    await elapse(100, media);
    media.pause(); // the user
    await elapse(10, media);
    expect(transport.statuses).toEqual([]);
    expect(denied).toHaveBeenCalledTimes(1);
    expect(transport.syncs).toBe(syncsAfterOpen + 1);
  });
});

describe('two clients through a room (no ping-pong)', () => {
  async function twoClients() {
    const room = new FakeRoom();
    const a = await readyMedia();
    const b = await readyMedia();
    const engineA = makeEngine(a, room.transport());
    room.attach(engineA);
    const engineB = makeEngine(b, room.transport());
    room.attach(engineB);
    engineA.setConnected(true);
    engineB.setConnected(true);
    await elapse(10, a, b);
    return { room, a, b };
  }

  it('B follows A’s play, seek and pause, and only A’s actions reach the room', async () => {
    const { room, a, b } = await twoClients();

    await a.play();
    await elapse(500, a, b);
    expect(b.paused).toBe(false);
    expect(Math.abs(a.currentTime - b.currentTime)).toBeLessThan(0.3);

    a.currentTime = 20;
    await elapse(500, a, b);
    expect(b.currentTime).toBeGreaterThan(19.7);
    expect(Math.abs(a.currentTime - b.currentTime)).toBeLessThan(0.3);

    a.pause();
    await elapse(500, a, b);
    expect(b.paused).toBe(true);
    expect(Math.abs(a.currentTime - b.currentTime)).toBeLessThan(0.3);

    expect(room.statusLog.map((entry) => entry.from)).toEqual([0, 0, 0]);
    await elapse(5000, a, b);
    expect(room.statusLog).toHaveLength(3);
  });

  it('a rate change travels once', async () => {
    const { room, a, b } = await twoClients();
    a.playbackRate = 1.5;
    await elapse(200, a, b);
    expect(b.playbackRate).toBe(1.5);
    expect(room.statusLog).toHaveLength(1);
  });
});

describe('SYNC', () => {
  it('advances a reply by half the round trip × rate', async () => {
    const media = await readyMedia();
    const transport = new RecordingTransport();
    const engine = makeEngine(media, transport);
    engine.setConnected(true);
    expect(transport.syncs).toBe(1);
    jest.advanceTimersByTime(200); // round trip 200 ms
    engine.onSyncReply({ isPlaying: true, currentTime: 30, playbackRate: 2 });
    expect(media.currentTime).toBeCloseTo(30.2, 5); // 30 + 0.1 s × 2
  });

  it('ignores the reply to a SYNC sent before the user’s own STATUS', async () => {
    const media = await readyMedia();
    const transport = new RecordingTransport();
    const engine = makeEngine(media, transport);
    engine.onRemoteStatus({ isPlaying: true, currentTime: 0, playbackRate: 1 });
    await elapse(100, media);
    engine.setConnected(true); // SYNC out
    media.pause(); // the user, before the reply
    await elapse(10, media);
    engine.onSyncReply({ isPlaying: true, currentTime: 0.2, playbackRate: 1 }); // describes the room before the pause
    await elapse(10, media);
    expect(media.paused).toBe(true);
    expect(transport.statuses).toHaveLength(1);
  });

  it('asks every interval while a movie plays, and the reply corrects drift', async () => {
    const room = new FakeRoom();
    const media = await readyMedia();
    const engine = new SyncEngine({ media, transport: room.transport(), syncIntervalMs: 5000 });
    engines.push(engine);
    room.attach(engine);
    room.status = { isPlaying: true, currentTime: 0, playbackRate: 1, lastUpdateMs: Date.now() };
    engine.setConnected(true);
    await elapse(2000, media); // started and settled
    // The element silently stops advancing for 2 s (a decoder hiccup without a `waiting` event).
    await jest.advanceTimersByTimeAsync(2000);
    expect(room.position() - media.currentTime).toBeGreaterThan(1.5);
    const syncs = room.syncCount;
    await elapse(2000, media); // the 5 s SYNC falls in here
    expect(room.syncCount).toBeGreaterThan(syncs);
    expect(Math.abs(media.currentTime - room.position())).toBeLessThan(0.3);
  });

  it('the sync button resumes playback inside the click when the room plays', async () => {
    const media = await readyMedia();
    media.autoplay = 'blocked';
    const outcomes: AutoplayOutcome[] = [];
    const transport = new RecordingTransport();
    const engine = makeEngine(media, transport, { onAutoplay: (outcome) => outcomes.push(outcome) });
    engine.setConnected(true);
    engine.onRemoteStatus({ isPlaying: true, currentTime: 0, playbackRate: 1 });
    await elapse(10, media);
    expect(outcomes).toEqual(['blocked']);
    media.autoplay = 'allowed'; // the click is a user gesture
    const syncs = transport.syncs;
    engine.manualSync();
    await elapse(10, media);
    expect(media.paused).toBe(false);
    expect(transport.syncs).toBe(syncs + 1);
    expect(transport.statuses).toEqual([]);
  });
});

describe('late joiner', () => {
  it('waits for metadata, then starts at the status plus the time since it was read', async () => {
    const media = new FakeMedia();
    const transport = new RecordingTransport();
    const engine = makeEngine(media, transport);
    engine.loadTarget({ isPlaying: true, currentTime: 42, playbackRate: 1 }, Date.now());
    await elapse(1500, media);
    expect(media.currentTime).toBe(0);
    media.loadMetadata();
    await elapse(10, media);
    expect(media.currentTime).toBeCloseTo(43.5, 1);
    expect(media.paused).toBe(false);
    expect(transport.statuses).toEqual([]);
  });

  it('starts paused at the status position when the room is paused', async () => {
    const media = new FakeMedia();
    const engine = makeEngine(media, new RecordingTransport());
    engine.loadTarget({ isPlaying: false, currentTime: 42, playbackRate: 1 }, Date.now());
    await elapse(1500, media);
    media.loadMetadata();
    await elapse(10, media);
    expect(media.currentTime).toBe(42);
    expect(media.paused).toBe(true);
  });

  it('ignores an HTTP status requested before a newer socket status arrived', async () => {
    const media = await readyMedia();
    const engine = makeEngine(media, new RecordingTransport());
    const requestedAt = Date.now();
    jest.advanceTimersByTime(50);
    engine.onRemoteStatus({ isPlaying: false, currentTime: 80, playbackRate: 1 });
    engine.loadTarget({ isPlaying: false, currentTime: 10, playbackRate: 1 }, Date.now(), requestedAt);
    await elapse(10, media);
    expect(media.currentTime).toBe(80);
  });

  it('for a live movie only follows play/pause', async () => {
    const media = await readyMedia();
    const engine = makeEngine(media, new RecordingTransport(), { live: true });
    engine.loadTarget({ isPlaying: true, currentTime: 300, playbackRate: 2 }, Date.now());
    await elapse(10, media);
    expect(media.paused).toBe(false);
    expect(media.currentTime).toBeLessThan(1);
    expect(media.playbackRate).toBe(1);
  });
});

describe('autoplay fallback', () => {
  it('mutes and retries when sound is refused', async () => {
    const media = await readyMedia();
    media.autoplay = 'muted-only';
    const outcomes: AutoplayOutcome[] = [];
    const transport = new RecordingTransport();
    const engine = makeEngine(media, transport, { onAutoplay: (outcome) => outcomes.push(outcome) });
    engine.onRemoteStatus({ isPlaying: true, currentTime: 0, playbackRate: 1 });
    await elapse(10, media);
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
    engine.onRemoteStatus({ isPlaying: true, currentTime: 0, playbackRate: 1 });
    await elapse(10, media);
    expect(outcomes).toEqual(['blocked']);
    expect(media.paused).toBe(true);

    engine.onRemoteStatus({ isPlaying: false, currentTime: 0, playbackRate: 1 });
    media.autoplay = 'allowed';
    await media.play(); // the user: the rejected attempts left no "expected play" behind
    await elapse(10, media);
    expect(transport.statuses).toHaveLength(1);
    expect(transport.statuses[0]).toMatchObject({ isPlaying: true, playbackRate: 1 });
    expect(transport.statuses[0].currentTime).toBeLessThan(0.1);
  });
});

describe('seek latency', () => {
  it('corrects once more after a slow seek while playing, leading by the measured seek time', async () => {
    const media = await readyMedia();
    media.seekDelayMs = 400;
    const engine = makeEngine(media, new RecordingTransport());
    await media.play();
    await elapse(10, media);
    const statusAt = Date.now();
    engine.onRemoteStatus({ isPlaying: true, currentTime: 60, playbackRate: 1 });
    await elapse(1000, media);
    const seeks = media.fired.filter((event) => event === 'seeking').length;
    // Without the follow-up the element would trail by the 0.4 s the seek took.
    expect(seeks).toBe(2);
    await elapse(2000, media);
    expect(media.fired.filter((event) => event === 'seeking').length).toBe(2);
    const roomAt = 60 + (Date.now() - statusAt) / 1000;
    expect(Math.abs(media.currentTime - roomAt)).toBeLessThan(0.3);
  });
});

describe('settling after a start or seek', () => {
  it('gives no lead to a seek inside the buffer, and lands within 50 ms', async () => {
    const media = await readyMedia();
    media.seekDelayMs = 400;
    media.bufferedSeekDelayMs = 20;
    const engine = makeEngine(media, new RecordingTransport());
    await media.play();
    await elapse(10, media);
    engine.onRemoteStatus({ isPlaying: true, currentTime: 60, playbackRate: 1 }); // unbuffered: learns 400 ms
    await elapse(1500, media);
    media.bufferedRanges = [[0, 120]];
    const seeksBefore = media.fired.filter((event) => event === 'seeking').length;
    const statusAt = Date.now();
    engine.onRemoteStatus({ isPlaying: true, currentTime: 30, playbackRate: 1 });
    await elapse(500, media);
    expect(media.fired.filter((event) => event === 'seeking').length - seeksBefore).toBe(1);
    expect(Math.abs(media.currentTime - (30 + (Date.now() - statusAt) / 1000))).toBeLessThan(0.05);
  });

  it('starts exactly: the position lost while starting is made up once playback begins', async () => {
    const media = await readyMedia();
    media.bufferedRanges = [[0, 120]];
    media.bufferedSeekDelayMs = 10;
    const transport = new RecordingTransport();
    const engine = makeEngine(media, transport);
    // The room plays 0.2 s ahead of the element, under the 0.3 s seek threshold.
    const statusAt = Date.now();
    engine.onRemoteStatus({ isPlaying: true, currentTime: 0.2, playbackRate: 1 });
    await elapse(800, media);
    expect(Math.abs(media.currentTime - (0.2 + (Date.now() - statusAt) / 1000))).toBeLessThan(0.05);
    expect(transport.statuses).toEqual([]);
  });

  it('learns that the element runs 100 ms after `playing` and lands within 50 ms anyway', async () => {
    const media = await readyMedia();
    media.runDelayMs = 100;
    media.bufferedRanges = [[0, 120]];
    media.bufferedSeekDelayMs = 20;
    const engine = makeEngine(media, new RecordingTransport());
    const statusAt = Date.now();
    engine.onRemoteStatus({ isPlaying: true, currentTime: 40, playbackRate: 1 });
    await elapse(3000, media);
    expect(Math.abs(media.currentTime - (40 + (Date.now() - statusAt) / 1000))).toBeLessThan(0.05);
  });

  it('keeps the user’s own element with the room after their seek, without another STATUS', async () => {
    const media = await readyMedia();
    media.runDelayMs = 120;
    media.bufferedRanges = [[0, 120]];
    media.bufferedSeekDelayMs = 20;
    const transport = new RecordingTransport();
    const engine = makeEngine(media, transport);
    engine.onRemoteStatus({ isPlaying: true, currentTime: 5, playbackRate: 1 });
    await elapse(3000, media);
    media.currentTime = 50; // the user; the room hears "50" now, the element runs only 140 ms later
    const seekedAt = Date.now();
    await elapse(3000, media);
    expect(transport.statuses).toHaveLength(1);
    expect(Math.abs(media.currentTime - (transport.statuses[0].currentTime + (Date.now() - seekedAt) / 1000))).toBeLessThan(0.05);
  });

  it('stops correcting after a bounded number of settling seeks on a network that never lets it land', async () => {
    const media = await readyMedia();
    media.seekDelayMs = 300;
    const engine = makeEngine(media, new RecordingTransport());
    await media.play();
    await elapse(10, media);
    engine.onRemoteStatus({ isPlaying: true, currentTime: 50, playbackRate: 1 });
    // Every seek takes a different time, so the learned lead is always wrong.
    for (const delay of [900, 100, 700, 50, 600]) {
      await elapse(350, media);
      media.seekDelayMs = delay;
    }
    await elapse(5000, media);
    // the trigger seek plus at most SETTLE_CHECKS settling seeks
    expect(media.fired.filter((event) => event === 'seeking').length).toBeLessThanOrEqual(1 + SETTLE_CHECKS);
  });
});

describe('user seek versus SYNC', () => {
  it('a SYNC reply arriving before the seek is published does not undo the seek', async () => {
    const media = await readyMedia();
    const transport = new RecordingTransport();
    const engine = makeEngine(media, transport);
    engine.onRemoteStatus({ isPlaying: true, currentTime: 10, playbackRate: 1 });
    await elapse(1000, media);
    engine.setConnected(true); // SYNC out (e.g. the periodic one)
    media.currentTime = 40; // the user
    await elapse(20, media); // seeked, STATUS still debounced
    engine.onSyncReply({ isPlaying: true, currentTime: 11, playbackRate: 1 }); // the room before the seek
    await elapse(400, media);
    expect(media.currentTime).toBeGreaterThan(40);
    expect(transport.statuses).toHaveLength(1);
    expect(transport.statuses[0].currentTime).toBeGreaterThanOrEqual(40);
  });

  it('nor does the reply to a SYNC sent while a scrubbing seek waits to be published', async () => {
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
    engine.onSyncReply({ isPlaying: true, currentTime: 40.07, playbackRate: 1 }); // the server knows only the first seek
    await elapse(400, media);
    expect(media.currentTime).toBeGreaterThan(60);
    expect(transport.statuses.map((status) => Math.floor(status.currentTime))).toEqual([40, 60]);
  });
});
