/**
 * @fastify/rate-limit's own counters (its default stores), which server/http/rate-store.ts combines.
 * Their shape is the plugin's `FastifyRateLimitStore`; the constructors take the plugin's arguments.
 */
declare module '@fastify/rate-limit/store/LocalStore.js' {
  import type { FastifyRateLimitStore } from '@fastify/rate-limit';
  const LocalStore: new (continueExceeding: boolean, exponentialBackoff: boolean, cache?: number) => FastifyRateLimitStore;
  export default LocalStore;
}

declare module '@fastify/rate-limit/store/RedisStore.js' {
  import type { FastifyRateLimitStore } from '@fastify/rate-limit';
  import type { Redis } from 'ioredis';
  const RedisStore: new (continueExceeding: boolean, exponentialBackoff: boolean, redis: Redis, key?: string) => FastifyRateLimitStore;
  export default RedisStore;
}
