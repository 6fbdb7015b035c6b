/** User endpoints (docs/contract.md §4.2). Every function throws `ApiError` with the server's text on failure. */
import { get, post } from './client';
import type { JoinedRoomListItem, ListResponse, RoomListItem, RoomListQuery, TokenResponse, UserInfo } from '@/lib/contract/types';

/** Username and password of the login and signup forms (§8: 1–32 bytes each). */
export interface Credentials {
  username: string;
  password: string;
}

/**
 * `POST /api/user/login {username, password}` or `{email, password}` (the bound address) (§4.2).
 * Gives `{token, role}`, or, for a banned or pending account, `{message, role}` with status 200 and
 * no token. Unknown user: 404 `user not found`; wrong password: 403 `password incorrect`.
 */
export function login(credentials: Credentials | { email: string; password: string }): Promise<TokenResponse> {
  return post<TokenResponse>('/api/user/login', { json: credentials });
}

/**
 * `POST /api/user/signup {username, password}` (§4.2). Same answer shapes as `login`. Errors (400):
 * `user signup disabled`, `password signup disabled`, `user already exists`, validation texts (§8).
 */
export function signup(credentials: Credentials): Promise<TokenResponse> {
  return post<TokenResponse>('/api/user/signup', { json: credentials });
}

/** `GET /api/user/me` (§4.2): `{id, username, email, createdAt (Unix ms), role}`. A bad token gives 401. */
export function getMe(): Promise<UserInfo> {
  return get<UserInfo>('/api/user/me');
}

/**
 * `GET /api/user/rooms` (§4.2): rooms created by the caller, paged `{total, list}`. `status` filters
 * (default `active`); any other value (we send `all`) lists every status.
 */
export function getMyRooms(query: RoomListQuery = {}): Promise<ListResponse<RoomListItem>> {
  return get<ListResponse<RoomListItem>>('/api/user/rooms', { searchParams: { ...query } });
}

/** `GET /api/user/rooms/joined` (§4.2): rooms joined but not created, with `memberStatus` and `memberRole`. */
export function getJoinedRooms(query: RoomListQuery = {}): Promise<ListResponse<JoinedRoomListItem>> {
  return get<ListResponse<JoinedRoomListItem>>('/api/user/rooms/joined', { searchParams: { ...query } });
}

/** `POST /api/user/username {username}` (§4.2) → 204. A duplicate name is a 500 on v0.9.11. */
export function setUsername(username: string): Promise<void> {
  return post<void>('/api/user/username', { json: { username } });
}

/**
 * `POST /api/user/password {password}` (§4.2) → `{token, role}`: a fresh token, because every older
 * token stops working. Same password: 400 `password is the same`.
 */
export function setPassword(password: string): Promise<TokenResponse> {
  return post<TokenResponse>('/api/user/password', { json: { password } });
}
