/**
 * The conversions of one server (docs/transcode.md "One conversion per source and choice, shared"):
 * one Conversion per key (movie, source and choice), shared by every viewer who asks for it, closed
 * IDLE_CLOSE_MS after its last request, and bounded: at most `maxConversions` at once on the
 * server and `maxPerUser` started by one user. Each conversion has its own directory under `dir`.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Conversion, type ConversionOptions } from './conversion';

/** How long (ms) a conversion nobody asked anything of is kept before it is closed. */
export const IDLE_CLOSE_MS = 120_000;

/**
 * How long (ms) a conversion must have gone without a request before a new one may take its place
 * when a limit is reached (the room moved on to another film, or everyone paused): a conversion
 * being watched is asked for a segment every few seconds. Never longer than the idle time.
 */
export const REPLACEABLE_AFTER_MS = 15_000;

/** Thrown when a new conversion would pass a limit; the message says which (the route's 400 text). */
export class ConversionLimitError extends Error {}

/** 400 when the server runs as many conversions as the admin allows (companion text). */
export const TOO_MANY_CONVERSIONS = 'too many conversions on this server, try again later';
/** 400 when the user started as many conversions as one user may (companion text). */
export const TOO_MANY_USER_CONVERSIONS = 'you are converting too many movies at once';

/** The limits (the admin's settings). */
export interface RegistryLimits {
  maxConversions: number;
  maxPerUser: number;
  idleCloseMs?: number;
}

interface Entry {
  conversion: Conversion;
  userId: string;
  usedMs: number;
}

/** The conversions of the server; see the module comment. */
export class ConversionRegistry {
  private readonly entries = new Map<string, Entry>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly dir: string,
    /** The limits; the caller may replace them (the admin changed a setting), and the next `get` holds the new ones. */
    public limits: RegistryLimits,
  ) {
    // What a previous process left behind is not anyone's any more.
    fs.rmSync(dir, { recursive: true, force: true });
    const idle = limits.idleCloseMs ?? IDLE_CLOSE_MS;
    this.sweeper = setInterval(() => this.closeIdle(Date.now()), Math.max(50, Math.min(idle / 2, 30_000)));
    this.sweeper.unref();
  }

  /**
   * The conversion of `key`, made with `options()` for `userId` when there is none yet (in its own
   * directory), and marked as used now. At a limit, the least recently used conversion that nobody
   * asked anything of for REPLACEABLE_AFTER_MS is closed to make room (of that user, for the per-user
   * limit); when there is none, throws ConversionLimitError TOO_MANY_CONVERSIONS or
   * TOO_MANY_USER_CONVERSIONS. An existing conversion is always given.
   */
  get(key: string, userId: string, options: () => Omit<ConversionOptions, 'dir'>): Conversion {
    const existing = this.entries.get(key);
    if (existing) {
      existing.usedMs = Date.now();
      return existing.conversion;
    }
    this.admit(userId);
    const dir = path.join(this.dir, crypto.createHash('sha256').update(key).digest('hex').slice(0, 32));
    const conversion = new Conversion({ ...options(), dir });
    this.entries.set(key, { conversion, userId, usedMs: Date.now() });
    return conversion;
  }

  /**
   * Makes room for one more conversion of `userId`'s: at a limit, closes the least recently used
   * conversion that nobody asked anything of for REPLACEABLE_AFTER_MS (of that user, for the per-user
   * limit). Throws ConversionLimitError TOO_MANY_USER_CONVERSIONS or TOO_MANY_CONVERSIONS when there
   * is none. Asked before a new conversion reads its source, so that a refusal costs no process.
   */
  admit(userId: string): void {
    const mine = () => [...this.entries.entries()].filter(([, entry]) => entry.userId === userId);
    if (mine().length >= this.limits.maxPerUser && !this.replaceOne(mine())) throw new ConversionLimitError(TOO_MANY_USER_CONVERSIONS);
    if (this.entries.size >= this.limits.maxConversions && !this.replaceOne([...this.entries.entries()])) throw new ConversionLimitError(TOO_MANY_CONVERSIONS);
  }

  /** Closes the least recently used of `candidates` that nobody asked anything of for REPLACEABLE_AFTER_MS; false when none is. */
  private replaceOne(candidates: [string, Entry][]): boolean {
    const now = Date.now();
    const after = Math.min(REPLACEABLE_AFTER_MS, this.limits.idleCloseMs ?? IDLE_CLOSE_MS);
    const lastUse = (entry: Entry) => Math.max(entry.usedMs, entry.conversion.lastUsedMs);
    const idle = candidates.filter(([, entry]) => entry.conversion.pending === 0 && now - lastUse(entry) >= after).sort((a, b) => lastUse(a[1]) - lastUse(b[1]));
    if (idle.length === 0) return false;
    const [key] = idle[0];
    this.closeWhere((candidate) => candidate === key);
    return true;
  }

  /** The conversion of `key`, marked as used now, or undefined when there is none. */
  find(key: string): Conversion | undefined {
    const entry = this.entries.get(key);
    if (entry) entry.usedMs = Date.now();
    return entry?.conversion;
  }

  /** How many conversions there are, in all and started by `userId`. */
  count(userId?: string): number {
    return userId === undefined ? this.entries.size : [...this.entries.values()].filter((entry) => entry.userId === userId).length;
  }

  /** Closes the conversions of keys `matching` (a movie deleted or changed), e.g. `(key) => key.startsWith(movieId)`. */
  closeWhere(matching: (key: string) => boolean): void {
    for (const [key, entry] of this.entries) {
      if (!matching(key)) continue;
      this.entries.delete(key);
      entry.conversion.close();
    }
  }

  /** Closes the conversions nobody waits on and nobody asked anything of for the idle time, as of `nowMs`. */
  closeIdle(nowMs: number): void {
    const idle = this.limits.idleCloseMs ?? IDLE_CLOSE_MS;
    this.closeWhere((key) => {
      const entry = this.entries.get(key);
      return entry !== undefined && entry.conversion.pending === 0 && nowMs - Math.max(entry.usedMs, entry.conversion.lastUsedMs) >= idle;
    });
  }

  /** Closes every conversion and stops the sweeper (the server is closing). */
  close(): void {
    clearInterval(this.sweeper);
    this.closeWhere(() => true);
  }
}
