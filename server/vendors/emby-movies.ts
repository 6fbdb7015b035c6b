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
import { dynamicFolderEntry, type DynamicFolderRow } from './dynamic-folder';
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

/**
 * The creator's session and the sources a browser plays, as they are or as the media server's
 * transcode, in the server's order, with the key they are cached under. Throws EMBY_NEEDS_TRANSCODE
 * when there is none, and embyTarget's texts.
 */
async function playableSources(accounts: EmbyAccounts, movie: EmbyMovieRow, subPath: string): Promise<{ session: EmbySession; serverId: string; itemId: string; sources: EmbyMediaSource[]; cacheKey: string }> {
  const { serverId, itemId } = await embyTarget(accounts, movie, subPath);
  const { session, sources, cacheKey } = await accounts.mediaSources(movie.creatorId, serverId, itemId);
  // As they are, else as the media server's transcode (HLS).
  const playable = sources.filter((source) => source.directStream || source.transcodingUrl);
  if (playable.length === 0) throw badRequest(EMBY_NEEDS_TRANSCODE);
  return { session, serverId, itemId, sources: playable, cacheKey };
}

/** The bitrates (bits/s) a viewer may ask the media server to convert to: those below the source's. */
export const EMBY_MAX_BITRATES = [8_000_000, 4_000_000, 2_000_000, 1_000_000] as const;

/** 400 for a `maxBitrate` that is not one of EMBY_MAX_BITRATES (companion text). */
export const EMBY_BITRATE_OUT_OF_RANGE = 'bitrate out of range';

/** What a viewer of a source may choose (MovieBase `mediaChoices`): its audio tracks, and the bitrates below its own. */
function choicesOf(source: EmbyMediaSource): NonNullable<MovieBase['mediaChoices']> {
  return {
    audioTracks: source.streams
      .filter((stream) => stream.type === 'Audio' && !stream.isExternal)
      .map((stream) => ({ index: stream.index, name: stream.title || stream.language || `#${stream.index}`, language: stream.language, default: stream.isDefault })),
    maxBitrates: EMBY_MAX_BITRATES.filter((bitrate) => !source.bitrate || bitrate < source.bitrate),
  };
}

/**
 * What `GET /current` shows of an Emby movie: the proxy route for its first playable source (with
 * `query`, the caller's token and the room), the others as `moreSources` (`?source=<n>`), and the text
 * subtitles of the first (`?t=subtitle&id=<stream index>`, WebVTT), and what a viewer may choose of
 * the first (`mediaChoices`: its audio tracks and lower bitrates, asked for with `&audio=<index>` and
 * `&maxBitrate=<bits/s>` on `url`); for a dynamic folder, of the child `subPath`. Throws 400
 * `emby server not found` (the creator unbound it), EMBY_SESSION_EXPIRED, EMBY_NEEDS_TRANSCODE,
 * `emby: not found`, and embyTarget's texts.
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
    mediaChoices: choicesOf(sources[0]),
  };
}

/**
 * Where the proxy fetches an Emby movie (for a dynamic folder, its child `subPath`): source
 * `sourceIndex` (0 = the main one) as it is or as the media server's transcode; with `audio` (an
 * Audio stream's index) or `maxBitrate` (bits/s, one of EMBY_MAX_BITRATES), the main source converted
 * with that audio track and at most that bitrate (one play session per choice, shared by whoever
 * picks the same); or the text subtitle stream `subtitleIndex` as WebVTT. With the creator's token
 * in the headers. Throws 400 `id out of range` for a source, audio track or subtitle the movie does
 * not have, EMBY_BITRATE_OUT_OF_RANGE, EMBY_NEEDS_TRANSCODE when the server will not convert it.
 */
