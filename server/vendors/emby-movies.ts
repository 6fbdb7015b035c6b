/**
 * Emby and Jellyfin movies in a room (docs/vendors.md "Emby and Jellyfin", docs/contract.md §7.1
 * `vendorInfo`): a file pushed with `vendorInfo: {vendor: "emby", emby: {path}}`, `path` being
 * `<serverId>/<itemId>`, played with its **creator's** account; or a folder (a library, a series, a
 * season) pushed with `isFolder`, a dynamic folder whose contents are listed live and whose children
 * are named by their item id as `subPath`. It always plays through this server's proxy: the URLs the
 * media server gives carry the creator's access token, which must not reach the viewers. Its media
 * sources are the main source and `moreSources` (as they are, or as the media server's HLS transcode
 * when a browser cannot play them), its text subtitles (as WebVTT) the subtitles.
 */
import type { Movie, MovieBase, MoviePath } from '@/lib/contract/types';
import { badRequest } from '../errors';
import type { EmbyAccounts } from './emby-accounts';
import { splitEmbyPath } from './emby-accounts';
import type { EmbyMediaSource, EmbySession } from './emby';

/** Subtitle codecs Emby and Jellyfin convert to WebVTT (text ones; image subtitles are not offered). */
const TEXT_SUBTITLES = new Set(['subrip', 'srt', 'ass', 'ssa', 'webvtt', 'vtt', 'mov_text', 'text']);

/** 400 for a file no media source of which a browser plays as it is or the media server converts (companion text). */
export const EMBY_NEEDS_TRANSCODE = 'emby: this file needs converting, which the media server does not offer';

/** Whether a base is an Emby (or Jellyfin) movie. */
export function isEmbyMovie(base: MovieBase): boolean {
  return base.vendorInfo?.vendor === 'emby';
}

/** The movie `type` a source plays as: its container as it is, `m3u8` as the media server's transcode. */
function typeOf(source: EmbyMediaSource): string {
  return source.directStream ? source.container : 'm3u8';
}

/** A movie row as the rules read it. */
interface EmbyMovieRow {
  id: string;
  creatorId: string;
  base: MovieBase;
}

/**
 * The server and item a movie plays: its own, or for a dynamic folder the child `subPath` (an item
 * id), checked to lie under the folder. Throws 400 `path is invalid`, `sub path is empty`,
 * `sub path is not in parent path`, `emby server not found`.
 */
export async function embyTarget(accounts: EmbyAccounts, movie: EmbyMovieRow, subPath: string): Promise<{ serverId: string; itemId: string }> {
  const { serverId, itemId } = splitEmbyPath(movie.base.vendorInfo?.emby?.path ?? '');
  if (!itemId) throw badRequest('path is invalid');
  if (!movie.base.isFolder) return { serverId, itemId };
  const child = subPath.replace(/^\/+/, '');
  if (!child) throw badRequest('sub path is empty');
  if (!/^[\w-]+$/.test(child)) throw badRequest('sub path is not in parent path');
  await accounts.requireUnder(movie.creatorId, serverId, itemId, child);
  return { serverId, itemId: child };
}

/** The creator's session and the sources a browser plays as they are, in the server's order. */
async function playableSources(accounts: EmbyAccounts, movie: EmbyMovieRow, subPath: string): Promise<{ session: EmbySession; serverId: string; itemId: string; sources: EmbyMediaSource[] }> {
  const { serverId, itemId } = await embyTarget(accounts, movie, subPath);
  const { session, sources } = await accounts.mediaSources(movie.creatorId, serverId, itemId);
  // As they are, else as the media server's transcode (HLS).
  const playable = sources.filter((source) => source.directStream || source.transcodingUrl);
  if (playable.length === 0) throw badRequest(EMBY_NEEDS_TRANSCODE);
  return { session, serverId, itemId, sources: playable };
}

/**
 * What `GET /current` shows of an Emby movie: the proxy route for its first playable source (with
 * `query`, the caller's token and the room), the others as `moreSources` (`?source=<n>`), and the text
 * subtitles of the first (`?t=subtitle&id=<stream index>`, WebVTT); for a dynamic folder, of the
 * child `subPath`. Throws 400 `emby server not found` (the creator unbound it), EMBY_SESSION_EXPIRED,
 * EMBY_NEEDS_TRANSCODE, `emby: not found`, and embyTarget's texts.
 */
export async function embyPlaybackBase(accounts: EmbyAccounts, movie: EmbyMovieRow, base: MovieBase, query: URLSearchParams, subPath: string): Promise<MovieBase> {
  const { sources } = await playableSources(accounts, movie, subPath);
  const route = (extra: string) => `/api/room/movie/proxy/${movie.id}?${extra}${query}`;
  const subtitles = Object.fromEntries(
    sources[0].streams
      .filter((stream) => stream.type === 'Subtitle' && TEXT_SUBTITLES.has(stream.codec.toLowerCase()))
      .map((stream) => [stream.title || stream.language || `#${stream.index}`, { url: route(`t=subtitle&id=${stream.index}&`), type: 'vtt' }]),
  );
  return {
    ...base,
    url: route(''),
    type: base.type || typeOf(sources[0]),
    subtitles: Object.keys(subtitles).length ? subtitles : undefined,
    moreSources: sources.length > 1 ? sources.slice(1).map((source, index) => ({ name: source.name || `#${index + 2}`, type: typeOf(source), url: route(`source=${index + 1}&`) })) : undefined,
  };
}

