'use client';
/**
 * SWR hooks of the viewing hall. Keys stay null until their turn in the mount order
 * (me → info → socket → movies and current), so a 401 is always first met on `/api/room/me`,
 * whose 401 goes to /joinRoom (lib/api/unauthorized.ts). The cinema view gives them a cache of their
 * own (SWRConfig provider), so each room visit starts clean.
 */
import useSWR from 'swr';
import { getCurrentMovie, listMovies, MOVIE_PAGE_SIZE } from '@/lib/api/movie';
import { getRoomInfo, getRoomMe } from '@/lib/api/room-member';
import type { CurrentMovie } from '@/lib/contract/types';

/** `GET /api/room/me`, the first room call. */
export function useRoomMe(roomId: string) {
  return useSWR(['room-me', roomId], () => getRoomMe(roomId));
}

/** `GET /api/room/info`, once `enabled` (after /api/room/me succeeded). */
export function useRoomInfo(roomId: string, enabled: boolean) {
  return useSWR(enabled ? ['room-info', roomId] : null, () => getRoomInfo(roomId));
}

/** One page (from 1) of the root folder, once `enabled` (socket started and GetMovieList). */
export function useMovieList(roomId: string, enabled: boolean, page: number) {
  return useSWR(enabled ? ['room-movies', roomId, page] : null, () => listMovies(roomId, { id: '', page, max: MOVIE_PAGE_SIZE }), {
    keepPreviousData: true,
  });
}

/**
 * `GET /api/room/movie/current` with the local times (Unix ms) around the request: the server
 * extrapolated `status` when it handled the request, which the sync engine places one one-way
 * delay before the response.
 */
export interface LoadedCurrent {
  current: CurrentMovie;
  requestedAtMs: number;
  receivedAtMs: number;
}

/** The current movie and status, once `enabled` (after the socket was started). */
export function useCurrentMovie(roomId: string, enabled: boolean) {
  return useSWR<LoadedCurrent>(enabled ? ['room-current', roomId] : null, async () => {
    const requestedAtMs = Date.now();
    const current = await getCurrentMovie(roomId);
    return { current, requestedAtMs, receivedAtMs: Date.now() };
  });
}