export async function embyUpstream(
  accounts: EmbyAccounts,
  movie: EmbyMovieRow,
  request: { subPath: string; sourceIndex: number; subtitleIndex: number | null; audio: number | null; maxBitrate: number | null },
): Promise<{ url: string; headers: Record<string, string> }> {
  const { session, serverId, itemId, sources, cacheKey } = await playableSources(accounts, movie, request.subPath);
  const source = sources[request.sourceIndex];
  if (!source) throw badRequest('id out of range');
  const headers = accounts.client.authHeaders(session);
  if (request.subtitleIndex !== null) {
    if (!source.streams.some((stream) => stream.type === 'Subtitle' && stream.index === request.subtitleIndex)) throw badRequest('id out of range');
    return { url: accounts.client.subtitleUrl(session, itemId, source, request.subtitleIndex), headers };
  }
  if (request.audio !== null || request.maxBitrate !== null) {
    if (request.sourceIndex !== 0) throw badRequest('id out of range');
    const choices = choicesOf(source);
    if (request.audio !== null && !choices.audioTracks.some((track) => track.index === request.audio)) throw badRequest('id out of range');
    if (request.maxBitrate !== null && !(EMBY_MAX_BITRATES as readonly number[]).includes(request.maxBitrate)) throw badRequest(EMBY_BITRATE_OUT_OF_RANGE);
    const converted = await accounts.mediaSources(movie.creatorId, serverId, itemId, { mediaSourceId: source.id, audioStreamIndex: request.audio, maxBitrate: request.maxBitrate });
    const chosen = converted.sources.find((candidate) => candidate.id === source.id) ?? converted.sources[0];
    if (!chosen?.transcodingUrl) throw badRequest(EMBY_NEEDS_TRANSCODE);
    accounts.transcodeUsed(session, chosen.playSessionId, converted.cacheKey);
    return { url: accounts.client.transcodeUrl(session, chosen), headers };
  }
  if (source.directStream) return { url: accounts.client.directStreamUrl(session, itemId, source), headers };
  // The transcode runs while viewers fetch it; EmbyAccounts stops it once they stop.
  accounts.transcodeUsed(session, source.playSessionId, cacheKey);
  return { url: accounts.client.transcodeUrl(session, source), headers };
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
  folder: EmbyMovieRow & DynamicFolderRow,
  request: { subPath: string; keyword: string; page: number; max: number },
): Promise<{ movies: Movie[]; paths: MoviePath[]; total: number }> {
  const { serverId, itemId: root } = splitEmbyPath(folder.base.vendorInfo?.emby?.path ?? '');
  const here = request.subPath ? (await embyTarget(accounts, folder, request.subPath)).itemId : root;
  const listed = await accounts.browse(folder.creatorId, { path: `${serverId}/${here}`, keyword: request.keyword, page: request.page, max: request.max });
  const movies = listed.items.map((item) =>
    dynamicFolderEntry(folder, { subPath: splitEmbyPath(item.path).itemId, name: item.name, type: '', isFolder: item.isDir, proxy: true, vendorInfo: { vendor: 'emby', backend: '', emby: { path: item.path } } }),
  );
  // The picker's crumbs run from the server down to `here`; the room's start below the folder.
  const crumbs = listed.paths.map((crumb) => ({ name: crumb.name, itemId: crumb.path.startsWith(`${serverId}/`) ? crumb.path.slice(serverId.length + 1) : '' }));
  const below = crumbs.slice(crumbs.findIndex((crumb) => crumb.itemId === root) + 1);
  return { movies, paths: here === root ? [] : below.map((crumb) => ({ name: crumb.name, id: folder.id, subPath: crumb.itemId })), total: listed.total };
}

/**
 * The headers that authorize the proxy's fetch of `entryUrl`, an entry of an Emby movie's transcode
 * playlists (a variant playlist, a segment): the creator's token; the transcode is marked as watched.
 */
export async function embyEntryHeaders(accounts: EmbyAccounts, movie: EmbyMovieRow, subPath: string, entryUrl: string): Promise<Record<string, string>> {
  const { serverId } = await embyTarget(accounts, movie, subPath);
  const session = await accounts.session(movie.creatorId, serverId);
  accounts.transcodeEntryUsed(session, entryUrl);
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
