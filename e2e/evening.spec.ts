/**
 * An evening with friends, as they spend it: several movies one after the other, control from the
 * player's own bar by more than one person, someone joining late, a file served by the most common
 * host there is (`python3 -m http.server`: no Range, no CORS), and who did what. Real browsers
 * against the companion server, with the committed test media.
 */
import path from 'node:path';
import type { Page } from '@playwright/test';
import { Permission, DefaultPermissions } from '../lib/contract/roles';
import { expect, test, type Actor, type Actors, type App } from './fixtures';
import { CinemaPage } from './pages/cinema-page';
import { uniqueName } from './support/api';
import { describe, isPlaying, samplePair, showSyncDebug, syncDebugText } from './support/playback';
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
