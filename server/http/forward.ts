/**
 * Handing a request to another instance (docs/deployment.md "Running more than one instance"): an
 * RTMP push is watched where it arrives, and a converted movie is converted on one instance; a
 * viewer's request that reached another instance is sent on there, with the viewer's credentials,
 * and its answer streamed back.
 */
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** Marks a request one instance forwards to another (never forwarded again). */
const FORWARDED_HEADER = 'x-synctv-forwarded';

/** Whether `request` was forwarded by another instance (and so is answered here, whatever this instance thinks). */
export function wasForwarded(request: FastifyRequest): boolean {
  return Boolean(request.headers[FORWARDED_HEADER]);
}

/**
 * Sends `request` (its method, path and query, its `Authorization` and `X-Room-Id`) to the instance
 * at `instanceUrl` and streams its answer back: status, `Content-Type`, `Cache-Control`, body. The
 * request is aborted when the viewer goes away. Resolves null, having sent nothing, when that
 * instance cannot be reached (the caller answers itself).
 */
export async function forwardRequest(request: FastifyRequest, reply: FastifyReply, instanceUrl: string): Promise<FastifyReply | null> {
  const abort = new AbortController();
  request.raw.once('close', () => abort.abort());
  const headers: Record<string, string> = { [FORWARDED_HEADER]: '1' };
  for (const name of ['authorization', 'x-room-id']) {
    const value = request.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  let upstream: Response;
  try {
    upstream = await fetch(`${instanceUrl}${request.url}`, { method: request.method, headers, signal: abort.signal });
  } catch {
    return null;
  }
  for (const name of ['content-type', 'cache-control']) {
    const value = upstream.headers.get(name);
    if (value) reply.header(name, value);
  }
  reply.code(upstream.status);
  if (!upstream.body || request.method === 'HEAD') return reply.send();
  return reply.send(Readable.fromWeb(upstream.body as WebReadableStream));
}
