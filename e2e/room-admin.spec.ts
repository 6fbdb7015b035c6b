/**
 * Running a room through the UI alone (docs/contract.md §4.4, §5.4, §5.5, §6.5): the
 * creator gives a friend playback control with a preset, approves a waiting member, bans one,
 * changes the password that a third person then needs, and deletes the room. Two or three browsers
 * against the real companion server.
 */
import { expect, test } from './fixtures';
import { CinemaPage } from './pages/cinema-page';
import { JoinRoomPage } from './pages/join-room-page';
import { uniqueName } from './support/api';

test('the creator gives a friend playback control; without it the friend watches with the controls disabled and stays in sync', async ({ app, actors, media }) => {
  test.setTimeout(90_000);
  const a = await actors.user('owner');
  const b = await actors.user('friend');
  const roomId = await app.api.createRoom(a.token!, uniqueName('control'));
  const movieId = await app.api.pushMovie(a.token!, roomId, { url: `${media.url}/clip/index.m3u8`, name: 'clip' });
  await app.api.setCurrent(a.token!, roomId, movieId);

  const cinemaA = new CinemaPage(a.page, app.origin);
  const cinemaB = new CinemaPage(b.page, app.origin);
  await cinemaA.goto(roomId);
  await cinemaA.waitConnected();
  await cinemaA.waitMediaLoaded();
  await cinemaB.goto(roomId);
  await cinemaB.waitConnected();
  await cinemaB.waitMediaLoaded();

  await test.step('B has no playback control: the play button is disabled with the reason, and B follows A', async () => {
    await expect(b.page.getByTestId('watch-only-play')).toBeDisabled();
    await expect(b.page.getByTestId('watch-only-reason')).toContainText('play, pause and seek');
    expect(await cinemaB.video.getAttribute('controls')).toBeNull();
    await expect(a.page.getByTestId('watch-only-reason')).toHaveCount(0);
    await expect(a.page.getByTestId('player-play')).toBeEnabled();
    await cinemaA.play().catch(() => undefined);
    await expect.poll(async () => (await cinemaB.media()).paused, { timeout: 10_000 }).toBe(false);
    await cinemaA.pause();
    await expect.poll(async () => (await cinemaB.media()).paused, { timeout: 10_000 }).toBe(true);
  });

  await test.step('A applies "everyone controls"; B gets the controls without reloading', async () => {
    const settings = await cinemaA.openSettings();
    await settings.getByTestId('preset-apply-everyone').click();
    await expect(a.page.locator('[data-sonner-toast]').filter({ hasText: 'members updated: 1' })).toBeVisible();
    await expect(settings.getByTestId('setting-can_set_current_status')).toHaveAttribute('aria-checked', 'true');
    await cinemaA.closePanel();
    await expect(b.page.getByTestId('watch-only-reason')).toHaveCount(0);
    await expect(b.page.getByTestId('player-play')).toBeEnabled();
  });

  await test.step("B's play and pause now reach A", async () => {
    await cinemaB.play().catch(() => undefined);
    await expect.poll(async () => (await cinemaA.media()).paused, { timeout: 10_000 }).toBe(false);
    await cinemaB.pause();
    await expect.poll(async () => (await cinemaA.media()).paused, { timeout: 10_000 }).toBe(true);
  });
  expect(a.errors).toEqual([]);
  expect(b.errors).toEqual([]);
});

