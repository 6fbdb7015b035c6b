/**
 * Parts that load the first time they are used (size budgets, see docs/benchmarks.md "Size budget"):
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

test('the first notification of a visit is shown: signing in says so in a toast', async ({ app, actors }) => {
  const visitor = await actors.visitor();
  const username = uniqueName('t');
  await app.api.signup(username, USER_PASSWORD);
  await visitor.page.goto(app.url('/auth/login'));
  await expect(visitor.page.getByTestId('page-login')).toBeVisible();
  // Nothing has needed a toast yet: sonner is not on the page.
  await expect(visitor.page.locator('[data-sonner-toaster]')).toHaveCount(0);

  await visitor.page.getByTestId('login-username').fill(username);
  await visitor.page.getByTestId('login-password').fill(USER_PASSWORD);
  await visitor.page.getByTestId('login-submit').click();

  const toast = visitor.page.locator('[data-sonner-toast]');
  await expect(toast).toHaveCount(1);
  await expect(toast).toContainText(/登录成功|Logged in/);
  expect(visitor.errors).toEqual([]);
});
