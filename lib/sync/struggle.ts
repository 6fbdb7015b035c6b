/**
 * Whether a page keeps up (docs/sync.md "Slow devices"): a page that needed STRUGGLE_SEEKS catch-up
 * seeks of the correction loop within STRUGGLE_WINDOW_MS held none of them (a starved CPU, a
 * backgrounded tab), so it stops seeking for STRUGGLE_MS and only nudges; the sync indicator then
 * says it cannot keep up. Times are local wall-clock milliseconds.
 */
import { STRUGGLE_MS, STRUGGLE_SEEKS, STRUGGLE_WINDOW_MS } from './tuning';

export class StruggleGuard {
  /** Times (ms) of the loop's catch-up seeks in the last STRUGGLE_WINDOW_MS. */
  private seeksAtMs: number[] = [];
  /** Until when (ms) the page only nudges. */
  private untilMs = -Infinity;

  /** An independent copy (the sync machine's state is copied, never changed in place: ./machine.ts). */
  clone(): StruggleGuard {
    const copy = new StruggleGuard();
    copy.seeksAtMs = [...this.seeksAtMs];
    copy.untilMs = this.untilMs;
    return copy;
  }

  /** True while the page only nudges (until STRUGGLE_MS after the seek that gave up). */
  active(nowMs: number): boolean {
    return nowMs < this.untilMs;
  }

  /**
   * Counts a catch-up seek of the loop at `nowMs`. Returns true when it is the STRUGGLE_SEEKS-th
   * within STRUGGLE_WINDOW_MS: the page gives up seeking for STRUGGLE_MS from now.
   */
  noteSeek(nowMs: number): boolean {
    this.seeksAtMs = this.seeksAtMs.filter((atMs) => nowMs - atMs < STRUGGLE_WINDOW_MS);
    this.seeksAtMs.push(nowMs);
    if (this.seeksAtMs.length < STRUGGLE_SEEKS) return false;
    this.seeksAtMs = [];
    this.untilMs = nowMs + STRUGGLE_MS;
    return true;
  }
}
