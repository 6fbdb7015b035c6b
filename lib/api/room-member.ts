/**
 * The caller's membership in a room (docs/contract.md §4.3). Both calls are room-scoped: the room id
 * travels as `X-Room-Id` (§3.3) and a visitor without a token is a guest (§3.5).
 */
import { get } from './client';
import type { RoomInfo, RoomMe } from '@/lib/contract/types';

/**
 * `GET /api/room/me` → `{userId, roomId, joinAt (ms), role, status, permissions, adminPermissions}`.
 * The viewing hall calls this first: a 401 on `/api/room/me` sends the user to `/joinRoom/<id>`
 * (lib/api/unauthorized.ts), whereas a 401 on `/api/room/info` would sign them out.
 * Throws `ApiError` (401 not a member / guests not allowed, 500 on a v0.9.11 server for a non-member
 * of a password room: `get room member failed: room or member not found`).
 */
export function getRoomMe(roomId: string, signal?: AbortSignal): Promise<RoomMe> {
  return get<RoomMe>('/api/room/me', { roomId, signal });
}

/**
 * `GET /api/room/info` → `{id, name, needPassword, creator, creatorId, createdAt (ms), status,
 * enabledGuest, member}`. Throws `ApiError`; call it only after `getRoomMe` succeeded.
 */
export function getRoomInfo(roomId: string, signal?: AbortSignal): Promise<RoomInfo> {
  return get<RoomInfo>('/api/room/info', { roomId, signal });
}

/**
 * `GET /api/room/webrtc/iceServers` → `{iceServers: RTCIceServer[]}`: voice chat's STUN and TURN
 * servers (a companion-server route, docs/voice.md; a v0.9.11 server answers 404). Throws `ApiError`
 * (403 `no permission to use webrtc` without the WebRTC permission).
 */
export function getIceServers(roomId: string): Promise<{ iceServers: RTCIceServer[] }> {
  return get<{ iceServers: RTCIceServer[] }>('/api/room/webrtc/iceServers', { roomId });
}
