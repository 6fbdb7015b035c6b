'use client';
import useSWR from 'swr';
import { listRooms } from '@/lib/api/room';
import type { RoomListQuery } from '@/lib/contract/types';

/** `GET /api/room/list` through SWR; `query` null means "do not fetch yet" (e.g. before a search). */
export function useRoomList(query: RoomListQuery | null) {
  return useSWR(query ? ['/api/room/list', query] : null, ([, q]) => listRooms(q), { keepPreviousData: true });
}
