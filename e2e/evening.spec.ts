/**
 * An evening with friends, as they spend it: several movies one after the other, control from the
 * player's own bar by more than one person, someone joining late, a file served by the most common
 * host there is (`python3 -m http.server`: no Range, no CORS), and who did what. Real browsers
 * against the companion server, with the committed test media.
 */
import path from 'node:path';
import type { Page } from '@playwright/test';
import { Permission, DefaultPermissions } from '../lib/contract/roles';
import { expect, PROXY_MEDIA_HOST, test, type Actor, type Actors, type App } from './fixtures';
import { CinemaPage } from './pages/cinema-page';
import { uniqueName } from './support/api';
import { describe, samplePair, showSyncDebug, syncDebugText } from './support/playback';
import { pollUntil } from './support/poll';
import { startPlainHost, type PlainHost } from './support/plain-host';
import { expectTogether, SYNC_TOLERANCE_SEC } from './support/watch-party';

const mediaDir = path.join(__dirname, 'media');

/** The viewers of the running test, whose sync overlay is attached to a failure. */
const watchedViewers: Actor[] = [];

test.beforeEach(() => {
  watchedViewers.length = 0;
});

test.afterEach(async ({}, testInfo) => {
  if (testInfo.status === testInfo.expectedStatus) return;
  for (const viewer of watchedViewers) {
    await testInfo.attach(`sync debug ${viewer.username}`, { body: await syncDebugText(viewer.page), contentType: 'text/plain' });
  }
});

/** A signed-up person whose hall shows the sync overlay (attached to a failure). */
async function person(actors: Actors, prefix: string): Promise<Actor> {
  const actor = await actors.user(prefix);
  await showSyncDebug(actor.context);
  watchedViewers.push(actor);
  return actor;
}

/** A room of A's that B has joined, with playback control unless `bControls` is false. */
async function roomOfTwo(app: App, actors: Actors, prefix: string, bControls = true) {
  const a = await person(actors, 'a');
  const b = await person(actors, 'b');
  const roomId = await app.api.createRoom(a.token!, uniqueName(prefix));
  await app.api.joinRoom(b.token!, roomId);
  if (bControls) await app.api.setMemberPermissions(a.token!, roomId, b.token!, DefaultPermissions | Permission.SetCurrentStatus);
  return { a, b, roomId, cinemaA: new CinemaPage(a.page, app.origin), cinemaB: new CinemaPage(b.page, app.origin) };
}

/** Waits until the paused players of both pages show the same position (within the sync tolerance). */
async function expectPausedTogether(a: Page, b: Page): Promise<void> {
  const together = await pollUntil(
    () => samplePair(a, b),
    (pair) => pair.a.paused && pair.b.paused && !pair.a.seeking && !pair.b.seeking && Math.abs(pair.a.currentTime - pair.b.currentTime) < SYNC_TOLERANCE_SEC,
    { timeoutMs: 15_000 },
  );
  expect(together.ok, `not paused together: A ${describe(together.last.a)} | B ${describe(together.last.b)}`).toBe(true);
}

/**
 * The control bar of `cinema` drives the element it shows: its time display runs and its play
 * button says "pause" while the film plays (media-chrome bound to the playing element).
 */
async function expectLiveControls(cinema: CinemaPage): Promise<void> {
  await expect(cinema.playButton()).toBeVisible();
  await expect(cinema.playButton()).toHaveAttribute('aria-label', 'pause');
  await expect(cinema.timeDisplay()).not.toHaveText(/0:00 \/ 0:00/);
}

