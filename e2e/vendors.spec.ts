/**
 * AList through the UI (docs/vendors.md), against the AList stand-in (e2e/support/alist-stand-in.ts)
 * serving the test media: binding in the profile's Platforms (a wrong password and a private address
 * said at their fields, the latter allowed after the admin's switch), "From AList" in "Add a movie"
 * pushing a file and a folder at once, and a child of the dynamic folder played in two browsers that
 * stay in step, the second of which bound nothing.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Locator } from '@playwright/test';
import { expect, PROXY_MEDIA_HOST, test, type Actor, type App } from './fixtures';
import { CinemaPage } from './pages/cinema-page';
import { makeAlistLibrary, startAlistStandIn, type AlistStandIn } from './support/alist-stand-in';
import { uniqueName } from './support/api';
import { expectTogether } from './support/watch-party';
import { realVendorTest } from './support/real-vendor';

const ALICE = { username: 'alice', password: 'alist-pw' };

let libraryDir = '';
let alist: AlistStandIn;
/** The same library on 127.0.0.3: an AList "on the LAN", which the e2e server may not reach unless the admin allows it. */
let lanAlist: AlistStandIn;

test.beforeAll(async () => {
  libraryDir = fs.mkdtempSync(path.join(os.tmpdir(), 'alist-e2e-'));
  makeAlistLibrary(libraryDir, path.join(__dirname, 'media'));
  alist = await startAlistStandIn({ rootDir: libraryDir, users: [ALICE], host: PROXY_MEDIA_HOST });
  lanAlist = await startAlistStandIn({ rootDir: libraryDir, users: [ALICE], host: '127.0.0.3' });
});

test.afterAll(async () => {
  await alist?.close();
  await lanAlist?.close();
  fs.rmSync(libraryDir, { recursive: true, force: true });
});

/** Fills the Platforms form and submits it. */
async function bindAlist(actor: Actor, host: string, password: string, username = ALICE.username): Promise<void> {
  const form = actor.page.getByTestId('alist-bind-form');
  if (!(await form.isVisible())) await actor.page.getByTestId('alist-add').click();
  await actor.page.getByTestId('alist-host').fill(host);
  await actor.page.getByTestId('alist-username').fill(username);
  await actor.page.getByTestId('alist-password').fill(password);
  await actor.page.getByTestId('alist-bind-submit').click();
}

/** A room of A's that B joined, open in A's hall with "From AList" chosen; the picker. */
async function openAlistPicker(app: App, a: Actor, b: Actor): Promise<{ roomId: string; cinemaA: CinemaPage; picker: Locator }> {
  const roomId = await app.api.createRoom(a.token!, uniqueName('alist'));
  await app.api.joinRoom(b.token!, roomId);
  const cinemaA = new CinemaPage(a.page, app.origin);
  await cinemaA.goto(roomId);
  await cinemaA.waitConnected();
  await cinemaA.openPushForm();
  await a.page.getByTestId('movie-push-mode-alist').click();
  return { roomId, cinemaA, picker: a.page.getByTestId('alist-picker') };
}

async function openProfile(app: App, actor: Actor): Promise<void> {
  await actor.page.goto(app.url('/user/me'));
  await expect(actor.page.getByTestId('platforms')).toBeVisible();
}

test('binding an AList: a wrong password and a private address are said at their fields; the admin switch lets the LAN one in', async ({ app, actors }) => {
  const a = await actors.user('binder');
  await openProfile(app, a);
  await expect(a.page.getByTestId('alist-none')).toBeVisible();

  await bindAlist(a, alist.url, 'wrong');
  await expect(a.page.locator('#alist-password-error')).toHaveText('Wrong AList user name or password');

  await bindAlist(a, lanAlist.url, ALICE.password);
  await expect(a.page.locator('#alist-host-error')).toContainText("local network can't be proxied");
  app.setSetting('allow_proxy_to_local', true);
  try {
    await a.page.getByTestId('alist-bind-submit').click();
    await expect(a.page.getByTestId('alist-binding-host')).toHaveText([lanAlist.url]);
    await a.page.getByTestId('alist-binding-details').click();
    await expect(a.page.getByTestId('alist-binding-me')).toContainText('Signed in as alice');
  } finally {
    app.setSetting('allow_proxy_to_local', false);
  }
  await a.page.getByTestId('alist-binding-unbind').click();
  await a.page.getByRole('dialog').getByRole('button', { name: 'Unbind' }).click();
  await expect(a.page.getByTestId('alist-none')).toBeVisible();
  expect(a.errors).toEqual([]);
});

