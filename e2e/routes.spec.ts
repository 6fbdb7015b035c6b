import { routes } from '../config/routes';
import { expect, test, USER_PASSWORD, type Actor, type Actors } from './fixtures';
import { uniqueName } from './support/api';

/**
 * Every route of config/routes.ts, opened by a direct load (a fresh page, no client navigation),
 * as the audience that may see it. The companion server has to serve the right file for each
 * (placeholder rewrite for ids unknown at build time), and the page must hydrate without errors.
 */
type Audience = 'visitor' | 'user' | 'root';

interface RouteCase {
  /** Route name in config/routes.ts; the screen's root is `page-<name>`. */
  name: string;
  audience: Audience;
  /** Path without /web; may need a room id created for the test. */
  path: (ids: { openRoomId: string; passwordRoomId: string }) => string;
}

const cases: RouteCase[] = [
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

test('every route in the table has a direct-load case here', () => {
  const covered = new Set(cases.map((c) => c.name));
  expect(routes.map((r) => r.name).filter((name) => !covered.has(name))).toEqual([]);
});

test.describe('direct load', () => {
  let ids = { openRoomId: '', passwordRoomId: '' };

  test.beforeAll(async ({ app }) => {
    const ownerToken = await app.api.signup(uniqueName('owner'), USER_PASSWORD);
    ids = {
      openRoomId: await app.api.createRoom(ownerToken, uniqueName('open')),
      passwordRoomId: await app.api.createRoom(ownerToken, uniqueName('locked'), 'room-pass'),
    };
  });

  for (const routeCase of cases) {
    const sample = routeCase.path({ openRoomId: '<id>', passwordRoomId: '<id>' });
    test(`${sample} shows page-${routeCase.name} to ${routeCase.audience === 'root' ? 'root' : `a ${routeCase.audience}`}`, async ({ app, actors }) => {
      const actor = await actorFor(routeCase.audience, actors);
      const path = routeCase.path(ids);
      const response = await actor.page.goto(app.url(path));
      expect(response?.status(), `HTTP status of ${path}`).toBe(200);
      await expect(actor.page.getByTestId(`page-${routeCase.name}`)).toBeVisible();
      await expect(actor.page).toHaveTitle(/SyncTV/);
      if (routeCase.name === 'cinema') {
        await expect(actor.page.getByTestId('page-cinema')).toHaveAttribute('data-room-id', ids.openRoomId);
      }
      await settle(actor);
      expect(actor.errors, `uncaught errors on ${path}`).toEqual([]);
    });
  }

  test('an unknown path shows page-404 with status 404', async ({ app, actors }) => {
    const visitor = await actors.visitor();
    const response = await visitor.page.goto(app.url('/no-such-page/deeper'));
    expect(response?.status()).toBe(404);
    await expect(visitor.page.getByTestId('page-404')).toBeVisible();
    await settle(visitor);
    expect(visitor.errors).toEqual([]);
  });
});

function actorFor(audience: Audience, actors: Actors): Promise<Actor> {
  if (audience === 'visitor') return actors.visitor();
  return audience === 'user' ? actors.user() : actors.root();
}

/**
 * Lets late effects (session fetch, guard, room calls) finish, so their errors are caught too.
 * Bounded: an open WebSocket or a player can keep the network busy for good.
 */
async function settle(actor: Actor): Promise<void> {
  await actor.page.waitForLoadState('networkidle', { timeout: 3000 }).catch(() => undefined);
}
