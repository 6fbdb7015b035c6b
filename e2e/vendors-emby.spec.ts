/**
 * Jellyfin through the UI (docs/vendors.md "Emby and Jellyfin"), against the stand-in
 * (e2e/support/emby-stand-in.ts) serving the test media: binding in the profile's Platforms (a wrong
 * password said at its field), "From Emby/Jellyfin" in "Add a movie" walking libraries → series →
 * season → episodes, an episode played in two browsers in step, through the server, the second
 * browser with no account of its own, the second viewer's own audio track and bitrate (converted
 * by the media server for that viewer alone), the season added as a dynamic folder, one of its
 * episodes played from the playlist, and a film that only the media server's transcode plays.
 */
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, PROXY_MEDIA_HOST, test, type Actor, type App } from './fixtures';
import { CinemaPage } from './pages/cinema-page';
import { startEmbyStandIn, type EmbyStandIn } from './support/emby-stand-in';
import { uniqueName } from './support/api';
import { expectTogether } from './support/watch-party';
import { realVendorTest } from './support/real-vendor';

const ACCOUNT = { username: 'bob', password: 'jelly-pw' };
let jellyfin: EmbyStandIn;

test.beforeAll(async () => {
  jellyfin = await startEmbyStandIn({ flavor: 'jellyfin', ...ACCOUNT, mediaDir: path.join(__dirname, 'media'), host: PROXY_MEDIA_HOST });
});

test.afterAll(async () => {
  await jellyfin?.close();
});

/** Binds a media server in A's profile (Platforms), a wrong password first when `wrongFirst`. */
async function bindEmby(page: Page, app: App, account: { url: string; username: string; password: string }, wrongFirst: boolean) {
  await page.goto(app.url('/user/me'));
  await page.getByTestId('emby-add').click();
  await page.getByTestId('emby-host').fill(account.url);
  await page.getByTestId('emby-username').fill(account.username);
  if (wrongFirst) {
    await page.getByTestId('emby-password').fill('wrong');
    await page.getByTestId('emby-bind-submit').click();
    await expect(page.locator('#emby-password-error')).toHaveText('Wrong Emby/Jellyfin user name or password');
  }
  await page.getByTestId('emby-password').fill(account.password);
  await page.getByTestId('emby-bind-submit').click();
  await expect(page.getByTestId('emby-binding')).toHaveCount(1);
}

/** A's room with B a member, A in it with "From Emby/Jellyfin" open, walked down `folders` (names). */
async function openEmbyFolder(app: App, a: Actor, b: Actor, folders: string[]) {
  const roomId = await app.api.createRoom(a.token!, uniqueName('jellyfin'));
  await app.api.joinRoom(b.token!, roomId);
  const cinemaA = new CinemaPage(a.page, app.origin);
  await cinemaA.goto(roomId);
  await cinemaA.waitConnected();
  await cinemaA.openPushForm();
  await a.page.getByTestId('movie-push-mode-emby').click();
  const picker = a.page.getByTestId('emby-picker');
  await expect(picker.getByTestId('emby-item').first()).toBeVisible();
  for (const name of folders) {
    await picker.getByTestId('emby-item-open').filter({ hasText: name }).first().click();
    await expect(picker.getByTestId('emby-breadcrumb')).toContainText(name);
  }
  return { roomId, cinemaA, picker };
}

