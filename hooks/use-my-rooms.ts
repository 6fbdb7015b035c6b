'use client';
import useSWR from 'swr';
import { getMyRooms } from '@/lib/api/user';
import type { RoomListQuery } from '@/lib/contract/types';

/** `GET /api/user/rooms` (rooms the caller created) through SWR; `query` null skips the fetch. */
export function useMyRooms(query: RoomListQuery | null) {
  return useSWR(query ? ['/api/user/rooms', query] : null, ([, q]) => getMyRooms(q), { keepPreviousData: true });
}
