/**
 * Health routes for load balancers and orchestrators (not part of the SyncTV contract; docs/deployment.md
 * "Health and shutdown"). Public, unlimited, never cached:
 * - `GET /healthz` → 200 `{"status":"ok"}` while the process serves HTTP (liveness);
 * - `GET /readyz` → 200 `{"status":"ready"}` when the database answers and the server is not shutting
 *   down; 503 `{"status":"stopping"}` from the moment a shutdown begins (a balancer sends no new
 *   viewers), 503 `{"status":"unavailable"}` when the database does not answer within
 *   READY_DEADLINE_MS (down, or frozen) or, with more than one instance, Redis is unreachable or does
 *   not answer within it (the instance would miss the other instances' broadcasts); 503
 *   `{"status":"misconfigured"}` while its signing secret disagrees with the other instances' (the
 *   log says why; ../signing-keys.ts).
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ClusterBus } from '../cluster/bus';
import type { Store } from '../db';

export interface HealthOptions {
  store: Pick<Store, 'ping'>;
  /** The cluster bus (null: one instance). */
  bus?: Pick<ClusterBus, 'ready' | 'ping'> | null;
  /** True once the server has begun shutting down (StartedServer `close()`). */
  stopping: () => boolean;
  /** Why this instance must not take users (its signing secret disagrees with the others', ../signing-keys.ts), or null. */
  misconfigured?: () => string | null;
}

const answer = (reply: FastifyReply, code: number, status: string) => reply.code(code).header('cache-control', 'no-store').send({ status });

/**
 * How long (ms) /readyz waits for the database and Redis: a store that is frozen rather than down
 * (it accepts connections and never answers) makes the instance unready within this, not after the
 * stores' own deadlines.
 */
export const READY_DEADLINE_MS = 1500;

/** `work`, or a rejection once READY_DEADLINE_MS have passed. */
function withinDeadline(work: Promise<unknown>): Promise<unknown> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error('no answer in time')), READY_DEADLINE_MS);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

export function registerHealthRoutes(app: FastifyInstance, { store, bus, stopping, misconfigured }: HealthOptions): void {
  app.get('/healthz', async (_request, reply) => answer(reply, 200, 'ok'));
  app.get('/readyz', async (_request, reply) => {
    if (stopping()) return answer(reply, 503, 'stopping');
    if (misconfigured?.()) return answer(reply, 503, 'misconfigured');
    try {
      if (bus && !bus.ready()) throw new Error('redis unreachable');
      await withinDeadline(Promise.all([store.ping(), bus?.ping()]));
    } catch {
      return answer(reply, 503, 'unavailable');
    }
    return answer(reply, 200, 'ready');
  });
}
