/**
 * Where the rate limits count with Redis (docs/deployment.md "Running more than one instance"): in
 * Redis, one counter over every instance, and in this process whenever Redis does not answer (down,
 * or frozen past the client's command timeout), so that an outage never turns the limits off: each
 * instance then counts on its own, at worst as many times looser as there are instances. The
 * counting itself is @fastify/rate-limit's own two stores (its Lua script in Redis, its LRU here).
 */
import type { FastifyRateLimitStore } from '@fastify/rate-limit';
import LocalStore from '@fastify/rate-limit/store/LocalStore.js';
import RedisStore from '@fastify/rate-limit/store/RedisStore.js';
import type { Redis } from 'ioredis';

type Counted = Parameters<FastifyRateLimitStore['incr']>[1];

/** A store that counts in `shared` and, whenever that fails, in `local`. */
class FallbackStore implements FastifyRateLimitStore {
  constructor(
    private readonly shared: FastifyRateLimitStore,
    private readonly local: FastifyRateLimitStore,
    private readonly onFallback: () => void,
  ) {}

  incr(key: string, callback: Counted, timeWindow: number, max: number): void {
    this.shared.incr(
      key,
      (error, result) => {
        if (!error) return callback(null, result);
        this.onFallback();
        this.local.incr(key, callback, timeWindow, max);
      },
      timeWindow,
      max,
    );
  }

  child(routeOptions: Parameters<FastifyRateLimitStore['child']>[0]): FastifyRateLimitStore {
    return new FallbackStore(this.shared.child(routeOptions), this.local.child(routeOptions), this.onFallback);
  }
}

/**
 * The plugin's `store` option for counting in `redis` under `nameSpace`, in this process while
 * Redis fails; `onFallback` is called for each request counted here instead (for the log).
 */
export function redisWithLocalFallback(redis: Redis, nameSpace: string, onFallback: () => void = () => undefined) {
  return class {
    constructor(options: { continueExceeding?: boolean; exponentialBackoff?: boolean }) {
      const continueExceeding = options.continueExceeding ?? false;
      const exponentialBackoff = options.exponentialBackoff ?? false;
      return new FallbackStore(new RedisStore(continueExceeding, exponentialBackoff, redis, nameSpace), new LocalStore(continueExceeding, exponentialBackoff), onFallback);
    }
  } as unknown as new (options: object) => FastifyRateLimitStore;
}
