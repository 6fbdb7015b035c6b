/**
 * Movie rules (docs/contract.md §4.5, §7): the wire shapes of movies and of the current movie, and
 * list, push, delete, clear, swap, edit and set-current. What a pushed MovieBase may be is decided in
 * ./movie-base.ts.
 */
import zlib from 'node:zlib';
import type { CurrentMovie, Movie, MovieBase, MovieList, MoviePath, PlaybackStatus, PushedMovie } from '@/lib/contract/types';
import { Permission } from '@/lib/contract/roles';
import { extrapolate } from '@/lib/contract/playback';
import type { PlaybackState } from '@/lib/contract/playback';
import { MAX_DELETE_IDS, MAX_PUSH_COUNT } from '@/lib/contract/validation';
import type { MovieListRow, MovieRecord, Store, StoredCurrent } from '../db';
import { badRequest, forbidden } from '../errors';
import { hasMemberPermission } from './permissions';
import { subjectOf, type RoomAccess } from './room-access';
import { newId } from './users';
import type { AlistAccounts } from '../vendors/alist-accounts';
import { joinAlistPath } from '../vendors/alist-accounts';
import type { EmbyAccounts } from '../vendors/emby-accounts';
import { embyFolderPage, embyPlaybackBase, embyTarget, isEmbyMovie } from '../vendors/emby-movies';
import type { BilibiliAccounts } from '../vendors/bilibili-accounts';
import { bilibiliPlaybackBase, isBilibiliMovie } from '../vendors/bilibili-movies';
import { alistFolderPage, alistPlaybackBase, alistSource, alistTarget, isAlistMovie } from '../vendors/alist-movies';

/** The file extension of the URL's path without the dot (`m3u8`, `mp4`), or "". */
export function typeFromUrl(url: string): string {
  try {
    const pathname = new URL(url).pathname;
    const last = pathname.slice(pathname.lastIndexOf('/') + 1);
    const dot = last.lastIndexOf('.');
    return dot >= 0 ? last.slice(dot + 1) : '';
  } catch {
    return '';
  }
}

/**
 * A MovieBase as the wire shows it (§7.1): every scalar key present, `type` filled from the URL
 * when empty, maps and lists only when non-empty. `hideSource` blanks `url` and drops `headers`
 * (a proxied movie seen by someone other than its creator).
 */
export function wireBase(base: MovieBase, hideSource = false): MovieBase {
  const wire: MovieBase = {
    url: hideSource ? '' : base.url,
    name: base.name,
    type: base.type || (base.isFolder ? '' : typeFromUrl(base.url)),
    live: Boolean(base.live),
    proxy: Boolean(base.proxy),
    rtmpSource: Boolean(base.rtmpSource),
    danmu: base.danmu ?? '',
    streamDanmu: base.streamDanmu ?? '',
    isFolder: Boolean(base.isFolder),
    parentId: base.parentId ?? '',
    vendorInfo: wireVendorInfo(base),
  };
  if (base.headers && !hideSource && Object.keys(base.headers).length) wire.headers = base.headers;
  if (base.subtitles && Object.keys(base.subtitles).length) wire.subtitles = base.subtitles;
  if (base.moreSources?.length) wire.moreSources = base.moreSources;
  // Companion extension (docs/transcode.md): shown only when on, so the edit dialog keeps it.
  if (base.convert) wire.convert = true;
  return wire;
}

/** A base's `vendorInfo` as the wire shows it: never a folder password. */
function wireVendorInfo(base: MovieBase): NonNullable<MovieBase['vendorInfo']> {
  const info = base.vendorInfo;
  if (info?.vendor === 'alist') return { vendor: 'alist', backend: info.backend ?? '', alist: { path: info.alist?.path ?? '' } };
  if (info?.vendor === 'emby') return { vendor: 'emby', backend: info.backend ?? '', emby: { path: info.emby?.path ?? '', transcode: Boolean(info.emby?.transcode) } };
  if (info?.vendor === 'bilibili') return { vendor: 'bilibili', backend: info.backend ?? '', bilibili: { ...info.bilibili, shared: Boolean(info.bilibili?.shared) } };
  return { vendor: '', backend: '' };
}

/** A Movie (§7.2): note the key `createAt`; list items have an empty `subPath`. */
export function movieView(movie: MovieListRow, callerId: string): Movie {
  return {
    id: movie.id,
    creator: movie.creator,
    creatorId: movie.creatorId,
    subPath: '',
    base: wireBase(movie.base, Boolean(movie.base.proxy) && movie.creatorId !== callerId),
    createAt: movie.createdAt,
  };
}

