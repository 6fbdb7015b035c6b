/**
 * Shared set-up of the sync engine's unit tests (jest's fake timers): a transport that records what
 * the engine sends, engines made quiet (no SYNC timers unless asked), a loaded element with
 * Chromium-like latencies, and `elapse`, which moves the elements and the timers together.
 */
import type { PlaybackState } from '@/lib/contract/playback';
import { SyncEngine, type SyncEngineOptions, type SyncTransport } from '../engine';
import { FakeMedia } from './fake-media';

export class RecordingTransport implements SyncTransport {
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

/** No SYNC timers unless a test asks for them: refresh off, and no burst beyond the first request. */
export const QUIET = { schedule: { burstCount: 1, refreshMs: 0 } };

/** The engines made by `makeEngine`, destroyed (and checked) by `destroyEngines` after each test. */
const engines: SyncEngine[] = [];

export function makeEngine(media: FakeMedia, transport: SyncTransport, options: Partial<SyncEngineOptions> = {}): SyncEngine {
  const engine = new SyncEngine({ media, transport, ...QUIET, ...options });
  engines.push(engine);
  return engine;
}

/**
 * Destroys every engine made since the last call; returns how many phase transitions broke the
 * phase table (../phase.ts), summed over them (0 unless the engine has a bug).
 */
export function destroyEngines(): number {
  const invalid = engines.reduce((sum, engine) => sum + engine.debug().invalidTransitions, 0);
  engines.splice(0).forEach((engine) => engine.destroy());
  return invalid;
}

/**
 * Time passes for the media elements and the timers (events, ticks, replies), in 10 ms steps; after
 * each step the promise callbacks the step started run (up to 20 links of a chain). The timers move
 * synchronously: jest's async variant waits for a real macrotask (at least 1 ms) before the step and
 * after each timer, which made the engine's 72 tests take 45 s instead of 6, with the same results
 * (checked by making the engine's tuning wrong: both versions fail the same tests).
 */
export async function elapse(ms: number, ...media: FakeMedia[]): Promise<void> {
  const step = 10;
  for (let done = 0; done < ms; done += step) {
    const slice = Math.min(step, ms - done);
    media.forEach((m) => m.advance(slice));
    jest.advanceTimersByTime(slice);
    for (let i = 0; i < 20; i += 1) await Promise.resolve();
  }
  await jest.advanceTimersByTimeAsync(0);
}

/** How many seeks the element has started (its `seeking` events). */
export const seeks = (media: FakeMedia) => media.fired.filter((event) => event === 'seeking').length;

/** A loaded element with latencies like Chromium's: clock starts 60 ms after play(), buffered seeks take 15 ms. */
export async function readyMedia(options: { buffered?: boolean } = {}): Promise<FakeMedia> {
  const media = new FakeMedia();
  media.runDelayMs = 60;
  media.bufferedSeekDelayMs = 15;
  media.seekDelayMs = 300;
  if (options.buffered !== false) media.bufferedRanges = [[0, 120]];
  media.loadMetadata();
  await jest.advanceTimersByTimeAsync(0);
  return media;
}

/**
 * A loaded element whose engine (with `options`) follows a playing room (at 10 s, rate 1) from
 * `Date.now()` and has run steadily for 1.5 s.
 */
export async function playingSteadily(
  prepare: (media: FakeMedia) => void = () => undefined,
  options: Partial<SyncEngineOptions> = {},
): Promise<{ media: FakeMedia; engine: SyncEngine; transport: RecordingTransport }> {
  const media = await readyMedia();
  // What the element models besides Chromium's latencies (e.g. `holdsCurrentData`), from its first seek.
  prepare(media);
  const transport = new RecordingTransport();
  const engine = makeEngine(media, transport, options);
  engine.onRemoteStatus({ isPlaying: true, currentTime: 10, playbackRate: 1 });
  await elapse(1500, media);
  return { media, engine, transport };
}
