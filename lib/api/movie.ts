/**
 * Movies of a room (docs/contract.md §4.5, §7): a folder's list, the current movie, push, edit,
 * swap, delete and clear. Every call is room-scoped (`X-Room-Id`); a 401 on `/api/room/movie*` sends the
 * user to `/joinRoom/<id>` (lib/api/unauthorized.ts). All functions throw `ApiError` on failure.
 */
import { apiOrigin, get, post, request } from './client';
import { ApiError } from './error';
import type { CurrentMovie, Movie, MovieBase, MovieList, PublishKey, PushedMovie, SetCurrentRequest } from '@/lib/contract/types';

/** Page size of the movie list, as in the reference client. */
export const MOVIE_PAGE_SIZE = 10;

/** Query of `GET /api/room/movie/movies`: `id` "" is the root folder; `page` from 1; `max` ≤ 100. */
export interface MovieListQuery {
  id?: string;
  page?: number;
  max?: number;
  keyword?: string;
  /** In a dynamic folder (docs/vendors.md): the path under it ("" = its top). */
  subPath?: string;
}

/**
 * `GET /api/room/movie/movies` (needs GetMovieList; 403 `no permission` otherwise).
 * A v0.9.11 server returns the whole folder on every page with `total` only right on page 1 (§4.5
 * quirk); the companion server pages correctly (§11 d). `pageOfMovies` hides the difference.
 */
export function listMovies(roomId: string, query: MovieListQuery = {}): Promise<MovieList> {
  return get<MovieList>('/api/room/movie/movies', {
    roomId,
    searchParams: { id: query.id ?? '', page: query.page ?? 1, max: query.max ?? MOVIE_PAGE_SIZE, keyword: query.keyword || undefined, subPath: query.subPath || undefined },
  });
}

/**
 * The rows and total to show for `page` (from 1) of size `max`, whichever paging the server did:
 * when the server returned more than `max` items it ignored paging, so the page is sliced locally
 * and the item count is the total.
 */
export function pageOfMovies(list: MovieList | undefined, page: number, max: number): { movies: Movie[]; total: number } {
  const movies = list?.movies ?? [];
  if (movies.length > max) {
    return { movies: movies.slice((page - 1) * max, page * max), total: movies.length };
  }
  return { movies, total: Math.max(list?.total ?? 0, movies.length) };
}

/**
 * `GET /api/room/movie/current` → `{movie, status, expireId}`; no permission needed. `status` is the
 * room's status extrapolated by the server at read time (§6.7); its boolean/number keys may be
 * missing (omitempty, §7.3). With nothing playing, `movie.id` is "".
 */
export function getCurrentMovie(roomId: string): Promise<CurrentMovie> {
  return get<CurrentMovie>('/api/room/movie/current', { roomId });
}

/**
 * `POST /api/room/movie/current {id, subPath?}` → 204 (needs SetCurrentMovie). The room then plays
 * that movie from 0 (id "" stops playback) and every connection gets CURRENT.
 */
export function setCurrentMovie(roomId: string, id: string, subPath = ''): Promise<void> {
  const json: SetCurrentRequest = { id, subPath };
  return post<void>('/api/room/movie/current', { roomId, json });
}

/** `POST /api/room/movie/push` with a MovieBase (needs AddMovie) → the stored `{id, creatorId, base}`. */
export function pushMovie(roomId: string, base: MovieBase): Promise<PushedMovie> {
  return post<PushedMovie>('/api/room/movie/push', { roomId, json: base });
}

/**
 * `POST /api/room/movie/live/publishKey {id}` → where and with which key an encoder pushes the live
 * movie `movieId` (§4.5; docs/live.md). Only its creator gets it: 403 `new publish key error: no
 * permission`; 400 `only live movie can get publish key`, `rtmp is not enabled`.
 */
export function getPublishKey(roomId: string, movieId: string): Promise<PublishKey> {
  return post<PublishKey>('/api/room/movie/live/publishKey', { roomId, json: { id: movieId } });
}

