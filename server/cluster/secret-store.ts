/**
 * Short-lived secrets (captcha answers, mailed codes, OAuth2 states; ../rules/verification.ts and
 * ../rules/oauth2.ts) kept where every instance finds them: in this process alone, or in Redis when
 * the server runs as more than one instance (docs/deployment.md "Running more than one instance"),
 * so that a captcha drawn by one instance can be checked by another.
 */
import type { Redis } from 'ioredis';

/** String values with a lifetime. Times are milliseconds. Rejects only when Redis fails. */
export interface SecretStore {
  /** Stores `value` at `key` for `ttlMs`, replacing what was there. */
  set(key: string, value: string, ttlMs: number): Promise<void>;
  /** The live value, or null. */
  get(key: string): Promise<string | null>;
  /** Reads and removes the value in one step: of two callers racing for it, one gets it. */
  take(key: string): Promise<string | null>;
  /** Removes the value; true when this call removed it (of two racing callers, one gets true). */
  delete(key: string): Promise<boolean>;
  /** Adds one to the counter at `key` (created, for `ttlMs`, when missing) and resolves its new value. */
  increment(key: string, ttlMs: number): Promise<number>;
}

/**
 * Most live entries of one in-process store; the oldest go first beyond it, so a flood cannot grow
 * memory without end. Each kind of secret has its own store, so a flood of captchas cannot push out
 * the codes mailed to others.
 */
const MAX_ENTRIES = 20_000;

/** The store of a single instance: a Map with expiry and a size bound (insertion order is age order). */
export class MemorySecretStore implements SecretStore {
  private readonly entries = new Map<string, { value: string; expiresAt: number }>();

  async set(key: string, value: string, ttlMs: number): Promise<void> {
    this.entries.delete(key);
    this.entries.set(key, { value, expiresAt: Date.now() + ttlMs });
    this.prune();
  }

  async get(key: string): Promise<string | null> {
    return this.live(key);
  }

  async take(key: string): Promise<string | null> {
    const value = this.live(key);
    this.entries.delete(key);
    return value;
  }

  async delete(key: string): Promise<boolean> {
    const existed = this.live(key) !== null;
    this.entries.delete(key);
    return existed;
  }

  async increment(key: string, ttlMs: number): Promise<number> {
    const current = this.live(key);
    const next = Number(current ?? 0) + 1;
    if (current === null) await this.set(key, String(next), ttlMs);
    else this.entries.get(key)!.value = String(next);
    return next;
  }

  private live(key: string): string | null {
    const entry = this.entries.get(key);
    if (!entry) return null;
    if (entry.expiresAt <= Date.now()) {
      this.entries.delete(key);
      return null;
    }
    return entry.value;
  }

  private prune(): void {
    const now = Date.now();
    for (const [key, entry] of this.entries) {
      if (this.entries.size <= MAX_ENTRIES && entry.expiresAt > now) break;
      this.entries.delete(key);
    }
  }
}

/** The store of a cluster: keys `<prefix>:secret:<key>` in Redis, with Redis's own expiry. */
export class RedisSecretStore implements SecretStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  private key(key: string): string {
    return `${this.prefix}:secret:${key}`;
  }

  async set(key: string, value: string, ttlMs: number): Promise<void> {
    await this.redis.set(this.key(key), value, 'PX', ttlMs);
  }

  get(key: string): Promise<string | null> {
    return this.redis.get(this.key(key));
  }

  /** GETDEL: Redis 6.2 and up. */
  take(key: string): Promise<string | null> {
    return this.redis.getdel(this.key(key));
  }

  async delete(key: string): Promise<boolean> {
    return (await this.redis.del(this.key(key))) === 1;
  }

  async increment(key: string, ttlMs: number): Promise<number> {
    // Created at 0 with its lifetime when missing, then counted: one round trip, Redis 2.6.12 and up.
    const results = (await this.redis.multi().set(this.key(key), '0', 'PX', ttlMs, 'NX').incr(this.key(key)).exec()) as [Error | null, unknown][];
    return Number(results[1][1]);
  }
}
