/**
 * The prerendered page is on the screen before its script has run: seconds on a slow phone. What a
 * person does in that time must not be lost or leak (components/layout/early-input.ts).
 */
import type { Page } from '@playwright/test';
import { expect, test, USER_PASSWORD } from './fixtures';
import { uniqueName } from './support/api';

/** Holds back the page's scripts until the returned function is called, as on a phone still downloading them. */
async function holdScripts(page: Page): Promise<() => void> {
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/_next/static/chunks/**', async (route) => {
    await released;
    await route.continue();
  });
  return release;
}

test('on a phone, a press of the menu button before the page has hydrated opens the menu once it has', async ({ app, actors }) => {
  const visitor = await actors.visitor();
  await visitor.page.setViewportSize({ width: 390, height: 800 });
  const release = await holdScripts(visitor.page);
  await visitor.page.goto(app.url('/'), { waitUntil: 'domcontentloaded' });
  const toggle = visitor.page.getByTestId('menu-toggle');
  await toggle.click();
  release();

  await expect(visitor.page.getByRole('dialog')).toBeVisible();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  expect(visitor.errors).toEqual([]);
});

test('Enter in the sign-in form before the page has hydrated does not put the password in the address, and signs in once it has', async ({ app, actors }) => {
  const visitor = await actors.visitor();
  const username = uniqueName('h');
  await app.api.signup(username, USER_PASSWORD);
  const release = await holdScripts(visitor.page);
  const requests: string[] = [];
  visitor.page.on('request', (request) => requests.push(request.url()));
  await visitor.page.goto(app.url('/auth/login'), { waitUntil: 'domcontentloaded' });
  await visitor.page.getByTestId('login-username').fill(username);
  await visitor.page.getByTestId('login-password').fill(USER_PASSWORD);
  await visitor.page.getByTestId('login-password').press('Enter');
  release();

  // Once the page has hydrated, the form is sent as pressed, with the text typed before, by script.
  await expect(visitor.page.locator('[data-sonner-toast]')).toContainText(/登录成功|Logged in/);
  expect(visitor.page.url()).not.toContain(USER_PASSWORD);
  expect(requests.filter((url) => url.includes(USER_PASSWORD))).toEqual([]);
  expect(visitor.errors).toEqual([]);
});