test('three movie switches, then pause, seek and rate from the control bar by two users: both stay in step', async ({ app, actors, media }) => {
  test.setTimeout(180_000);
  const { a, b, roomId, cinemaA, cinemaB } = await roomOfTwo(app, actors, 'switches');
  const movies = [
    { url: `${media.url}/clip/index.m3u8`, name: 'hls clip' },
    { url: `${media.url}/mp4/clip.mp4`, name: 'mp4 clip' },
    { url: `${media.url}/dash/manifest.mpd`, name: 'dash clip' },
    { url: `${media.url}/clip/index.m3u8`, name: 'hls again' },
  ];
  const ids = [];
  for (const movie of movies) ids.push(await app.api.pushMovie(a.token!, roomId, movie));
  await app.api.setCurrent(a.token!, roomId, ids[0]);
  for (const cinema of [cinemaA, cinemaB]) {
    await cinema.goto(roomId);
    await cinema.waitConnected();
  }
  await expectTogether(a.page, b.page);
  await expectLiveControls(cinemaA);

  for (const movie of movies.slice(1)) {
    await test.step(`A plays “${movie.name}” from the list; both controls still drive it`, async () => {
      await cinemaA.playMovie(movie.name);
      await expect(cinemaB.currentMovieName).toHaveText(movie.name);
      await expectTogether(a.page, b.page, 0.5);
      await expectLiveControls(cinemaA);
      await expectLiveControls(cinemaB);
    });
  }

  await test.step("A's pause button pauses both; B's play button plays both", async () => {
    await cinemaA.pressPlayButton();
    await expectPausedTogether(a.page, b.page);
    await cinemaB.pressPlayButton();
    await expectTogether(a.page, b.page);
  });

  await test.step("B's seek bar moves both", async () => {
    const before = (await cinemaA.media()).currentTime;
    await cinemaB.clickSeekBar(0.75);
    await expect.poll(async () => (await cinemaA.media()).currentTime, { timeout: 10_000 }).toBeGreaterThan(before + 20);
    await expectTogether(a.page, b.page);
  });

  await test.step("A's speed menu sets 1.5× for both", async () => {
    await cinemaA.pickSpeed('1.5x');
    await expect.poll(async () => (await cinemaB.media()).playbackRate, { timeout: 10_000 }).toBeCloseTo(1.5, 1);
    await expectTogether(a.page, b.page);
  });
  expect(a.errors).toEqual([]);
  expect(b.errors).toEqual([]);
});

test('turning danmaku off and on again leaves the controls working', async ({ app, actors, media }) => {
  test.setTimeout(90_000);
  const { a, roomId, cinemaA } = await roomOfTwo(app, actors, 'danmaku');
  const id = await app.api.pushMovie(a.token!, roomId, { url: `${media.url}/mp4/clip.mp4`, name: 'clip' });
  await app.api.setCurrent(a.token!, roomId, id);
  await cinemaA.goto(roomId);
  await cinemaA.waitMediaLoaded();
  await expectLiveControls(cinemaA);
  await a.page.getByTestId('danmaku-toggle').click();
  await a.page.getByTestId('danmaku-toggle').click();
  await expectLiveControls(cinemaA);
  await cinemaA.pressPlayButton();
  await expect.poll(async () => (await cinemaA.media()).paused).toBe(true);
  await expect(cinemaA.playButton()).toHaveAttribute('aria-label', 'play');
});

/** Positions (s) of `page`'s player sampled every 250 ms for `forMs`; fails if it ever went back more than 0.5 s. */
async function expectNeverBack(pages: Record<string, Page>, forMs: number): Promise<void> {
  const last: Record<string, number> = {};
  const until = Date.now() + forMs;
  while (Date.now() < until) {
    for (const [name, page] of Object.entries(pages)) {
      const sample = await new CinemaPage(page, '').media();
      if (name in last) expect(sample.currentTime, `${name} went back: ${describe(sample)} after ${last[name].toFixed(2)} s`).toBeGreaterThan(last[name] - 0.5);
      last[name] = sample.currentTime;
    }
    await pages[Object.keys(pages)[0]].waitForTimeout(250);
  }
}

