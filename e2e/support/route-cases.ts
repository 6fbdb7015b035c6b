import { expect, type Page } from '@playwright/test';
import type { Actor, Actors } from '../fixtures';

/** Who opens a route: a visitor without a session, a signed-up user, or root (site admin screens). */
export type Audience = 'visitor' | 'user' | 'root';

/** Room ids a test created, for routes that need a real one. */
export interface RouteIds {
  openRoomId: string;
  passwordRoomId: string;
}

/** One row of config/routes.ts as a test opens it. */
export interface RouteCase {
  /** Route name in config/routes.ts; the screen's root is `page-<name>`. */
  name: string;
  audience: Audience;
  /** Path without /web; may need a room id created for the test. */
  path: (ids: RouteIds) => string;
}

/** Every route of config/routes.ts with an audience allowed to see it, real room ids where it has one. */
export const ROUTE_CASES: readonly RouteCase[] = [
  { name: 'home', audience: 'visitor', path: () => '/' },
  { name: 'callback', audience: 'visitor', path: () => '/oauth2/callback/github' },
  { name: 'login', audience: 'visitor', path: () => '/auth/login' },
  { name: 'register', audience: 'visitor', path: () => '/auth/register' },
  { name: 'reset', audience: 'visitor', path: () => '/auth/reset' },
  { name: 'createRoom', audience: 'user', path: () => '/createRoom' },
  { name: 'joinRoom', audience: 'user', path: () => '/joinRoom' },
  // A password room: the join screen has to stay and ask, instead of auto-joining into the cinema.
  { name: 'joinRoom', audience: 'user', path: ({ passwordRoomId }) => `/joinRoom/${passwordRoomId}` },
  { name: 'rooms', audience: 'visitor', path: () => '/rooms' },
  { name: 'cinema', audience: 'user', path: ({ openRoomId }) => `/cinema/${openRoomId}` },
  { name: 'search', audience: 'visitor', path: () => '/search' },
  { name: 'myself', audience: 'user', path: () => '/user/me' },
  { name: 'admin', audience: 'root', path: () => '/admin' },
  { name: '403', audience: 'visitor', path: () => '/403' },
];

/** A test title for a case, e.g. `/cinema/<id> as a user`. */
export function caseTitle(routeCase: RouteCase): string {
  const sample = routeCase.path({ openRoomId: '<id>', passwordRoomId: '<id>' });
  return `${sample} as ${routeCase.audience === 'root' ? 'root' : `a ${routeCase.audience}`}`;
}

export function actorFor(audience: Audience, actors: Actors): Promise<Actor> {
  if (audience === 'visitor') return actors.visitor();
  return audience === 'user' ? actors.user() : actors.root();
}

/**
 * Records every document the page's main frame requests, HTTP redirect hops and script-driven
 * `location.replace` loads alike, so a test can count what a direct load cost. Returns the live list.
 */
export function recordDocumentLoads(page: Page): string[] {
  const loads: string[] = [];
  page.on('request', (request) => {
    if (request.isNavigationRequest() && request.frame() === page.mainFrame()) loads.push(request.url());
  });
  return loads;
}

/**
 * Lets late effects (session fetch, guard, room calls) finish, so their errors are caught too.
 * Bounded: an open WebSocket or a player can keep the network busy for good.
 */
export async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle', { timeout: 3000 }).catch(() => undefined);
}

/** The admin console's sections after the overview, each with a test id that shows once it has loaded. */
const ADMIN_SECTIONS = [
  ['users', 'admin-user-row'],
  ['rooms', 'admin-room-row'],
  ['settings', 'admin-settings'],
  ['admins', 'admin-admin-row'],
  ['email', 'test-mail-form'],
] as const;

/** An admin console section's name (`admin-nav-<name>`, `/admin#<name>`). */
export type AdminSection = (typeof ADMIN_SECTIONS)[number][0];

/**
 * With the admin console open on `page`, opens each section from its navigation in turn, waits until
 * it has loaded, and calls `visit` there.
 */
export async function eachAdminSection(page: Page, visit: (section: AdminSection) => Promise<void>): Promise<void> {
  for (const [section, shown] of ADMIN_SECTIONS) {
    await page.getByTestId(`admin-nav-${section}`).click();
    await expect(page.getByTestId(shown).first()).toBeVisible();
    await visit(section);
  }
}
