import path from 'node:path';
import { routes } from '../config/routes';
import { expect, test as base, USER_PASSWORD, webUrl } from './fixtures';
import { uniqueName } from './support/api';
import { actorFor, caseTitle, recordDocumentLoads, ROUTE_CASES, settle, type RouteIds } from './support/route-cases';
import { startSyncTvStaticServer, type SyncTvStaticServer, type SyncTvWebMode } from './support/synctv-static-server';

/**
 * Serving mode 2: the export as the web UI of an unmodified SyncTV v0.9.x server, whose `/web`
 * handler answers every path it has no file for with the home page (docs/contract.md §1.3).
 * The route boot script (components/layout/route-boot-script.ts) must bring every deep link and
 * every refresh to the right screen with one extra document load, at the address that was opened.
 * Both of the handler's variants are covered: the default embedded files and `--web-path <dir>`,
 * where Go's FileServer first sends a route folder `/web/a/b/` to `/web/a/b/b/` (one more load).
 */
const test = base.extend<object, { synctv: Record<SyncTvWebMode, SyncTvStaticServer> }>({
  synctv: [
    async ({ app }, use) => {
      const webDir = path.resolve(__dirname, '..', 'out');
      const embedded = await startSyncTvStaticServer({ webDir, apiOrigin: app.origin, mode: 'embedded' });
      const webPath = await startSyncTvStaticServer({ webDir, apiOrigin: app.origin, mode: 'web-path' });
      await use({ embedded, 'web-path': webPath });
      await embedded.close();
      await webPath.close();
    },
    { scope: 'worker' },
  ],
});

/**
 * Documents a direct load costs beyond the first: none for the home page (the fallback is the home
 * page itself), one for every other route; `--web-path` adds Go's folder redirect for routes that are
 * folders of the export (all but a room id under /cinema or /joinRoom).
 */
function extraLoads(mode: SyncTvWebMode, routePath: string): number {
  if (routePath === '/') return 0;
  const isRoomId = /^\/(cinema|joinRoom)\/[^/]+$/.test(routePath);
  return mode === 'web-path' && !isRoomId ? 2 : 1;
}

test('every route in the table has a case here', () => {
  const covered = new Set(ROUTE_CASES.map((c) => c.name));
  expect(routes.map((r) => r.name).filter((name) => !covered.has(name))).toEqual([]);
});

for (const mode of ['embedded', 'web-path'] as const) {
  test.describe(`behind SyncTV's /web handler (${mode})`, () => {
    let ids: RouteIds = { openRoomId: '', passwordRoomId: '' };

    test.beforeAll(async ({ app }) => {
      const ownerToken = await app.api.signup(uniqueName('owner'), USER_PASSWORD);
      ids = {
        openRoomId: await app.api.createRoom(ownerToken, uniqueName('open')),
        passwordRoomId: await app.api.createRoom(ownerToken, uniqueName('locked'), 'room-pass'),
      };
    });

    for (const routeCase of ROUTE_CASES) {
      test(`direct load and refresh of ${caseTitle(routeCase)}`, async ({ synctv, actors }) => {
        const actor = await actorFor(routeCase.audience, actors);
        const { page } = actor;
        const routePath = routeCase.path(ids);
        const url = webUrl(synctv[mode].origin, routePath);
        const loads = recordDocumentLoads(page);

        for (const how of ['direct load', 'refresh'] as const) {
          loads.length = 0;
          if (how === 'direct load') await page.goto(url);
          else await page.reload();
          await expect(page.getByTestId(`page-${routeCase.name}`), `${how} of ${routePath}`).toBeVisible();
          if (routeCase.name === 'cinema') {
            await expect(page.getByTestId('page-cinema')).toHaveAttribute('data-room-id', ids.openRoomId);
          }
          await expect(page, `address after the ${how}`).toHaveURL(url);
          expect(loads.length - 1, `extra documents on the ${how} of ${routePath}: ${loads.join(' → ')}`).toBe(
            extraLoads(mode, routePath),
          );
        }
        await settle(page);
        expect(actor.errors, `uncaught errors on ${routePath}`).toEqual([]);
      });
    }

    test('an unknown path shows the 404 page at the address that was opened', async ({ synctv, actors }) => {
      const visitor = await actors.visitor();
      const loads = recordDocumentLoads(visitor.page);
      const url = webUrl(synctv[mode].origin, '/no-such-page/deeper');
      await visitor.page.goto(url);
      await expect(visitor.page.getByTestId('page-404')).toBeVisible();
      await expect(visitor.page).toHaveURL(url);
      expect(loads.length - 1, loads.join(' → ')).toBe(1);
      await settle(visitor.page);
      expect(visitor.errors).toEqual([]);
    });

    test('a route file missing from the export ends on the 404 page, not in a loop', async ({ synctv, actors }) => {
      const visitor = await actors.visitor();
      const loads = recordDocumentLoads(visitor.page);
      // A provider the build did not list has no exported callback page.
      const url = webUrl(synctv[mode].origin, '/oauth2/callback/no-such-provider?code=1');
      await visitor.page.goto(url);
      await expect(visitor.page.getByTestId('page-404')).toBeVisible();
      await expect(visitor.page).toHaveURL(url);
      expect(loads.length, loads.join(' → ')).toBeLessThanOrEqual(4);
      expect(visitor.errors).toEqual([]);
    });

    test('joining a room from the join form lands in that room', async ({ synctv, actors }) => {
      const user = await actors.user();
      await user.page.goto(webUrl(synctv[mode].origin, '/joinRoom'));
      await user.page.getByTestId('join-room-id').fill(ids.openRoomId);
      await user.page.getByTestId('join-room-submit').click();
      await expect(user.page.getByTestId('page-cinema')).toHaveAttribute('data-room-id', ids.openRoomId);
      await expect(user.page).toHaveURL(webUrl(synctv[mode].origin, `/cinema/${ids.openRoomId}`));
      await expect(user.page.getByTestId('ws-state')).toHaveAttribute('data-state', 'open');
      expect(user.errors).toEqual([]);
    });
  });
}
