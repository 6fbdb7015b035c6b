/**
 * Where the rate limits count with Redis (docs/deployment.md "Running more than one instance"): in
 * Redis, one counter over every instance, and in this process whenever Redis does not answer (down,
 * or frozen past the client's command timeout), so that an outage never turns the limits off: each
 * instance then counts on its own, at worst as many times looser as there are instances. After a
 * failure Redis is left alone for SKIP_SHARED_AFTER_FAILURE_MS. The
 * counting itself is @fastify/rate-limit's own two stores (its Lua script in Redis, its LRU here).
 */
import type { FastifyRateLimitStore } from '@fastify/rate-limit';
import LocalStore from '@fastify/rate-limit/store/LocalStore.js';
import RedisStore from '@fastify/rate-limit/store/RedisStore.js';
import type { Redis } from 'ioredis';

type Counted = Parameters<FastifyRateLimitStore['incr']>[1];

/**
 * After Redis failed a count, counts skip it for this long (ms), so that a frozen Redis costs one
 * request its command timeout, not every request.
 */
export const SKIP_SHARED_AFTER_FAILURE_MS = 5000;

/** When the shared store last failed, shared by a store and its children (local Unix ms). */
interface Outage {
  failedAtMs: number;
}

/** A store that counts in `shared` and, whenever that fails (and for a while after), in `local`. */
class FallbackStore implements FastifyRateLimitStore {
  constructor(
    private readonly shared: FastifyRateLimitStore,
    private readonly local: FastifyRateLimitStore,
    private readonly outage: Outage,
    private readonly onFallback: () => void,
  ) {}

  incr(key: string, callback: Counted, timeWindow: number, max: number): void {
    if (Date.now() - this.outage.failedAtMs < SKIP_SHARED_AFTER_FAILURE_MS) {
      this.local.incr(key, callback, timeWindow, max);
      return;
    }
    this.shared.incr(
      key,
      (error, result) => {
        if (!error) return callback(null, result);
        this.outage.failedAtMs = Date.now();
        this.onFallback();
        this.local.incr(key, callback, timeWindow, max);
      },
      timeWindow,
      max,
    );
  }

  child(routeOptions: Parameters<FastifyRateLimitStore['child']>[0]): FastifyRateLimitStore {
    return new FallbackStore(this.shared.child(routeOptions), this.local.child(routeOptions), this.outage, this.onFallback);
  }
}

/**
 * The plugin's `store` option for counting in `redis` under `nameSpace`, in this process while
 * Redis fails; `onFallback` is called for each request counted here instead (for the log).
 */
export function redisWithLocalFallback(redis: Redis, nameSpace: string, onFallback: () => void = () => undefined) {
  const outage: Outage = { failedAtMs: -Infinity };
  return class {
    constructor(options: { continueExceeding?: boolean; exponentialBackoff?: boolean }) {
      const continueExceeding = options.continueExceeding ?? false;
      const exponentialBackoff = options.exponentialBackoff ?? false;
      return new FallbackStore(new RedisStore(continueExceeding, exponentialBackoff, redis, nameSpace), new LocalStore(continueExceeding, exponentialBackoff), outage, onFallback);
    }
  } as unknown as new (options: object) => FastifyRateLimitStore;
}
