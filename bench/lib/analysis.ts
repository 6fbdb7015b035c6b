/**
 * Pure analysis of a sync benchmark run: aligning every client's <video> samples on one time grid,
 * drift between clients and against the room, percentiles, convergence after an action, and event
 * counts. No I/O; `bench/sync.ts` feeds it what the pages recorded.
 *
 * Units: times are real Unix ms (the machine's wall clock, the same for every page and for Node),
 * positions are seconds (as `HTMLMediaElement.currentTime`), drifts are ms.
 */
import type { PlaybackState } from '@/lib/contract/playback';

/** One reading of a client's `player-video`, taken in the page every 100 ms. */
export interface MediaSample {
  /** Real time of the reading, Unix ms: `performance.timeOrigin + performance.now()`, which a skewed `Date` does not touch. */
  t: number;
  /** False while the page has no `player-video` element. */
  present: boolean;
  /** `currentTime`, s. */
  ct: number;
  paused: boolean;
  seeking: boolean;
  ended: boolean;
  playbackRate: number;
  /** `readyState`, 0 (nothing) .. 4 (enough data). */
  readyState: number;
  /** The app's sync indicator (`sync-indicator` data-state), when the page shows one. */
  indicator?: string;
  /** The drift the indicator reports (`data-drift-ms`), ms, when it shows one. */
  indicatorDriftMs?: number | null;
}

/** The room's authoritative status as `GET /api/room/movie/current` reported it at `t` (server time, Unix ms). */
export interface RoomSample extends PlaybackState {
  /** Server time, Unix ms; `currentTime` is already extrapolated by the server to it. */
  t: number;
}

/** A media event seen in a page (`seeking`, `ratechange`, ...) or a note the bench added (`action`). */
export interface MediaEvent {
  /** Real time, Unix ms. */
  t: number;
  type: string;
  /** True when the bench's own user action on that page caused it (the page marks its pending action). */
  user?: boolean;
  value?: number | string;
}

/** Count, median, 95th percentile and maximum of a set of values (ms); null values are left out. */
export interface Summary {
  count: number;
  median: number;
  p95: number;
  max: number;
}

/**
 * Largest jump (s) between two consecutive samples that still counts as the same continuous run:
 * beyond it the element seeked (or stalled) between them, and interpolating would smear the jump.
 */
export const CONTINUITY_TOLERANCE_SEC = 0.05;

/** A sample older than this (ms) says nothing about the present: the page stopped reporting. */
export const MAX_SAMPLE_AGE_MS = 400;

/** True when the element's position advances with time: playing, not seeking or starved, not at the end. */
export function isAdvancing(sample: MediaSample): boolean {
  return sample.present && !sample.paused && !sample.seeking && !sample.ended && sample.readyState >= 3;
}

/** The room samples as media samples, so `positionAt` reads both the same way. */
export function roomAsMedia(room: RoomSample[]): MediaSample[] {
  return room.map((r) => ({
    t: r.t,
    present: true,
    ct: r.currentTime,
    paused: !r.isPlaying,
    seeking: false,
    ended: false,
    playbackRate: r.playbackRate,
    readyState: 4,
  }));
}

/** Index of the last sample with `t <= atMs` in time-sorted `samples`, or -1. */
function lastAtOrBefore(samples: MediaSample[], atMs: number): number {
  let lo = 0;
  let hi = samples.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (samples[mid].t <= atMs) {
      found = mid;
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  return found;
}

/**
 * The element's position (s) at `atMs`, from time-sorted samples: linear interpolation between the
 * samples around `atMs` when both advance continuously (no seek between them), otherwise the earlier
 * sample extrapolated at its playbackRate if it was advancing, or held if not.
 * Null before the first sample, when the element is absent, or when the last sample is older than `maxAgeMs`.
 */
export function positionAt(samples: MediaSample[], atMs: number, maxAgeMs = MAX_SAMPLE_AGE_MS): number | null {
  const i = lastAtOrBefore(samples, atMs);
  if (i < 0) return null;
  const a = samples[i];
  if (!a.present || atMs - a.t > maxAgeMs) return null;
  const b = samples[i + 1];
  if (b && b.present && isAdvancing(a) && isAdvancing(b) && b.t > a.t) {
    const expectedAdvance = ((b.t - a.t) / 1000) * a.playbackRate;
    if (Math.abs(b.ct - a.ct - expectedAdvance) <= CONTINUITY_TOLERANCE_SEC) {
      return a.ct + ((b.ct - a.ct) * (atMs - a.t)) / (b.t - a.t);
    }
  }
  return isAdvancing(a) ? a.ct + ((atMs - a.t) / 1000) * a.playbackRate : a.ct;
}

/** Instants from `startMs` (inclusive) to `endMs` (exclusive) every `stepMs`. */
export function makeGrid(startMs: number, endMs: number, stepMs: number): number[] {
  if (stepMs <= 0) throw new Error(`grid step must be positive, got ${stepMs}`);
  const grid: number[] = [];
  for (let t = startMs; t < endMs; t += stepMs) grid.push(t);
  return grid;
}

/**
 * Time (Unix ms) of the first sample showing a frame (`readyState >= 2`), or null. Before it the
 * element's `currentTime` is a placeholder (0 or a pending seek), not something a viewer sees.
 */
export function firstFrameAt(samples: MediaSample[]): number | null {
  const first = samples.find((s) => s.present && s.readyState >= 2);
  return first ? first.t : null;
}

/**
 * Positions (s) of one client on `grid`; null before `activeFromMs` (its first frame) and wherever
 * `positionAt` has nothing.
 */
export function alignToGrid(samples: MediaSample[], grid: number[], activeFromMs: number | null = -Infinity): (number | null)[] {
  return grid.map((t) => (activeFromMs === null || t < activeFromMs ? null : positionAt(samples, t)));
}

/** Largest pairwise |Δ| (ms) among the known positions (s) at one instant; null with fewer than two. */
export function spreadMs(positions: (number | null)[]): number | null {
  let min = Infinity;
  let max = -Infinity;
  let known = 0;
  for (const p of positions) {
    if (p === null) continue;
    known += 1;
    if (p < min) min = p;
    if (p > max) max = p;
  }
  return known < 2 ? null : (max - min) * 1000;
}

/** Largest |Δ| (ms) between client `index` and any other known client at one instant; null if unknown or alone. */
export function clientDriftMs(positions: (number | null)[], index: number): number | null {
  const own = positions[index];
  if (own === null || own === undefined) return null;
  let worst: number | null = null;
  positions.forEach((p, j) => {
    if (j === index || p === null) return;
    const d = Math.abs(own - p) * 1000;
    if (worst === null || d > worst) worst = d;
  });
  return worst;
}

/**
 * Nearest-rank percentile `p` (0–100] of `values`: the smallest value with at least p % of the
 * values at or below it. Throws on an empty set.
 */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) throw new Error('percentile of an empty set');
  const sorted = [...values].sort((x, y) => x - y);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}