/** The push URL an encoder's "Server" field takes: `rtmp://{host}/{app}/` (the key goes in "Stream key"). */
export function pushServerUrl(key: PublishKey): string {
  return `rtmp://${key.host}/${key.app}/`;
}

/**
 * Whether the server receives the push of the live movie `movieId` now: `HEAD` of its HTTP-FLV route,
 * 200 while someone pushes, 404 `live stream not started` before (the companion server,
 * docs/live.md). Throws `ApiError` for any other answer.
 */
export async function isReceivingPush(roomId: string, movieId: string): Promise<boolean> {
  try {
    await request<void>('head', `/api/room/movie/live/flv/${movieId}.flv`, { roomId });
    return true;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return false;
    throw error;
  }
}

/** `POST /api/room/movie/pushs` with MovieBase[] (needs AddMovie) → the stored records. */
export function pushMovies(roomId: string, bases: MovieBase[]): Promise<PushedMovie[]> {
  return post<PushedMovie[]>('/api/room/movie/pushs', { roomId, json: bases });
}

/**
 * `POST /api/room/movie/edit {id, ...base}` → 204 (needs EditMovie). Replaces the whole base; the
 * current movie and its folder are refused (`cannot modify current movie`, `… parent`).
 */
export function editMovie(roomId: string, id: string, base: MovieBase): Promise<void> {
  return post<void>('/api/room/movie/edit', { roomId, json: { ...base, id } });
}

/** `POST /api/room/movie/swap {id1, id2}` → 204 (needs EditMovie): the two movies trade places. */
export function swapMovies(roomId: string, id1: string, id2: string): Promise<void> {
  return post<void>('/api/room/movie/swap', { roomId, json: { id1, id2 } });
}

/**
 * `POST /api/room/movie/delete {ids}` → 204. Allowed to a movie's creator or with DeleteMovie; the
 * current movie is refused (`cannot modify current movie`).
 */
export function deleteMovies(roomId: string, ids: string[]): Promise<void> {
  return post<void>('/api/room/movie/delete', { roomId, json: { ids } });
}

/**
 * `POST /api/room/movie/clear {parentId}` → 204 (needs DeleteMovie); "" clears the root folder,
 * which fails with `cannot modify current movie` while a movie plays.
 */
export function clearMovies(roomId: string, parentId = ''): Promise<void> {
  return post<void>('/api/room/movie/clear', { roomId, json: { parentId } });
}

/**
 * The URL to play: a server-relative URL (proxied movies, `/api/room/movie/proxy/...`, §7.2) is
 * prefixed with the API origin, as the reference client does with `location.origin`.
 */
export function playableUrl(url: string): string {
  return url.startsWith('/') && !url.startsWith('//') ? `${apiOrigin()}${url}` : url;
}

/**
 * What a viewer chose of a movie's `mediaChoices` (an Emby or Jellyfin movie's, docs/vendors.md
 * "Audio track and bitrate"; a converted movie's, docs/transcode.md "Choices"): an audio track's
 * `index`, a bitrate in bits/s, an image subtitle's `index` to draw into the picture; null = as the
 * server gives it.
 */
export interface MediaChoice {
  audio: number | null;
  maxBitrate: number | null;
  subtitle: number | null;
}

/**
 * The main source's URL with `choice` as its query parameters (`audio`, `maxBitrate`, `subtitle`);
 * `url` itself when nothing is chosen. Any of them makes the source the server's HLS conversion.
 */
export function withMediaChoice(url: string, choice: MediaChoice): string {
  const extra = new URLSearchParams();
  if (choice.audio !== null) extra.set('audio', String(choice.audio));
  if (choice.maxBitrate !== null) extra.set('maxBitrate', String(choice.maxBitrate));
  if (choice.subtitle !== null) extra.set('subtitle', String(choice.subtitle));
  if (extra.size === 0) return url;
  return `${url}${url.includes('?') ? '&' : '?'}${extra}`;
}

/** True when the current object holds a movie (an empty Movie with id "" means nothing plays, §7.3). */
export function hasCurrentMovie(current: CurrentMovie | undefined | null): current is CurrentMovie {
  return Boolean(current?.movie?.id);
}