/**
 * Where the proxy fetches an Emby movie (for a dynamic folder, its child `subPath`): source
 * `sourceIndex` (0 = the main one), or the text subtitle stream `subtitleIndex` as WebVTT, with the
 * creator's token in the headers.
 * Throws 400 `id out of range` for a source or subtitle the movie does not have.
 */
export async function embyUpstream(accounts: EmbyAccounts, movie: EmbyMovieRow, request: { subPath: string; sourceIndex: number; subtitleIndex: number | null }): Promise<{ url: string; headers: Record<string, string> }> {
  const { session, serverId, itemId, sources } = await playableSources(accounts, movie, request.subPath);
  const source = sources[request.sourceIndex];
  if (!source) throw badRequest('id out of range');
  const headers = accounts.client.authHeaders(session);
  if (request.subtitleIndex === null && source.directStream) return { url: accounts.client.directStreamUrl(session, itemId, source), headers };
  if (request.subtitleIndex === null) {
    // The transcode runs while viewers fetch it; EmbyAccounts stops it once they stop.
    accounts.transcodeUsed(movie.creatorId, serverId, session, itemId, source.playSessionId);
    return { url: accounts.client.transcodeUrl(session, source), headers };
  }
  if (!source.streams.some((stream) => stream.type === 'Subtitle' && stream.index === request.subtitleIndex)) throw badRequest('id out of range');
  return { url: accounts.client.subtitleUrl(session, itemId, source, request.subtitleIndex), headers };
}

/**
 * One page of an Emby dynamic folder (`GET /api/room/movie/movies?id=<folder>&subPath&keyword`, §4.5):
 * the entries of the folder or of its sub-folder `subPath` (an item id under it), or what `keyword`
 * finds under that, as movies of the folder (`id` the folder's, `subPath` each item's id), and the
 * crumbs from below the folder to `subPath` (after the room's own folder chain, which the caller
 * adds). Listed with the creator's account. Throws embyTarget's texts and the server's (`emby: …`).
 */
export async function embyFolderPage(
  accounts: EmbyAccounts,
  folder: EmbyMovieRow & { creator: string; createdAt: number },
  request: { subPath: string; keyword: string; page: number; max: number },
): Promise<{ movies: Movie[]; paths: MoviePath[]; total: number }> {
  const { serverId, itemId: root } = splitEmbyPath(folder.base.vendorInfo?.emby?.path ?? '');
  const here = request.subPath ? (await embyTarget(accounts, folder, request.subPath)).itemId : root;
  const listed = await accounts.browse(folder.creatorId, { path: `${serverId}/${here}`, keyword: request.keyword, page: request.page, max: request.max });
  const movies = listed.items.map((item): Movie => ({
    id: folder.id,
    creator: folder.creator,
    creatorId: folder.creatorId,
    subPath: splitEmbyPath(item.path).itemId,
    base: {
      url: '',
      name: item.name,
      type: '',
      live: false,
      proxy: true,
      rtmpSource: false,
      danmu: '',
      streamDanmu: '',
      isFolder: item.isDir,
      parentId: folder.id,
      vendorInfo: { vendor: 'emby', backend: '', emby: { path: item.path } },
    },
    createAt: folder.createdAt,
  }));
  // The picker's crumbs run from the server down to `here`; the room's start below the folder.
  const crumbs = listed.paths.map((crumb) => ({ name: crumb.name, itemId: crumb.path.startsWith(`${serverId}/`) ? crumb.path.slice(serverId.length + 1) : '' }));
  const below = crumbs.slice(crumbs.findIndex((crumb) => crumb.itemId === root) + 1);
  return { movies, paths: here === root ? [] : below.map((crumb) => ({ name: crumb.name, id: folder.id, subPath: crumb.itemId })), total: listed.total };
}

/**
 * The headers that authorize the proxy's fetches of an Emby movie's playlist entries (a transcode's
 * media playlists and segments): the creator's token, and the transcode marked as watched.
 */
export async function embyEntryHeaders(accounts: EmbyAccounts, movie: EmbyMovieRow, subPath: string): Promise<Record<string, string>> {
  const { session, serverId, itemId, sources } = await playableSources(accounts, movie, subPath);
  for (const source of sources) if (source.transcodingUrl && !source.directStream) accounts.transcodeUsed(movie.creatorId, serverId, session, itemId, source.playSessionId);
  return accounts.client.authHeaders(session);
}

/** Checks a pushed Emby base: an item of a server the pusher bound. Throws 400 `path is empty`, `path is invalid`, `emby server not found`. */
export async function checkEmbyPush(accounts: EmbyAccounts, userId: string, base: MovieBase): Promise<void> {
  const full = base.vendorInfo?.emby?.path ?? '';
  if (!full) throw badRequest('path is empty');
  const { serverId, itemId } = splitEmbyPath(full);
  if (!itemId) throw badRequest('path is invalid');
  await accounts.requireBinding(userId, serverId);
}
