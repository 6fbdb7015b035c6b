/**
 * Serves the exported web client under `/web` (docs/contract.md §1.2, docs/static-export.md §1.4):
 * `/` and `/web` redirect to `/web/`; files resolve per `resolveWebFile`, sent as the build's brotli
 * or gzip copy when there is one and the browser accepts it; a missing export answers 503 with
 * instructions instead of a blank page.
 */
import fs from 'node:fs';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import path from 'node:path';
import { cacheControlFor, resolveWebFile } from '../rules/web-path';
import { documentPolicyHeader } from '../http/security-headers';

/** Text of the 503 answered while the client has not been built. */
export const WEB_NOT_BUILT = 'The web client has not been built: run `npm run build` (it writes ./out), then reload.';

/**
 * Registers the static routes for the export directory `webDir` (absolute). Documents carry their
 * Content Security Policy with `frame-ancestors <frameAncestors>` (../http/security-headers.ts).
 */
export async function registerWebRoutes(app: FastifyInstance, webDir: string, frameAncestors: string): Promise<void> {
  await app.register(fastifyStatic, {
    root: webDir,
    serve: false,
    cacheControl: false,
    // The build's brotli and gzip copies (scripts/precompress.mjs) when the browser accepts them;
    // without a copy, @fastify/compress compresses the answer on the fly.
    preCompressed: true,
  });

  app.get('/', async (_request, reply) => reply.redirect('/web/', 301));
  app.get('/web', async (_request, reply) => reply.redirect('/web/', 301));

  app.get('/web/*', async (request: FastifyRequest, reply: FastifyReply) => {
    if (!fs.existsSync(webDir)) {
      return reply.code(503).type('text/plain; charset=utf-8').header('cache-control', 'no-store').send(WEB_NOT_BUILT);
    }
    const rawPath = (request.raw.url ?? '').split('?')[0].slice('/web/'.length);
    const resolved = resolveWebFile(webDir, rawPath);
    if (!resolved) return reply.code(404).type('text/plain; charset=utf-8').send('404 page not found');
    const cacheControl = cacheControlFor(resolved.file);
    if (cacheControl) reply.header('cache-control', cacheControl);
    // The body depends on Accept-Encoding (a build's copy, or compressed on the fly): caches must know.
    reply.header('vary', 'Accept-Encoding');
    if (resolved.file.endsWith('.html')) {
      const policy = documentPolicyHeader(path.join(webDir, resolved.file), frameAncestors);
      if (policy) reply.header('content-security-policy', policy);
    }
    return reply.code(resolved.status).sendFile(resolved.file, webDir);
  });
}
