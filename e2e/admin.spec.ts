/**
 * The admin console against the companion server run as people run it (`server/main.ts`
 * in a child process with a fresh data directory): root signs in with the password its first start
 * printed, and runs the site from the console alone: bans a room (its viewers are disconnected),
 * turns on sign-up review and approves the user who then signs in, makes that user an admin (who
 * then finds the console in the header menu), sends a test mail that a real SMTP server receives,
 * and turns off password sign-up (the register page stops offering it).
 */
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { expect, seedToken, test } from './fixtures';
import { CinemaPage } from './pages/cinema-page';
import { LoginPage } from './pages/login-page';
import { SeedApi, uniqueName } from './support/api';
import { startCompanionProcess } from './support/companion-process';
import { collectPageErrors } from './support/page-errors';
import { webUrl } from './support/urls';

/** A fresh browser context (with `token` in localStorage when given) and its page; `opened` collects it for closing. */
async function person(browser: Browser, opened: BrowserContext[], token?: string): Promise<{ page: Page; errors: string[] }> {
  const context = await browser.newContext();
  opened.push(context);
  if (token) await seedToken(context, token);
  const page = await context.newPage();
  return { page, errors: collectPageErrors(page) };
}

const toast = (page: Page, text: string | RegExp) => page.locator('[data-sonner-toast]').filter({ hasText: text }).first();

test("root of a fresh server signs in with the password from its first start's log and runs the site from the console", async ({ browser, mail }) => {
  test.setTimeout(180_000);
  const smtp = mail.settings();
  const server = await startCompanionProcess({ SMTP_HOST: smtp.smtp_host, SMTP_PORT: String(smtp.smtp_port), SMTP_PROTOCOL: 'TCP', SMTP_FROM: smtp.smtp_from });
  const url = (route: string) => webUrl(server.origin, route);
  const api = new SeedApi(server.origin);
  const people: { errors: string[] }[] = [];
  const contexts: BrowserContext[] = [];
  try {
    const password = /created user "root" with password: (\S+)/.exec(server.log())?.[1];
    expect(password, server.log()).toBeTruthy();

    const root = await person(browser, contexts);
    people.push(root);
    const rootPage = root.page;
    const nav = (section: string) => rootPage.getByTestId(`admin-nav-${section}`).click();

    await test.step('root signs in with the printed password and opens the console from the header menu', async () => {
      const login = new LoginPage(rootPage, server.origin);
      await login.goto();
      await login.login('root', password!);
      await rootPage.getByTestId('header-username').click();
      await rootPage.getByTestId('user-menu-admin').click();
      await expect(rootPage.getByTestId('admin-overview')).toBeVisible();
      await expect(rootPage.getByTestId('overview-users')).toHaveText('1');
    });

    await test.step("root bans a room from the room list; its viewers are disconnected and told why", async () => {
      const ownerName = uniqueName('owner');
      const ownerToken = await api.signup(ownerName, 'owner-pass-1');
      const roomName = uniqueName('to be banned');
      const roomId = await api.createRoom(ownerToken, roomName);
      const owner = await person(browser, contexts, ownerToken);
      people.push(owner);
      const cinema = new CinemaPage(owner.page, server.origin);
      await cinema.goto(roomId);
      await cinema.waitConnected();

      await nav('rooms');
      await rootPage.getByTestId('admin-rooms-search').fill(roomName);
      const row = rootPage.getByTestId('admin-room-row').filter({ hasText: roomName });
      await expect(row).toHaveCount(1);
      await expect(row.getByTestId('admin-room-viewers')).toContainText('1 online');
      await row.getByTestId('admin-room-actions').click();
      await rootPage.getByTestId('admin-room-ban').click();
      await rootPage.getByTestId('confirm-ok').click();
      await expect(toast(rootPage, 'banned')).toBeVisible();
      await expect(row).toContainText('Banned');

      await expect(owner.page).toHaveURL((address) => address.pathname === `/web/joinRoom/${roomId}/`, { timeout: 15_000 });
      await expect(owner.page.getByTestId('join-room-message')).toContainText('banned');
    });

    const newcomer = await person(browser, contexts);
    people.push(newcomer);
    const newcomerName = uniqueName('newcomer');
    const newcomerPassword = 'newcomer-pass-1';

    await test.step('root turns on sign-up review; a newcomer waits; root approves them from the overview; they sign in', async () => {
      await nav('settings');
      const review = rootPage.getByTestId('setting-signup_need_review');
      await expect(review).toHaveAttribute('aria-checked', 'false');
      await review.click();
      await rootPage.getByTestId('settings-save-user').click();
      await expect(toast(rootPage, 'Settings saved')).toBeVisible();

      await newcomer.page.goto(url('/auth/register'));
      await newcomer.page.locator('#register-username').fill(newcomerName);
      await newcomer.page.locator('#register-password').fill(newcomerPassword);
      await newcomer.page.locator('#register-password-confirm').fill(newcomerPassword);
      await newcomer.page.getByTestId('register-submit').click();
      await expect(newcomer.page.getByTestId('register-pending')).toBeVisible();

      await nav('overview');
      await expect(rootPage.getByTestId('overview-pending-users')).toHaveText('1');
      await rootPage.getByRole('button', { name: 'Review' }).first().click();
      const row = rootPage.getByTestId('admin-user-row').filter({ hasText: newcomerName });
      await expect(rootPage.getByTestId('admin-users-filter-pending')).toHaveAttribute('aria-pressed', 'true');
      await expect(row).toContainText('Pending');
      await row.getByTestId('admin-user-approve-quick').click();
      await expect(toast(rootPage, `${newcomerName}'s sign-up approved`)).toBeVisible();
      await expect(rootPage.getByTestId('admin-user-row')).toHaveCount(0);

      const login = new LoginPage(newcomer.page, server.origin);
      await login.goto();
      await login.login(newcomerName, newcomerPassword);
    });

    await test.step('root makes the newcomer an admin, who then finds the console in the header menu', async () => {
      await newcomer.page.getByTestId('header-username').click();
      await expect(newcomer.page.getByTestId('user-menu-profile')).toBeVisible();
      await expect(newcomer.page.getByTestId('user-menu-admin')).toHaveCount(0);
      await newcomer.page.keyboard.press('Escape');

      await nav('admins');
      await rootPage.getByTestId('admin-candidate-search').fill(newcomerName);
      await rootPage.getByTestId('admin-candidates').getByTestId('admin-make-admin').click();
      await expect(toast(rootPage, `${newcomerName} is now an admin`)).toBeVisible();
      await expect(rootPage.getByTestId('admin-admin-row').filter({ hasText: newcomerName })).toContainText('Admin');

      await newcomer.page.reload();
      await newcomer.page.getByTestId('header-username').click();
      await newcomer.page.getByTestId('user-menu-admin').click();
      await expect(newcomer.page.getByTestId('admin-overview')).toBeVisible();
      // An admin sees who the admins are, but only root may change that.
      await newcomer.page.getByTestId('admin-nav-admins').click();
      await expect(newcomer.page.getByTestId('admin-remove-admin')).toBeDisabled();
    });

    await test.step('root sends a test mail, which the SMTP server receives', async () => {
      await nav('email');
      await rootPage.getByTestId('test-mail-address').fill('not-an-address');
      await rootPage.getByTestId('test-mail-send').click();
      await expect(rootPage.locator('#test-mail-address-error')).toBeVisible();
      await rootPage.getByTestId('test-mail-address').fill('ops@example.com');
      await rootPage.getByTestId('test-mail-send').click();
      await expect(toast(rootPage, 'Test mail sent to ops@example.com')).toBeVisible();
      const received = await mail.next('ops@example.com');
      expect(received.subject).toBe('SyncTV test mail');
      expect(received.text).toContain('root');
    });

    await test.step('root turns off password sign-up; the register page no longer offers it', async () => {
      const visitor = await person(browser, contexts);
      people.push(visitor);
      await visitor.page.goto(url('/auth/register'));
      await expect(visitor.page.locator('#register-username')).toBeVisible();

      await nav('settings');
      await rootPage.getByTestId('setting-enable_password_signup').click();
      await rootPage.getByTestId('settings-save-user').click();
      await expect(toast(rootPage, 'Settings saved')).toBeVisible();
      await expect(rootPage.getByTestId('setting-enable_password_signup')).toHaveAttribute('aria-checked', 'false');

      await visitor.page.reload();
      await expect(visitor.page.getByTestId('register-email')).toBeVisible();
      await expect(visitor.page.locator('#register-username')).toHaveCount(0);
      await expect(visitor.page.getByTestId('register-method-password')).toHaveCount(0);
      const refused = await api.request('POST', '/api/user/signup', { json: { username: uniqueName('late'), password: 'late-pass-1' } });
      expect([refused.status, refused.body?.error]).toEqual([400, 'password signup disabled']);
    });

    for (const { errors } of people) expect(errors).toEqual([]);
  } finally {
    for (const context of contexts) await context.close();
    await server.stop();
  }
});

