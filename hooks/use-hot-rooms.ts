'use client';
import useSWR from 'swr';
import { getHotRooms } from '@/lib/api/room';

/** How often the hot list refreshes its viewer counts, in ms (the server caches it for 3 s). */
export const HOT_ROOMS_REFRESH_MS = 30_000;

/** `GET /api/room/hot` through SWR, refreshed every 30 s. */
export function useHotRooms(page = 1, max = 10) {
  return useSWR(['/api/room/hot', page, max], () => getHotRooms({ page, max }), {
    refreshInterval: HOT_ROOMS_REFRESH_MS,
    keepPreviousData: true,
  });
}
