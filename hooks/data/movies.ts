'use client';
/**
 * The open room's playlist (docs/contract.md §4.5, §7): one page of a folder through SWR, and the
 * writes (push, edit, swap, delete, clear, set the current movie). A write needs no refresh here:
 * the server answers every change with a MOVIES (or CURRENT) frame, on which the room session reads
 * the lists again (`useRefreshMovieLists`). The calls throw `ApiError` on failure.
 */
import { useCallback } from 'react';
import useSWR, { useSWRConfig } from 'swr';
import { getPublishKey, isReceivingPush, listMovies, MOVIE_PAGE_SIZE } from '@/lib/api/movie';
import { isKeyOf, keys } from './keys';

export {
  clearMovies,
  deleteMovies,
  editMovie,
  hasCurrentMovie,
  MOVIE_PAGE_SIZE,
  pageOfMovies,
  playableUrl,
  pushMovie,
  pushMovies,
  pushServerUrl,
  setCurrentMovie,
  swapMovies,
  withMediaChoice,
  type MediaChoice,
} from '@/lib/api/movie';

/**
 * Which part of the playlist is shown: a folder ("" = root), a page from 1, a search keyword, and in
 * a dynamic folder (an AList folder, docs/vendors.md) the path under it.
 */
export interface MovieListView {
  folderId: string;
  page: number;
  keyword: string;
  subPath?: string;
}

/**
 * One page of a folder, `GET /api/room/movie/movies`, once `enabled` (the room's socket started and
 * the member has GetMovieList). The hall gives it a cache of its own (SWRConfig provider), so each
 * room visit starts clean.
 */
export function useMovieList(roomId: string, enabled: boolean, view: MovieListView) {
  const { folderId, page, keyword, subPath = '' } = view;
  return useSWR(
    enabled ? keys.movies(roomId, folderId, page, keyword, subPath) : null,
    () => listMovies(roomId, { id: folderId, page, max: MOVIE_PAGE_SIZE, keyword, subPath }),
    { keepPreviousData: true },
  );
}

/**
 * Marks every cached page, folder and search of the room's playlist as out of date (after a MOVIES
 * frame or a reconnect): the one shown is read again at once, the others when next shown, instead of
 * showing a list from before the change.
 */
export function useRefreshMovieLists(roomId: string): () => void {
  const { mutate } = useSWRConfig();
  return useCallback(() => {
    void mutate((key) => isKeyOf(key, ['room-movies']) && (key as unknown[])[1] === roomId, undefined, { revalidate: true });
  }, [mutate, roomId]);
}

/** The publish key of the live movie `movieId` (docs/live.md), read once: only its creator gets it, others get the server's refusal as `error`. */
export function usePublishKey(roomId: string, movieId: string) {
  return useSWR(keys.publishKey(roomId, movieId), () => getPublishKey(roomId, movieId), { revalidateOnFocus: false });
}

/**
 * Whether the server receives the push of the live movie `movieId` (true) or waits for it (false),
 * read every `everyMs` while `enabled` (the stream info dialog is open with its key).
 */
export function useLiveStatus(roomId: string, movieId: string, enabled: boolean, everyMs: number) {
  return useSWR(enabled ? keys.liveStatus(roomId, movieId) : null, () => isReceivingPush(roomId, movieId), { refreshInterval: everyMs });
}