test('a setting that does not fit is refused at its field, and nothing is saved', async ({ app, actors }) => {
  const root = await actors.root();
  // The section is in the address's hash, so a link opens it directly.
  await root.page.goto(`${app.url('/admin')}#settings`);
  await root.page.getByTestId('admin-settings-tab-room').click();
  const ttl = root.page.getByTestId('setting-room_ttl');
  await ttl.fill('0');
  await root.page.getByTestId('setting-room_must_no_need_pwd').click();
  await root.page.getByTestId('setting-room_must_need_pwd').click();
  await root.page.getByTestId('settings-save-room').click();
  await expect(root.page.locator('#setting-room_ttl-error')).toContainText('Enter a whole number from 1 to');
  await expect(root.page.getByTestId('settings-card-room')).toContainText('cannot both be on');
  await expect(ttl).toBeFocused();
  const stored = await app.api.request('GET', '/api/admin/settings/room', { token: root.token });
  expect((stored.body?.data as { room: Record<string, unknown> }).room).toMatchObject({ room_ttl: 48, room_must_need_pwd: false, room_must_no_need_pwd: false });
  expect(root.errors).toEqual([]);
});

test('a hardware encoder this machine lacks is shown but cannot be picked, and says why', async ({ app, actors }) => {
  const root = await actors.root();
  await root.page.goto(`${app.url('/admin')}#settings`);
  await root.page.getByTestId('admin-settings-tab-proxy').click();
  const stored = await app.api.request('GET', '/api/admin/settings/proxy', { token: root.token });
  const hardware = String((stored.body?.data as { proxy: Record<string, unknown> }).proxy.convert_hardware);
  await expect(root.page.getByTestId('setting-convert_hardware')).toHaveValue(hardware);
  const options = root.page.getByTestId('setting-convert_encoder').locator('option');
  await expect(options.first()).toHaveText('software');
  await expect(options.first()).toBeEnabled();
  for (const encoder of ['vaapi', 'nvenc', 'qsv']) {
    const option = options.filter({ hasText: encoder });
    if (hardware.split(', ').includes(encoder)) {
      await expect(option).toBeEnabled();
    } else {
      await expect(option).toHaveText(`${encoder} (not on this server)`);
      await expect(option).toBeDisabled();
    }
  }
  await root.page.getByTestId('settings-card-proxy').screenshot({ path: test.info().outputPath('convert-settings.png') });
  expect(root.errors).toEqual([]);
});
