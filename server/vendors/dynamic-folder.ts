/**
 * An entry of a dynamic folder (docs/vendors.md; an AList or Emby folder pushed as a movie) as the
 * playlist lists it (`GET /api/room/movie/movies?id=<folder>&subPath`, §4.5): a movie with the
 * folder's id, creator and time and the entry's own `subPath`, name and `vendorInfo`, never live,
 * pushed or with danmaku.
 */
import type { Movie, MovieBase } from '@/lib/contract/types';

/** The folder row an entry belongs to. */
export interface DynamicFolderRow {
  id: string;
  creator: string;
  creatorId: string;
  createdAt: number;
}

/** What differs from entry to entry. */
export interface DynamicEntry {
  subPath: string;
  name: string;
  /** The movie `type` ("" for a folder or when unknown). */
  type: string;
  isFolder: boolean;
  proxy: boolean;
  vendorInfo: NonNullable<MovieBase['vendorInfo']>;
}

/** The movie the playlist shows for `entry` of `folder`. */
export function dynamicFolderEntry(folder: DynamicFolderRow, entry: DynamicEntry): Movie {
  return {
    id: folder.id,
    creator: folder.creator,
    creatorId: folder.creatorId,
    subPath: entry.subPath,
    base: {
      url: '',
      name: entry.name,
      type: entry.type,
      live: false,
      proxy: entry.proxy,
      rtmpSource: false,
      danmu: '',
      streamDanmu: '',
      isFolder: entry.isFolder,
      parentId: folder.id,
      vendorInfo: entry.vendorInfo,
    },
    createAt: folder.createdAt,
  };
}
