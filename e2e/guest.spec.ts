/**
 * Guests led in: a visitor opening a share link watches as a guest, is told why chat and the movie
 * list are closed to them and how to get in, registers from the hall and lands back in the same room
 * as a member who can chat; a password room's link names the room and offers logging in or
 * registering instead of a Join that would be refused, and after registering the password lets them in.
 */
import { expect, test, USER_PASSWORD } from './fixtures';
import { CinemaPage } from './pages/cinema-page';
import { uniqueName } from './support/api';

test('a visitor from a share link watches as a guest, registers from the hall and comes back into the room as a member', async ({ app, actors, media }) => {
  test.setTimeout(90_000);
  const owner = await actors.user('owner');
  const roomId = await app.api.createRoom(owner.token!, uniqueName('open'));
  const movieId = await app.api.pushMovie(owner.token!, roomId, { url: `${media.url}/mp4/clip.mp4`, name: 'clip' });
  await app.api.setCurrent(owner.token!, roomId, movieId);
  const visitor = await actors.visitor('guest');
  const page = visitor.page;

  await page.goto(app.url(`/joinRoom/${roomId}`));
  await expect(page.getByTestId('page-cinema')).toHaveAttribute('data-room-id', roomId);
  const hall = new CinemaPage(page, app.origin);
  await hall.waitMediaLoaded();

  await test.step('what a guest may not do says so, with the way in', async () => {
    await expect(page.getByTestId('denied-chat')).toHaveText('Log in to chat with the room');
    await expect(page.getByTestId('denied-movies')).toHaveText('Log in to see the movie list');
    await expect(page.getByTestId('chat-input')).toHaveCount(0);
    await expect(page.getByTestId('denied-chat-login')).toHaveAttribute('href', `/web/auth/login/?redirect=${encodeURIComponent(`/cinema/${roomId}/`)}`);
    // The header's own links come back here too.
    await expect(page.getByTestId('nav-register')).toHaveAttribute('href', new RegExp(`redirect=${encodeURIComponent(`/cinema/${roomId}`)}`));
  });

  await test.step('registering from the hall comes back to the room, as a member who can chat', async () => {
    await page.getByTestId('guest-register').click();
    await expect(page.getByTestId('page-register')).toBeVisible();
    await page.getByTestId('register-username').fill(visitor.username);
    await page.getByTestId('register-password').fill('short');
    await page.getByTestId('register-password-confirm').fill('short');
    await page.getByTestId('register-submit').click();
    await expect(page.locator('#register-password-error')).toHaveText('Use at least 8 characters');
    await page.getByTestId('register-password').fill(USER_PASSWORD);
    await page.getByTestId('register-password-confirm').fill(USER_PASSWORD);
    await page.getByTestId('register-submit').click();
    await expect(page.getByTestId('page-cinema')).toHaveAttribute('data-room-id', roomId);
    await expect(page.getByTestId('header-username')).toContainText(visitor.username);
    await expect(page.getByTestId('guest-banner')).toHaveCount(0);
    await hall.waitConnected();
    await hall.sendChat('hello from a new member');
    await expect(hall.chatMessages.last()).toContainText(`${visitor.username}: hello from a new member`);
  });
  expect(visitor.errors).toEqual([]);
});

test("a password room's link names the room and offers log in or register instead of Join; after registering the password lets them in", async ({ app, actors }) => {
  const owner = await actors.user('owner');
  const roomName = uniqueName('locked');
  const roomId = await app.api.createRoom(owner.token!, roomName, 'room-secret');
  const visitor = await actors.visitor('lock');
  const page = visitor.page;

  await page.goto(app.url(`/joinRoom/${roomId}`));
  // The room first: its name as the title, and no raw id or Join button for someone who cannot join.
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(roomName);
  await expect(page.getByTestId('join-room-login-required')).toContainText(`Log in to join “${roomName}”`);
  await expect(page.getByTestId('join-room-submit')).toHaveCount(0);
  await expect(page.getByTestId('join-room-id')).toHaveCount(0);

  await page.getByTestId('join-room-register').click();
  await page.getByTestId('register-username').fill(visitor.username);
  await page.getByTestId('register-password').fill(USER_PASSWORD);
  await page.getByTestId('register-password-confirm').fill(USER_PASSWORD);
  await page.getByTestId('register-submit').click();

  // Back on the room's link, signed in: the room's name, then its password.
  await expect(page.getByTestId('page-joinRoom')).toBeVisible();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(roomName);
  await expect(page.getByTestId('join-room-password')).toBeFocused();
  await page.getByTestId('join-room-password').fill('room-secret');
  await page.getByTestId('join-room-submit').click();
  await expect(page.getByTestId('page-cinema')).toHaveAttribute('data-room-id', roomId);
  expect(visitor.errors).toEqual([]);
});