test.describe('a file from a host without Range (python3 -m http.server)', () => {
  let host: PlainHost;
  test.beforeAll(async () => {
    // On the address the e2e server's proxy may reach (fixtures.ts PROXY_MEDIA_HOST).
    host = await startPlainHost(mediaDir, PROXY_MEDIA_HOST);
  });
  test.afterAll(async () => {
    await host?.close();
  });
  /**
   * The clip's address on the plain host, new to every browser: a file already in the browser's
   * cache can be seeked there even from such a host (the cache serves ranges), which these tests are not about.
   */
  const plainClip = () => `${host.url}/mp4/clip.mp4?fresh=${uniqueName('c')}`;

  test('a third person joins late while two watch: nobody moves back; the proxy lets them join in step', async ({ app, actors }) => {
    test.setTimeout(150_000);
    const { a, b, roomId, cinemaA, cinemaB } = await roomOfTwo(app, actors, 'norange');
    // C is a friend who may play, pause and seek too.
    const c = await person(actors, 'c');
    await app.api.joinRoom(c.token!, roomId);
    await app.api.setMemberPermissions(a.token!, roomId, c.token!, DefaultPermissions | Permission.SetCurrentStatus);
    // A and B are in the hall before the movie starts, so both start it at 0 (this host cannot seek;
    // one who opened it more than NO_SEEK_CATCH_UP_MAX_SEC late would be out of reach: a loaded CI
    // machine took that long between the two pages).
    for (const cinema of [cinemaA, cinemaB]) await cinema.goto(roomId);
    const id = await app.api.pushMovie(a.token!, roomId, { url: plainClip(), name: 'from my laptop' });
    await app.api.setCurrent(a.token!, roomId, id);
    for (const cinema of [cinemaA, cinemaB]) await cinema.waitMediaLoaded();
    await expectTogether(a.page, b.page);
    await expect.poll(async () => (await cinemaA.media()).currentTime, { timeout: 20_000 }).toBeGreaterThan(8);

    const cinemaC = new CinemaPage(c.page, app.origin);
    await test.step('C opens the hall: A and B play on, C is told this host cannot seek', async () => {
      await cinemaC.goto(roomId);
      await expectNeverBack({ a: a.page, b: b.page }, 5000);
      await expectTogether(a.page, b.page, 9);
      await expect(c.page.getByTestId('player-no-range')).toContainText('cannot seek');
      // C may not edit the movie: the proxy is offered disabled, with who can.
      await expect(c.page.getByTestId('remedy-proxy')).toBeDisabled();
      await expect(c.page.getByTestId('sync-indicator')).not.toContainText('Out of sync');
    });

    await test.step('A turns on the proxy: the room goes on from where it was and C joins in step', async () => {
      const before = (await cinemaA.media()).currentTime;
      await expect(a.page.getByTestId('remedy-proxy')).toBeEnabled();
      await a.page.getByTestId('remedy-proxy').click();
      await expect.poll(() => cinemaC.video.evaluate((video: HTMLVideoElement) => video.currentSrc), { timeout: 10_000 }).toContain('/api/room/movie/proxy/');
      await expectTogether(a.page, c.page, before);
      await expectTogether(a.page, b.page, before);
      await expect(c.page.getByTestId('player-no-range')).toHaveCount(0);
    });
    for (const actor of [a, b, c]) expect(actor.errors).toEqual([]);
  });

  test('a guest who joins late touches nothing and is told nothing but that this host cannot seek', async ({ app, actors }) => {
    test.setTimeout(90_000);
    const a = await person(actors, 'a');
    const roomId = await app.api.createRoom(a.token!, uniqueName('guest-norange'));
    const id = await app.api.pushMovie(a.token!, roomId, { url: plainClip(), name: 'from my laptop' });
    await app.api.setCurrent(a.token!, roomId, id);
    const cinemaA = new CinemaPage(a.page, app.origin);
    await cinemaA.goto(roomId);
    await cinemaA.waitMediaLoaded();
    await expect.poll(async () => (await cinemaA.media()).currentTime, { timeout: 20_000 }).toBeGreaterThan(6);

    const guest = await actors.visitor('guest');
    await showSyncDebug(guest.context);
    watchedViewers.push(guest);
    await guest.page.goto(app.url(`/joinRoom/${roomId}`));
    const cinemaGuest = new CinemaPage(guest.page, app.origin);
    await cinemaGuest.waitMediaLoaded();
    await expect(guest.page.getByTestId('player-no-range')).toContainText('cannot seek');
    await expectNeverBack({ a: a.page }, 4000);
    await expect(guest.page.getByTestId('sync-indicator')).not.toContainText('Out of sync');
    // Nothing the guest did not do is held against them.
    await expect(guest.page.locator('[data-sonner-toast]')).toHaveCount(0);
    expect(guest.errors).toEqual([]);
  });

  test('a file on the server’s own machine, which this server does not proxy: turning on the proxy says why and the room plays on', async ({ app, actors }) => {
    test.setTimeout(90_000);
    // 127.0.0.1 is not among the addresses the e2e server's proxy may reach (fixtures.ts PROXY_MEDIA_HOST).
    const local = await startPlainHost(mediaDir, '127.0.0.1');
    try {
      const { a, b, roomId, cinemaA, cinemaB } = await roomOfTwo(app, actors, 'local');
      // Both are in the hall before the movie starts, so both start it at 0 (this host cannot seek).
      for (const cinema of [cinemaA, cinemaB]) await cinema.goto(roomId);
      const id = await app.api.pushMovie(a.token!, roomId, { url: `${local.url}/mp4/clip.mp4?fresh=${uniqueName('c')}`, name: 'on the server' });
      await app.api.setCurrent(a.token!, roomId, id);
      await expectTogether(a.page, b.page, 3);
      const before = (await cinemaA.media()).currentTime;

      await a.page.getByTestId('remedy-proxy').click();
      const toast = a.page.locator('[data-sonner-toast]');
      await expect(toast).toContainText("local network can't be proxied");
      // The way in: who can allow it, and where.
      await expect(toast).toContainText('Site settings');
      // The movie is still the room's, playing on from where it was, not proxied.
      for (const page of [a.page, b.page]) await expect(page.getByTestId('room-playback')).toHaveAttribute('data-state', 'playing', { timeout: 15_000 });
      await expect.poll(async () => (await cinemaA.media()).currentTime, { timeout: 15_000 }).toBeGreaterThan(before + 1);
      expect(await cinemaA.video.evaluate((video: HTMLVideoElement) => video.currentSrc)).toContain(local.url);
      for (const actor of [a, b]) expect(actor.errors).toEqual([]);
    } finally {
      await local.close();
    }
  });
});

