/**
 * The client's 401 rules (docs/contract.md §2.2, §11 c; docs/reference-client.md §2.1), applied by the
 * API client's `afterResponse` hook (./client.ts) and nowhere else. A 401 on a call that proves only
 * that the user is not (yet) a member of the room sends them to `/joinRoom/<X-Room-Id>`; any other
 * 401 means the session itself is invalid: it is cleared from this device and, after 1000 ms, the
 * user is taken home. The rules look at the request's path and `X-Room-Id`, never at the error text.
 */
import { joinRoomPath } from '@/config/routes';
import { BASE_PATH } from '@/lib/contract/export-layout';
import { signOutLocally } from '@/lib/session';

/**
 * Path prefixes whose 401 means "join the room first". Beyond the reference client's list: every
 * room administration route (the reference client moved delete and pwd there, docs/reference-client.md
 * §7) and the member list and settings that the hall's panels read, so that a member who was banned
 * or removed while a panel was open lands on the join screen, which says why, instead of being signed
 * out. `/api/room/info` stays a session 401: the hall calls `/api/room/me` before it.
 */
export const JOIN_ROOM_401_PREFIXES = [
  '/api/room/movie',
  '/api/room/admin',
  '/api/room/delete',
  '/api/room/pwd',
  '/api/room/me',
  '/api/room/members',
  '/api/room/settings',
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

/**
 * A burst of 401s for one room (a screen fires several calls at once) leads to one navigation if
 * they arrive within this many ms.
 */
export const JOIN_ROOM_DEDUPE_MS = 1000;

/** How the 401 rules move the user: router paths without the basePath (`/joinRoom/<id>/`, `/`). */
export interface Navigator {
  push(path: string): void;
  replace(path: string): void;
}

/** Until the app shell installs the router (`setNavigator`), full page loads under the basePath. */
const pageLoads: Navigator = {
  push: (path) => window.location.assign(`${BASE_PATH}${path}`),
  replace: (path) => window.location.replace(`${BASE_PATH}${path}`),
};

let navigator: Navigator = pageLoads;
let homeTimer: ReturnType<typeof setTimeout> | null = null;
let lastJoin = { path: '', atMs: 0 };

/** Installs the app router as the way to navigate (components/layout/app-bootstrap.tsx); null restores page loads. */
export function setNavigator(next: Navigator | null): void {
  navigator = next ?? pageLoads;
}

/**
 * Applies the 401 rules to a 401 answer for `path` sent with `X-Room-Id` `roomId` (or null): see the
 * module comment. Repeated session 401s share one pending redirect home; repeated join 401s for the
 * same room within JOIN_ROOM_DEDUPE_MS navigate once.
 */
export function handleUnauthorized(path: string, roomId: string | null): void {
  if (typeof window === 'undefined') return;
  const action = classifyUnauthorized(path, roomId);
  if (action.kind === 'joinRoom') {
    const target = joinRoomPath(action.roomId);
    const now = Date.now();
    if (lastJoin.path === target && now - lastJoin.atMs < JOIN_ROOM_DEDUPE_MS) return;
    lastJoin = { path: target, atMs: now };
    navigator.push(target);
    return;
  }
  signOutLocally();
  if (homeTimer) return;
  homeTimer = setTimeout(() => {
    homeTimer = null;
    navigator.replace('/');
  }, SIGN_OUT_REDIRECT_DELAY_MS);
}

/** Forgets pending redirects and the join dedupe (tests, and an app shell that unmounts). */
export function resetUnauthorizedState(): void {
  if (homeTimer) clearTimeout(homeTimer);
  homeTimer = null;
  lastJoin = { path: '', atMs: 0 };
}
