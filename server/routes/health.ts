/**
 * Health routes for load balancers and orchestrators (not part of the SyncTV contract; docs/deployment.md
 * "Health and shutdown"). Public, unlimited, never cached:
 * - `GET /healthz` → 200 `{"status":"ok"}` while the process serves HTTP (liveness);
 * - `GET /readyz` → 200 `{"status":"ready"}` when the database answers and the server is not shutting
 *   down; 503 `{"status":"stopping"}` from the moment a shutdown begins (a balancer sends no new
 *   viewers), 503 `{"status":"unavailable"}` when the database does not answer or, with more than one
 *   instance, Redis is unreachable (the instance would miss the other instances' broadcasts).
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ClusterBus } from '../cluster/bus';
import type { Store } from '../db';

export interface HealthOptions {
  store: Pick<Store, 'ping'>;
  /** The cluster bus (null: one instance). */
  bus?: Pick<ClusterBus, 'ready'> | null;
  /** True once the server has begun shutting down (StartedServer `close()`). */
  stopping: () => boolean;
}

const answer = (reply: FastifyReply, code: number, status: string) => reply.code(code).header('cache-control', 'no-store').send({ status });

export function registerHealthRoutes(app: FastifyInstance, { store, bus, stopping }: HealthOptions): void {
  app.get('/healthz', async (_request, reply) => answer(reply, 200, 'ok'));
  app.get('/readyz', async (_request, reply) => {
    if (stopping()) return answer(reply, 503, 'stopping');
    try {
      await store.ping();
      if (bus && !bus.ready()) throw new Error('redis unreachable');
    } catch {
      return answer(reply, 503, 'unavailable');
    }
    return answer(reply, 200, 'ready');
  });
}
