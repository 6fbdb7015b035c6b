/**
 * The Radix dropdown menus: the header's user menu (mouse and keyboard) and a movie row's actions,
 * which a member without the permission sees disabled with the reason. Both load on first open.
 */
import { expect, test } from './fixtures';
import { CinemaPage } from './pages/cinema-page';

test('the username opens the user menu: profile, language, dark mode, and sign out, also from the keyboard', async ({ app, actors }) => {
  const user = await actors.user();
  const { page } = user;
  await page.goto(app.url('/'));
  const trigger = page.getByTestId('header-username');
  await expect(trigger).toContainText(user.username);

  await trigger.click();
  const menu = page.getByRole('menu');
  await expect(menu).toBeVisible();
  await expect(menu.getByRole('menuitem')).toHaveText(['Profile', '切换到中文', 'Switch to dark mode', 'Sign out']);
  await page.getByTestId('user-menu-theme').click();
  await expect(menu).toBeHidden();
  await expect(page.locator('html')).toHaveClass(/dark/);
  expect(await page.evaluate(() => window.localStorage.getItem('isDarkMode'))).toBe('true');

  await trigger.click();
  await page.getByTestId('user-menu-profile').click();
  await expect(page.getByTestId('page-myself')).toBeVisible();

  // Keyboard only: Enter opens it on the first item, the arrows move, Escape closes it on the button.
  await trigger.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('user-menu-profile')).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();
  await expect(trigger).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(page.getByTestId('user-menu-profile')).toBeFocused();
  await page.keyboard.press('End');
  await expect(page.getByTestId('user-menu-sign-out')).toBeFocused();
  await page.keyboard.press('Enter');

  await expect(page.getByTestId('page-home')).toBeVisible();
  await expect(trigger).toHaveCount(0);
  await expect(page.getByTestId('nav-login').first()).toBeAttached();
  expect(await page.evaluate(() => window.localStorage.getItem('userToken'))).toBeNull();
  // The theme is a preference, not part of the session.
  expect(await page.evaluate(() => window.localStorage.getItem('isDarkMode'))).toBe('true');
  expect(user.errors).toEqual([]);
});

test('root sees the admin console in the user menu', async ({ app, actors }) => {
  const root = await actors.root();
  await root.page.goto(app.url('/rooms'));
  await root.page.getByTestId('header-username').click();
  await root.page.getByTestId('user-menu-admin').click();
  await expect(root.page.getByTestId('page-admin')).toBeVisible();
});

test("a movie row's menu offers play and delete to the room's creator and shows a member why not", async ({ app, actors, media }) => {
  const creator = await actors.user('c');
  const member = await actors.user('m');
  const roomId = await app.api.createRoom(creator.token!, `menus ${Date.now()}`);
  await app.api.pushMovie(creator.token!, roomId, { url: `${media.url}/clip/index.m3u8`, name: 'first clip' });
  await app.api.pushMovie(creator.token!, roomId, { url: `${media.url}/clip/index.m3u8`, name: 'second clip' });

  const owner = new CinemaPage(creator.page, app.origin);
  await owner.goto(roomId);
  await owner.playMovie('first clip');
  await owner.openMovieActions('first clip');
  // The movie that plays: not again, and not deletable until stopped.
  await expect(creator.page.getByTestId('movie-play')).toHaveAttribute('aria-disabled', 'true');
  await expect(creator.page.getByTestId('movie-delete')).toContainText('The movie that is playing cannot be deleted');
  await creator.page.keyboard.press('Escape');
  await owner.openMovieActions('second clip');
  await creator.page.getByTestId('movie-delete').click();
  await creator.page.getByTestId('confirm-ok').click();
  await expect(owner.movieItem('second clip')).toHaveCount(0);

  const viewer = new CinemaPage(member.page, app.origin);
  await viewer.goto(roomId);
  await viewer.openMovieActions('first clip');
  const play = member.page.getByTestId('movie-play');
  await expect(play).toHaveAttribute('aria-disabled', 'true');
  await expect(member.page.getByTestId('movie-delete')).toHaveAttribute('aria-disabled', 'true');
  await expect(member.page.getByTestId('movie-delete')).toContainText('Only the member who added it');
  expect(creator.errors).toEqual([]);
  expect(member.errors).toEqual([]);
});
