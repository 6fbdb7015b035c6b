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
    this.entries.push({ kind, value, expiresAtMs: this.now() + EXPECTATION_TTL_MS[kind] });
  }

  /**
   * Consumes the oldest live expectation of `kind` that matches `actual` (the element's position after
   * `seeked`, its rate after `ratechange`). Returns true when the event was the engine's own.
   */
  consume(kind: ExpectedKind, actual?: number): boolean {
    this.prune();
    const index = this.entries.findIndex((entry) => entry.kind === kind && matches(entry, actual));
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

function matches(entry: Expectation, actual: number | undefined): boolean {
  if (entry.value === undefined || actual === undefined) return true;
  const tolerance = entry.kind === 'seeked' ? SEEK_MATCH_TOLERANCE_SEC : RATE_MATCH_TOLERANCE;
  return Math.abs(entry.value - actual) <= tolerance;
}