test('join review, approval, a ban, a new password and deleting the room, all from the panels', async ({ app, actors }) => {
  test.setTimeout(120_000);
  const a = await actors.user('owner');
  const b = await actors.user('newbie');
  const c = await actors.user('third');
  const roomId = await app.api.createRoom(a.token!, uniqueName('reviewed'));
  const cinemaA = new CinemaPage(a.page, app.origin);
  await cinemaA.goto(roomId);
  await cinemaA.waitConnected();

  await test.step('A turns on join review', async () => {
    const settings = await cinemaA.openSettings();
    const review = settings.getByTestId('setting-join_need_review');
    await expect(review).toHaveAttribute('aria-checked', 'false');
    await review.click();
    await expect(review).toHaveAttribute('aria-checked', 'true');
    await cinemaA.closePanel();
  });

  await test.step('B asks to join and waits; A approves in the members panel; B enters without reloading', async () => {
    await b.page.goto(app.url(`/joinRoom/${roomId}`));
    await expect(b.page.getByTestId('join-room-waiting')).toBeVisible();
    const panel = await cinemaA.openMembers();
    await panel.getByTestId('members-filter-pending').click();
    await expect(cinemaA.memberRow(b.username)).toBeVisible();
    await cinemaA.memberAction(b.username, 'approve');
    await expect(a.page.locator('[data-sonner-toast]').filter({ hasText: b.username })).toBeVisible();
    await expect(b.page.getByTestId('page-cinema')).toHaveAttribute('data-room-id', roomId, { timeout: 15_000 });
    await new CinemaPage(b.page, app.origin).waitConnected();
  });

  await test.step("A bans B, and B's viewing hall closes with a clear message", async () => {
    await a.page.getByTestId('members-filter-all').click();
    await expect(cinemaA.memberRow(b.username).getByTestId('member-online')).toContainText('Online');
    await cinemaA.memberAction(b.username, 'ban');
    await a.page.getByTestId('confirm-ok').click();
    await expect(b.page).toHaveURL((url) => url.pathname === `/web/joinRoom/${roomId}/`, { timeout: 15_000 });
    await expect(b.page.getByTestId('join-room-message')).toContainText('banned');
    await a.page.getByTestId('members-filter-banned').click();
    await expect(cinemaA.memberRow(b.username)).toBeVisible();
    await cinemaA.closePanel();
  });

  await test.step('A turns join review off and sets a password; C needs exactly that one', async () => {
    const settings = await cinemaA.openSettings();
    await settings.getByTestId('setting-join_need_review').click();
    await expect(settings.getByTestId('setting-join_need_review')).toHaveAttribute('aria-checked', 'false');
    await expect(settings.getByTestId('room-password-state')).toContainText('no password');
    await settings.locator('#room-new-password').fill('first-pass');
    await settings.getByTestId('room-password-save').click();
    await expect(settings.getByTestId('room-password-state')).toContainText('has a password');
    await settings.locator('#room-new-password').fill('second-pass');
    await settings.getByTestId('room-password-save').click();
    await expect(a.page.locator('[data-sonner-toast]').filter({ hasText: 'password is updated' }).first()).toBeVisible();
    await cinemaA.closePanel();

    const joinC = new JoinRoomPage(c.page, app.origin);
    await c.page.goto(app.url(`/joinRoom/${roomId}`));
    await expect(c.page.getByTestId('join-room-message')).toContainText('password');
    await joinC.password.fill('first-pass');
    await joinC.submit.click();
    await expect(c.page.locator('#join-room-password-error')).toContainText('Wrong room password');
    await joinC.password.fill('second-pass');
    await joinC.submit.click();
    await expect(c.page.getByTestId('page-cinema')).toHaveAttribute('data-room-id', roomId);
    await new CinemaPage(c.page, app.origin).waitConnected();
  });

  await test.step('A deletes the room: A goes home, C is told the room is gone', async () => {
    const settings = await cinemaA.openSettings();
    await settings.getByTestId('room-delete').click();
    await a.page.getByTestId('confirm-ok').click();
    await expect(a.page).toHaveURL((url) => url.pathname === '/web/');
    await expect(a.page.locator('[data-sonner-toast]').filter({ hasText: 'deleted' })).toBeVisible();
    await expect(c.page).toHaveURL((url) => url.pathname === `/web/joinRoom/${roomId}/`, { timeout: 15_000 });
    await expect(c.page.locator('#join-room-id-error')).toContainText("doesn't exist");
    const check = await fetch(`${app.origin}/api/room/check?roomId=${roomId}`);
    expect(check.status).toBe(404);
  });
  for (const actor of [a, b, c]) expect(actor.errors).toEqual([]);
});
