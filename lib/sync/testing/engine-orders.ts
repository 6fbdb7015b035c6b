/**
 * The media events each engine's <video> fired for the moments the sync machine reads
 * (docs/browsers.md "Event orders"), recorded from Debian's Chromium, Firefox ESR and WebKitGTK by
 * scripts/record-media-events.ts into ./engine-orders.json, and the orders the simulated element of
 * the property tests replays from them (./machine-sim.ts).
 */
import recorded from './engine-orders.json';

/** What was recorded: a play() without a gesture, a seek before metadata, seeks playing and paused, a rate change audible and muted, a pause and play, a source swap, a stall. */
export type Scenario = 'play-without-gesture' | 'seek-before-metadata' | 'seek-playing' | 'seek-paused' | 'rate-audible' | 'rate-playing' | 'rate-then-pause-muted' | 'seek-then-pause' | 'rate-paused-then-play-muted' | 'pause-then-play' | 'swap-playing' | 'stall';

/**
 * One event as the page saw it: its type (a `·`-prefixed type is the recorder's own mark of what it
 * did), when (ms since the element was made), and the element's state as the listener read it.
 */
export interface RecordedEvent {
  type: string;
  ms: number;
  paused?: boolean;
  seeking?: boolean;
  readyState?: number;
  /** s */
  currentTime?: number;
  muted?: boolean;
}

/** The recording: when, and per engine per scenario the events in order. */
export interface EngineOrders {
  recordedOn: string;
  engines: Partial<Record<'chromium' | 'firefox' | 'webkit', Record<Scenario, RecordedEvent[]>>>;
}

export const ENGINE_ORDERS = recorded as EngineOrders;

/** The engines recorded, by the names docs/browsers.md gives them. */
export type RecordedEngine = keyof EngineOrders['engines'];
export const RECORDED_ENGINES: RecordedEngine[] = ['chromium', 'firefox', 'webkit'];

/** The element events the sync machine takes (lib/sync/machine.ts `SyncEvent`), and the volume change the engine reads. */
export type ElementEvent = 'play' | 'pause' | 'seeking' | 'seeked' | 'ratechange' | 'emptied' | 'loadedmetadata' | 'playing' | 'waiting' | 'canplay' | 'volumechange';
const ELEMENT_EVENTS = new Set<string>(['play', 'pause', 'seeking', 'seeked', 'ratechange', 'emptied', 'loadedmetadata', 'playing', 'waiting', 'canplay', 'volumechange']);

/** One event the element fires after an act: its type, how long after the act (ms), and the readyState it reports then. */
export interface TimedEvent {
  type: ElementEvent;
  afterMs: number;
  readyState: number;
}

/**
 * What one engine's element fires, in order, after each act the simulated world does to it, read
 * from the recording (every list's `afterMs` counts from the act).
 */
export interface EngineProfile {
  engine: RecordedEngine;
  /** play() on an audible element without a gesture is refused (NotAllowedError) and fires nothing. */
  refusesAudiblePlay: boolean;
  /** play() on a paused element with its data. */
  play: TimedEvent[];
  pause: TimedEvent[];
  /** A seek inside the buffered data, playing and paused. */
  seekPlaying: TimedEvent[];
  seekPaused: TimedEvent[];
  /** A seek asked before the metadata: what follows `loadedmetadata` (counted from it). */
  seekBeforeMetadata: TimedEvent[];
  /** A rate change while playing audibly, and while muted (WebKitGTK: the rate unmutes it, the autoplay policy pauses it and it plays again). */
  rate: TimedEvent[];
  rateMuted: TimedEvent[];
  /** A new source while playing: up to its metadata and data (the recorder's own play() after it left out). */
  swap: TimedEvent[];
  /** The data runs out while playing, and comes back (counted from each). */
  stallStart: TimedEvent[];
  stallEnd: TimedEvent[];
}

/** The element events after the recorder's mark `from` (its first), up to the mark `until` or the end, timed from `from`. */
function after(events: RecordedEvent[], from: string, until?: string, leaveOut: ElementEvent[] = []): TimedEvent[] {
  const start = events.findIndex((event) => event.type === `·${from}`);
  if (start < 0) throw new Error(`the recording has no mark "${from}": run npm run record:media-events`);
  const end = until ? events.findIndex((event, i) => i > start && event.type === `·${until}`) : -1;
  return events
    .slice(start + 1, end < 0 ? undefined : end)
    .filter((event) => ELEMENT_EVENTS.has(event.type) && !leaveOut.includes(event.type as ElementEvent))
    .map((event) => ({ type: event.type as ElementEvent, afterMs: event.ms - events[start].ms, readyState: event.readyState ?? 0 }));
}

/** The element events of `events` from index `from` on, timed from it. */
function from(events: RecordedEvent[], index: number): TimedEvent[] {
  return events
    .slice(index + 1)
    .filter((event) => ELEMENT_EVENTS.has(event.type))
    .map((event) => ({ type: event.type as ElementEvent, afterMs: event.ms - events[index].ms, readyState: event.readyState ?? 0 }));
}

/** `engine`'s profile from the recording. Throws when the engine or one of its scenarios was not recorded. */
export function engineProfile(engine: RecordedEngine, orders: EngineOrders = ENGINE_ORDERS): EngineProfile {
  const scenarios = orders.engines[engine];
  if (!scenarios) throw new Error(`${engine} was not recorded: run npm run record:media-events`);
  const beforeMetadata = scenarios['seek-before-metadata'];
  const metadata = beforeMetadata.findIndex((event) => event.type === 'loadedmetadata');
  const stall = scenarios.stall;
  const stalled = stall.findIndex((event) => event.type === 'waiting' && (event.currentTime ?? 0) > 1);
  return {
    engine,
    refusesAudiblePlay: scenarios['play-without-gesture'].some((event) => event.type === '·play() rejected: NotAllowedError'),
    play: after(scenarios['pause-then-play'], 'play()', 'play() resolved'),
    pause: after(scenarios['pause-then-play'], 'pause()', 'play()'),
    seekPlaying: after(scenarios['seek-playing'], 'currentTime = 20'),
    seekPaused: after(scenarios['seek-paused'], 'currentTime = 20'),
    seekBeforeMetadata: from(beforeMetadata, metadata),
    rate: after(scenarios['rate-audible'], 'playbackRate = 1.05'),
    rateMuted: after(scenarios['rate-playing'], 'playbackRate = 1.05'),
    swap: after(scenarios['swap-playing'], 'src = another URL', 'play() resolved', ['play', 'waiting', 'playing']),
    stallStart: stalled < 0 ? [] : after(stall.slice(stalled - 1).map((event, i) => (i === 0 ? { ...event, type: '·out of data', ms: stall[stalled].ms } : event)), 'out of data', 'the rest of the file'),
    stallEnd: after(stall, 'the rest of the file'),
  };
}
