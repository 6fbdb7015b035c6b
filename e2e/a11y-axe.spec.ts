/**
 * The axe sweep: axe-core's WCAG 2.1 A/AA rules find no serious or critical violation on
 * any route, nor on any panel, dialog, drawer or menu in its open state, in both themes and both
 * languages. One test per look and audience; each collects every finding before it fails, so a run
 * names every screen that needs work.
 */
import { expect, test, USER_PASSWORD, type Actor, type App } from './fixtures';
import { applyLook, AxeSweep, LOOKS } from './support/axe';
import { uniqueName } from './support/api';
import { eachAdminSection } from './support/route-cases';
import type { MediaServer } from './support/media-server';
import type { Locator, Page } from '@playwright/test';

test.describe.configure({ timeout: 180_000 });

/**
 * Opens something with `open`, waits for `shown` (a test id, or the locator of what opened when it has
 * none of its own: a menu), checks the page, then closes it with Escape.
 */
async function checkOpened(sweep: AxeSweep, page: Page, where: string, open: () => Promise<void>, shown: string | Locator): Promise<void> {
  await open();
  await expect((typeof shown === 'string' ? page.getByTestId(shown) : shown).filter({ visible: true }).first()).toBeVisible();
  await sweep.check(page, where);
  await page.keyboard.press('Escape');
}

/** Fails on any serious or critical finding; lists the moderate and minor ones (docs/accessibility.md). */
function expectClean(sweep: AxeSweep, minimumChecks: number): void {
  for (const [rule, example] of sweep.moderate) console.log(`axe, kept (moderate or minor): ${rule}: ${example}`);
  expect(sweep.checked, 'states checked').toBeGreaterThanOrEqual(minimumChecks);
  expect(sweep.serious, 'serious or critical axe violations').toEqual([]);
}

/** A room with two members and a movie playing, owned by `owner`; returns its id. */
async function seedRoom(app: App, media: MediaServer, owner: Actor): Promise<string> {
  const roomId = await app.api.createRoom(owner.token!, uniqueName('axe room'));
  await app.api.pushMovie(owner.token!, roomId, { url: `${media.url}/clip/index.m3u8`, name: 'Timecode clip' });
  const movieId = await app.api.pushMovie(owner.token!, roomId, { url: `${media.url}/mp4/clip.mp4`, name: 'MP4 clip' });
  await app.api.setCurrent(owner.token!, roomId, movieId);
  const member = await app.api.signup(uniqueName('axe member'), USER_PASSWORD);
  await app.api.joinRoom(member, roomId);
  return roomId;
}

