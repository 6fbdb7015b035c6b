/**
 * Movie routes `/api/room/movie/...` (docs/contract.md §4.5), all behind the `room` level.
 * Changes to the list broadcast MOVIES and a new current movie broadcasts CURRENT (§6.5).
 */
import type { FastifyInstance } from 'fastify';
import { MessageType } from '@/lib/contract/message';
import { MAX_PUSH_COUNT } from '@/lib/contract/validation';
import { ClearMoviesRequest, DeleteMoviesRequest, EditMovieRequest, IdRequest, MovieBaseRequest, SetCurrentRequest, SwapMoviesRequest } from '@/lib/contract/requests';
import { decodeArrayBody, decodeBody, decodeValue } from '../decode';
import { sendData, sendNoContent } from '../http/envelope';
import { badRequest } from '../errors';
import { requireRoom, tokenOf, type ServerContext } from '../http/guards';
import { parsePaging, queryOr } from '../http/query';
import type { RoomAccess } from '../rules/room-access';
import {
  clearMovies,
  currentView,
  deleteMovies,
  editMovie,
  listMovies,
  pushedView,
  pushMovies,
  setCurrentMovie,
  swapMovies,
} from '../rules/movies';
import { readMovieBase, type ProxyPolicy } from '../rules/movie-base';
import { publishKey } from '../rules/live';
import type { MovieBase } from '@/lib/contract/types';
import { checkAlistPush, isAlistMovie } from '../vendors/alist-movies';
import { checkEmbyPush, isEmbyMovie } from '../vendors/emby-movies';
import { isBilibiliMovie } from '../vendors/bilibili-movies';
import type { MovieRecord } from '../db';
import { convertedExtras, convertIfUnplayable } from './convert';
import { settledWithin } from '../within';

/** How often (ms) a quiet danmaku stream sends a comment line. */
const DANMAKU_KEEP_ALIVE_MS = 15_000;

/** How long (ms) starting a movie in a room that converts automatically waits for the server to read it. */
const AUTO_CONVERT_WAIT_MS = 4000;

