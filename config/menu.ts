/**
 * The header menu as data (docs/reference-client.md §1.1 "Header"): which route links a
 * visitor, a guest or a signed-in user sees. The header renders whatever `buildMenu` returns.
 */
import type { MessageKey } from '@/lib/i18n/messages';
import type { PublicSettings } from '@/lib/contract/types';
import { Role } from '@/lib/contract/roles';
import { loginPath, registerPath } from '@/lib/guard';
import { normalizePath, routes } from './routes';

/** What the menu depends on. */
export interface MenuContext {
  /** Site role, `Role.Visitor` (-1) when nobody is signed in. */
  role: number;
  /** `guestEnable` from the public settings. */
  guestEnable: boolean;
  /** Whether any signup method is open (`signupAllowed(settings)`). */
  signupAllowed: boolean;
  /** Path of the cinema being watched (`/cinema/<id>`), or null outside a cinema. */
  cinemaPath: string | null;
  /**
   * Where Log in and Register lead back to (`?redirect=`): the page the visitor is on, with its
   * query; null (or absent) for none, e.g. on the home page.
   */
  returnTo?: string | null;
}

/** One rendered menu link. `name` is the route name (also the `nav-<name>` test id). */
export interface MenuEntry {
  name: string;
  href: string;
  title: MessageKey;
}

interface MenuItem {
  /** Route name in config/routes.ts; title and default href come from there. */
  route: string;
  /** Menu-specific label when it differs from the route title. */
  title?: MessageKey;
  show: (ctx: MenuContext) => boolean;
  href?: (ctx: MenuContext) => string;
}

const signedIn = (ctx: MenuContext) => ctx.role !== Role.Visitor;

/** The menu, in display order. */
export const menuItems: readonly MenuItem[] = [
  { route: 'home', show: () => true },
  { route: 'search', show: () => true },
  { route: 'rooms', show: () => true },
  { route: 'joinRoom', show: (ctx) => (signedIn(ctx) ? ctx.cinemaPath === null : ctx.guestEnable) },
  { route: 'createRoom', show: (ctx) => signedIn(ctx) && ctx.cinemaPath === null },
  {
    route: 'cinema',
    show: (ctx) => ctx.cinemaPath !== null && (signedIn(ctx) || ctx.guestEnable),
    href: (ctx) => ctx.cinemaPath ?? '/',
  },
  { route: 'myself', title: 'nav.myself', show: signedIn },
  { route: 'admin', show: (ctx) => ctx.role >= Role.Admin },
  { route: 'login', show: (ctx) => !signedIn(ctx), href: (ctx) => (ctx.returnTo ? loginPath(ctx.returnTo) : '/auth/login') },
  { route: 'register', show: (ctx) => !signedIn(ctx) && ctx.signupAllowed, href: (ctx) => (ctx.returnTo ? registerPath(ctx.returnTo) : '/auth/register') },
];

/** True when any signup method is open: password, email, or OAuth2 (§4.1 keys). Unknown settings: false. */
export function signupAllowed(settings: PublicSettings | null): boolean {
  if (!settings) return false;
  return (
    !settings.passwordDisableSignup ||
    (settings.emailEnable && !settings.emailDisableSignup) ||
    !settings.oauth2DisableSignup
  );
}

/** The static href of a route: its path without optional parameters (`/joinRoom/:roomId?` → `/joinRoom`). */
function staticHref(path: string): string {
  return '/' + path.split('/').filter((part) => part && !part.endsWith('?')).join('/');
}

/** The links to show for `ctx`, in order. */
export function buildMenu(ctx: MenuContext): MenuEntry[] {
  return menuItems.flatMap((item) => {
    const route = routes.find((r) => r.name === item.route);
    if (!route || !item.show(ctx)) return [];
    return [{ name: route.name, title: item.title ?? route.title, href: item.href ? item.href(ctx) : staticHref(route.path) }];
  });
}

/** Screens of the sign-in flow: their Log in and Register links pass on the `redirect` they were given. */
const SIGN_IN_ROUTES = new Set(['login', 'register', 'reset', 'callback']);

/**
 * Where the header's Log in and Register lead back to: the current page and its query, except on
 * the home page (nowhere to return to) and on the sign-in screens, which pass on their own `redirect`.
 */
export function returnPathOf(routeName: string, pathname: string, search: string): string | null {
  if (SIGN_IN_ROUTES.has(routeName)) return new URLSearchParams(search).get('redirect') || null;
  const path = normalizePath(pathname);
  if (path === '/') return null;
  return path + search;
}
