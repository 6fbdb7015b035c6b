'use client';
/**
 * The open room's movie list through SWR (lists stay in SWR; the room itself is in lib/room/atoms.ts).
 * The viewing hall gives it a cache of its own (SWRConfig provider), so each room visit starts clean.
 */
import useSWR from 'swr';
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
