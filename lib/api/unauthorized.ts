/**
 * The client's 401 rules (issue 2, Part A; server-contract.md §2.2 and §11 c). A 401 on a call that
 * proves only that the user is not (yet) a member of the room sends them to /joinRoom/{roomId}; any
 * other 401 means the session itself is invalid.
 */

/**
 * Path prefixes whose 401 means "join the room first". Beyond the reference client's list, the
 * admin delete/pwd routes are included because the reference client moved to them (reference-client.md §7).
 */
export const JOIN_ROOM_401_PREFIXES = [
  '/api/room/movie',
  '/api/room/admin/delete',
  '/api/room/admin/pwd',
  '/api/room/delete',
  '/api/room/pwd',
  '/api/room/me',
] as const;

export type UnauthorizedAction =
  | { kind: 'joinRoom'; roomId: string }
  | { kind: 'signOut' };

/**
 * Decides what a 401 on `path` (URL path without origin or query) means. `roomId` is the request's
 * `X-Room-Id`; without one, a room-path 401 cannot be sent anywhere useful and signs out instead.
 */
export function classifyUnauthorized(path: string, roomId: string | null): UnauthorizedAction {
  if (roomId && JOIN_ROOM_401_PREFIXES.some((prefix) => matchesRoomPath(path, prefix))) {
    return { kind: 'joinRoom', roomId };
  }
  return { kind: 'signOut' };
}

/**
 * `/api/room/movie*` covers every movie route; the other entries match the path itself or its
 * sub-paths (`/api/room/pwd/check`), so that `/api/room/members` is not taken for `/api/room/me`.
 */
function matchesRoomPath(path: string, prefix: string): boolean {
  if (prefix === '/api/room/movie') return path.startsWith(prefix);
  return path === prefix || path.startsWith(`${prefix}/`);
}

/** Delay (ms) between clearing the session and going home after a session 401, as in the reference client. */
export const SIGN_OUT_REDIRECT_DELAY_MS = 1000;
