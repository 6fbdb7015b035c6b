/**
 * The part of an HTMLMediaElement the sync engine reads and drives. A real <video> satisfies it;
 * unit tests pass a fake built on EventTarget. Units: `currentTime` and `duration` in seconds,
 * `playbackRate` a factor (1 = normal speed).
 */
export interface MediaLike {
  currentTime: number;
  playbackRate: number;
  muted: boolean;
  /** 0 (silent) to 1; absent: 1. WebKit counts volume 0 as silent for its autoplay policy. */
  readonly volume?: number;
  readonly paused: boolean;
  readonly ended: boolean;
  /** NaN until metadata is known; Infinity for live streams. */
  readonly duration: number;
  /** HTMLMediaElement.readyState: 0 nothing, 1 metadata, 2 current data, 3 future data, 4 enough data. */
  readonly readyState: number;
  /** True while a seek has not completed (the position then does not advance). */
  readonly seeking: boolean;
  /** Media ranges (s) already downloaded; a seek inside them completes without the network. */
  readonly buffered?: TimeRangesLike;
  /**
   * Media ranges (s) the element can seek to; absent: anywhere. A file from a host without HTTP Range
   * has only [0, 0] in Chromium (docs/hosting.md), and a seek elsewhere lands on the nearest
   * seekable point instead: 0.
   */
  readonly seekable?: TimeRangesLike;
  play(): Promise<void> | void;
  pause(): void;
  addEventListener(type: string, listener: () => void): void;
  removeEventListener(type: string, listener: () => void): void;
}

/** The part of the DOM's TimeRanges the engine reads (times in s). */
export interface TimeRangesLike {
  readonly length: number;
  start(index: number): number;
  end(index: number): number;
}

/** How close (s) a position must be to a seekable range to count as inside it. */
const SEEKABLE_TOLERANCE_SEC = 0.05;

/**
 * Where a seek to `position` (s) lands: the position itself when the element may seek there (or does
 * not say where it may), else the nearest point of its seekable ranges, as the HTML spec has the
 * element clamp it; null when it may seek nowhere (the seek does not happen).
 */
export function seekLanding(media: MediaLike, position: number): number | null {
  const ranges = media.seekable;
  if (!ranges) return position;
  let nearest: number | null = null;
  for (let i = 0; i < ranges.length; i += 1) {
    const candidate = Math.min(Math.max(position, ranges.start(i)), ranges.end(i));
    if (nearest === null || Math.abs(candidate - position) < Math.abs(nearest - position)) nearest = candidate;
  }
  return nearest;
}

/** True when a seek to `position` (s) lands there (within 50 ms), not on the nearest seekable point. */
export function canSeekTo(media: MediaLike, position: number): boolean {
  const landing = seekLanding(media, position);
  return landing !== null && Math.abs(landing - position) <= SEEKABLE_TOLERANCE_SEC;
}

/** readyState at which duration and seeking work (HTMLMediaElement.HAVE_METADATA). */
export const HAVE_METADATA = 1;
/** readyState with the frame at the position and nothing beyond (HTMLMediaElement.HAVE_CURRENT_DATA). */
export const HAVE_CURRENT_DATA = 2;
/** readyState from which playback can advance (HTMLMediaElement.HAVE_FUTURE_DATA). */
export const HAVE_FUTURE_DATA = 3;
/** How far past the position (s) the buffered data must reach for HAVE_CURRENT_DATA to count as future data. */
export const FUTURE_DATA_AHEAD_SEC = 0.5;

/**
 * The element's readyState as the HTML spec defines it from the data at hand: HAVE_FUTURE_DATA
 * when it reports HAVE_CURRENT_DATA but one buffered range holds the position and
 * FUTURE_DATA_AHEAD_SEC beyond (or up to the end). WebKitGTK's GStreamer player stays at
 * HAVE_CURRENT_DATA after every seek and rate change, paused or playing, with the whole file
 * buffered and its clock running (docs/browsers.md "WebKit"); every other engine reports the same
 * number as the element.
 */
export function readinessOf(media: MediaLike): number {
  const state = media.readyState;
  if (state !== HAVE_CURRENT_DATA || media.seeking || !media.buffered) return state;
  const from = media.currentTime;
  const to = Number.isFinite(media.duration) ? Math.min(from + FUTURE_DATA_AHEAD_SEC, media.duration) : from + FUTURE_DATA_AHEAD_SEC;
  const ranges = media.buffered;
  for (let i = 0; i < ranges.length; i += 1) {
    if (from >= ranges.start(i) && to <= ranges.end(i)) return HAVE_FUTURE_DATA;
  }
  return state;
}

/** True when `position` (s) lies inside the element's buffered ranges. */
export function isBuffered(media: MediaLike, position: number): boolean {
  const ranges = media.buffered;
  if (!ranges) return false;
  for (let i = 0; i < ranges.length; i += 1) {
    if (position >= ranges.start(i) && position <= ranges.end(i)) return true;
  }
  return false;
}

/** The local playback state the engine compares with the room's. */
export interface LocalPlayback {
  currentTime: number;
  playbackRate: number;
  paused: boolean;
  ended: boolean;
  duration: number;
}

/** Reads the local playback state from a media element. */
export function readLocal(media: MediaLike): LocalPlayback {
  return {
    currentTime: media.currentTime,
    playbackRate: media.playbackRate,
    paused: media.paused,
    ended: media.ended,
    duration: media.duration,
  };
}
