'use client';
/**
 * The open room's movie list through SWR (lists stay in SWR; the room itself is in lib/room/atoms.ts).
 * The viewing hall gives it a cache of its own (SWRConfig provider), so each room visit starts clean.
 */
import useSWR from 'swr';
import { listMovies, MOVIE_PAGE_SIZE } from '@/lib/api/movie';

/**
 * One page (from 1) of the root folder, `GET /api/room/movie/movies`, once `enabled` (the room's
 * socket started and the member has GetMovieList). Re-read with `mutate()` on every MOVIES frame.
 */
export function useMovieList(roomId: string, enabled: boolean, page: number) {
  return useSWR(enabled ? ['room-movies', roomId, page] : null, () => listMovies(roomId, { id: '', page, max: MOVIE_PAGE_SIZE }), {
    keepPreviousData: true,
  });
}
