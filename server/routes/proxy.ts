/**
 * The movie proxy (docs/contract.md §4.5): `GET|HEAD /api/room/movie/proxy/:movieId` plays a
 * movie pushed with `proxy: true` through this server, `…/proxy/:movieId/m3u8/:targetToken`
 * serves what an HLS playlist refers to, and `…/proxy/:movieId/dash/:baseToken/<path>` what a DASH
 * manifest's segment templates name under a base the proxy rewrote (../proxy/mpd.ts). Authentication as for every room route, with the token also
 * accepted as `?token=` and the room as `?roomId=` (a player cannot send headers). Playlists are
 * rewritten so that every segment, key and variant also comes through here; anything else streams
 * through with the viewer's `Range` forwarded, so seeking works (for a source that ignores Range,
 * the proxy cuts the range out of the whole file itself: ../proxy/range.ts). The movie's `headers` go upstream.
 * Sources are reached through the address guard of ../proxy/upstream.ts.
 *
 * Live movies pushed with `proxy: true` come through `/api/room/movie/live/flv/:movieId(.flv)` (an
 * HTTP-FLV stream passed through, `no-store`) and `/api/room/movie/live/hls/list/:movieId(.m3u8)`
 * (the source's playlist, rewritten on every reload so that segments come through
 * `/api/room/movie/live/hls/data/:roomId/:movieId/:dataId`, where `dataId` is a signed target token
 * that expires, with the viewer's credentials as every room route).
 * A movie pushed over RTMP is served on the same routes from the live hub (docs/live.md): its
 * HTTP-FLV stream, and its HLS remux, whose segments are named by ffmpeg (`seg12.png`).
 */
import type { IncomingMessage } from 'node:http';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { LIVE_TARGET_TOKEN_TTL_SEC, TARGET_TOKEN_TTL_SEC, type InputTarget } from '../auth';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { badRequest, HttpError, notFound } from '../errors';
import { requireRoom, tokenOf, type ServerContext } from '../http/guards';
import { forwardRequest, wasForwarded } from '../http/forward';
import { isDashManifest, rewriteMpd, underBase } from '../proxy/mpd';
import { isPlaylist, MAX_PLAYLIST_BYTES, rewritePlaylist } from '../proxy/playlist';
import { peekStream, sniffPlaylist, SNIFF_BYTES } from '../proxy/sniff';
import { entryExtension, hasInputSecret, inputPath, PLAYLIST_NOT_FOLLOWED } from '../transcode/input';
import { byteSlice, planRange, readRange } from '../proxy/range';
import { openUpstream, type UpstreamPolicy } from '../proxy/upstream';
import { SLICE_BYTES, SliceAbandoned, type SliceCache } from '../proxy/slice-cache';
import { disguisePng } from '../live/hls-remux';
import { queryValue } from '../http/query';
import { alistSource, isAlistMovie } from '../vendors/alist-movies';
import { withoutApiKey } from '../vendors/emby';
import { embyEntryHeaders, embyUpstream, isEmbyMovie } from '../vendors/emby-movies';
import { bilibiliCdnHeaders } from '../vendors/bilibili';
import { bilibiliUpstream, isBilibiliMovie } from '../vendors/bilibili-movies';
import { inputClaim } from './convert';

/** Response headers passed on from the source. */
const PASSED_HEADERS = ['content-type', 'content-length', 'content-range', 'accept-ranges', 'last-modified', 'etag', 'cache-control'];

