/**
 * The site admin console's calls (docs/contract.md §4.6): settings by group, users, rooms,
 * administrators (root only) and the test mail. Every call needs a site admin's token (root for
 * `makeAdmin`/`removeAdmin`) and throws `ApiError` with the server's text on failure; ids are the
 * 32-hex ids of §3.3; `createdAt` in the answers is Unix ms.
 */
import { get, post } from './client';
import type { ListResponse, RoomListItem, UserInfo } from '@/lib/contract/types';
import type { SettingValue } from '@/lib/contract/site-settings';

/** `{<group>: {<name>: value}}` (§4.6). */
export type SettingsByGroup = Record<string, Record<string, SettingValue>>;

/**
 * `GET /api/admin/settings` (every group), `/api/admin/settings/<group>`, or `.../oauth2` (every
 * `oauth2_<p>` group). Errors: 400 `group not found`.
 */
export function getSiteSettings(group?: string, signal?: AbortSignal): Promise<SettingsByGroup> {
  return get<SettingsByGroup>(group ? `/api/admin/settings/${encodeURIComponent(group)}` : '/api/admin/settings', { signal });
}

/**
 * `POST /api/admin/settings {<name>: value, …}` → 204; a partial map, applied at once. Errors (400):
 * `setting <name> not found`, and on the companion server `setting <name> must …` and the exclusive
 * pair's text (nothing is written then).
 */
export function updateSiteSettings(patch: Record<string, SettingValue>): Promise<void> {
  return post<void>('/api/admin/settings', { json: patch });
}

/** `POST /api/admin/email/test {email}` → 204; "" sends to the caller's bound email (`email unbound` otherwise). */
export function sendTestMail(email: string): Promise<void> {
  return post<void>('/api/admin/email/test', { json: { email } });
}

/** Query of the admin user list (§4.6). `role` "" = every role. */
export interface AdminUserQuery {
  page: number;
  max: number;
  role: '' | 'banned' | 'pending' | 'user' | 'admin' | 'root';
  keyword: string;
  search: 'all' | 'name' | 'id';
  sort: 'name' | 'createdAt';
  order: 'asc' | 'desc';
}

/** `GET /api/admin/user/list` → `{total, list: [{id, username, email, createdAt, role}]}`. */
export function listUsers(query: AdminUserQuery, signal?: AbortSignal): Promise<ListResponse<UserInfo>> {
  return get<ListResponse<UserInfo>>('/api/admin/user/list', { searchParams: { ...query }, signal });
}

/** Query of the admin room lists (§4.6). `status` "" = every status. */
export interface AdminRoomQuery {
  page: number;
  max: number;
  status: '' | 'active' | 'pending' | 'banned';
  keyword: string;
  search: 'all' | 'name' | 'creator' | 'id';
  sort: 'name' | 'createdAt';
  order: 'asc' | 'desc';
}

/** `GET /api/admin/room/list` → every room (hidden ones too) as RoomListItem. */
export function listRooms(query: AdminRoomQuery, signal?: AbortSignal): Promise<ListResponse<RoomListItem>> {
  return get<ListResponse<RoomListItem>>('/api/admin/room/list', { searchParams: { ...query }, signal });
}

/** `GET /api/admin/user/rooms?id=<user id>` → the rooms a user created. */
export function listUserRooms(userId: string, query: AdminRoomQuery, signal?: AbortSignal): Promise<ListResponse<RoomListItem>> {
  return get<ListResponse<RoomListItem>>('/api/admin/user/rooms', { searchParams: { ...query, id: userId }, signal });
}

/**
 * `POST /api/admin/user/add {username, password, role}` → 204. Errors: the username and password
 * rules, `role cannot be empty`, `user already exists`, 403 `you cannot add root user`.
 */
export function addUser(username: string, password: string, role: number): Promise<void> {
  return post<void>('/api/admin/user/add', { json: { username, password, role } });
}

/** The user actions of §4.6 that take only `{id}`. */
export type UserAction = 'approve' | 'ban' | 'unban' | 'delete';

/**
 * `POST /api/admin/user/<action> {id}` → 204. Refusals: `user is not pending`, `user is not banned`,
 * `cannot ban self`, `cannot delete yourself`, 403 `cannot ban root|admin`, `cannot delete root|admin`.
 */
export function userAction(action: UserAction, id: string): Promise<void> {
  return post<void>(`/api/admin/user/${action}`, { json: { id } });
}

/** `POST /api/admin/user/password {id, password}` → 204 (the user's sessions end). */
export function setUserPassword(id: string, password: string): Promise<void> {
  return post<void>('/api/admin/user/password', { json: { id, password } });
}

/** `POST /api/admin/user/username {id, username}` → 204. */
export function setUsername(id: string, username: string): Promise<void> {
  return post<void>('/api/admin/user/username', { json: { id, username } });
}

/** The room actions of §4.6 that take only `{id}`; ban and delete disconnect everyone in the room. */
export type RoomAction = 'approve' | 'ban' | 'unban' | 'delete';

/** `POST /api/admin/room/<action> {id}` → 204. Refusals: `room is not pending|banned`, 403 for root's and admins' rooms. */
export function roomAction(action: RoomAction, id: string): Promise<void> {
  return post<void>(`/api/admin/room/${action}`, { json: { id } });
}

/** `POST /api/admin/room/password {id, password}` → 204. Errors: `room password empty`, the password rules. */
export function setRoomPassword(id: string, password: string): Promise<void> {
  return post<void>('/api/admin/room/password', { json: { id, password } });
}

/** `POST /api/admin/admin/add {id}` (root) → 204: User → Admin. */
export function makeAdmin(id: string): Promise<void> {
  return post<void>('/api/admin/admin/add', { json: { id } });
}

/** `POST /api/admin/admin/delete {id}` (root) → 204: Admin → User. */
export function removeAdmin(id: string): Promise<void> {
  return post<void>('/api/admin/admin/delete', { json: { id } });
}
