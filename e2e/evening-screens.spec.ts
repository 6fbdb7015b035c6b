/**
 * The hall around an evening's films, as a first-time host meets it: the "who controls playback"
 * offer gives way to the player once a film plays, the share link is one a friend's phone can open
 * (or says why not), a guest's disabled play button looks disabled, the hosting guide is a click away
 * from the add-movie form in both languages, and the admin console says which settings only a
 * SyncTV server uses. Real browsers against the companion server.
 */
import { expect, test } from './fixtures';
import { CinemaPage } from './pages/cinema-page';
import { CreateRoomPage } from './pages/create-room-page';
import { uniqueName } from './support/api';

test('once the first film plays, the "who controls playback" offer folds to one line and the controls stay on a 1280×800 screen', async ({ app, actors, media }) => {
  const owner = await actors.user('host');
  await owner.page.setViewportSize({ width: 1280, height: 800 });
  const create = new CreateRoomPage(owner.page, app.origin);
  await create.goto();
  await create.create(uniqueName('first'));
  const hall = new CinemaPage(owner.page, app.origin);
  await expect(owner.page.getByTestId('room-setup')).toBeVisible();
  await expect(owner.page.getByTestId('room-setup')).not.toHaveAttribute('data-compact', 'true');

  await owner.page.getByTestId('empty-add-movie').click();
  await owner.page.getByTestId('movie-push-url').fill(`${media.url}/mp4/clip.mp4`);
  await owner.page.getByTestId('movie-push-submit').click();
  await hall.waitMediaLoaded();
  await expect(owner.page.getByTestId('room-setup')).toHaveAttribute('data-compact', 'true');
  await owner.page.evaluate(() => window.scrollTo(0, 0));
  await owner.page.getByTestId('player').hover();
  const controls = owner.page.getByTestId('player-controls');
  await expect(controls).toBeVisible();
  const box = (await controls.boundingBox())!;
  expect(box.y + box.height, 'the control bar ends inside the window').toBeLessThanOrEqual(800);
  // The presets are one click away.
  await owner.page.getByTestId('room-setup-expand').click();
  await expect(owner.page.getByTestId('room-setup')).not.toHaveAttribute('data-compact', 'true');
  expect(owner.errors).toEqual([]);
});

test("the share link leads with the site's address; on this machine's own address it says a friend cannot open it", async ({ app, actors }) => {
  const owner = await actors.user('host');
  const roomId = await app.api.createRoom(owner.token!, uniqueName('share'));
  const hall = new CinemaPage(owner.page, app.origin);
  const shareShows = async () => {
    await owner.page.getByTestId('open-share').click();
    await expect(owner.page.getByTestId('share-dialog')).toBeVisible();
  };

  await test.step('opened at 127.0.0.1: the link says so, and what to do', async () => {
    await hall.goto(roomId);
    await shareShows();
    await expect(owner.page.locator('#share-link')).toHaveValue(`${app.origin}/web/joinRoom/${roomId}/`);
    await expect(owner.page.getByTestId('share-local-only')).toContainText('only works on this computer');
    await expect(owner.page.getByTestId('share-local-only')).toContainText('ask the site’s admin to set the site address');
    await hall.closePanel();
  });

  await test.step('with the site address set, the link and its QR code use it, and nothing warns', async () => {
    app.setSetting('host', 'https://watch.example.com');
    try {
      await owner.page.reload();
      await hall.waitConnected();
      await shareShows();
      const link = `https://watch.example.com/web/joinRoom/${roomId}/`;
      await expect(owner.page.locator('#share-link')).toHaveValue(link);
      await expect(owner.page.getByTestId('share-qr')).toHaveAttribute('data-value', link);
      await expect(owner.page.getByTestId('share-local-only')).toHaveCount(0);
    } finally {
      app.setSetting('host', '');
    }
  });
  expect(owner.errors).toEqual([]);
});