/** Reads a playlist body, refusing one over MAX_PLAYLIST_BYTES (400 `playlist too large`). */
async function readPlaylist(upstream: Readable): Promise<string> {
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

/**
 * How a request reaches a movie: `vod` through `/movie/proxy/…` (needs `movie_proxy`, refuses live
 * movies), `live` through `/movie/live/…` (needs `live_proxy`, only live movies).
 */
interface ProxyRoute {
  mode: 'vod' | 'live';
  targetToken: string | null;
  /** ffmpeg's input route: no caller authentication; the room comes from the input token. */
  publicRoomId?: string;
  /** The live segment route: the room named in the path must be the caller's (`roomId` of the query). */
  roomInPath?: boolean;
  /** `Cache-Control` for what streams through (live: `no-store`, as v0.9.11 sends). */
  cacheControl?: string;
  /** Pass the viewer's `Range` upstream (not for a live stream). */
  forwardRange: boolean;
  /**
   * The DASH base route: the path after the signed base (`targetToken` names a base folder), which
   * the target is resolved under (../proxy/mpd.ts `underBase`).
   */
  dashPath?: string;
  /**
   * For a movie pushed over RTMP (docs/live.md), what the route serves from the live hub instead of
   * a source: the HTTP-FLV stream, the HLS playlist, or one HLS segment (named `dataId`).
   */
  servesPush?: 'flv' | 'hlsList' | 'hlsData';
  /**
   * ffmpeg reading a movie the server converts (./convert.ts, ../transcode/input.ts): what the input
   * token names. The room comes from it (`publicRoomId`), and neither the site's `movie_proxy` nor
   * the movie's `proxy` is asked for; a body is taken for a playlist by its content, and rewritten
   * (a playlist token) or refused.
   */
  input?: InputTarget;
}

/** Whether a connection comes from this machine. */
function isLoopback(address: string | undefined): boolean {
  return address === '127.0.0.1' || address === '::1' || address === '::ffff:127.0.0.1';
}

/** The movie id of a path parameter, without the `.m3u8` / `.flv` suffix the live routes allow. */
function movieIdOf(param: string): string {
  return param.replace(/\.(m3u8|flv)$/i, '');
}

export function registerProxyRoutes(app: FastifyInstance, context: ServerContext): void {
  const { store, tokens } = context;

  /**
   * A stream pushed over RTMP into `movieId` as HTTP-FLV (docs/live.md): 404 `live stream not
   * started` while nobody pushes (a HEAD answers the same, so the creator's dialog can watch for
   * the push to arrive); the response ends when the broadcast does.
   */
  function watchPush(request: FastifyRequest, reply: FastifyReply, movieId: string): FastifyReply {
    const live = context.live;
    if (!live?.isPublishing(movieId)) throw notFound('live stream not started');
    reply.header('cache-control', 'no-store').type('video/x-flv');
    if (request.method === 'HEAD') return reply.send();
    const response = reply.raw;
    reply.hijack();
    response.writeHead(200, reply.getHeaders() as Record<string, string>);
    const stop = live.watch(movieId, {
      write: (chunk) => {
        response.write(chunk);
        return response.writableLength;
      },
      end: () => response.end(),
    });
    response.on('close', () => stop?.());
    return reply;
  }

  /**
   * The HLS playlist of a push (docs/live.md "HLS"), remuxed by ffmpeg: 404 `live stream not
   * started` while nobody pushes (or without ffmpeg).
   * Segment URLs end in `.png` while `ts_disguised_as_png` is on, `.ts` otherwise (§4.5).
   */
  async function pushPlaylist(reply: FastifyReply, roomId: string, movieId: string, query: string): Promise<FastifyReply> {
    const extension = (await store.settings.get()).ts_disguised_as_png ? 'png' : 'ts';
    const playlist = await context.hls?.playlist(movieId, (name) => `/api/room/movie/live/hls/data/${roomId}/${movieId}/${name}.${extension}?${query}`);
    if (!playlist) throw notFound('live stream not started');
    return reply.header('cache-control', 'no-store').type('application/vnd.apple.mpegurl').send(playlist);
  }

  /**
   * One segment of a push's HLS (§4.5): `<name>.png` (a 1×1 PNG, then the MPEG-TS) while
   * `ts_disguised_as_png` is on, `<name>.ts` otherwise; the other extension is 404 `not support file
   * type .ts` (or `.png`), any other 400; a segment that no longer exists 404.
   */
  async function pushSegment(reply: FastifyReply, movieId: string, dataId: string): Promise<FastifyReply> {
    const extension = path.extname(dataId);
    const disguised = (await store.settings.get()).ts_disguised_as_png;
    if (extension !== '.ts' && extension !== '.png') throw badRequest(`not support file type ${extension}`);
    if ((extension === '.png') !== disguised) throw notFound(`not support file type ${extension}`);
    const segment = await context.hls?.segment(movieId, dataId.slice(0, -extension.length));
    if (!segment) throw notFound('live stream segment not found');
    // Behind the viewer's credentials: a shared cache may not keep it.
    reply.header('cache-control', 'private, max-age=90');
    return disguised ? reply.type('image/png').send(Buffer.concat([disguisePng(), segment])) : reply.type('video/mp2t').send(segment);
  }

  /** Whether this instance holds the push of `movieId` (for HLS: and remuxes it). */
  function holdsPush(movieId: string): boolean {
    return Boolean(context.live?.isPublishing(movieId));
  }

  /**
   * Another instance's RTMP push, for a viewer who reached this one (docs/deployment.md "Running
   * more than one instance"): the same request, with the viewer's credentials, to the instance that
   * holds the push, and its answer streamed back. A forwarded request is never forwarded again.
   */
  async function forwardPush(request: FastifyRequest, reply: FastifyReply, instanceUrl: string): Promise<FastifyReply> {
    const forwarded = await forwardRequest(request, reply, instanceUrl);
    if (!forwarded) throw notFound('live stream not started');
    return forwarded;
  }

  async function proxy(request: FastifyRequest, reply: FastifyReply, route: ProxyRoute): Promise<FastifyReply> {
    const params = request.params as { movieId: string };
    const movieId = movieIdOf(params.movieId);
    let roomId: string;
    let query = '';
    let viewerId = '';
    if (route.publicRoomId === undefined) {
      const access = await requireRoom(context, request);
      roomId = access.room.id;
      if (route.roomInPath && (request.params as { roomId?: string }).roomId !== roomId) throw notFound('room or movie not found');
      viewerId = access.user.id;
      context.streams.hold(request, reply, viewerId, roomId);
      query = new URLSearchParams({ token: tokenOf(request), roomId }).toString();
    } else {
      roomId = route.publicRoomId;
    }
    const movie = await store.movies.find(roomId, movieId);
    if (!movie || (movie.base.isFolder && !isAlistMovie(movie.base) && !isEmbyMovie(movie.base))) throw notFound('room or movie not found');
    if (route.servesPush && movie.base.rtmpSource) {
      const elsewhere = holdsPush(movie.id) || wasForwarded(request) ? null : context.hubs.liveElsewhere(movie.id);
      if (elsewhere) return forwardPush(request, reply, elsewhere);
      if (route.servesPush === 'flv') return watchPush(request, reply, movie.id);
      // HLS of a push made while RTMP was on, asked for after it was turned off.
      if (!context.live) throw badRequest('rtmp is not enabled');
      if (route.servesPush === 'hlsList') return pushPlaylist(reply, roomId, movie.id, query);
      return pushSegment(reply, movie.id, route.targetToken ?? '');
    }
    const site = await store.settings.get();
    /** ffmpeg's input names an entry of a playlist the route rewrote: nothing of the vendor's is asked again. */
    const entry = route.input?.url || null;
    if (route.input) {
      // A room that converts automatically reads a film before it converts it (./convert.ts).
      if (!movie.base.convert && !(await store.rooms.settings(roomId)).auto_convert) throw badRequest('movie is not converted');
    } else if (route.mode === 'vod') {
      if (!site.movie_proxy) throw badRequest('movie proxy is not enabled');
      // A bilibili movie, live or not, always plays through here (docs/vendors.md "bilibili").
      if (!isBilibiliMovie(movie.base)) {
        if (!movie.base.proxy) throw badRequest('movie is not proxy');
        if (movie.base.live) throw badRequest('live proxy is not enabled');
      }
    } else {
      if (!site.live_proxy) throw badRequest('live proxy is not enabled');
      if (!movie.base.proxy) throw badRequest('movie is not proxy');
      if (!movie.base.live) throw badRequest('movie is not live');
    }

    let target = movie.base.url;
    let vendorHeaders: Record<string, string> = {};
    /** Which of the headers are no secret, and go on past a redirect to another origin (../proxy/upstream.ts). */
    let publicHeaders: string[] = [];
    /** What a vendor movie plays: a dynamic folder plays the room's current child, any other movie itself (""). */
    const playingSubPath = async () => {
      if (!movie.base.isFolder) return '';
      const current = await store.rooms.current(roomId);
      return current?.movieId === movie.id ? current.subPath : '';
    };
    if (isEmbyMovie(movie.base) && route.targetToken === null && !entry) {
      // The creator's media server, with the token in the headers (docs/vendors.md).
      const subtitle = queryValue(request.query, 't') === 'subtitle' ? Number(queryValue(request.query, 'id')) : null;
      const subPath = await playingSubPath();
      const choice = (name: string) => (queryValue(request.query, name) ? Number(queryValue(request.query, name)) : null);
      const upstream = await embyUpstream(context.emby, movie, { subPath, sourceIndex: Number(queryValue(request.query, 'source') || 0), subtitleIndex: subtitle, audio: choice('audio'), maxBitrate: choice('maxBitrate') });
      target = upstream.url;
      vendorHeaders = upstream.headers;
    }
    if (isBilibiliMovie(movie.base) && !entry) {
      if (route.targetToken === null) {
        const value = (name: string) => queryValue(request.query, name) ?? '';
        const upstream = await bilibiliUpstream(context.bilibili, movie, viewerId, { t: value('t'), id: value('id'), n: value('n'), query: new URLSearchParams(query) });
        if ('body' in upstream) return reply.header('cache-control', 'no-cache').type(upstream.contentType).send(upstream.body);
        target = upstream.url;
        vendorHeaders = upstream.headers;
      } else {
        // A segment of a live room's HLS: bilibili's CDN asks for its Referer too.
        vendorHeaders = bilibiliCdnHeaders();
      }
      publicHeaders = Object.keys(bilibiliCdnHeaders());
    }
    if (isAlistMovie(movie.base) && route.targetToken === null && !entry) {
      // The creator's AList file (docs/vendors.md); a dynamic folder plays the room's current child.
      const source = await alistSource(context.alist, movie, await playingSubPath());
      target = source.rawUrl;
      if (queryValue(request.query, 't') === 'subtitle') {
        const subtitle = source.subtitles[Number(queryValue(request.query, 'id'))];
        if (!subtitle) throw badRequest('id out of range');
        target = subtitle.url;
      }
    }
    let knownPlaylist = false;
    if (entry) target = entry;
    if (route.targetToken !== null) {
      const claims = await tokens.verifyProxyTarget(route.targetToken.replace(/\.(ts|png)$/i, ''));
      if (claims.roomId !== roomId || claims.movieId !== movie.id) throw badRequest('invalid proxy target');
      if ((route.dashPath !== undefined) !== Boolean(claims.base)) throw badRequest('invalid proxy target');
      target = claims.url;
      knownPlaylist = claims.playlist;
      if (route.dashPath !== undefined) {
        // The viewer's own query (its credentials) stays here; the segment's own goes upstream.
        const query = new URLSearchParams(request.raw.url?.split('?')[1] ?? '');
        query.delete('token');
        query.delete('roomId');
        const rest = query.size > 0 ? `${route.dashPath}?${query}` : route.dashPath;
        const under = underBase(claims.url, rest);
        if (!under) throw badRequest('invalid proxy target');
        target = under;
      }
    }

    if (isEmbyMovie(movie.base) && route.targetToken !== null) {
      // An entry of the media server's transcode playlists: with the creator's token too.
      vendorHeaders = await embyEntryHeaders(context.emby, movie, await playingSubPath(), target);
    }

    const range = request.headers.range;
    const policy = { allowLocal: site.allow_proxy_to_local, allowAddresses: context.proxyAllowAddresses };
    // A playlist ffmpeg reads is rewritten whole, never sliced.
    const sliceable = route.input ? !route.input.playlist : !knownPlaylist && !/\.(m3u8?|mpd)(\?|$)/i.test(new URL(target).pathname);
    if (route.mode === 'vod' && sliceable && context.sliceCache) {
      const slices = { target, headers: { ...(movie.base.headers ?? {}), ...vendorHeaders }, publicHeaders, range: typeof range === 'string' ? range : undefined, head: request.method === 'HEAD', cacheControl: route.cacheControl, refusePlaylists: Boolean(route.input) };
      const served = await serveSlices(reply, context.sliceCache, slices, policy).catch((error: unknown) => {
        if (!(error instanceof SliceAbandoned)) throw error;
        // The viewer went away while the slice came: nobody to answer.
        reply.hijack();
        return true;
      });
      if (served) return reply;
    }

    const headers: Record<string, string> = { ...(movie.base.headers ?? {}), ...vendorHeaders };
    // Only a Range this server can read goes on, numbers bounded (RFC 9110 §14.2: one it cannot is ignored).
    const readable = typeof range === 'string' ? readRange(range) : null;
    if (route.forwardRange && readable && Number.isFinite(readable.start ?? 0)) headers.Range = range!.trim();
    const { response: upstream, url: finalUrl } = await openUpstream(
      { method: request.method === 'HEAD' ? 'HEAD' : 'GET', url: target, headers, publicHeaders },
      policy,
    );
    const status = upstream.statusCode ?? 502;
    if (status === 416 && headers.Range) {
      // A range past the end: the viewer hears so, with the size the source gave.
      upstream.resume();
      const size = /^bytes \*\/\d{1,15}$/.exec(String(upstream.headers['content-range'] ?? ''))?.[0];
      if (size) reply.header('content-range', size);
      return reply.code(416).header('content-length', 0).send();
    }
    if (status >= 400) {
      upstream.resume();
      throw new HttpError(502, `the movie source answered ${status}`);
    }

    let body: Readable = upstream;
    if (route.input) {
      const served = await serveInput(reply, upstream, finalUrl, movie.id, roomId, route.input, typeof range === 'string' ? range : undefined);
      if (!served) return reply;
      body = served;
    } else if (route.mode === 'vod' && route.targetToken === null && isDashManifest(finalUrl, upstream.headers['content-type'])) {
      if (request.method === 'HEAD') {
        upstream.resume();
        return reply.type('application/dash+xml').send();
      }
      const text = await readPlaylist(upstream);
      const bases: string[] = [];
      const withPlaceholders = rewriteMpd(text, finalUrl, (base) => `\u0000${bases.push(base) - 1}\u0000`);
      const urls = await Promise.all(
        bases.map(async (base) => `/api/room/movie/proxy/${movie.id}/dash/${await tokens.signProxyTarget({ roomId, movieId: movie.id, url: base, playlist: false, base: true })}/`),
      );
      const body = withPlaceholders.replace(/\u0000(\d+)\u0000/g, (_match, index: string) => urls[Number(index)]);
      return reply.header('cache-control', 'no-cache').type('application/dash+xml').send(body);
    }

    if (!route.input && (knownPlaylist || isPlaylist(finalUrl, upstream.headers['content-type']))) {
      if (request.method === 'HEAD') {
        upstream.resume();
        return reply.type('application/vnd.apple.mpegurl').send();
      }
      const text = await readPlaylist(upstream);
      // Each URI becomes a placeholder first, since signing its target token is asynchronous.
      const targets: { url: string; playlist: boolean }[] = [];
      // An Emby movie's entries lose any access token of the media server's: the viewers can read a
      // target token's claims, and the proxy sends the token in a header.
      const entryUrl = isEmbyMovie(movie.base) ? withoutApiKey : (url: string) => url;
      const withPlaceholders = rewritePlaylist(text, finalUrl, (url, playlist) => `\u0000${targets.push({ url: entryUrl(url), playlist }) - 1}\u0000`);
      const urls = await Promise.all(
        targets.map(async (item) => {
          const token = await tokens.signProxyTarget({ roomId, movieId: movie.id, ...item }, route.mode === 'live' ? LIVE_TARGET_TOKEN_TTL_SEC : TARGET_TOKEN_TTL_SEC);
          // Live: the segment route of v0.9.11, with the viewer's credentials as every other route asks.
          return route.mode === 'live' ? `/api/room/movie/live/hls/data/${roomId}/${movie.id}/${token}?${query}` : `/api/room/movie/proxy/${movie.id}/m3u8/${token}?${query}`;
        }),
      );
      const body = withPlaceholders.replace(/\u0000(\d+)\u0000/g, (_match, index: string) => urls[Number(index)]);
      // A live playlist changes with every reload.
      return reply.header('cache-control', route.mode === 'live' ? 'no-store' : 'no-cache').type('application/vnd.apple.mpegurl').send(body);
    }

    reply.code(status);
    for (const name of PASSED_HEADERS) {
      const value = upstream.headers[name];
      if (value !== undefined) reply.header(name, value);
    }
    if (route.cacheControl) reply.header('cache-control', route.cacheControl);
    // The viewer went away (or the response ended): stop reading from the source.
    reply.raw.on('close', () => {
      upstream.destroy();
      body.destroy();
    });
    // A source that ignores Range (the whole file, 200, of known length): the proxy serves the range
    // itself, so the viewer can seek (../proxy/range.ts, docs/hosting.md).
    const total = Number(upstream.headers['content-length']);
    if (route.forwardRange && status === 200 && !upstream.headers['content-range'] && Number.isSafeInteger(total) && total > 0) {
      reply.header('accept-ranges', 'bytes');
      const plan = planRange(typeof range === 'string' ? range : undefined, total);
      if (plan.status === 416) {
        upstream.destroy();
        return reply.code(416).header('content-range', `bytes */${total}`).header('content-length', 0).send();
      }
      if (plan.status === 206) {
        reply.code(206).header('content-range', `bytes ${plan.start}-${plan.end}/${total}`).header('content-length', plan.end - plan.start + 1);
        if (request.method === 'HEAD') {
          upstream.destroy();
          return reply.send();
        }
        const slice = byteSlice(plan.start, plan.end);
        // Everything the viewer asked for has passed: the rest of the file is not read.
        slice.on('end', () => body.destroy());
        return reply.send(body.pipe(slice));
      }
    }
    return reply.send(body);
  }

  /**
   * What ffmpeg's input route sends for an upstream answer (../transcode/input.ts): a body that
   * starts as an HLS playlist is, for a playlist token, rewritten so that every URI in it is another
   * input URL of this movie (same room, source and expiry; a variant as a playlist, anything else as
   * a film keeping its extension), and sent (resolves null); for a film token it is refused, and a
   * DASH manifest always, with 400 PLAYLIST_NOT_FOLLOWED. Anything else resolves with the body to
   * stream on. Only the start of a body (no Range, or one from byte 0) is read for this: ffmpeg
   * picks a format there.
   */
  async function serveInput(reply: FastifyReply, upstream: IncomingMessage, finalUrl: string, movieId: string, roomId: string, input: InputTarget, range: string | undefined): Promise<Readable | null> {
    if (range && !/^bytes=0*-/.test(range.trim())) return upstream;
    let peeked = await peekStream(upstream, SNIFF_BYTES);
    let kind = sniffPlaylist(peeked.head, peeked.ended);
    // An ID3 tag before the playlist (ffmpeg skips it): read on, as far as a playlist may go.
    while (kind === 'more' && input.playlist && peeked.head.length < MAX_PLAYLIST_BYTES) {
      peeked = await peekStream(peeked.body, Math.min(MAX_PLAYLIST_BYTES, peeked.head.length * 4));
      kind = sniffPlaylist(peeked.head, peeked.ended);
    }
    if (kind === 'dash' || (kind === 'hls' && !input.playlist) || (kind === 'more' && input.playlist)) {
      peeked.body.destroy();
      throw badRequest(PLAYLIST_NOT_FOLLOWED);
    }
    if (kind !== 'hls') return peeked.body;
    const text = await readPlaylist(peeked.body);
    const start = text.indexOf('#EXTM3U');
    const rewritten = rewritePlaylist(text.slice(start), finalUrl, (url, playlist) =>
      inputPath(movieId, tokens.signInput({ ...input, roomId, url, playlist }), playlist ? '.m3u8' : entryExtension(url)),
    );
    reply.header('cache-control', 'no-store').type('application/vnd.apple.mpegurl').send(rewritten);
    return null;
  }

  app.get('/api/room/movie/proxy/:movieId', (request, reply) => proxy(request, reply, { mode: 'vod', targetToken: null, forwardRange: true }));
  // ffmpeg reading a movie this server converts (./convert.ts, ../transcode/input.ts): from this
  // machine only, with this process's secret header, and a token that names the room, the movie and
  // what it plays, and has not expired. Its last `.<ext>` is the extension ffmpeg's HLS reader asks for.
  app.get('/api/room/movie/proxy/:movieId/input/:inputToken', async (request, reply) => {
    const { movieId, inputToken } = request.params as { movieId: string; inputToken: string };
    if (!isLoopback(request.socket.remoteAddress) || !hasInputSecret(request.headers)) throw notFound('room or movie not found');
    const target = tokens.verifyInput(inputToken.split('.').slice(0, 2).join('.'));
    const movie = target?.movieId === movieId ? await store.movies.find(target.roomId, movieId) : null;
    if (!target || !movie || target.source !== inputClaim(movie)) throw badRequest('invalid proxy target');
    return proxy(request, reply, { mode: 'vod', targetToken: null, forwardRange: true, publicRoomId: target.roomId, input: target });
  });
  app.get('/api/room/movie/proxy/:movieId/m3u8/:targetToken', (request, reply) =>
    proxy(request, reply, { mode: 'vod', targetToken: (request.params as { targetToken: string }).targetToken, forwardRange: true }),
  );
  // A proxied DASH manifest's segments (../proxy/mpd.ts): the path under a signed base folder. The
  // player sends the manifest's credentials with each (components/player/engines/dash.ts).
  app.get('/api/room/movie/proxy/:movieId/dash/:baseToken/*', (request, reply) => {
    const params = request.params as { baseToken: string; '*': string };
    return proxy(request, reply, { mode: 'vod', targetToken: params.baseToken, dashPath: params['*'], forwardRange: true });
  });
  // Live (§4.5): HTTP-FLV passes through as a stream; HLS as its playlist, reloaded on every request,
  // with segments (and variant playlists) behind the public data route.
  app.get('/api/room/movie/live/flv/:movieId', (request, reply) =>
    proxy(request, reply, { mode: 'live', targetToken: null, forwardRange: false, cacheControl: 'no-store', servesPush: 'flv' }),
  );
  app.get('/api/room/movie/live/hls/list/:movieId', (request, reply) =>
    proxy(request, reply, { mode: 'live', targetToken: null, forwardRange: false, cacheControl: 'no-store', servesPush: 'hlsList' }),
  );
  // A push's segments are named by ffmpeg (`seg12.png`); a proxied source's by a signed target token
  // that expires. Each needs what the playlist needs (the viewer's token, the room in the path).
  app.get('/api/room/movie/live/hls/data/:roomId/:movieId/:dataId', (request, reply) => {
    const { dataId } = request.params as { dataId: string };
    return proxy(request, reply, { mode: 'live', targetToken: dataId, forwardRange: false, cacheControl: 'private, max-age=90', servesPush: 'hlsData', roomInPath: true });
  });
}

/**
 * Serves a proxied file from the shared slice cache (../proxy/slice-cache.ts): the viewer's range
 * (or the whole file) from slices fetched once for every viewer. Resolves true once it sent the
 * answer, false, having sent nothing, when the source cannot be sliced (the caller then streams it
 * through). (Not the reply itself: a Fastify reply is a thenable that an `await` would wait out.)
 */
async function serveSlices(
  reply: FastifyReply,
  cache: SliceCache,
  request: { target: string; headers: Record<string, string>; publicHeaders: readonly string[]; range: string | undefined; head: boolean; cacheControl: string | undefined; refusePlaylists?: boolean },
  policy: UpstreamPolicy,
): Promise<boolean> {
  const key = `${request.target}\n${JSON.stringify(Object.entries(request.headers).sort())}`;
  const origin = new URL(request.target).origin;
  if (cache.isUnsliceable(key, origin)) return false;
  const open = (extra: Record<string, string>) => openUpstream({ method: 'GET', url: request.target, headers: { ...request.headers, ...extra }, publicHeaders: request.publicHeaders }, policy);
  // The viewer went away: a slice only they waited for is no longer fetched.
  const gone = new AbortController();
  reply.raw.once('close', () => gone.abort());
  const unsatisfiable = (total: number) => {
    reply.code(416).header('content-range', `bytes */${total}`).header('content-length', 0).send();
    return true;
  };
  const range = readRange(request.range);
  const askedStart = range?.start ?? null;
  const known = cache.totalOf(key);
  if (askedStart !== null && known !== undefined && askedStart >= known) return unsatisfiable(known);
  // A start no file reaches (a number of 16 digits or more) is not asked of the source: slice 0 says the size.
  let index = askedStart !== null && Number.isSafeInteger(askedStart) ? Math.floor(askedStart / SLICE_BYTES) : 0;
  let slice = await cache.slice(key, index, open, origin, gone.signal);
  if (!slice) {
    // Past the end, as the source's 416 said: the same answer here (RFC 9110 §15.5.17).
    const total = cache.totalOf(key);
    return askedStart !== null && total !== undefined && askedStart >= total ? unsatisfiable(total) : false;
  }
  const plan = planRange(range ? request.range : undefined, slice.total);
  if (plan.status === 416) return unsatisfiable(slice.total);
  const [start, end] = plan.status === 206 ? [plan.start, plan.end] : [0, slice.total - 1];
  if (Math.floor(start / SLICE_BYTES) !== index) {
    // A range from the end (`bytes=-500`): its first slice is another one.
    index = Math.floor(start / SLICE_BYTES);
    slice = await cache.slice(key, index, open, origin, gone.signal);
    if (!slice) return false;
  }
  // ffmpeg's input (../transcode/input.ts): a film whose start is a playlist or manifest is refused.
  const kind = request.refusePlaylists && start === 0 ? sniffPlaylist(slice.data.subarray(0, SNIFF_BYTES), slice.data.length === slice.total) : null;
  if (kind === 'hls' || kind === 'dash') throw badRequest(PLAYLIST_NOT_FOLLOWED);
  reply.code(plan.status).header('accept-ranges', 'bytes').header('content-length', end - start + 1);
  if (plan.status === 206) reply.header('content-range', `bytes ${start}-${end}/${slice.total}`);
  if (slice.contentType) reply.header('content-type', slice.contentType);
  if (slice.etag) reply.header('etag', slice.etag);
  if (slice.lastModified) reply.header('last-modified', slice.lastModified);
  if (request.cacheControl) reply.header('cache-control', request.cacheControl);
  if (request.head) {
    reply.send();
    return true;
  }
  const body = cache.stream(key, origin, slice, start, end, open, gone.signal);
  reply.raw.on('close', () => body.destroy());
  reply.send(body);
  return true;
}
