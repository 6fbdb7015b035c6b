/**
 * bilibili through the UI (docs/vendors.md "bilibili"), against the stand-in
 * (e2e/support/bilibili-stand-in.ts, the `bilibili` fixture) serving DASH streams made by ffmpeg:
 * binding by QR code in the profile (the stand-in confirms the scan, as a phone would), "From
 * bilibili" in "Add a movie" reading a series' short link, two of its episodes added at once and
 * played in two browsers in step, the second browser with no bilibili account of its own (the adder
 * shares theirs); and a live room played with its danmaku flying over the picture. With
 * `BILIBILI_URL` set (a public video's link), the journey runs against bilibili itself instead, for
 * anyone who can reach it (the e2e server then asks bilibili, not the stand-in).
 */
import { expect, test, type Actor, type App } from './fixtures';
import { CinemaPage } from './pages/cinema-page';
import { uniqueName } from './support/api';
import { expectTogether } from './support/watch-party';

/** A's room (B a member, when given) with A in it and "Add a movie" open; `pick` then chooses "From bilibili". */
async function openRoom(app: App, a: Actor, b: Actor | null, name: string) {
  const roomId = await app.api.createRoom(a.token!, uniqueName(name));
  if (b) await app.api.joinRoom(b.token!, roomId);
  const cinemaA = new CinemaPage(a.page, app.origin);
  await cinemaA.goto(roomId);
  await cinemaA.waitConnected();
  await cinemaA.openPushForm();
  const pick = async () => {
    await a.page.getByTestId('movie-push-mode-bilibili').click();
    return a.page.getByTestId('bilibili-picker');
  };
  return { roomId, cinemaA, pick };
}

/** B joins A's room and both play in step. */
async function watchTogether(app: App, a: Actor, b: Actor, roomId: string, cinemaA: CinemaPage) {
  const cinemaB = new CinemaPage(b.page, app.origin);
  await cinemaB.goto(roomId);
  await cinemaB.waitConnected();
  for (const cinema of [cinemaA, cinemaB]) await cinema.waitMediaLoaded();
  await expectTogether(a.page, b.page);
}

test('bound by QR, a series read from its short link, two episodes added at once play in two browsers in step', async ({ app, actors, bilibili }) => {
  test.skip(Boolean(process.env.BILIBILI_URL), 'the stand-in journey; see the one below');
  const a = await actors.user('owner');
  const b = await actors.user('viewer');

  await test.step('A binds bilibili by QR code: not scanned, scanned, confirmed', async () => {
    await a.page.goto(app.url('/user/me'));
    await expect(a.page.getByTestId('bilibili-none')).toBeVisible();
    await a.page.getByTestId('bilibili-bind').click();
    await expect(a.page.getByTestId('bilibili-qr-code')).toBeVisible();
    await expect(a.page.getByTestId('bilibili-qr-status')).toHaveText('Open the bilibili app, tap Scan, and scan this code');
    bilibili.confirmScan(false);
    await expect(a.page.getByTestId('bilibili-qr-status')).toHaveText('Scanned: confirm the sign-in on your phone');
    bilibili.confirmScan();
    await expect(a.page.getByTestId('bilibili-username')).toHaveText(bilibili.fixtures.user.uname);
    await expect(a.page.getByTestId('bilibili-bound')).toContainText('大会员');
  });

  const { roomId, cinemaA, pick } = await openRoom(app, a, b, 'bilibili');
  // Each way to add a movie says what it is (the Emby/Jellyfin one read "Go live").
  await expect(a.page.getByRole('group', { name: 'How to add' }).getByRole('button')).toHaveText(['One movie', 'Several at once', 'Go live', 'From AList', 'From Emby/Jellyfin', 'From bilibili']);
  const picker = await pick();

  await test.step('a link that is not bilibili is said at its field; the series short link lists its episodes', async () => {
    await picker.getByLabel('Video link or id').fill('https://example.com/watch?v=1');
    await picker.getByTestId('bilibili-parse').click();
    await expect(picker.locator('#bilibili-link-error')).toContainText("That isn't a link we recognise");
    await picker.getByLabel('Video link or id').fill('https://b23.tv/series');
    await picker.getByTestId('bilibili-parse').click();
    await expect(picker.getByTestId('bilibili-result-title')).toHaveText(bilibili.fixtures.series.title);
    await expect(picker.getByTestId('bilibili-video')).toHaveCount(3);
    await expect(picker.getByTestId('bilibili-shared')).toBeChecked();
    // The third episode is for members: only the first two.
    await picker.getByTestId('bilibili-select-none').click();
    for (const name of ['Stand-in series：第1话 The beginning', 'Stand-in series：第2话 The middle']) await picker.getByLabel(name).check();
    await picker.getByTestId('bilibili-add').click();
  });

  await expect(cinemaA.movieItem('Stand-in series：第2话 The middle')).toContainText('bilibili: ep5002');
  // Its name can change (its address is bilibili's: nothing else to edit).
  await cinemaA.movieItem('Stand-in series：第2话 The middle').getByTestId('movie-actions').click();
  await a.page.getByTestId('movie-edit').click();
  await a.page.getByTestId('movie-edit-dialog').getByLabel('Name').fill('Episode two');
  await a.page.getByTestId('movie-edit-save').click();
  await expect(cinemaA.movieItem('Episode two')).toContainText('bilibili: ep5002');
  await expect(cinemaA.currentMovieName).toHaveText('Stand-in series：第1话 The beginning');
  await watchTogether(app, a, b, roomId, cinemaA);
  // The streams came from bilibili's CDN (which answers only its own Referer) through this server.
  expect(bilibili.calls).toContain('/upos/avc-320.m4s');

  await test.step('the qualities A’s account may watch are in the quality menu, and HEVC is a second source', async () => {
    await expect(b.page.getByTestId('source-select').locator('option')).toHaveText(['Default', 'HEVC']);
    await a.page.getByTestId('player-settings').click();
    await a.page.getByRole('menuitem', { name: 'Quality' }).click();
    await expect(a.page.getByRole('menuitemradio', { name: '180p', exact: true })).toBeVisible();
    await a.page.getByRole('menuitemradio', { name: '90p', exact: true }).click();
    await expect.poll(() => cinemaA.video.evaluate((video: HTMLVideoElement) => video.videoHeight), { timeout: 15_000 }).toBe(90);
    await a.page.keyboard.press('Escape');
    await expectTogether(a.page, b.page);
  });

  await test.step('A adds a video for each viewer’s own account and plays it: B, who bound none, is told to bind it', async () => {
    await picker.getByLabel('Video link or id').fill(bilibili.fixtures.video.bvid);
    await picker.getByTestId('bilibili-parse').click();
    await picker.getByTestId('bilibili-select-none').click();
    await picker.getByLabel('Part one').check();
    await picker.getByTestId('bilibili-shared').uncheck();
    await expect(picker).toContainText('Each viewer watches with their own bound bilibili account');
    await picker.getByTestId('bilibili-add').click();
    await cinemaA.movieItem('Part one').getByTestId('movie-title').click();
    await expect(cinemaA.currentMovieName).toHaveText('Part one');
    await cinemaA.waitMediaLoaded();
    // Not the episode B was watching: the room moved on, and B is told what to do.
    await expect(b.page.getByTestId('current-failed')).toContainText('This video plays with each viewer’s own bilibili account: bind yours under Profile → Platforms');
    await b.page.getByTestId('current-failed-bind').click();
    await expect(b.page.getByTestId('bilibili-bind')).toBeVisible();
  });
});

