'use client';
/**
 * Rooms outside the hall (docs/contract.md §4.3): the hot list, the room list and search, a room's
 * check and the caller's membership, joining with a password, creating. Reads are SWR hooks (keys in
 * ./keys.ts); the calls throw `ApiError` (lib/api/error.ts) on failure.
 */
import useSWR from 'swr';
import { getHotRooms, listRooms } from '@/lib/api/room';
import type { RoomListQuery } from '@/lib/contract/types';
import { keys } from './keys';

export { checkRoom, createRoom, getRoomJoined, loginRoom } from '@/lib/api/room';

/** How often the hot list refreshes its viewer counts, in ms (the server caches it for 3 s). */
export const HOT_ROOMS_REFRESH_MS = 30_000;

/** `GET /api/room/hot`, page `page` (from 1) of `max` rooms, refreshed every 30 s. */
export function useHotRooms(page = 1, max = 10) {
  return useSWR(keys.hotRooms(page, max), () => getHotRooms({ page, max }), {
    refreshInterval: HOT_ROOMS_REFRESH_MS,
    keepPreviousData: true,
  });
}

/** `GET /api/room/list`; `query` null means "do not fetch yet" (e.g. before a search). */
export function useRoomList(query: RoomListQuery | null) {
  return useSWR(query ? keys.roomList(query) : null, () => listRooms(query!), { keepPreviousData: true });
}