/** Summary of the non-null values, or null when there are none. */
export function summarize(values: (number | null)[]): Summary | null {
  const known = values.filter((v): v is number => v !== null && Number.isFinite(v));
  if (known.length === 0) return null;
  return { count: known.length, median: percentile(known, 50), p95: percentile(known, 95), max: Math.max(...known) };
}

/** When a drift series first got, and when it stayed, within a threshold after some moment. */
export interface Convergence {
  /** ms from `fromMs` to the first grid instant from which the series stays within the threshold for `holdMs`; null if never. */
  convergedAfterMs: number | null;
  /** ms from `fromMs` to the grid instant from which the series stays within the threshold until `untilMs`; null if never. */
  settledAfterMs: number | null;
}

/**
 * Convergence of `series` (ms, aligned with `grid`) to `<= thresholdMs` over `[fromMs, untilMs)`.
 * A null value (a client not reporting) counts as not within. A hold window cut short by `untilMs`
 * only needs the instants before it.
 */
export function convergence(
  series: (number | null)[],
  grid: number[],
  opts: { fromMs: number; untilMs: number; thresholdMs: number; holdMs: number },
): Convergence {
  const { fromMs, untilMs, thresholdMs, holdMs } = opts;
  const idx: number[] = [];
  grid.forEach((t, i) => {
    if (t >= fromMs && t < untilMs) idx.push(i);
  });
  const within = idx.map((i) => series[i] !== null && (series[i] as number) <= thresholdMs);

  let settledAfterMs: number | null = null;
  for (let k = within.length - 1; k >= 0 && within[k]; k -= 1) settledAfterMs = grid[idx[k]] - fromMs;

  let convergedAfterMs: number | null = null;
  for (let k = 0; k < idx.length && convergedAfterMs === null; k += 1) {
    if (!within[k]) continue;
    const holdUntil = grid[idx[k]] + holdMs;
    let holds = true;
    for (let m = k; m < idx.length && grid[idx[m]] <= holdUntil; m += 1) {
      if (!within[m]) {
        holds = false;
        break;
      }
    }
    if (holds) convergedAfterMs = grid[idx[k]] - fromMs;
  }
  return { convergedAfterMs, settledAfterMs };
}

/**
 * Number of `type` events in `[fromMs, untilMs)` that the engine (or the player library) caused,
 * i.e. not marked as the bench's own user action.
 */
export function countEngineEvents(events: MediaEvent[], type: string, fromMs: number, untilMs: number): number {
  return events.filter((e) => e.type === type && !e.user && e.t >= fromMs && e.t < untilMs).length;
}

/** Share (0–1) of the samples in `[fromMs, untilMs)` showing each sync-indicator state; null without any. */
export function indicatorShares(samples: MediaSample[], fromMs: number, untilMs: number): Record<string, number> | null {
  const counts: Record<string, number> = {};
  let total = 0;
  for (const s of samples) {
    if (s.t < fromMs || s.t >= untilMs || !s.indicator) continue;
    counts[s.indicator] = (counts[s.indicator] ?? 0) + 1;
    total += 1;
  }
  if (total === 0) return null;
  return Object.fromEntries(Object.entries(counts).map(([state, n]) => [state, n / total]));
}

/**
 * Longest interval (ms) between consecutive samples within `[fromMs, untilMs)`: the page's timers
 * fire every 100 ms unless its renderer is starved of CPU (or blocked), so a long gap says the machine,
 * not the engine, held the page up. 0 with fewer than two samples.
 */
export function longestSampleGapMs(samples: MediaSample[], fromMs: number, untilMs: number): number {
  let longest = 0;
  let previous: number | null = null;
  for (const s of samples) {
    if (s.t < fromMs || s.t >= untilMs) continue;
    if (previous !== null) longest = Math.max(longest, s.t - previous);
    previous = s.t;
  }
  return longest;
}
