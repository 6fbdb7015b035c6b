import { routes } from '../config/routes';
import { expect, test, USER_PASSWORD, type Actor } from './fixtures';
import { uniqueName } from './support/api';
import { actorFor, ROUTE_CASES as cases } from './support/route-cases';

/**
 * Every route of config/routes.ts, opened by a direct load (a fresh page, no client navigation),
 * as the audience that may see it. The companion server has to serve the right file for each
 * (placeholder rewrite for ids unknown at build time), and the page must hydrate without errors.
 */
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

/**
 * Lets late effects (session fetch, guard, room calls) finish, so their errors are caught too.
 * Bounded: an open WebSocket or a player can keep the network busy for good.
 */
async function settle(actor: Actor): Promise<void> {
  await actor.page.waitForLoadState('networkidle', { timeout: 3000 }).catch(() => undefined);
}
