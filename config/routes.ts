/**
 * The route table: one source of truth for paths, titles and minimum roles, read by the guard,
 * the header and the document title (docs/reference-client.md §1.1). Paths exclude the /web basePath.
 */
import { Role } from '@/lib/contract/roles';
import type { MessageKey } from '@/lib/i18n/messages';

export interface RouteDef {
  name: string;
  /** Path pattern; `:param` is a segment, `:param?` an optional one. */
  path: string;
  /** Message-catalogue key of the route title. */
  title: MessageKey;
  /** Minimum site role (docs/reference-client.md §1.1). */
  minRole: number;
}

export const routes: readonly RouteDef[] = [
  { name: 'home', path: '/', title: 'route.home', minRole: Role.Visitor },
  { name: 'callback', path: '/oauth2/callback/:platform', title: 'route.callback', minRole: Role.Visitor },
  { name: 'login', path: '/auth/login', title: 'route.login', minRole: Role.Visitor },
  { name: 'register', path: '/auth/register', title: 'route.register', minRole: Role.Visitor },
  { name: 'reset', path: '/auth/reset', title: 'route.reset', minRole: Role.Visitor },
  { name: 'createRoom', path: '/createRoom', title: 'route.createRoom', minRole: Role.User },
  { name: 'joinRoom', path: '/joinRoom/:roomId?', title: 'route.joinRoom', minRole: Role.User },
  { name: 'rooms', path: '/rooms', title: 'route.rooms', minRole: Role.Visitor },
  { name: 'cinema', path: '/cinema/:roomId', title: 'route.cinema', minRole: Role.User },
  { name: 'search', path: '/search', title: 'route.search', minRole: Role.Visitor },
  { name: 'myself', path: '/user/me', title: 'route.myself', minRole: Role.User },
  { name: 'admin', path: '/admin', title: 'route.admin', minRole: Role.Admin },
  { name: '403', path: '/403', title: 'route.forbidden', minRole: Role.Visitor },
];

/** The catch-all 404 route, used when no entry of `routes` matches. */
export const notFoundRoute: RouteDef = { name: '404', path: '*', title: 'route.notFound', minRole: Role.Visitor };

/** Strips a trailing slash (trailingSlash export keeps it in usePathname) except for the root. */
export function normalizePath(pathname: string): string {
  const path = pathname.split(/[?#]/)[0] || '/';
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}

/**
 * The export's canonical form of an in-app href (no basePath): a trailing slash on the path part, as
 * `trailingSlash: true` writes every route (`/cinema/abc?x=1` → `/cinema/abc/?x=1`). `<Link>` adds it by
 * itself; `router.push`/`replace` in Next 15 do not, so programmatic navigation passes its target here.
 */
export function withTrailingSlash(href: string): string {
  const cut = href.search(/[?#]/);
  const path = cut === -1 ? href : href.slice(0, cut);
  const rest = cut === -1 ? '' : href.slice(cut);
  return (path.endsWith('/') ? path : `${path}/`) + rest;
}

/** Finds the route for a pathname (without basePath). Returns `notFoundRoute` when nothing matches. */
export function matchRoute(pathname: string): RouteDef {
  const segments = normalizePath(pathname).split('/').filter(Boolean);
  for (const route of routes) {
    const pattern = route.path.split('/').filter(Boolean);
    if (segmentsMatch(pattern, segments)) return route;
  }
  return notFoundRoute;
}

function segmentsMatch(pattern: string[], segments: string[]): boolean {
  const required = pattern.filter((p) => !p.endsWith('?')).length;
  if (segments.length < required || segments.length > pattern.length) return false;
  return pattern.every((p, i) => {
    if (p.startsWith(':')) return p.endsWith('?') || segments[i] !== undefined;
    return segments[i] === p;
  });
}

/** The viewing hall of `roomId` as a router path: `/cinema/<id>/`. */
export function cinemaPath(roomId: string): string {
  return `/cinema/${encodeURIComponent(roomId)}/`;
}

/** The join screen for `roomId` as a router path: `/joinRoom/<id>/`. */
export function joinRoomPath(roomId: string): string {
  return `/joinRoom/${encodeURIComponent(roomId)}/`;
}