/** What push returns: the stored record `{id, creatorId, base}` (§4.5). */
export function pushedView(movie: MovieRecord): PushedMovie {
  return { id: movie.id, creatorId: movie.creatorId, base: movie.base };
}

/** The empty Movie of a room without a current movie (§7.3). */
export function emptyMovie(): Movie {
  return {
    id: '',
    creator: '',
    creatorId: '',
    subPath: '',
    base: wireBase({ url: '', name: '' }),
    createAt: 0,
  };
}

/** `expireId` of a movie: CRC32-IEEE of its id (§7.3). */
export function expireIdOf(movieId: string): number {
  return movieId ? zlib.crc32(movieId) >>> 0 : 0;
}

/** A status as JSON (§7.3): `isPlaying`, `currentTime`, `playbackRate` omitted when zero; `lastUpdate` RFC 3339. */
export function statusJson(status: PlaybackState, lastUpdateMs: number): PlaybackStatus {
  const json: PlaybackStatus = { lastUpdate: new Date(lastUpdateMs).toISOString() };
  if (status.isPlaying) json.isPlaying = true;
  if (status.currentTime) json.currentTime = status.currentTime;
  if (status.playbackRate) json.playbackRate = status.playbackRate;
  return json;
}

/** The room's current movie (null when none, or when it no longer exists). */
export async function currentMovie(store: Store, roomId: string, current: StoredCurrent): Promise<MovieListRow | null> {
  return current.movieId ? await store.movies.find(roomId, current.movieId) : null;
}

/**
 * The room status extrapolated to `nowMs` (§6.7 step 1); live movies stay (playing, 0, 1).
 * Returns null when the room does not exist.
 */
export async function roomStatusAt(store: Store, roomId: string, nowMs: number) {
  const current = await store.rooms.current(roomId);
  if (!current) return null;
  const movie = await currentMovie(store, roomId, current);
  const status = extrapolate(current, nowMs, Boolean(movie?.base.live));
  return { current, movie, status };
}

