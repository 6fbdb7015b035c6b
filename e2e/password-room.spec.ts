import { expect, test, USER_PASSWORD } from './fixtures';
import { JoinRoomPage } from './pages/join-room-page';
import { uniqueName } from './support/api';

const ROOM_PASSWORD = 'room-pass-e2e';

test('a deep link to a password room not yet joined asks for the password and keeps the session', async ({ app, actors }) => {
  const ownerToken = await app.api.signup(uniqueName('owner'), USER_PASSWORD);
  const roomId = await app.api.createRoom(ownerToken, uniqueName('locked'), ROOM_PASSWORD);
  const b = await actors.user('b');
  const joinRoom = new JoinRoomPage(b.page, app.origin);
  const storedToken = () => b.page.evaluate(() => window.localStorage.getItem('userToken'));

  await b.page.goto(app.url(`/cinema/${roomId}`));
  await expect(b.page).toHaveURL((url) => url.pathname === `/web/joinRoom/${roomId}/`);
  await expect(joinRoom.password).toBeVisible();
  // A session 401 would clear the token and go home after 1 s: outlast that before judging.
  await b.page.waitForTimeout(1500);
  expect(new URL(b.page.url()).pathname).toBe(`/web/joinRoom/${roomId}/`);
  expect(await storedToken()).toBe(b.token);
  await expect(b.page.getByTestId('header-username')).toContainText(b.username);

  await joinRoom.password.fill(ROOM_PASSWORD);
  await joinRoom.submit.click();
  await expect(b.page.getByTestId('page-cinema')).toHaveAttribute('data-room-id', roomId);
  expect(await storedToken()).toBe(b.token);
  expect(b.errors).toEqual([]);
});