test("who paused, jumped, changed the speed or the movie is said by name, in the chat and over the picture, one line per person per 2 s; your own as yours", async ({ app, actors, media }) => {
  test.setTimeout(120_000);
  const { a, b, roomId, cinemaA, cinemaB } = await roomOfTwo(app, actors, 'who');
  const first = await app.api.pushMovie(a.token!, roomId, { url: `${media.url}/clip/index.m3u8`, name: 'first film' });
  await app.api.pushMovie(a.token!, roomId, { url: `${media.url}/mp4/clip.mp4`, name: 'second film' });
  await app.api.setMemberPermissions(a.token!, roomId, b.token!, DefaultPermissions | Permission.SetCurrentStatus | Permission.SetCurrentMovie);
  await app.api.setCurrent(a.token!, roomId, first);
  for (const cinema of [cinemaA, cinemaB]) {
    await cinema.goto(roomId);
    await cinema.waitConnected();
  }
  await expectTogether(a.page, b.page);
  const linesOfB = a.page.getByTestId('chat-system').filter({ hasText: b.username });
  const notice = a.page.getByTestId('room-action-notice');
  const ownLinesOfB = b.page.getByTestId('chat-system').filter({ hasText: /^You / });

  await test.step("B's pause: “B paused at 0:0x” for A", async () => {
    await cinemaB.pressPlayButton();
    await expect(linesOfB.last()).toHaveText(new RegExp(`${b.username} paused at 0:0\\d`));
    await expect(notice).toHaveText(new RegExp(`${b.username} paused at 0:0\\d`));
    // B is told too, as the others are: a browser that paused by itself would be noticed.
    await expect(ownLinesOfB.last()).toHaveText(/You paused at 0:0\d/);
    await expect(b.page.getByTestId('room-action-notice')).toHaveText(/You paused at 0:0\d/);
  });

  await test.step('B jumps three times in a row: one line, saying where B ended up', async () => {
    const before = await linesOfB.count();
    await cinemaB.pressPlayButton();
    for (const fraction of [0.3, 0.5, 0.7]) await cinemaB.clickSeekBar(fraction);
    await expect(linesOfB.last()).toContainText(`${b.username} jumped to`);
    await a.page.waitForTimeout(500);
    expect(await linesOfB.count()).toBeLessThanOrEqual(before + 1);
    await expect(linesOfB.last()).toHaveText(/jumped to 0:5\d/);
  });

  await test.step("B's speed, then B's movie", async () => {
    await a.page.waitForTimeout(2100);
    await cinemaB.pickSpeed('1.5x');
    await expect(linesOfB.last()).toContainText(`${b.username} set the speed to 1.5×`);
    await expect(notice).toHaveText(`${b.username} set the speed to 1.5×`);
    await cinemaB.playMovie('second film');
    await expect(linesOfB.last()).toContainText(`${b.username} started second film`);
    await expect(notice).toHaveText(`${b.username} started second film`);
  });
  // B's own actions are told to B as B's own, never by B's name.
  await expect(ownLinesOfB.filter({ hasText: 'You set the speed to 1.5×' })).toHaveCount(1);
  await expect(b.page.getByTestId('chat-system').filter({ hasText: `${b.username} paused` })).toHaveCount(0);
});
