/**
 * The rate the speed menu shows for the element's `playbackRate`: the room's, not the sync engine's
 * nudge of it. The engine runs the element within ±`maxNudge` of the room's rate to work off a drift
 * (lib/sync/correction.ts, docs/sync.md); media-chrome's speed menu rebuilt its items at every such
 * change, with "1.03x" added and checked, and the item under the person's pointer was replaced (the
 * menu then closed: seen in CI as a speed pick that never landed).
 */
import { DEFAULT_TUNING } from '@/lib/sync/correction';

/** Whether `rate` is within the nudge's reach of `base` (a ratio, as the nudge is). */
function withinNudge(rate: number, base: number, maxNudge: number): boolean {
  return base > 0 && Math.abs(rate / base - 1) <= maxNudge + 1e-9;
}

/**
 * The rate to show for an element at `rate` (× normal speed): the listed rate it is a nudge of
 * (`listed`, e.g. 0.5 … 5: neighbours are ≥ 16 % apart, so at most one is within ±5 %), else the
 * rate shown until now (`shown`) when it is a nudge of that (a room rate the menu does not list, set
 * from another client), else `rate` itself.
 */
export function shownRate(rate: number, listed: readonly number[], shown: number | null, maxNudge = DEFAULT_TUNING.maxNudge): number {
  const near = listed.find((entry) => withinNudge(rate, entry, maxNudge));
  if (near !== undefined) return near;
  if (shown !== null && withinNudge(rate, shown, maxNudge)) return shown;
  return rate;
}
