/**
 * The server clock as seen from this client, estimated against an unmodified SyncTV v0.9.11
 * server: a SYNC reply carries `timestamp` = the server's wall clock in Unix ms (docs/contract.md
 * §6.4), so each SYNC round trip is an NTP-style sample:
 *
 *   t0 = local send time, t1 = local receive time, T = server timestamp (all Unix ms)
 *   offset = T − (t0 + t1) / 2        rtt = t1 − t0
 *
 * The sample with the lowest rtt among the last CLOCK_WINDOW is kept (as Jellyfin SyncPlay does;
 * docs/sync.md "Clock"): queueing delay only ever adds to a round trip, so the shortest one has
 * the least asymmetry and the best offset. `serverNow()` = local now + offset is what outgoing
 * STATUS / CHECK_STATUS timestamps must carry, because the server credits `now − timestamp`
 * (clamped to [0, 1.5] s) × rate as latency: a client whose clock is 5 s off would otherwise claim
 * 0 s or 1.5 s of transit.
 *
 * Also here: the SYNC schedule (a short burst after each connect, then a slow refresh) and its
 * message budget.
 */

/** One SYNC round trip. Units: ms. */
export interface ClockSample {
  /** Server clock minus local clock. */
  offsetMs: number;
  /** Round-trip time of the SYNC. */
  rttMs: number;
  /** Local time the reply arrived. */
  receivedAtMs: number;
}

/** Samples the best is chosen from. At one SYNC per ~12 s this spans about a minute and a half. */
export const CLOCK_WINDOW = 8;

/** A round trip longer than this (ms) says nothing useful about the offset (a frozen tab, a clock jump). */
const MAX_RTT_MS = 10_000;
/**
 * A sample whose offset differs from the estimate by more than this (ms) and more than its own round
 * trip cannot be network noise: one of the clocks was stepped (NTP, the user), so the old window is void.
 */
const CLOCK_STEP_MS = 1000;

/** NTP-style estimate of the offset between the local clock and the server's. */
export class ServerClock {
  private samples: ClockSample[] = [];
  private best: ClockSample | null = null;
  /** Set on a new connection: the next sample starts a fresh window (the path, even the server, may have changed). */
  private stale = false;
  private readonly now: () => number;
  private readonly window: number;

  /** `now`: the local clock, Unix ms (default `Date.now`). */
  constructor(now: () => number = Date.now, window = CLOCK_WINDOW) {
    this.now = now;
    this.window = Math.max(1, window);
  }

  /**
   * Adds one SYNC round trip: `sentAtMs` (t0) and `receivedAtMs` (t1) on the local clock, `serverMs`
   * (T) from the reply's `timestamp`. Returns the change of the offset estimate in ms (0 when the
   * best sample stayed). A sample with a negative or absurd round trip is ignored.
   */
  addSample(sentAtMs: number, receivedAtMs: number, serverMs: number): number {
    const rttMs = receivedAtMs - sentAtMs;
    if (!Number.isFinite(rttMs) || !Number.isFinite(serverMs) || serverMs <= 0 || rttMs < 0 || rttMs > MAX_RTT_MS) return 0;
    const before = this.offsetMs;
    const sample: ClockSample = { offsetMs: serverMs - (sentAtMs + receivedAtMs) / 2, rttMs, receivedAtMs };
    const stepped = this.best !== null && Math.abs(sample.offsetMs - this.best.offsetMs) > Math.max(CLOCK_STEP_MS, rttMs);
    if (this.stale || stepped) {
      this.samples = [];
      this.stale = false;
    }
    this.samples.push(sample);
    if (this.samples.length > this.window) this.samples.shift();
    this.best = this.samples.reduce((a, b) => (b.rttMs < a.rttMs ? b : a));
    return this.offsetMs - before;
  }

  /** Server clock minus local clock (ms); 0 before the first sample. */
  get offsetMs(): number {
    return this.best?.offsetMs ?? 0;
  }

  /** Round trip (ms) of the sample in use, or null before the first sample. */
  get rttMs(): number | null {
    return this.best?.rttMs ?? null;
  }

  /** Estimated one-way delay server → client (ms): half the best round trip, 0 before the first sample. */
  get oneWayMs(): number {
    return (this.best?.rttMs ?? 0) / 2;
  }

  /** Samples in the current window. */
  get sampleCount(): number {
    return this.stale ? 0 : this.samples.length;
  }

  /** The server's clock now, Unix ms. */
  serverNow(): number {
    return this.now() + this.offsetMs;
  }

  /** A new connection: keep using the current estimate until the first new sample, which then replaces the window. */
  restart(): void {
    this.stale = this.samples.length > 0;
  }
}

/** When SYNC is sent: `burstCount` requests `burstGapMs` apart after each (re)connect, then one every `refreshMs` ± `jitter`. */
export interface SyncSchedule {
  burstCount: number;
  burstGapMs: number;
  /** Period of the refresh SYNC (ms); 0 disables it (the burst still runs). */
  refreshMs: number;
  /** Relative spread of the refresh period (0.1 = ±10 %), so a room's clients do not ask in lockstep. */
  jitter: number;
}

/**
 * Four samples in the first second give a usable offset before the user notices anything; then one
 * SYNC every ~12 s keeps the target fresh and the offset window current. A 200-viewer room costs the
 * server about 200 / 12 ≈ 17 SYNC/s (plus as many replies), a small fraction of what one chat burst costs.
 */
export const DEFAULT_SYNC_SCHEDULE: SyncSchedule = { burstCount: 4, burstGapMs: 250, refreshMs: 12_000, jitter: 0.1 };

/**
 * Delay (ms) before the next SYNC, given how many were sent since the connection opened
 * (`sentSinceConnect` ≥ 1). `random()` in [0, 1) spreads the refresh period by ±jitter.
 */
export function nextSyncDelayMs(sentSinceConnect: number, schedule: SyncSchedule = DEFAULT_SYNC_SCHEDULE, random: () => number = Math.random): number {
  if (sentSinceConnect < schedule.burstCount) return schedule.burstGapMs;
  if (schedule.refreshMs <= 0) return Infinity;
  return Math.round(schedule.refreshMs * (1 + schedule.jitter * (2 * random() - 1)));
}