test('a file and a folder from AList; a child of the dynamic folder plays in two browsers in step', async ({ app, actors }) => {
  const a = await actors.user('owner');
  const b = await actors.user('viewer');
  await openProfile(app, a);
  await bindAlist(a, alist.url, ALICE.password);
  await expect(a.page.getByTestId('alist-binding-host')).toHaveText([alist.url]);

  const { roomId, cinemaA, picker } = await openAlistPicker(app, a, b);
  // One bound server: its root, with the three folders of the library.
  await expect(picker.getByTestId('alist-item')).toHaveText(['Locked', 'Movies', 'Series']);
  await picker.getByTestId('alist-item-open').filter({ hasText: 'Movies' }).click();
  await picker.getByRole('checkbox', { name: 'Select Clip.mp4' }).check();
  await picker.getByTestId('alist-breadcrumb').getByRole('button').last().click();
  await picker.getByRole('checkbox', { name: 'Select Series' }).check();
  await expect(picker).toContainText('becomes a dynamic folder');
  await picker.getByTestId('alist-picker-add').click();

  // Nothing played: the first added plays at once, from AList.
  await expect(cinemaA.movieItem('Clip.mp4')).toContainText('AList');
  await expect(cinemaA.currentMovieName).toHaveText('Clip.mp4');
  await cinemaA.waitMediaLoaded();

  // B bound nothing: the dynamic folder opens for B too, listed with A's account.
  const cinemaB = new CinemaPage(b.page, app.origin);
  await cinemaB.goto(roomId);
  await cinemaB.waitConnected();
  for (const [page, cinema] of [[b.page, cinemaB], [a.page, cinemaA]] as const) {
    await cinema.openFolders('Series', 'Season 1');
    await expect(page.getByTestId('movie-item')).toHaveCount(2);
  }
  // A plays a child of it; B (a plain member, who may not pick the movie) follows.
  await cinemaA.movieItem('Episode 2.mp4').getByTestId('movie-title').click();

  for (const cinema of [cinemaA, cinemaB]) {
    await expect(cinema.currentMovieName).toHaveText('Episode 2.mp4');
    await cinema.waitMediaLoaded();
  }
  await expectTogether(a.page, b.page);
  expect(alist.calls.filter((call) => call.startsWith('/d/Series/'))).not.toEqual([]);
  expect([...a.errors, ...b.errors]).toEqual([]);
});

test('a file gone from AList is named where the picture would be, and plays again once it is back', async ({ app, actors }) => {
  const a = await actors.user('owner');
  expect((await app.api.request('POST', '/api/vendor/alist/login', { token: a.token, json: { host: alist.url, ...ALICE } })).status).toBe(204);
  const binds = (await app.api.request('GET', '/api/vendor/alist/binds', { token: a.token })).body?.data as { serverId: string }[];
  const roomId = await app.api.createRoom(a.token!, uniqueName('alist-gone'));
  const movieId = await app.api.pushMovie(a.token!, roomId, { name: 'Other', url: '', vendorInfo: { vendor: 'alist', alist: { path: `${binds[0].serverId}/Movies/Other Clip.mp4` } } });
  const file = path.join(libraryDir, 'Movies', 'Other Clip.mp4');
  fs.renameSync(file, `${file}.away`);
  try {
    await app.api.setCurrent(a.token!, roomId, movieId);
    const cinema = new CinemaPage(a.page, app.origin);
    await cinema.goto(roomId);
    await expect(a.page.getByTestId('current-failed')).toHaveText('Could not load the current movie: This file is no longer in AList (moved or deleted)');
    await expect(a.page.getByTestId('cinema-empty')).toHaveCount(0);
  } finally {
    fs.renameSync(`${file}.away`, file);
  }
  await a.page.getByTestId('current-failed').locator('..').getByRole('button', { name: 'Retry' }).click();
  await new CinemaPage(a.page, app.origin).waitMediaLoaded();
  expect(a.errors).toEqual([]);
});

/**
 * The same journey against a real AList or OpenList (e2e/support/real-vendor.ts): `ALIST_FOLDER` is
 * a folder as AList shows it (e.g. `/Films`) whose first entry is a video a browser plays.
 */
realVendorTest('ALIST', 'bind it, add the first video of ALIST_FOLDER, and play it in two browsers in step', async (real, app, a, b) => {
  await openProfile(app, a);
  await bindAlist(a, real.url, real.password, real.username);
  await expect(a.page.getByTestId('alist-binding')).toHaveCount(1);
  const { roomId, cinemaA, picker } = await openAlistPicker(app, a, b);
  for (const part of real.folder.split('/').filter(Boolean)) {
    await picker.getByTestId('alist-item-open').filter({ hasText: part }).first().click();
    await expect(picker.getByTestId('alist-breadcrumb')).toContainText(part);
  }
  const first = picker.getByTestId('alist-item').first();
  const name = (await first.innerText()).split('\n')[0].trim();
  await first.getByTestId('alist-item-select').check();
  await picker.getByTestId('alist-picker-add').click();
  return { roomId, cinemaA, name };
});