test('a bilibili live room plays, and its danmaku fly over the picture', async ({ app, actors, bilibili }) => {
  test.skip(Boolean(process.env.BILIBILI_URL), 'the stand-in journey');
  const a = await actors.user('owner');
  const { cinemaA, pick } = await openRoom(app, a, null, 'bili-live');
  const picker = await pick();
  await picker.getByLabel('Video link or id').fill(`https://live.bilibili.com/${bilibili.fixtures.live.shortId}`);
  await picker.getByTestId('bilibili-parse').click();
  await expect(picker.getByTestId('bilibili-video')).toHaveText([`${bilibili.fixtures.live.title}Live room ${bilibili.fixtures.live.roomId}`]);
  await picker.getByTestId('bilibili-add').click();
  await expect(cinemaA.currentMovieName).toHaveText(bilibili.fixtures.live.title);
  await cinemaA.waitMediaLoaded();
  await expect.poll(() => bilibili.danmakuViewers(), { message: 'the server joins the live room’s danmaku' }).toBe(1);
  await expect
    .poll(
      async () => {
        bilibili.sendDanmaku(bilibili.fixtures.live.roomId, '来自直播间的弹幕');
        return a.page.getByTestId('danmaku-layer').textContent();
      },
      { message: 'a danmaku from the live room flies in the player' },
    )
    .toContain('来自直播间的弹幕');
});

test.describe('against bilibili itself (BILIBILI_URL)', () => {
  const link = process.env.BILIBILI_URL ?? '';
  test.skip(!link, 'set BILIBILI_URL to a public video link, and run the server without BILIBILI_API_ORIGIN');

  test('a public video plays in two browsers in step', async ({ app, actors }) => {
    const a = await actors.user('owner');
    const b = await actors.user('viewer');
    const { roomId, cinemaA, pick } = await openRoom(app, a, b, 'bilibili-real');
    const picker = await pick();
    await picker.getByLabel('Video link or id').fill(link);
    await picker.getByTestId('bilibili-parse').click();
    await expect(picker.getByTestId('bilibili-video').first()).toBeVisible();
    await picker.getByTestId('bilibili-add').click();
    await watchTogether(app, a, b, roomId, cinemaA);
  });
});
