/**
 * Emby and Jellyfin movies in a room (docs/vendors.md "Emby and Jellyfin", docs/contract.md §7.1
 * `vendorInfo`): a file pushed with `vendorInfo: {vendor: "emby", emby: {path}}`, `path` being
 * `<serverId>/<itemId>`, played with its **creator's** account. It always plays through this server's
 * proxy: the URLs the media server gives carry the creator's access token, which must not reach the
 * viewers. Its media sources are the main source and `moreSources`, its text subtitles (as WebVTT)
 * the subtitles.
 */
import type { MovieBase } from '@/lib/contract/types';
import { badRequest } from '../errors';
import type { EmbyAccounts } from './emby-accounts';
import { splitEmbyPath } from './emby-accounts';
import type { EmbyMediaSource, EmbySession } from './emby';

/** Subtitle codecs Emby and Jellyfin convert to WebVTT (text ones; image subtitles are not offered). */
const TEXT_SUBTITLES = new Set(['subrip', 'srt', 'ass', 'ssa', 'webvtt', 'vtt', 'mov_text', 'text']);

/** 400 for a file no media source of which a browser plays as it is (companion text). */
export const EMBY_NEEDS_TRANSCODE = 'emby: this file needs converting, which this server does not ask for yet';

/** Whether a base is an Emby (or Jellyfin) movie. */
export function isEmbyMovie(base: MovieBase): boolean {
  return base.vendorInfo?.vendor === 'emby';
}

/** A movie row as the rules read it. */
interface EmbyMovieRow {
  id: string;
  creatorId: string;
  base: MovieBase;
}

/** The creator's session and the sources a browser plays as they are, in the server's order. */
async function playableSources(accounts: EmbyAccounts, movie: EmbyMovieRow): Promise<{ session: EmbySession; itemId: string; sources: EmbyMediaSource[] }> {
  const { serverId, itemId } = splitEmbyPath(movie.base.vendorInfo?.emby?.path ?? '');
  if (!itemId) throw badRequest('path is invalid');
  const { session, sources } = await accounts.mediaSources(movie.creatorId, serverId, itemId);
  const playable = sources.filter((source) => source.directStream);
  if (playable.length === 0) throw badRequest(EMBY_NEEDS_TRANSCODE);
  return { session, itemId, sources: playable };
}

/**
 * What `GET /current` shows of an Emby movie: the proxy route for its first playable source (with
 * `query`, the caller's token and the room), the others as `moreSources` (`?source=<n>`), and the text
 * subtitles of the first (`?t=subtitle&id=<stream index>`, WebVTT). Throws 400 `emby server not
 * found` (the creator unbound it), EMBY_SESSION_EXPIRED, EMBY_NEEDS_TRANSCODE, `emby: not found`.
 */
export async function embyPlaybackBase(accounts: EmbyAccounts, movie: EmbyMovieRow, base: MovieBase, query: URLSearchParams): Promise<MovieBase> {
  const { sources } = await playableSources(accounts, movie);
  const route = (extra: string) => `/api/room/movie/proxy/${movie.id}?${extra}${query}`;
  const subtitles = Object.fromEntries(
    sources[0].streams
      .filter((stream) => stream.type === 'Subtitle' && TEXT_SUBTITLES.has(stream.codec.toLowerCase()))
      .map((stream) => [stream.title || stream.language || `#${stream.index}`, { url: route(`t=subtitle&id=${stream.index}&`), type: 'vtt' }]),
  );
  return {
    ...base,
    url: route(''),
    type: base.type || sources[0].container,
    subtitles: Object.keys(subtitles).length ? subtitles : undefined,
    moreSources: sources.length > 1 ? sources.slice(1).map((source, index) => ({ name: source.name || `#${index + 2}`, type: source.container, url: route(`source=${index + 1}&`) })) : undefined,
  };
}

/**
 * Where the proxy fetches an Emby movie: source `sourceIndex` (0 = the main one), or the text
 * subtitle stream `subtitleIndex` as WebVTT, with the creator's token in the headers.
 * Throws 400 `id out of range` for a source or subtitle the movie does not have.
 */
export async function embyUpstream(accounts: EmbyAccounts, movie: EmbyMovieRow, request: { sourceIndex: number; subtitleIndex: number | null }): Promise<{ url: string; headers: Record<string, string> }> {
  const { session, itemId, sources } = await playableSources(accounts, movie);
  const source = sources[request.sourceIndex];
  if (!source) throw badRequest('id out of range');
  const headers = accounts.client.authHeaders(session);
  if (request.subtitleIndex === null) return { url: accounts.client.directStreamUrl(session, itemId, source), headers };
  if (!source.streams.some((stream) => stream.type === 'Subtitle' && stream.index === request.subtitleIndex)) throw badRequest('id out of range');
  return { url: accounts.client.subtitleUrl(session, itemId, source, request.subtitleIndex), headers };
}

/** Checks a pushed Emby base: an item of a server the pusher bound. Throws 400 `path is empty`, `path is invalid`, `emby server not found`. */
export async function checkEmbyPush(accounts: EmbyAccounts, userId: string, base: MovieBase): Promise<void> {
  const full = base.vendorInfo?.emby?.path ?? '';
  if (!full) throw badRequest('path is empty');
  const { serverId, itemId } = splitEmbyPath(full);
  if (!itemId) throw badRequest('path is invalid');
  await accounts.requireBinding(userId, serverId);
}
