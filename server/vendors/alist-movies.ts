/**
 * AList movies in a room (docs/vendors.md "AList", docs/contract.md §7.1 `vendorInfo`): a file or a
 * folder (a dynamic folder) pushed with `vendorInfo: {vendor: "alist", alist: {path, password}}`,
 * where `path` is `<serverId>/<path in AList>`. Everything is fetched with the **creator's** bound
 * account, so viewers need none: a dynamic folder's contents, listed live, and the URL a file plays
 * at (AList's `raw_url`, or this server's proxy when the movie is proxied), with the subtitle files
 * beside it.
 */
import type { Movie, MovieBase, MoviePath } from '@/lib/contract/types';
import { dynamicFolderEntry, type DynamicFolderRow } from './dynamic-folder';
import { badRequest } from '../errors';
import { childPath, extensionOf, joinAlistPath, splitAlistPath, type AlistAccounts } from './alist-accounts';

/** Whether a base is an AList movie or folder. */
export function isAlistMovie(base: MovieBase): boolean {
  return base.vendorInfo?.vendor === 'alist';
}

/** The movie's server id and AList path; for a dynamic folder with `subPath`, the child's path. */
export function alistTarget(base: MovieBase, subPath: string): { serverId: string; path: string } {
  const { serverId, path } = splitAlistPath(base.vendorInfo?.alist?.path ?? '');
  if (!base.isFolder) return { serverId, path };
  if (!subPath) throw badRequest('sub path is empty');
  return { serverId, path: childPath(path, subPath) };
}

/** A movie row as the rules read it. */
interface AlistMovieRow {
  id: string;
  creatorId: string;
  base: MovieBase;
}

/** Where a file plays and its subtitles, as AList gave them (raw URLs), and when they were fetched (Unix ms). */
export interface AlistSource {
  name: string;
  rawUrl: string;
  /** The file's extension (`mp4`, `mkv`, `m3u8` …), the movie's `type`. */
  type: string;
  subtitles: { name: string; url: string; type: string }[];
}

/**
 * The source of an AList movie (or of the child `subPath` of a dynamic folder) with its creator's
 * account. Throws 400 `alist server not found` (the creator unbound it), `sub path is empty`,
 * `sub path is not in parent path`, `path is dir: …`, `alist: <AList's text>` (e.g. the file is gone),
 * 502 when AList cannot be reached.
 */
export async function alistSource(accounts: AlistAccounts, movie: AlistMovieRow, subPath: string): Promise<AlistSource> {
  const { serverId, path } = alistTarget(movie.base, subPath);
  const password = accounts.openFolderPassword(movie.base.vendorInfo?.alist?.password ?? '');
  const file = await accounts.file(movie.creatorId, serverId, path, password);
  const subtitles = await accounts.subtitles(movie.creatorId, serverId, path, file, password);
  return { name: file.name, rawUrl: file.rawUrl, type: extensionOf(file.name), subtitles };
}

/**
 * What `GET /current` shows of an AList movie (§7.2 "Vendor movies: the vendor service builds the
 * URL"): AList's raw URL and subtitles, or, proxied, this server's proxy route with `query` (the
 * caller's token and the room) and the subtitles through `?t=subtitle&id=<n>`.
 */
export function alistPlaybackBase(base: MovieBase, source: AlistSource, movieId: string, query: URLSearchParams): MovieBase {
  const proxied = (extra: string) => `/api/room/movie/proxy/${movieId}?${extra}${query}`;
  const subtitles = Object.fromEntries(
    source.subtitles.map((subtitle, index) => [subtitle.name, { url: base.proxy ? proxied(`t=subtitle&id=${index}&`) : subtitle.url, type: subtitle.type }]),
  );
  return {
    ...base,
    url: base.proxy ? proxied('') : source.rawUrl,
    type: base.type || source.type,
    subtitles: source.subtitles.length ? subtitles : base.subtitles,
  };
}

/**
 * One page of a dynamic folder (`GET /api/room/movie/movies?id=<folder>&subPath&keyword`, §4.5):
 * its entries as movies of the folder (`id` the folder's, `subPath` each one's path under it),
 * and the crumbs of `subPath` (after the room's own folder chain, which the caller adds).
 */
export async function alistFolderPage(
  accounts: AlistAccounts,
  folder: AlistMovieRow & DynamicFolderRow,
  request: { subPath: string; keyword: string; page: number; max: number },
): Promise<{ movies: Movie[]; paths: MoviePath[]; total: number }> {
  const { serverId, path: root } = splitAlistPath(folder.base.vendorInfo?.alist?.path ?? '');
  const here = childPath(root, request.subPath);
  const password = accounts.openFolderPassword(folder.base.vendorInfo?.alist?.password ?? '');
  const { entries, total } = await accounts.folder(folder.creatorId, serverId, { folder: here, password, keyword: request.keyword, page: request.page, max: request.max });
  const rootDir = root.replace(/\/+$/, '');
  const movies = entries.map((entry) =>
    dynamicFolderEntry(folder, {
      subPath: entry.path.startsWith(`${rootDir}/`) ? entry.path.slice(rootDir.length) : `/${entry.name}`,
      name: entry.name,
      type: entry.isDir ? '' : extensionOf(entry.name),
      isFolder: entry.isDir,
      proxy: Boolean(folder.base.proxy),
      vendorInfo: { vendor: 'alist', backend: folder.base.vendorInfo?.backend ?? '', alist: { path: joinAlistPath(serverId, entry.path) } },
    }),
  );
  const paths: MoviePath[] = [];
  let walked = '';
  for (const part of request.subPath.split('/').filter((piece) => piece && piece !== '.')) {
    walked = `${walked}/${part}`;
    paths.push({ name: part, id: folder.id, subPath: walked });
  }
  return { movies, paths, total };
}

/** Checks a pushed AList base: a path of a server the pusher bound. Throws 400 `path is empty`, `path is invalid`, `alist server not found`. */
export async function checkAlistPush(accounts: AlistAccounts, userId: string, base: MovieBase): Promise<void> {
  const full = base.vendorInfo?.alist?.path ?? '';
  if (!full) throw badRequest('path is empty');
  const { serverId } = splitAlistPath(full);
  await accounts.requireBinding(userId, serverId);
}