/** Whether a live source is HLS: type m3u8/m3u/hls, or (no type) a URL path ending in .m3u8/.m3u. */
export function isLiveHlsSource(url: string, type: string): boolean {
  const declared = type.trim().toLowerCase();
  if (declared) return declared === 'm3u8' || declared === 'm3u' || declared === 'hls';
  return /\.m3u8?$/i.test(url.split(/[?#]/)[0]);
}

/** Users' vendor accounts, which play the vendors' movies (docs/vendors.md). */
export interface VendorAccounts {
  alist: AlistAccounts;
  emby: EmbyAccounts;
  bilibili: BilibiliAccounts;
}

/**
 * `GET /api/room/movie/current` (§7.3), extrapolated to `nowMs`. A proxied movie's `url` becomes the
 * proxy route with the caller's raw `token` ("" for a guest) and the room id (§7.2). `pushHls`: the
 * server remuxes pushes into HLS (docs/live.md), offered as a second source of a push. A converted
 * movie's `url` becomes its HLS on this server (docs/transcode.md), with what `convertedExtras`
 * adds (its sounds and embedded subtitles).
 */
export async function currentView(
  store: Store,
  access: RoomAccess,
  nowMs: number,
  token = '',
  pushHls: boolean,
  vendors: VendorAccounts,
  convertedExtras?: (movie: MovieRecord, query: URLSearchParams) => Promise<Pick<MovieBase, 'mediaChoices' | 'subtitles'>>,
): Promise<CurrentMovie> {
  const { alist, emby, bilibili } = vendors;
  const state = await roomStatusAt(store, access.room.id, nowMs);
  if (!state?.movie) {
    return { movie: emptyMovie(), status: { lastUpdate: '0001-01-01T00:00:00Z' }, expireId: 0 };
  }
  const movie = movieView(state.movie, access.user.id);
  movie.subPath = state.current.subPath;
  // A proxied movie's headers stay on the server, which sends them upstream (§7.1, §7.2); any other
  // movie's go to the player, which sends them with its requests (hls.js, mpegts.js).
  if (movie.base.proxy) delete movie.base.headers;
  const query = new URLSearchParams({ token, roomId: access.room.id });
  if (state.movie.base.convert && !state.movie.base.isFolder) {
    // Converted by this server for the room (docs/transcode.md): its HLS, whatever the source is.
    delete movie.base.headers;
    movie.base.url = `/api/room/movie/convert/${movie.id}/index.m3u8?${query}`;
    movie.base.type = 'm3u8';
    const extras = (await convertedExtras?.(state.movie, query)) ?? {};
    if (extras.mediaChoices) movie.base.mediaChoices = extras.mediaChoices;
    if (extras.subtitles) movie.base.subtitles = { ...extras.subtitles, ...(movie.base.subtitles ?? {}) };
  } else if (isBilibiliMovie(state.movie.base)) {
    // Always through the proxy, with the creator's or the viewer's account (docs/vendors.md "bilibili").
    movie.base = await bilibiliPlaybackBase(bilibili, state.movie, movie.base, query, access.user.id);
  } else if (isEmbyMovie(state.movie.base)) {
    // Always through the proxy, with the creator's account (docs/vendors.md).
    movie.base = await embyPlaybackBase(emby, state.movie, movie.base, query, state.current.subPath);
    if (state.movie.base.isFolder) {
      // The child that plays, as the dynamic folder's listing shows it.
      const child = await embyTarget(emby, state.movie, state.current.subPath);
      movie.base.name = await emby.itemName(state.movie.creatorId, child.serverId, child.itemId);
      movie.base.isFolder = false;
      movie.base.vendorInfo = { vendor: 'emby', backend: '', emby: { path: `${child.serverId}/${child.itemId}` } };
    }
  } else if (isAlistMovie(state.movie.base)) {
    // With the creator's AList account (docs/vendors.md): viewers need none.
    const source = await alistSource(alist, state.movie, state.current.subPath);
    movie.base = alistPlaybackBase(movie.base, source, movie.id, query);
    if (state.movie.base.isFolder) {
      // The child that plays, as the dynamic folder's listing shows it.
      const child = alistTarget(state.movie.base, state.current.subPath);
      movie.base.name = source.name;
      movie.base.isFolder = false;
      movie.base.vendorInfo = { vendor: 'alist', backend: movie.base.vendorInfo?.backend ?? '', alist: { path: joinAlistPath(child.serverId, child.path) } };
    }
  } else if (movie.base.rtmpSource) {
    // A push into the room (docs/live.md): its HTTP-FLV stream (the lowest latency), with the HLS
    // remux as a second source when ffmpeg is there. v0.9.11 has the two the other way round.
    movie.base.url = `/api/room/movie/live/flv/${movie.id}.flv?${query}`;
    movie.base.type = 'flv';
    if (pushHls) movie.base.moreSources = [...(movie.base.moreSources ?? []), { name: 'HLS', type: 'm3u8', url: `/api/room/movie/live/hls/list/${movie.id}.m3u8?${query}` }];
  } else if (movie.base.proxy && !movie.base.live) {
    movie.base.url = `/api/room/movie/proxy/${movie.id}?${query}`;
  } else if (movie.base.proxy) {
    // Live through the proxy (§7.2): HLS sources as the live playlist. This server does not remux, so
    // any other live source (HTTP-FLV) plays as the FLV route itself rather than an HLS playlist.
    const hls = isLiveHlsSource(movie.base.url, movie.base.type ?? '');
    movie.base.url = hls ? `/api/room/movie/live/hls/list/${movie.id}.m3u8?${query}` : `/api/room/movie/live/flv/${movie.id}.flv?${query}`;
    movie.base.type = hls ? 'm3u8' : 'flv';
  }
  return {
    movie,
    status: statusJson(state.status, state.status.lastUpdateMs),
    expireId: expireIdOf(state.movie.id),
  };
}

function requirePermission(access: RoomAccess, permission: number, message: string): void {
  if (!hasMemberPermission(subjectOf(access), access.settings, permission)) throw forbidden(message);
}

/** The folder chain from the root to `folderId` (root excluded). Throws 400 for a missing or non-folder id. */
async function folderChain(store: Store, roomId: string, folderId: string): Promise<MovieListRow[]> {
  const chain: MovieListRow[] = [];
  let id = folderId;
  while (id && chain.length < 64) {
    const folder = await store.movies.find(roomId, id);
    if (!folder) throw badRequest('room or movie not found');
    if (!folder.base.isFolder) throw badRequest('parent id is not folder');
    chain.unshift(folder);
    id = folder.parentId;
  }
  return chain;
}

/**
 * `GET /api/room/movie/movies` (§4.5, paged correctly per §11 d). Needs GetMovieList (403
 * `no permission`). Throws 400 `id length must be 0 or 32`, `parent id is not folder`.
 */
export async function listMovies(
  store: Store,
  access: RoomAccess,
  query: { id: string; keyword: string; max: number; offset: number; subPath?: string },
  alist: AlistAccounts,
  emby: EmbyAccounts,
): Promise<MovieList> {
  requirePermission(access, Permission.GetMovieList, 'no permission');
  if (query.id && query.id.length !== 32) throw badRequest('id length must be 0 or 32');
  const chain = await folderChain(store, access.room.id, query.id);
  const paths: MoviePath[] = [
    { name: 'Home', id: '', subPath: '' },
    ...chain.map((folder) => ({ name: folder.base.name, id: folder.id, subPath: '' })),
  ];
  const folder = chain[chain.length - 1];
  if (folder && isAlistMovie(folder.base)) {
    // A dynamic folder, listed live with its creator's account (docs/vendors.md). v0.9.11 lets only
    // the creator list it; here every member who may see the list may, as they may play it.
    const page = await alistFolderPage(alist, folder, { subPath: query.subPath ?? '', keyword: query.keyword, page: Math.floor(query.offset / query.max) + 1, max: query.max });
    return { movies: page.movies, paths: [...paths, ...page.paths], total: page.total, dynamic: true };
  }
  if (folder && isEmbyMovie(folder.base)) {
    const page = await embyFolderPage(emby, folder, { subPath: query.subPath ?? '', keyword: query.keyword, page: Math.floor(query.offset / query.max) + 1, max: query.max });
    return { movies: page.movies, paths: [...paths, ...page.paths], total: page.total, dynamic: true };
  }
  const { total, rows } = await store.movies.page(access.room.id, query.id, query.keyword, query.max, query.offset);
  return { movies: rows.map((row) => movieView(row, access.user.id)), paths, total, dynamic: false };
}

/** Checks that a push target folder exists and is a static folder. */
async function checkParent(store: Store, roomId: string, parentId: string | undefined): Promise<void> {
  if (!parentId) return;
  const parent = await store.movies.find(roomId, parentId);
  if (!parent) throw badRequest('room or movie not found');
  if (!parent.base.isFolder) throw badRequest('parent is not a folder');
  if (isAlistMovie(parent.base) || isEmbyMovie(parent.base)) throw badRequest('parent is a dynamic folder, cannot add child');
}

/**
 * `POST /api/room/movie/push` and `/pushs` (§4.5). Needs AddMovie (403 `push movie error: no
 * permission`). Companion-server bounds: 400 `too many movies` beyond MAX_PUSH_COUNT at once, 400
 * `too many movies in the room` when the room would hold more than the site setting
 * `room_max_movie_count` (folders count). Returns the stored records in order.
 */
export async function pushMovies(store: Store, access: RoomAccess, bases: MovieBase[], many: boolean): Promise<MovieRecord[]> {
  requirePermission(access, Permission.AddMovie, many ? 'push movies error: no permission' : 'push movie error: no permission');
  if (bases.length > MAX_PUSH_COUNT) throw badRequest('too many movies');
  const limit = (await store.settings.get()).room_max_movie_count;
  if (await store.movies.countInRoom(access.room.id) + bases.length > limit) throw badRequest('too many movies in the room');
  for (const base of bases) await checkParent(store, access.room.id, base.parentId);
  return await store.movies.insertMany(access.room.id, access.user.id, bases, newId);
}

/** Ids from the current movie up through its ancestors. */
async function currentLineage(store: Store, roomId: string): Promise<{ currentId: string; ancestors: Set<string> }> {
  const current = await store.rooms.current(roomId);
  const ancestors = new Set<string>();
  const movie = current ? await currentMovie(store, roomId, current) : null;
  if (!movie) return { currentId: '', ancestors };
  let parentId = movie.parentId;
  while (parentId && !ancestors.has(parentId)) {
    ancestors.add(parentId);
    parentId = (await store.movies.find(roomId, parentId))?.parentId ?? '';
  }
  return { currentId: movie.id, ancestors };
}

/**
 * `POST /api/room/movie/delete` (§4.5). Each id must be 32 chars (`id length must be 32`, `empty ids`);
 * allowed to a movie's creator or with DeleteMovie; the current movie and its folders are refused.
 */
export async function deleteMovies(store: Store, access: RoomAccess, ids: string[]): Promise<void> {
  if (ids.length === 0) throw badRequest('empty ids');
  if (ids.length > MAX_DELETE_IDS) throw badRequest('too many ids');
  for (const id of ids) if (id.length !== 32) throw badRequest('id length must be 32');
  const canDelete = hasMemberPermission(subjectOf(access), access.settings, Permission.DeleteMovie);
  const { currentId, ancestors } = await currentLineage(store, access.room.id);
  for (const id of ids) {
    const movie = await store.movies.find(access.room.id, id);
    if (!movie) throw badRequest('room or movie not found');
    if (!canDelete && movie.creatorId !== access.user.id) throw forbidden('delete movies error: no permission');
    if (id === currentId) throw badRequest('cannot modify current movie');
    if (ancestors.has(id)) throw badRequest("cannot modify current movie's parent");
  }
  await store.movies.deleteMany(access.room.id, ids);
}

/**
 * `POST /api/room/movie/clear` (§4.5): deletes the items of a folder ("" = root). Needs DeleteMovie.
 * Refused with `cannot modify current movie` when the current movie would go with them.
 */
export async function clearMovies(store: Store, access: RoomAccess, parentId: string): Promise<void> {
  if (parentId && parentId.length !== 32) throw badRequest('parent id length must be empty or 32');
  requirePermission(access, Permission.DeleteMovie, 'clear movies error: no permission');
  if (parentId) await folderChain(store, access.room.id, parentId);
  const { currentId, ancestors } = await currentLineage(store, access.room.id);
  if (currentId && (!parentId || ancestors.has(parentId))) throw badRequest('cannot modify current movie');
  await store.movies.clear(access.room.id, parentId);
}

/** `POST /api/room/movie/swap` (§4.5): swaps two positions. Needs EditMovie; every error is 400. */
export async function swapMovies(store: Store, access: RoomAccess, id1: string, id2: string): Promise<void> {
  if (id1.length !== 32 || id2.length !== 32) throw badRequest('id length must be 32');
  if (!hasMemberPermission(subjectOf(access), access.settings, Permission.EditMovie)) {
    throw badRequest('swap movies error: no permission');
  }
  const a = await store.movies.find(access.room.id, id1);
  const b = await store.movies.find(access.room.id, id2);
  if (!a || !b) throw badRequest('room or movie not found');
  await store.movies.swap(access.room.id, a, b);
}

/**
 * `POST /api/room/movie/edit` (§4.5): replaces the whole base (the movie stays in its folder).
 * Needs EditMovie; the current movie and its folders are refused.
 */
export async function editMovie(store: Store, access: RoomAccess, id: string, base: MovieBase): Promise<void> {
  if (id.length !== 32) throw badRequest('id length must be 32');
  requirePermission(access, Permission.EditMovie, 'edit movie error: no permission');
  const movie = await store.movies.find(access.room.id, id);
  if (!movie) throw badRequest('room or movie not found');
  const { currentId, ancestors } = await currentLineage(store, access.room.id);
  if (id === currentId) throw badRequest('cannot modify current movie');
  if (ancestors.has(id)) throw badRequest("cannot modify current movie's parent");
  if (Boolean(movie.base.isFolder) !== Boolean(base.isFolder)) throw badRequest('cannot change a folder into a movie or back');
  await store.movies.replaceBase(access.room.id, id, { ...base, parentId: movie.parentId });
}

/**
 * `POST /api/room/movie/current` (§4.5, §6.7 step 3). Needs SetCurrentMovie. `id` "" clears the
 * current movie (paused); otherwise the movie starts at 0 s, playing; the rate is kept.
 * Throws 400 `id length must be 0 or 32`, `room or movie not found`, `cannot set static folder as current movie`,
 * and for a dynamic folder's child `subPath` `sub path is empty`, `sub path is not in parent path`.
 */
export async function setCurrentMovie(store: Store, access: RoomAccess, id: string, subPath: string, nowMs: number, emby: EmbyAccounts): Promise<void> {
  if (id && id.length !== 32) throw badRequest('id length must be 0 or 32');
  requirePermission(access, Permission.SetCurrentMovie, 'set current movie error: no permission');
  const previous = await store.rooms.current(access.room.id);
  const playbackRate = previous?.playbackRate || 1;
  if (!id) {
    await store.rooms.saveCurrent(access.room.id, {
      movieId: '',
      subPath: '',
      isPlaying: false,
      currentTime: 0,
      playbackRate,
      lastUpdateMs: nowMs,
    });
    return;
  }
  const movie = await store.movies.find(access.room.id, id);
  if (!movie) throw badRequest('room or movie not found');
  const dynamic = movie.base.isFolder && (isAlistMovie(movie.base) || isEmbyMovie(movie.base));
  if (movie.base.isFolder && !dynamic) throw badRequest('cannot set static folder as current movie');
  // A child of a dynamic folder is named by its path (AList) or item id (Emby) under the folder,
  // checked to stay inside it.
  if (dynamic && isAlistMovie(movie.base)) alistTarget(movie.base, subPath);
  if (dynamic && isEmbyMovie(movie.base)) await embyTarget(emby, movie, subPath);
  await store.rooms.saveCurrent(access.room.id, {
    movieId: id,
    subPath,
    isPlaying: true,
    currentTime: 0,
    playbackRate: movie.base.live ? 1 : playbackRate,
    lastUpdateMs: nowMs,
  });
}