for (const look of LOOKS) {
  test.describe(`${look.theme} theme, ${look.locale}`, () => {
    test('public screens and the phone menu', async ({ app, actors }) => {
      const sweep = new AxeSweep(look);
      const owner = await app.api.signup(uniqueName('axe'), USER_PASSWORD);
      for (let i = 0; i < 3; i += 1) await app.api.createRoom(owner, uniqueName(`axe listed ${i}`), i === 0 ? 'secret' : '');
      const { page, context } = await actors.visitor();
      await applyLook(context, look);
      const visit = async (route: string, testId: string) => {
        await page.goto(app.url(route));
        await expect(page.getByTestId(testId)).toBeVisible();
        await sweep.check(page, route);
      };
      await visit('/', 'page-home');
      await visit('/rooms', 'page-rooms');
      await expect(page.getByTestId('room-card').first()).toBeVisible();
      await visit('/search', 'page-search');
      await page.locator('#search-keyword').fill('axe listed');
      await page.locator('#search-keyword').press('Enter');
      await expect(page.getByTestId('room-card').first()).toBeVisible();
      await sweep.check(page, '/search with results');
      await visit('/auth/login', 'page-login');
      await page.getByTestId('login-submit').click();
      await expect(page.locator('[aria-invalid="true"]').first()).toBeVisible();
      await sweep.check(page, '/auth/login with field errors');
      await visit('/auth/register', 'page-register');
      await visit('/auth/reset', 'page-reset');
      await visit('/oauth2/callback/github', 'page-callback');
      await visit('/403', 'page-403');
      await page.goto(app.url('/no-such-page'));
      await expect(page.getByTestId('page-404')).toBeVisible();
      await sweep.check(page, '404');

      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto(app.url('/rooms'));
      await checkOpened(sweep, page, 'phone menu', () => page.getByTestId('menu-toggle').click(), 'nav-rooms');
      expectClean(sweep, 12);
    });

    test('user screens and the viewing hall with its panels', async ({ app, actors, media }) => {
      const sweep = new AxeSweep(look);
      const user = await actors.user('axe');
      const { page, context } = user;
      await applyLook(context, look);
      const roomId = await seedRoom(app, media, user);
      const locked = await app.api.createRoom(await app.api.signup(uniqueName('axe other'), USER_PASSWORD), uniqueName('axe locked'), 'secret');

      await page.goto(app.url('/createRoom'));
      await expect(page.getByTestId('page-createRoom')).toBeVisible();
      await sweep.check(page, '/createRoom');
      await page.goto(app.url(`/joinRoom/${locked}`));
      await expect(page.getByTestId('join-room-info')).toBeVisible();
      await sweep.check(page, '/joinRoom/<id> (password room)');

      await page.goto(app.url('/user/me'));
      await expect(page.getByTestId('profile-username')).toBeVisible();
      await expect(page.getByTestId('rooms-created')).toBeVisible();
      await sweep.check(page, '/user/me');
      await checkOpened(sweep, page, 'user menu', () => page.getByTestId('header-username').click(), 'user-menu-profile');
      // The account forms open in place; Cancel puts the button back.
      for (const [button, form, cancel] of [
        ['rename', 'rename-form', 'rename-cancel'],
        ['change-password', 'password-form', 'password-cancel'],
        ['bind-email', 'bind-email-form', 'bind-cancel'],
      ] as const) {
        await page.getByTestId(button).click();
        await expect(page.getByTestId(form)).toBeVisible();
        await sweep.check(page, `/user/me: ${button}`);
        await page.getByTestId(cancel).click();
        await expect(page.getByTestId(button)).toBeVisible();
      }
      await checkOpened(sweep, page, '/user/me: delete account', () => page.getByTestId('delete-account').click(), 'confirm-dialog');
      await checkOpened(sweep, page, '/user/me: bilibili QR code', () => page.getByTestId('bilibili-bind').click(), 'bilibili-qr-code');

      await page.goto(app.url(`/cinema/${roomId}`));
      await expect(page.getByTestId('ws-state')).toHaveAttribute('data-state', 'open');
      await expect(page.getByTestId('movie-item').first()).toBeVisible();
      await expect.poll(() => page.getByTestId('player-video').evaluate((video: HTMLVideoElement) => video.readyState)).toBeGreaterThanOrEqual(2);
      // The player's controls load once the picture is there (and at once when the player is focused).
      await page.getByTestId('player').hover();
      await expect(page.getByTestId('player-settings')).toBeVisible();
      await page.getByTestId('chat-input').fill('hello from the axe sweep');
      await page.getByTestId('chat-send').click();
      await expect(page.getByTestId('chat-message')).toHaveCount(1);
      await sweep.check(page, '/cinema/<id>');
      await page.getByTestId('voice-join').click();
      await expect(page.getByTestId('voice-leave')).toBeVisible();
      await sweep.check(page, 'voice bar');
      await checkOpened(sweep, page, 'player settings menu', () => page.getByTestId('player-settings').click(), page.locator('media-settings-menu:not([hidden])'));
      await checkOpened(sweep, page, 'danmaku settings', () => page.getByTestId('danmaku-settings-toggle').click(), 'danmaku-settings');
      await checkOpened(sweep, page, 'members panel', () => page.getByTestId('open-members').click(), 'members-panel');
      await page.getByTestId('open-members').click();
      await expect(page.getByTestId('member-row')).toHaveCount(2);
      await page.getByTestId('member-row').filter({ hasNotText: user.username }).getByTestId('member-actions').click();
      await expect(page.getByRole('menu')).toBeVisible();
      await sweep.check(page, 'members panel: member menu');
      await page.keyboard.press('Escape');
      await page.keyboard.press('Escape');
      await checkOpened(sweep, page, 'room settings panel', () => page.getByTestId('open-settings').click(), 'room-password-state');
      await checkOpened(sweep, page, 'share dialog', () => page.getByTestId('open-share').click(), 'share-link');
      await checkOpened(sweep, page, 'movie menu', () => page.getByTestId('movie-actions').first().click(), page.getByRole('menu'));
      await checkOpened(sweep, page, 'new folder dialog', () => page.getByTestId('movie-new-folder').click(), 'new-folder-dialog');
      await checkOpened(sweep, page, 'clear folder confirmation', () => page.getByTestId('movie-clear').click(), 'confirm-dialog');
      await page.getByTestId('movie-push-open').click();
      await page.getByTestId('movie-push-advanced').click();
      await expect(page.getByTestId('movie-push-url')).toBeVisible();
      await sweep.check(page, 'add a movie, advanced options');
      await page.getByTestId('movie-push-mode-bilibili').click();
      await page.getByLabel(look.locale === 'zh' ? '视频链接或编号' : 'Video link or id').fill('ss4001');
      await page.getByTestId('bilibili-parse').click();
      await expect(page.getByTestId('bilibili-video')).toHaveCount(3);
      await sweep.check(page, 'add a movie, from bilibili');
      expectClean(sweep, 19);
    });

    test('admin console', async ({ app, actors }) => {
      const sweep = new AxeSweep(look);
      await app.api.signup(uniqueName('axe listed user'), USER_PASSWORD);
      const root = await actors.root();
      await app.api.createRoom(root.token!, uniqueName('axe admin room'));
      const { page, context } = root;
      await applyLook(context, look);
      await page.goto(app.url('/admin'));
      await expect(page.getByTestId('admin-overview')).toBeVisible();
      await sweep.check(page, '/admin overview');
      await eachAdminSection(page, async (section) => {
        await sweep.check(page, `/admin ${section}`);
        if (section === 'users') {
          await checkOpened(sweep, page, 'admin user menu', () => page.getByTestId('admin-user-actions').first().click(), page.getByRole('menu'));
          await checkOpened(sweep, page, 'add user dialog', () => page.getByTestId('admin-add-user').click(), 'admin-add-user-dialog');
        }
        if (section === 'rooms') {
          await checkOpened(sweep, page, 'admin room menu', () => page.getByTestId('admin-room-actions').first().click(), page.getByRole('menu'));
        }
      });
      expectClean(sweep, 9);
    });
  });
}
