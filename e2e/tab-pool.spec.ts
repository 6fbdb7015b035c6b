import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

/**
 * The tabs kept across tests (e2e/support/tab-pool.ts) must reach the next test as a fresh context
 * would: the first test leaves every kind of state behind, the second gets the same tab and finds
 * none of it. Serial, so that both run on one worker, one after the other.
 */
test.describe.configure({ mode: 'serial' });

let firstPage: Page | undefined;
let leftListenerCalls = 0;

test('a test leaves storage, cookies, an init script, a route and a listener behind', async ({ app, actors }) => {
  const user = await actors.user('pool');
  const { page, context } = user;
  firstPage = page;
  await context.addInitScript(() => {
    (window as unknown as { leftByInitScript: boolean }).leftByInitScript = true;
  });
  await context.route('**/api/public/settings', (route) => route.fulfill({ status: 418, body: 'left behind' }));
  page.on('request', () => leftListenerCalls++);
  await page.goto(app.url('/'));
  await expect(page.getByTestId('page-home')).toBeVisible();
  await page.evaluate(() => {
    window.localStorage.setItem('left', '1');
    window.sessionStorage.setItem('left', '1');
    document.cookie = 'left=1; path=/';
  });
  expect(await page.evaluate(() => (window as unknown as { leftByInitScript?: boolean }).leftByInitScript)).toBe(true);
  expect(leftListenerCalls).toBeGreaterThan(0);
});

test('the next test gets the same tab with none of it', async ({ app, actors }) => {
  const visitor = await actors.visitor('pool');
  const { page, context } = visitor;
  expect(page, 'the tab was kept and handed on').toBe(firstPage);
  leftListenerCalls = 0;
  const settings = page.waitForResponse('**/api/public/settings');
  await page.goto(app.url('/'));
  expect((await settings).status(), 'the route of the earlier test is gone').toBe(200);
  await expect(page.getByTestId('page-home')).toBeVisible();
  const left = await page.evaluate(() => ({
    local: window.localStorage.getItem('left'),
    session: window.sessionStorage.getItem('left'),
    token: window.localStorage.getItem('userToken') ?? window.sessionStorage.getItem('userToken'),
    cookie: document.cookie,
    initScript: (window as unknown as { leftByInitScript?: boolean }).leftByInitScript ?? false,
  }));
  expect(left).toEqual({ local: null, session: null, token: null, cookie: '', initScript: false });
  expect(await context.cookies()).toEqual([]);
  expect(leftListenerCalls, 'the earlier test’s listener is gone').toBe(0);
  await expect(page.getByTestId('nav-login').first(), 'signed out, as a fresh visitor').toBeVisible();
});
