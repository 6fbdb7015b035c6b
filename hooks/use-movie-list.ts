'use client';
/**
 * The open room's movie list through SWR (lists stay in SWR; the room itself is in lib/room/atoms.ts).
 * The viewing hall gives it a cache of its own (SWRConfig provider), so each room visit starts clean.
 */
import { useCallback } from 'react';
import useSWR, { useSWRConfig } from 'swr';
import { listMovies, MOVIE_PAGE_SIZE } from '@/lib/api/movie';

/** Which part of the playlist is shown: a folder ("" = root), a page from 1, and a search keyword. */
export interface MovieListView {
  folderId: string;
  page: number;
  keyword: string;
}

/**
 * One page of a folder, `GET /api/room/movie/movies`, once `enabled` (the room's socket started and
 * the member has GetMovieList). Re-read with `mutate()` on every MOVIES frame.
 */
export function useMovieList(roomId: string, enabled: boolean, view: MovieListView) {
  const { folderId, page, keyword } = view;
  return useSWR(
    enabled ? ['room-movies', roomId, folderId, page, keyword] : null,
    () => listMovies(roomId, { id: folderId, page, max: MOVIE_PAGE_SIZE, keyword }),
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
    void mutate((key) => Array.isArray(key) && key[0] === 'room-movies' && key[1] === roomId, undefined, { revalidate: true });
  }, [mutate, roomId]);
}
