/**
 * The vendor journeys against a real server, for anyone who has one (docs/vendors.md "Testing"):
 * `<PREFIX>_URL`, `<PREFIX>_USERNAME`, `<PREFIX>_PASSWORD` and `<PREFIX>_FOLDER` name it; without a
 * URL and a folder the test is skipped. The journey binds the account, adds the first playable entry
 * of the folder and returns the room and A's cinema, where it plays; B then joins and both must play
 * in step. A home server is on a private address, so the proxy may reach one during the test.
 */
import { expect, test, type Actor, type App } from '../fixtures';
import { CinemaPage } from '../pages/cinema-page';
import { expectTogether } from './watch-party';

/** A real server as the environment names it. */
export interface RealVendor {
  url: string;
  username: string;
  password: string;
  folder: string;
}

/** Declares `title` against the server named by `<prefix>_*`, `journey` adding the entry in A's room. */
export function realVendorTest(prefix: 'ALIST' | 'JELLYFIN', title: string, journey: (real: RealVendor, app: App, a: Actor, b: Actor) => Promise<{ roomId: string; cinemaA: CinemaPage; name: string }>): void {
  const env = (name: string) => process.env[`${prefix}_${name}`] ?? '';
  const real: RealVendor = { url: env('URL'), username: env('USERNAME'), password: env('PASSWORD'), folder: env('FOLDER') };
  test.describe(`against a real server (${prefix}_URL)`, () => {
    test.skip(!real.url || !real.folder, `set ${prefix}_URL, ${prefix}_USERNAME, ${prefix}_PASSWORD and ${prefix}_FOLDER to run it`);

    test(title, async ({ app, actors }) => {
      app.setSetting('allow_proxy_to_local', true);
      try {
        const a = await actors.user('owner');
        const b = await actors.user('viewer');
        const { roomId, cinemaA, name } = await journey(real, app, a, b);
        await expect(cinemaA.currentMovieName).toHaveText(name);
        const cinemaB = new CinemaPage(b.page, app.origin);
        await cinemaB.goto(roomId);
        await cinemaB.waitConnected();
        for (const cinema of [cinemaA, cinemaB]) await cinema.waitMediaLoaded();
        await expectTogether(a.page, b.page);
      } finally {
        app.setSetting('allow_proxy_to_local', false);
      }
    });
  });
}
