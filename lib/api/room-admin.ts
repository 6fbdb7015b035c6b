/**
 * Room administration and the member views (docs/contract.md §3.6, §4.3, §4.4). Every call is
 * room-scoped (`X-Room-Id`, §3.3) and throws `ApiError` on failure.
 *
 * Status codes differ by server: v0.9.11 answers every failure of the member actions with 500 and
 * the error text; the companion server answers 400/403/404 with the same text. Callers describe
 * the error by its text (lib/i18n/error-text.ts), so both read the same to a person.
 */
import { get, post } from './client';
import type { ListResponse, MemberListQuery, RoomMember, RoomSettings } from '@/lib/contract/types';

/**
 * `GET /api/room/members` (room-noguest) or, for room admins, `GET /api/room/admin/members` (which
 * also filters by `status`; absent = active, "" = every status). Rows: `{userId, username, joinAt
 * (ms), onlineCount, permissions, adminPermissions, role, status}`.
 */
export function listMembers(roomId: string, query: MemberListQuery, asAdmin: boolean): Promise<ListResponse<RoomMember>> {
  const path = asAdmin ? '/api/room/admin/members' : '/api/room/members';
  const { status, ...rest } = query;
  return get<ListResponse<RoomMember>>(path, { roomId, searchParams: asAdmin ? { ...rest, status: status ?? '' } : rest });
}

/**
 * The room's settings (§5.5): `GET /api/room/admin/settings` for room admins, else
 * `GET /api/room/settings` (room-noguest; guests may read neither).
 */
export function getRoomSettings(roomId: string, asAdmin: boolean, signal?: AbortSignal): Promise<RoomSettings> {
  return get<RoomSettings>(asAdmin ? '/api/room/admin/settings' : '/api/room/settings', { roomId, signal });
}

/**
 * `POST /api/room/admin/settings` with a partial map of snake_case keys (room-admin +
 * SetRoomSettings) → 204. Errors: 403 `set room setting failed: no permission`, 400 for an unknown
 * key or a wrong type.
 */
export function updateRoomSettings(roomId: string, patch: Partial<RoomSettings>): Promise<void> {
  return post<void>('/api/room/admin/settings', { roomId, json: patch });
}

/**
 * `POST /api/room/admin/pwd {password}` (room-admin + SetRoomPassword) → 204. "" removes the
 * password. Errors (400): `password is the same`, `password too long`, `password has invalid char`,
 * `room must need password`, `room must no need password`; 403 without the permission.
 */
export function setRoomPassword(roomId: string, password: string): Promise<void> {
  return post<void>('/api/room/admin/pwd', { roomId, json: { password } });
}

/** `POST /api/room/admin/delete` (room-admin + DeleteRoom) → 204; the room's sockets are closed. */
export function deleteRoom(roomId: string): Promise<void> {
  return post<void>('/api/room/admin/delete', { roomId, json: { roomId } });
}

/** `POST /api/room/pwd/check {password}` (room-noguest) → `{valid}`; true when the room has no password. */
export function checkRoomPassword(roomId: string, password: string): Promise<{ valid: boolean }> {
  return post<{ valid: boolean }>('/api/room/pwd/check', { roomId, json: { password } });
}

/** The member actions of §4.4 that take only `{id}` (a user id, 32 hex characters). */
export type MemberAction = 'approve' | 'delete' | 'ban' | 'unban';

/**
 * `POST /api/room/admin/members/{approve|delete|ban|unban} {id}` (room-admin + ApprovePendingMember
 * for approve and delete, BanRoomMember for ban and unban) → 204. Banning or deleting closes the
 * member's sockets. Errors: `cannot ban yourself`, `cannot ban admin`, `creator cannot be banned`,
 * `please set whether to disable guest users in the room settings`, `id is required`, no permission.
 */
export function memberAction(roomId: string, action: MemberAction, userId: string): Promise<void> {
  return post<void>(`/api/room/admin/members/${action}`, { roomId, json: { id: userId } });
}

/**
 * `POST /api/room/admin/members/member {id, permissions}` (room-creator) → 204: the user becomes a
 * plain member with `permissions` (uint32 mask, §5.4). The user gets MY_STATUS.
 */
export function makeMember(roomId: string, userId: string, permissions: number): Promise<void> {
  return post<void>('/api/room/admin/members/member', { roomId, json: { id: userId, permissions } });
}

/**
 * `POST /api/room/admin/members/admin {id, adminPermissions}` (room-creator) → 204: the user becomes a
 * room admin (every member permission) with `adminPermissions` (uint32 mask, §5.4).
 */
export function makeAdmin(roomId: string, userId: string, adminPermissions: number): Promise<void> {
  return post<void>('/api/room/admin/members/admin', { roomId, json: { id: userId, adminPermissions } });
}

/**
 * `POST /api/room/admin/members/member/permissions {id, permissions}` (room-creator +
 * SetUserPermission) → 204. For the guest id (`000…001`) it sets the room's `guest_permissions`.
 */
export function setMemberPermissions(roomId: string, userId: string, permissions: number): Promise<void> {
  return post<void>('/api/room/admin/members/member/permissions', { roomId, json: { id: userId, permissions } });
}

/** `POST /api/room/admin/members/admin/permissions {id, adminPermissions}` (room-creator) → 204; the target must be an admin (`not admin`). */
export function setAdminPermissions(roomId: string, userId: string, adminPermissions: number): Promise<void> {
  return post<void>('/api/room/admin/members/admin/permissions', { roomId, json: { id: userId, adminPermissions } });
}
