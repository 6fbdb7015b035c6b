/**
 * Parts that load the first time they are used (issue 4 size budgets, see README "Size budget"):
 * the first use must still work in one step, with nothing visibly missing.
 */
import { expect, test, USER_PASSWORD } from './fixtures';
import { uniqueName } from './support/api';

test('on a phone, the first press of the menu button opens the menu, and its links navigate', async ({ app, actors }) => {
  const visitor = await actors.visitor();
  await visitor.page.setViewportSize({ width: 390, height: 800 });
  await visitor.page.goto(app.url('/'));
  await expect(visitor.page.getByTestId('page-home')).toBeVisible();

  const toggle = visitor.page.getByTestId('menu-toggle');
  await toggle.click();
  const menu = visitor.page.getByRole('dialog');
  await expect(menu).toBeVisible();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  // Escape closes it; a second open is the same panel.
  await visitor.page.keyboard.press('Escape');
  await expect(menu).toBeHidden();
  await toggle.click();
  await expect(menu).toBeVisible();

  await menu.getByTestId('nav-rooms').click();
  await expect(visitor.page.getByTestId('page-rooms')).toBeVisible();
  await expect(menu).toBeHidden();
  expect(new URL(visitor.page.url()).pathname).toBe('/web/rooms/');
  expect(visitor.errors).toEqual([]);
});

test('the first notification of a visit is shown: a failed login shows the server error as a toast', async ({ app, actors }) => {
  const visitor = await actors.visitor();
  const username = uniqueName('t');
  await app.api.signup(username, USER_PASSWORD);
  await visitor.page.goto(app.url('/auth/login'));
  await expect(visitor.page.getByTestId('page-login')).toBeVisible();

  await visitor.page.getByTestId('login-username').fill(username);
  await visitor.page.getByTestId('login-password').fill(`${USER_PASSWORD}-wrong`);
  const answer = visitor.page.waitForResponse((res) => new URL(res.url()).pathname === '/api/user/login');
  await visitor.page.getByTestId('login-submit').click();
  const body = (await (await answer).json()) as { error?: string };
  expect(body.error, 'the server explains the failed login').toBeTruthy();

  const toast = visitor.page.locator('[data-sonner-toast]');
  await expect(toast).toHaveCount(1);
  await expect(toast).toContainText(body.error as string);
  await expect(toast).toContainText(/错误|Error/);
  expect(visitor.errors).toEqual([]);
});
