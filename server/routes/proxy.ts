/**
 * The movie proxy (server-contract.md §4.5): `GET|HEAD /api/room/movie/proxy/:movieId` plays a
 * movie pushed with `proxy: true` through this server, and `…/proxy/:movieId/m3u8/:targetToken`
 * serves what an HLS playlist refers to. Authentication as for every room route, with the token also
 * accepted as `?token=` and the room as `?roomId=` (a player cannot send headers). Playlists are
 * rewritten so that every segment, key and variant also comes through here; anything else streams
 * through with the viewer's `Range` forwarded, so seeking works. The movie's `headers` go upstream.
 * Sources are reached through the address guard of ../proxy/upstream.ts.
 */
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { badRequest, HttpError, notFound } from '../errors';
import { requireRoom, tokenOf, type ServerContext } from '../http/guards';
import { isPlaylist, MAX_PLAYLIST_BYTES, rewritePlaylist } from '../proxy/playlist';
import { openUpstream } from '../proxy/upstream';

/** Response headers passed on from the source. */
const PASSED_HEADERS = ['content-type', 'content-length', 'content-range', 'accept-ranges', 'last-modified', 'etag', 'cache-control'];

/** Reads a playlist body, refusing one over MAX_PLAYLIST_BYTES (400 `playlist too large`). */
async function readPlaylist(upstream: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of upstream) {
    size += (chunk as Buffer).length;
    if (size > MAX_PLAYLIST_BYTES) {
      upstream.destroy();
      throw badRequest('playlist too large');
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export function registerProxyRoutes(app: FastifyInstance, context: ServerContext): void {
  const { store, tokens } = context;

  async function proxy(request: FastifyRequest, reply: FastifyReply, targetToken: string | null): Promise<FastifyReply> {
    const access = await requireRoom(context, request);
    const { movieId } = request.params as { movieId: string };
    const movie = store.movies.find(access.room.id, movieId);
    if (!movie || movie.base.isFolder) throw notFound('room or movie not found');
    const site = store.settings.get();
    if (!site.movie_proxy) throw badRequest('movie proxy is not enabled');
    if (!movie.base.proxy) throw badRequest('movie is not proxy');
    if (movie.base.live) throw badRequest('live proxy is not enabled');

    let target = movie.base.url;
    let knownPlaylist = false;
    if (targetToken !== null) {
      const claims = await tokens.verifyProxyTarget(targetToken);
      if (claims.roomId !== access.room.id || claims.movieId !== movie.id) throw badRequest('invalid proxy target');
      target = claims.url;
      knownPlaylist = claims.playlist;
    }

    const headers: Record<string, string> = { ...(movie.base.headers ?? {}) };
    const range = request.headers.range;
    if (typeof range === 'string') headers.Range = range;
    const { response: upstream, url: finalUrl } = await openUpstream(
      { method: request.method === 'HEAD' ? 'HEAD' : 'GET', url: target, headers },
      { allowLocal: site.allow_proxy_to_local, allowAddresses: context.proxyAllowAddresses },
    );
    const status = upstream.statusCode ?? 502;
    if (status >= 400) {
      upstream.resume();
      throw new HttpError(502, `the movie source answered ${status}`);
    }

    if (knownPlaylist || isPlaylist(finalUrl, upstream.headers['content-type'])) {
      if (request.method === 'HEAD') {
        upstream.resume();
        return reply.type('application/vnd.apple.mpegurl').send();
      }
      const text = await readPlaylist(upstream);
      // Each URI becomes a placeholder first, since signing its target token is asynchronous.
      const targets: { url: string; playlist: boolean }[] = [];
      const withPlaceholders = rewritePlaylist(text, finalUrl, (url, playlist) => `\u0000${targets.push({ url, playlist }) - 1}\u0000`);
      const query = new URLSearchParams({ token: tokenOf(request), roomId: access.room.id }).toString();
      const urls = await Promise.all(
        targets.map(async (item) => {
          const token = await tokens.signProxyTarget({ roomId: access.room.id, movieId: movie.id, ...item });
          return `/api/room/movie/proxy/${movie.id}/m3u8/${token}?${query}`;
        }),
      );
      const body = withPlaceholders.replace(/\u0000(\d+)\u0000/g, (_match, index: string) => urls[Number(index)]);
      return reply.header('cache-control', 'no-cache').type('application/vnd.apple.mpegurl').send(body);
    }

    reply.code(status);
    for (const name of PASSED_HEADERS) {
      const value = upstream.headers[name];
      if (value !== undefined) reply.header(name, value);
    }
    // The viewer went away (or the response ended): stop reading from the source.
    reply.raw.on('close', () => upstream.destroy());
    return reply.send(upstream);
  }

  app.get('/api/room/movie/proxy/:movieId', (request, reply) => proxy(request, reply, null));
  app.get('/api/room/movie/proxy/:movieId/m3u8/:targetToken', (request, reply) =>
    proxy(request, reply, (request.params as { targetToken: string }).targetToken),
  );
}