export function registerMovieRoutes(app: FastifyInstance, context: ServerContext): void {
  const { store, hubs } = context;

  const proxyPolicy = async (): Promise<ProxyPolicy> => {
    const site = await store.settings.get();
    return { movieProxy: site.movie_proxy, liveProxy: site.live_proxy, rtmp: context.live !== null, convert: site.movie_convert, allowLocal: site.allow_proxy_to_local, allowAddresses: context.proxyAllowAddresses };
  };

  /**
   * A pushed AList base, checked against the pusher's bindings, with its folder password sealed. An
   * edit sends no password (the wire never shows it): the stored one stays while the path does.
   */
  const sealVendor = async (userId: string, base: MovieBase, previous?: MovieBase): Promise<MovieBase> => {
    if (isEmbyMovie(base)) {
      await checkEmbyPush(context.emby, userId, base);
      return base;
    }
    if (!isAlistMovie(base)) return base;
    await checkAlistPush(context.alist, userId, base);
    const alist = base.vendorInfo?.alist;
    const kept = previous?.vendorInfo?.alist;
    const password = alist?.password
      ? context.alist.sealFolderPassword(alist.password)
      : previous && isAlistMovie(previous) && kept?.path === alist?.path
        ? (kept?.password ?? '')
        : '';
    return { ...base, vendorInfo: { vendor: 'alist', backend: '', alist: { path: alist?.path ?? '', password } } };
  };

  const notify = (access: RoomAccess, type: MessageType.CURRENT | MessageType.MOVIES) =>
    hubs.notify(access.room.id, type, { userId: access.user.id, username: access.user.username });

  app.get('/api/room/movie/movies', async (request, reply) => {
    const access = await requireRoom(context, request);
    const paging = parsePaging(request.query);
    const list = await listMovies(store, access, {
      id: queryOr(request.query, 'id', ''),
      keyword: queryOr(request.query, 'keyword', ''),
      max: paging.max,
      offset: paging.offset,
      subPath: queryOr(request.query, 'subPath', ''),
    }, context.alist, context.emby);
    return sendData(reply, list);
  });

  app.get('/api/room/movie/current', async (request, reply) => {
    const access = await requireRoom(context, request);
    const extras = (movie: MovieRecord, query: URLSearchParams) => convertedExtras(app, context, movie, access.room.id, access.user.id, query);
    return sendData(reply, await currentView(store, access, Date.now(), tokenOf(request), context.hls?.available() ?? false, context, extras));
  });

  app.post('/api/room/movie/current', async (request, reply) => {
    const access = await requireRoom(context, request);
    const { id, subPath } = decodeBody(SetCurrentRequest, request.body);
    await setCurrentMovie(store, access, id, subPath, Date.now(), context.emby);
    // The room moved on: the conversions of its other movies stop at once, on every instance (docs/transcode.md).
    context.hubs.keepConversions(access.room.id, id);
    if (id) {
      // A room that converts automatically reads the film first, for a while; when that takes
      // longer, the room starts it as it is and switches when the answer comes.
      const converting = convertIfUnplayable(app, context, access.room.id, id, access.user.id, await proxyPolicy());
      const converted = await settledWithin(converting, AUTO_CONVERT_WAIT_MS, undefined);
      if (converted === undefined) {
        void converting.then((late) => {
          if (late) for (const type of [MessageType.MOVIES, MessageType.CURRENT] as const) notify(access, type);
        });
      } else if (converted) notify(access, MessageType.MOVIES);
    }
    notify(access, MessageType.CURRENT);
    return sendNoContent(reply);
  });

  app.post('/api/room/movie/push', async (request, reply) => {
    const access = await requireRoom(context, request);
    const base = await sealVendor(access.user.id, readMovieBase(decodeBody(MovieBaseRequest, request.body), await proxyPolicy()));
    const [movie] = await pushMovies(store, access, [base], false);
    notify(access, MessageType.MOVIES);
    return sendData(reply, pushedView(movie));
  });

  app.post('/api/room/movie/pushs', async (request, reply) => {
    const access = await requireRoom(context, request);
    const policy = await proxyPolicy();
    const items = decodeArrayBody(request.body);
    // Before reading any of them: the count alone decides (pushMovies checks it again).
    if (items.length > MAX_PUSH_COUNT) throw badRequest('too many movies');
    const bases = items.map((item) => {
      if (!item || typeof item !== 'object' || Array.isArray(item)) {
        throw badRequest('json: cannot unmarshal into an array of objects');
      }
      return readMovieBase(decodeValue(MovieBaseRequest, item), policy);
    });
    for (let index = 0; index < bases.length; index++) bases[index] = await sealVendor(access.user.id, bases[index]);
    const movies = bases.length ? await pushMovies(store, access, bases, true) : [];
    if (movies.length) notify(access, MessageType.MOVIES);
    return sendData(reply, movies.map(pushedView));
  });

  app.post('/api/room/movie/edit', async (request, reply) => {
    const access = await requireRoom(context, request);
    const body = decodeBody(EditMovieRequest, request.body);
    const previous = body.id.length === 32 ? await store.movies.find(access.room.id, body.id) : null;
    await editMovie(store, access, body.id, await sealVendor(access.user.id, readMovieBase(body, await proxyPolicy()), previous?.base));
    notify(access, MessageType.MOVIES);
    return sendNoContent(reply);
  });

  app.post('/api/room/movie/delete', async (request, reply) => {
    const access = await requireRoom(context, request);
    await deleteMovies(store, access, decodeBody(DeleteMoviesRequest, request.body).ids);
    notify(access, MessageType.MOVIES);
    return sendNoContent(reply);
  });

  app.post('/api/room/movie/clear', async (request, reply) => {
    const access = await requireRoom(context, request);
    await clearMovies(store, access, decodeBody(ClearMoviesRequest, request.body).parentId);
    notify(access, MessageType.MOVIES);
    return sendNoContent(reply);
  });

  // RTMP publish credentials of a live movie, for its creator (§4.5, docs/live.md).
  app.post('/api/room/movie/live/publishKey', async (request, reply) => {
    const access = await requireRoom(context, request);
    const { id } = decodeBody(IdRequest, request.body);
    return sendData(reply, await publishKey(store, context.tokens, access, id, context.live !== null, request.headers.host ?? 'localhost'));
  });

  // A movie's live danmaku as Server-Sent Events (§4.5, docs/vendors.md "bilibili live rooms"): a
  // bilibili live room's comments as `danmu` events. Any other movie has none: v0.9.11's answer for
  // a movie without a vendor is 400 `vendor  not support` (the vendor's name, empty, between the
  // words). Clients open the route only when `base.streamDanmu` names it.
  app.get('/api/room/movie/danmu/:movieId', async (request, reply) => {
    const access = await requireRoom(context, request);
    const movie = await store.movies.find(access.room.id, (request.params as { movieId: string }).movieId);
    if (!movie) throw badRequest('room or movie not found');
    if (!isBilibiliMovie(movie.base)) throw badRequest(`vendor ${movie.base.vendorInfo?.vendor ?? ''} not support`);
    if (!movie.base.live) throw badRequest('movie is not live');
    const cookies = (await context.bilibili.cookies(movie.creatorId).catch(() => null)) ?? {};
    const response = reply.raw;
    const unsubscribe = await context.bilibili.liveDanmaku.subscribe(movie.base.vendorInfo?.bilibili?.cid ?? 0, cookies, (text) => {
      if (response.headersSent) response.write(`event: danmu\ndata: ${text.replace(/[\r\n]+/g, ' ')}\n\n`);
    });
    reply.header('content-type', 'text/event-stream; charset=utf-8').header('cache-control', 'no-store').header('x-accel-buffering', 'no');
    reply.hijack();
    response.writeHead(200, reply.getHeaders() as Record<string, string>);
    response.write(': connected\n\n');
    // A comment line now and then keeps proxies from closing a quiet stream.
    const keepAlive = setInterval(() => response.write(': keep-alive\n\n'), DANMAKU_KEEP_ALIVE_MS);
    response.on('close', () => {
      clearInterval(keepAlive);
      unsubscribe();
    });
    return reply;
  });

  app.post('/api/room/movie/swap', async (request, reply) => {
    const access = await requireRoom(context, request);
    const { id1, id2 } = decodeBody(SwapMoviesRequest, request.body);
    await swapMovies(store, access, id1, id2);
    notify(access, MessageType.MOVIES);
    return sendNoContent(reply);
  });
}