test("a Jellyfin episode, picked through its series and season, plays in two browsers in step; a viewer's own audio track and bitrate; the season as a dynamic folder; a film as the server's transcode", async ({ app, actors }) => {
  const a = await actors.user('owner');
  const b = await actors.user('viewer');
  await bindEmby(a.page, app, { url: jellyfin.url, ...ACCOUNT }, true);
  await expect(a.page.getByTestId('emby-binding-host')).toHaveText([jellyfin.url]);

  const { roomId, cinemaA, picker } = await openEmbyFolder(app, a, b, []);
  await expect(picker.getByTestId('emby-item')).toHaveText(['MoviesLibrary', 'ShowsLibrary']);
  for (const name of ['Shows', 'Show', 'Season 1']) {
    await picker.getByTestId('emby-item-open').filter({ hasText: name }).click();
    await expect(picker.getByTestId('emby-breadcrumb')).toContainText(name);
  }
  await picker.getByRole('checkbox', { name: 'Select Episode 2' }).check();
  // Back in the series, its season as a whole: a dynamic folder.
  await picker.getByTestId('emby-breadcrumb').getByRole('button', { name: 'Show', exact: true }).click();
  await picker.getByRole('checkbox', { name: 'Select Season 1' }).check();
  await expect(picker).toContainText('becomes a dynamic folder');
  await picker.getByTestId('emby-picker-add').click();

  await expect(cinemaA.movieItem('Episode 2')).toContainText('Emby/Jellyfin');
  await expect(cinemaA.currentMovieName).toHaveText('Episode 2');
  const cinemaB = new CinemaPage(b.page, app.origin);
  await cinemaB.goto(roomId);
  await cinemaB.waitConnected();
  for (const cinema of [cinemaA, cinemaB]) await cinema.waitMediaLoaded();
  await expectTogether(a.page, b.page);
  expect(jellyfin.calls.some((call) => call.startsWith('/Videos/e-2/stream'))).toBe(true);

  await test.step('B picks the Japanese audio track and then 2 Mbps: converted for B alone, still in step with A', async () => {
    const audio = b.page.getByTestId('audio-choice');
    await expect(audio.locator('option')).toHaveText(['English - AAC - Stereo', 'Japanese - AAC - Stereo']);
    await expect(b.page.getByTestId('bitrate-choice').locator('option')).toHaveText(['Original', '4 Mbps', '2 Mbps', '1 Mbps']);
    await audio.selectOption({ label: 'Japanese - AAC - Stereo' });
    await expect(b.page.getByTestId('media-choice-hint')).toBeVisible();
    await expect.poll(() => jellyfin.playbackRequests.some((asked) => asked.itemId === 'e-2' && asked.AudioStreamIndex === 2 && asked.EnableDirectStream === false)).toBe(true);
    await expect.poll(() => jellyfin.calls.some((call) => call.startsWith('/videos/e-2/hls1/main/'))).toBe(true);
    await expectTogether(a.page, b.page);
    await b.page.getByTestId('bitrate-choice').selectOption({ label: '2 Mbps' });
    await expect.poll(() => jellyfin.playbackRequests.some((asked) => asked.itemId === 'e-2' && asked.AudioStreamIndex === 2 && asked.MaxStreamingBitrate === 2_000_000)).toBe(true);
    await expectTogether(a.page, b.page);
    // A's own stream is still the file as it is.
    await expect(a.page.getByTestId('media-choice-hint')).toHaveCount(0);
    await expect(a.page.getByTestId('audio-choice')).toHaveValue('1');
  });

  await test.step('the season opens in the playlist for both, listed live; A plays its first episode and B follows', async () => {
    for (const [page, cinema] of [[b.page, cinemaB], [a.page, cinemaA]] as const) {
      await cinema.openFolders('Season 1');
      await expect(page.getByTestId('movie-item')).toHaveCount(2);
    }
    await cinemaA.movieItem('Episode 1').getByTestId('movie-title').click();
    for (const cinema of [cinemaA, cinemaB]) {
      await expect(cinema.currentMovieName).toHaveText('Episode 1');
      await cinema.waitMediaLoaded();
    }
    await expectTogether(a.page, b.page);
    expect(jellyfin.calls.some((call) => call.startsWith('/Videos/e-1/stream'))).toBe(true);
  });

  await test.step("a film browsers cannot decode plays as the media server's transcode, in step", async () => {
    const film = await app.api.pushMovie(a.token!, roomId, { name: 'HEVC film', url: '', vendorInfo: { vendor: 'emby', emby: { path: `${jellyfin.serverId}/m-hevc` } } });
    await app.api.setCurrent(a.token!, roomId, film);
    for (const cinema of [cinemaA, cinemaB]) {
      await expect(cinema.currentMovieName).toHaveText('HEVC film');
      await cinema.waitMediaLoaded();
    }
    await expectTogether(a.page, b.page);
    expect(jellyfin.calls.some((call) => /^\/videos\/m-hevc\/hls1\/main\/\d+\.ts$/.test(call))).toBe(true);
  });
  expect([...a.errors, ...b.errors]).toEqual([]);
});

/**
 * The same against a real Jellyfin or Emby (e2e/support/real-vendor.ts): `JELLYFIN_FOLDER` names
 * the folders to open from the libraries (e.g. `Shows/Some show/Season 1`), whose first film or
 * episode the server can play or convert.
 */
realVendorTest('JELLYFIN', 'bind it, add the first film or episode of JELLYFIN_FOLDER, and play it in two browsers in step', async (real, app, a, b) => {
  await bindEmby(a.page, app, real, false);
  const { roomId, cinemaA, picker } = await openEmbyFolder(app, a, b, real.folder.split('/').filter(Boolean));
  // The first entry that is ticked, not opened: a film or an episode.
  const first = picker.getByTestId('emby-item').filter({ has: a.page.getByTestId('emby-item-select') }).filter({ hasNot: a.page.getByTestId('emby-item-open') }).first();
  const name = await first.locator('span.truncate').innerText();
  await first.getByTestId('emby-item-select').check();
  await picker.getByTestId('emby-picker-add').click();
  return { roomId, cinemaA, name };
});
