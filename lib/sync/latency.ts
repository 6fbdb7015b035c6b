/**
 * The latencies the sync engine learns from its own element, and the leads of a scheduled start
 * they size (docs/sync.md "Latencies"). All values in seconds of wall time.
 *
 * - start: from play() on a paused element until its clock runs;
 * - resume: from the user's `seeking` event while playing (their STATUS goes out then) until it runs;
 * - readyNear / readyFar: from a seek inside / outside the buffer until the element can play
 *   (sizes the lead of a scheduled start);
 * - nudgeStart / nudgeEnd: the media time that a change of the playing element's rate away from
 *   the room's / back to it costs, its clock standing still while the pipeline takes the new rate
 *   (WebKitGTK, loaded: 15–50 ms either way; Chromium about 25 ms leaving 1 and nothing coming
 *   back), measured over the readings after each of the loop's rate changes;
 * - handling: how late this page handles a STATUS frame (a busy page runs the handler tens of ms
 *   after the frame arrived), seen as how far the confirming SYNC reply moves the provisional
 *   position; a scheduled start made before the confirmation leads by that much more, so that the
 *   confirmation re-times it instead of overtaking it.
 * Defaults are about what Chromium showed (40–75 ms to start, with or without sound; 95–100 ms from
 * a seek's `seeking` inside the buffer of an HLS movie until it runs); the first observation replaces them.
 */

export type LagKind = 'start' | 'resume' | 'readyNear' | 'readyFar' | 'handling' | 'nudgeStart' | 'nudgeEnd';

export const DEFAULT_LAG_SEC: Readonly<Record<LagKind, number>> = { start: 0.06, resume: 0.1, readyNear: 0.03, readyFar: 0.3, handling: 0.1, nudgeStart: 0, nudgeEnd: 0 };
/** Weight of a new latency observation after the first. */
const LAG_WEIGHT = 0.5;
/** Observations beyond this (s) are stalls, not latencies. */
export const MAX_LAG_SEC = 1;
/**
 * Lead (s) of a scheduled start inside the buffer, at least: before this element's seek latency is
 * known (a joiner's first start), and once it is; outside the buffer, between FAR_LEAD_MIN_SEC and
 * FAR_LEAD_MAX_SEC.
 */
const NEAR_LEAD_FIRST_SEC = 0.2;
const NEAR_LEAD_MIN_SEC = 0.12;
const FAR_LEAD_MIN_SEC = 0.5;
export const FAR_LEAD_MAX_SEC = 3;

/** The learned latencies of one element. */
export class Latencies {
  private readonly lagSec: Record<LagKind, number> = { ...DEFAULT_LAG_SEC };
  private readonly learned = new Set<LagKind>();

  /**
   * @param changeSec An observation that differs from the learned value by more than this (s)
   *   replaces it outright (the machine's load changed; an average would miss the next start again).
   */
  constructor(private readonly changeSec: number) {}

  /** The current estimate (s) of `kind`. */
  get(kind: LagKind): number {
    return this.lagSec[kind];
  }

  /** True once `kind` was observed at least once. */
  has(kind: LagKind): boolean {
    return this.learned.has(kind);
  }

  /**
   * Takes one observation (s). Out-of-range ones (below −50 ms, above MAX_LAG_SEC) are stalls or
   * clock noise and are ignored; the first replaces the default, later ones are averaged.
   */
  learn(kind: LagKind, observedSec: number): void {
    if (!(observedSec > -0.05 && observedSec <= MAX_LAG_SEC)) return;
    const changed = Math.abs(observedSec - this.lagSec[kind]) > this.changeSec;
    const weight = this.learned.has(kind) && !changed ? LAG_WEIGHT : 1;
    this.learned.add(kind);
    this.lagSec[kind] = this.lagSec[kind] * (1 - weight) + Math.max(0, observedSec) * weight;
  }

  /** Lead (s) of a scheduled start inside the buffer: the seek, its confirmation, and the start. */
  nearLeadSec(): number {
    return Math.max(this.learned.has('readyNear') ? NEAR_LEAD_MIN_SEC : NEAR_LEAD_FIRST_SEC, 2 * this.get('readyNear') + this.get('start'));
  }

  /** Lead (s) of a scheduled start outside the buffer (the data has to come first), at least `minSec`. */
  farLeadSec(minSec = FAR_LEAD_MIN_SEC): number {
    return Math.min(FAR_LEAD_MAX_SEC, Math.max(minSec, 2 * this.get('readyFar') + this.get('start')));
  }

  /** An independent copy (the sync machine's state is copied, never changed in place: ./machine.ts). */
  clone(): Latencies {
    const copy = new Latencies(this.changeSec);
    Object.assign(copy.lagSec, this.lagSec);
    for (const kind of this.learned) copy.learned.add(kind);
    return copy;
  }

  /** All estimates (s), for the debug overlay. */
  snapshot(): Record<LagKind, number> {
    return { ...this.lagSec };
  }
}
