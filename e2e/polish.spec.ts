/**
 * Small things a new user notices: a plural that agrees with its number, and a 403 screen
 * whose picture does not depend on an emoji font.
 */
import { expect, test, USER_PASSWORD } from './fixtures';
import { uniqueName } from './support/api';

test('one room found is "1 room found", two are "2 rooms found"', async ({ app, actors }) => {
  const token = await app.api.signup(uniqueName('plural'), USER_PASSWORD);
  const name = uniqueName('plural');
  await app.api.createRoom(token, `${name} a`);
  const { page } = await actors.visitor();
  await page.goto(app.url('/search'));
  const keyword = page.locator('#search-keyword');
  await keyword.fill(`${name} a`);
  await keyword.press('Enter');
  await expect(page.getByTestId('page-search')).toContainText('1 room found');
  await app.api.createRoom(token, `${name} b`);
  await keyword.fill(name);
  await keyword.press('Enter');
  await expect(page.getByTestId('page-search')).toContainText('2 rooms found');
});

test('the 403 screen draws its icon instead of relying on an emoji', async ({ app, actors }) => {
  const { page } = await actors.visitor();
  await page.goto(app.url('/403'));
  const screen = page.getByTestId('page-403');
  await expect(screen.locator('svg').first()).toBeVisible();
  await expect(screen).not.toContainText('🔞');
});
