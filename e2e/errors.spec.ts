/**
 * Errors a person can read, once: a form's server error in words at its field and nowhere else, a
 * failure outside a form as one toast however often it repeats, and toasts clear of the controls.
 */
import type { Page } from '@playwright/test';
import { expect, test, USER_PASSWORD } from './fixtures';
import { CinemaPage } from './pages/cinema-page';
import { uniqueName } from './support/api';

const toasts = (page: Page) => page.locator('[data-sonner-toast]');

test('a wrong password and a taken room name show in words at their field, without a toast', async ({ app, actors }) => {
  const visitor = await actors.visitor();
  const { page } = visitor;
  const username = uniqueName('e');
  const token = await app.api.signup(username, USER_PASSWORD);
  const taken = uniqueName('taken');
  await app.api.createRoom(token, taken);

  await page.goto(app.url('/auth/login'));
  await page.getByTestId('login-username').fill(username);
  await page.getByTestId('login-password').fill('not-the-password');
  await page.getByTestId('login-submit').click();
  // Which of the two was wrong is not told (the server answers an unknown name the same way).
  await expect(page.locator('#login-password-error')).toHaveText('Wrong username or password');
  await expect(page.getByTestId('login-password')).toBeFocused();
  await expect(page.getByTestId('login-password')).toHaveAttribute('aria-invalid', 'true');
  // Shown once: not also as a toast, and not as the raw server text.
  await expect(page.getByText('password incorrect')).toHaveCount(0);
  await page.waitForTimeout(500);
  await expect(toasts(page)).toHaveCount(0);

  await page.getByTestId('login-password').fill(USER_PASSWORD);
  await page.getByTestId('login-submit').click();
  await expect(page.getByTestId('header-username')).toContainText(username);

  await page.goto(app.url('/createRoom'));
  await page.getByTestId('create-room-name').fill(taken);
  await page.getByTestId('create-room-submit').click();
  await expect(page.locator('#create-room-name-error')).toHaveText('That room name is taken');
  await page.waitForTimeout(500);
  await expect(toasts(page).filter({ hasText: 'taken' })).toHaveCount(0);

  // In Chinese too.
  await page.getByTestId('locale-toggle').click();
  await page.getByTestId('create-room-submit').click();
  await expect(page.locator('#create-room-name-error')).toHaveText('这个房间名已被使用');
  // A name of spaces is no name: refused at the field before anything is sent.
  await page.getByTestId('create-room-name').fill('    ');
  await page.getByTestId('create-room-submit').click();
  await expect(page.locator('#create-room-name-error')).toHaveText('请输入房间名');
  expect(visitor.errors).toEqual([]);
});

test('the same failure twice is one toast, and a toast never covers the control just pressed', async ({ app, actors, media }) => {
  const user = await actors.user();
  const { page } = user;
  const roomId = await app.api.createRoom(user.token!, uniqueName('toasts'));
  await app.api.pushMovie(user.token!, roomId, { url: `${media.url}/clip/index.m3u8`, name: 'clip' });
  const cinema = new CinemaPage(page, app.origin);
  await cinema.goto(roomId);
  await cinema.waitConnected();

  // The share dialog's copy button: its toast must leave it and the header free.
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.getByTestId('open-share').click();
  const share = page.getByTestId('share-copy');
  await share.click();
  const copied = toasts(page).first();
  await expect(copied).toBeVisible();
  const [shareBox, toastBox] = [await share.boundingBox(), await copied.boundingBox()];
  expect(shareBox && toastBox && overlaps(shareBox, toastBox), 'the toast covers the share button').toBe(false);
  for (const control of ['header-username', 'theme-toggle', 'locale-toggle']) {
    const box = await page.getByTestId(control).boundingBox();
    expect(box && toastBox && overlaps(box, toastBox), `the toast covers ${control}`).toBe(false);
  }
  await expect(toasts(page)).toHaveCount(0, { timeout: 10_000 });
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('share-dialog')).toHaveCount(0);

  // Choosing a movie fails twice the same way (the server is down for this call): one toast.
  await page.route('**/api/room/movie/current', (route) =>
    route.request().method() === 'POST' ? route.fulfill({ status: 502, body: 'Bad Gateway' }) : route.continue(),
  );
  for (let i = 0; i < 2; i += 1) {
    await cinema.openMovieActions('clip');
    await page.getByTestId('movie-play').click();
  }
  await expect(toasts(page).filter({ hasText: 'HTTP 502' })).toHaveCount(1);
  await page.waitForTimeout(500);
  await expect(toasts(page).filter({ hasText: 'HTTP 502' })).toHaveCount(1);
  await expect(toasts(page).filter({ hasText: 'Bad Gateway' })).toHaveCount(0);
  expect(user.errors).toEqual([]);
});

function overlaps(a: { x: number; y: number; width: number; height: number }, b: { x: number; y: number; width: number; height: number }): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}