test("a guest's play button and seek bar look disabled, not just act it", async ({ app, actors, media }) => {
  const owner = await actors.user('host');
  const roomId = await app.api.createRoom(owner.token!, uniqueName('guestlook'));
  const movieId = await app.api.pushMovie(owner.token!, roomId, { url: `${media.url}/mp4/clip.mp4`, name: 'clip' });
  await app.api.setCurrent(owner.token!, roomId, movieId);
  const guest = await actors.visitor('guest');
  await guest.page.goto(app.url(`/joinRoom/${roomId}`));
  const hall = new CinemaPage(guest.page, app.origin);
  await hall.waitMediaLoaded();
  await guest.page.getByTestId('player').hover();
  const play = guest.page.getByTestId('watch-only-play');
  await expect(play).toBeVisible();
  const look = (testId: string) => guest.page.getByTestId(testId).evaluate((element) => ({ opacity: Number(getComputedStyle(element).opacity), cursor: getComputedStyle(element).cursor }));
  expect(await look('watch-only-play')).toEqual({ opacity: 0.4, cursor: 'not-allowed' });
  expect(await look('player-seek')).toEqual({ opacity: 0.4, cursor: 'not-allowed' });
  // What the guest may use looks as usual.
  expect((await look('player-mute')).opacity).toBe(1);
  expect(guest.errors).toEqual([]);
});

test('the add-movie form opens the hosting guide beside it, in both languages, and keeps what was typed', async ({ app, actors }) => {
  const owner = await actors.user('host');
  const roomId = await app.api.createRoom(owner.token!, uniqueName('guide'));
  const hall = new CinemaPage(owner.page, app.origin);
  await hall.goto(roomId);
  await hall.openPushForm();
  await owner.page.getByTestId('movie-push-url').fill('http://192.168.1.20:8000/film.mp4');
  await owner.page.getByTestId('movie-push-hosting-help').click();
  const guide = owner.page.getByTestId('hosting-guide');
  await expect(guide).toBeVisible();
  await expect(guide.getByRole('heading', { name: 'How to host a video' })).toBeVisible();
  for (const section of ['What the host must offer', 'Common hosts', 'The proxy', 'What the hall says']) await expect(guide.getByRole('heading', { name: section })).toBeVisible();
  await expect(guide).toContainText('python3 -m http.server');
  await hall.closePanel();
  // The form kept what was typed, and the guide speaks the viewer's language.
  await expect(owner.page.getByTestId('movie-push-url')).toHaveValue('http://192.168.1.20:8000/film.mp4');
  await owner.page.getByRole('button', { name: /切换到中文/ }).click();
  await owner.page.getByTestId('movie-push-hosting-help').click();
  await expect(owner.page.getByTestId('hosting-guide').getByRole('heading', { name: '如何自己托管视频' })).toBeVisible();
  await expect(owner.page.getByTestId('hosting-guide')).toContainText('主机需要提供什么');
  expect(owner.errors).toEqual([]);
});

test('the admin console says which settings only a SyncTV server uses', async ({ app, actors }) => {
  const root = await actors.root();
  await root.page.goto(`${app.url('/admin')}#settings`);
  const hint = (name: string) => root.page.locator(`#setting-${name}-hint`);
  await root.page.getByTestId('admin-settings-tab-rtmp').click();
  await expect(hint('rtmp_player')).toContainText('Only a SyncTV server uses this');
  await expect(hint('custom_publish_host')).not.toContainText('Only a SyncTV server');
  await root.page.getByTestId('admin-settings-tab-server').click();
  await expect(hint('p2p_zone')).toContainText('Only a SyncTV server uses this');
  await root.page.getByTestId('admin-settings-tab-proxy').click();
  await expect(hint('proxy_cache_enable')).toContainText('Only a SyncTV server uses this');
  await expect(hint('movie_proxy')).not.toContainText('Only a SyncTV server');
  expect(root.errors).toEqual([]);
});
