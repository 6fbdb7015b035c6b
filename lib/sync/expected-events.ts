/**
 * The echo guard: media events that the sync engine caused itself. Before the engine plays, pauses,
 * seeks or changes the rate, it registers the event that change will fire, keyed on the value it set;
 * the event handler consumes the matching entry and does not publish it as the user's action. This is
 * what stops ping-pong between clients (A applies B's STATUS, which must not become A's STATUS).
 */

export type ExpectedKind = 'play' | 'pause' | 'seeked' | 'ratechange';

interface Expectation {
  kind: ExpectedKind;
  /** The value set: the seek target (s) or the rate; undefined for play/pause. */
  value?: number;
  /** When it was set (local ms). */
  setAtMs: number;
  expiresAtMs: number;
}

/** How long (ms) an expectation waits for its event. Seeks can wait on the network. */
export const EXPECTATION_TTL_MS: Record<ExpectedKind, number> = {
  play: 3000,
  pause: 3000,
  ratechange: 3000,
  seeked: 15000,
};

/** How close (s) a `seeked` position must be to the set value to count as the engine's own seek. */
export const SEEK_MATCH_TOLERANCE_SEC = 0.05;
/**
 * At most how far (s) a seek's landing may have played on when its `seeked` is handled and still
 * count as the engine's: a loaded WebKitGTK's came 0.14–0.24 s late. Bounded, so that an
 * expectation whose `seeked` never came (a seek that another replaced) does not take a person's
 * later seek ahead for its own.
 */
export const SEEKED_RAN_ON_MAX_SEC = 0.5;
/** How close a rate must be to the set value. */
const RATE_MATCH_TOLERANCE = 1e-3;

export class ExpectedEvents {
  private entries: Expectation[] = [];
  private readonly now: () => number;

  constructor(now: () => number = Date.now) {
    this.now = now;
  }

  /** Registers the event a programmatic change will fire. `value`: seek target (s) or rate. */
  expect(kind: ExpectedKind, value?: number): void {
    const now = this.now();
    this.entries.push({ kind, value, setAtMs: now, expiresAtMs: now + EXPECTATION_TTL_MS[kind] });
  }

  /**
   * Consumes the oldest live expectation of `kind` that matches `actual` (the element's position after
   * `seeked`, its rate after `ratechange`). `advancingRate`: the element's playbackRate when it plays
   * as the `seeked` is handled (0 when paused): a seek that landed while playing has run on since, by
   * up to the time since the seek was set × that rate, at most SEEKED_RAN_ON_MAX_SEC (a loaded
   * WebKitGTK handed over its `seeked` 0.14–0.24 s after its landing, which read as the viewer's
   * seek, and the room was sent back: CI, 2026-12-08). Returns true when the event was the engine's own.
   */
  consume(kind: ExpectedKind, actual?: number, advancingRate = 0): boolean {
    this.prune();
    const now = this.now();
    const index = this.entries.findIndex((entry) => entry.kind === kind && matches(entry, actual, Math.min(SEEKED_RAN_ON_MAX_SEC, (advancingRate * Math.max(0, now - entry.setAtMs)) / 1000)));
    if (index < 0) return false;
    this.entries.splice(index, 1);
    return true;
  }

  /** True when an expectation of `kind` matching `actual` is pending (it is not consumed). */
  pending(kind: ExpectedKind, actual?: number): boolean {
    this.prune();
    return this.entries.some((entry) => entry.kind === kind && matches(entry, actual));
  }

  /** Drops one pending expectation of `kind` (e.g. play() was rejected, so no `play` event will come). */
  cancel(kind: ExpectedKind): void {
    const index = this.entries.findIndex((entry) => entry.kind === kind);
    if (index >= 0) this.entries.splice(index, 1);
  }

  /** True when an expectation of `kind` is still pending. */
  has(kind: ExpectedKind): boolean {
    this.prune();
    return this.entries.some((entry) => entry.kind === kind);
  }

  clear(): void {
    this.entries = [];
  }

  private prune(): void {
    const now = this.now();
    this.entries = this.entries.filter((entry) => entry.expiresAtMs > now);
  }
}

/** Whether `actual` is the entry's value, or up to `ranOnSec` beyond it (a seek's landing that has played on). */
function matches(entry: Expectation, actual: number | undefined, ranOnSec = 0): boolean {
  if (entry.value === undefined || actual === undefined) return true;
  const tolerance = entry.kind === 'seeked' ? SEEK_MATCH_TOLERANCE_SEC : RATE_MATCH_TOLERANCE;
  const beyond = actual - entry.value;
  return beyond >= -tolerance && beyond <= tolerance + (entry.kind === 'seeked' ? ranOnSec : 0);
}
