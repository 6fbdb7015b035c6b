/**
 * The route guard's rules (docs/reference-client.md §1.1), as a pure function so that the
 * client `AuthGuard` and the unit tests share one implementation. The guard is UX only: the server
 * still answers 401/403 on every protected call.
 */
import { matchRoute, normalizePath, withTrailingSlash } from '@/config/routes';
import { Role } from '@/lib/contract/roles';

/** What the guard looks at. */
export interface GuardInput {
  /** `usePathname()` value: without the /web basePath, possibly with a trailing slash. */
  pathname: string;
  /** `location.search` of the wanted URL (`""` or `"?a=b"`); kept in the login redirect. */
  search?: string;
  /** Site role of the signed-in user, or `Role.Visitor` (-1) when no user info is loaded. */
  role: number;
  /** `guestEnable` from `GET /api/public/settings` (false while unknown). */
  guestEnable: boolean;
}

/** The guard's answer: render the page, or replace the URL with `to` (a path without basePath). */
export type GuardDecision = { kind: 'allow' } | { kind: 'redirect'; to: string };

/** The login page with `redirect` holding the wanted path, URI-encoded: `/auth/login?redirect=%2FcreateRoom`. */
export function loginPath(wantedPath: string): string {
  return `/auth/login?redirect=${encodeURIComponent(wantedPath)}`;
}

/** The register page with `redirect` holding the path to return to after signing up (as `loginPath`). */
export function registerPath(wantedPath: string): string {
  return `/auth/register?redirect=${encodeURIComponent(wantedPath)}`;
}

/**
 * Decides whether the page at `pathname` may be shown.
 * - Allowed when the route's minimum role is not above `role`.
 * - Otherwise a visitor passes on `/cinema…` when guests are enabled, and always on `/joinRoom…` (that
 *   screen explains how to get in); any other visitor goes to login with the wanted full path.
 * - Otherwise (signed in, not enough rank, e.g. Banned or Pending) the answer is `/403`.
 */
export function decideGuard({ pathname, search = '', role, guestEnable }: GuardInput): GuardDecision {
  const path = normalizePath(pathname);
  if (matchRoute(path).minRole <= role) return { kind: 'allow' };
  if (role === Role.Visitor) {
    if ((guestEnable && path.startsWith('/cinema')) || path.startsWith('/joinRoom')) return { kind: 'allow' };
    return { kind: 'redirect', to: loginPath(path + search) };
  }
  return { kind: 'redirect', to: '/403' };
}

/**
 * Validates a `?redirect=` value before the login screen navigates to it: only a same-site path
 * (`/…`, not `//host` or `/\host`) is followed, with the export's trailing slash (`withTrailingSlash`); anything else gives `/`.
 */
export function safeRedirect(value: string | null | undefined): string {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return '/';
  return withTrailingSlash(value);
}
