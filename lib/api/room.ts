/** Room endpoints outside the room middleware (docs/contract.md §4.3). Each throws `ApiError` on failure. */
import { get, post } from './client';
import type {
  CreateRoomRequest,
  CreateRoomResponse,
  ListResponse,
  RoomCheck,
  RoomJoined,
  RoomListItem,
  RoomListQuery,
  RoomLoginResponse,
} from '@/lib/contract/types';

/**
 * `GET /api/room/hot?page&max` (§4.3, public): active, non-hidden rooms someone is connected to, by
 * viewer count. `status` is always 0 in this list.
 */
export function getHotRooms(query: { page?: number; max?: number } = {}): Promise<ListResponse<RoomListItem>> {
  return get<ListResponse<RoomListItem>>('/api/room/hot', { searchParams: { ...query } });
}

/**
 * `GET /api/room/list` (§4.3, public): active, non-hidden rooms. `search` is all|name|creator|id with
 * `keyword`; `sort` name|createdAt; `order` desc (default) or asc. An unknown sort gives 400 `not support sort`.
 */
export function listRooms(query: RoomListQuery = {}): Promise<ListResponse<RoomListItem>> {
  return get<ListResponse<RoomListItem>>('/api/room/list', { searchParams: { ...query } });
}

/**
 * `GET /api/room/check?roomId=` (§4.3, public): name, creator, status, `needPassword`, `enabledGuest`.
 * A malformed id gives 400, a missing room 404 `room not found`.
 */
export function checkRoom(roomId: string): Promise<RoomCheck> {
  return get<RoomCheck>('/api/room/check', { searchParams: { roomId } });
}

/** `GET /api/room/joined?roomId=` (§4.3, user): `{joined, status (MemberStatus), room}`. Missing room: 404. */
export function getRoomJoined(roomId: string): Promise<RoomJoined> {
  return get<RoomJoined>('/api/room/joined', { searchParams: { roomId } });
}

/**
 * `POST /api/room/login {roomId, password}` (§4.3, user): joins the room and returns the membership.
 * Errors (403): `password error`, `room is banned`, `room is pending, please wait for admin to approve`,
 * `this room was disabled join new user`.
 */
export function loginRoom(roomId: string, password: string): Promise<RoomLoginResponse> {
  return post<RoomLoginResponse>('/api/room/login', { json: { roomId, password } });
}

/**
 * `POST /api/room/create {roomName, password, settings: {hidden}}` (§4.3, user) → 201 `{roomId, status}`:
 * Active(3), or Pending(2) when rooms need review. Errors (400): `room already exists`,
 * `room count exceeds limit`, `create room is disabled`, validation texts (§8).
 */
export function createRoom(request: CreateRoomRequest): Promise<CreateRoomResponse> {
  return post<CreateRoomResponse>('/api/room/create', { json: request });
}
