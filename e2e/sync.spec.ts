import { expect, test, type Actor, type Actors, type App } from './fixtures';
import { CinemaPage } from './pages/cinema-page';
import { CreateRoomPage } from './pages/create-room-page';
import { JoinRoomPage } from './pages/join-room-page';
import { RegisterPage } from './pages/register-page';
import { uniqueName } from './support/api';
import { describe, isPlaying, positionAt, samplePair, showSyncDebug, syncDebugText, type PairSample } from './support/playback';
import { pollUntil } from './support/poll';

/**
 * Largest position difference between two viewers that counts as "in sync" (100 ms; the
 * first slice allowed 0.3 s). `samplePair` reads both players concurrently and moves the earlier
 * sample to the later one's instant (elapsed × rate), so the figure is what a person would see.
 */
const SYNC_TOLERANCE_SEC = 0.1;

/**
 * How long a step waits for both viewers to be together after an action (ms). Generous on purpose:
 * the solo project runs alone, but on a machine shared with other work a page can handle a frame most
 * of a second late (seen on 2026-11-26 with two busy processes beside the suite: B handled A's play
 * 0.85 s after the click). How soon viewers are together is a figure, printed by each step as a note
 * and measured on an idle machine by `npm run bench:sync` (docs/benchmarks.md), not a timed assertion here.
 */
const ACTION_WINDOW_MS = 4000;

const CLIP_NAME = 'Timecode clip';

function pairText(pair: PairSample): string {
  return `A ${describe(pair.a)} | B ${describe(pair.b)} | A−B ${pair.driftSec.toFixed(3)} s`;
}

function inSync(pair: PairSample): boolean {
  return Math.abs(pair.driftSec) < SYNC_TOLERANCE_SEC;
}

function note(type: string, description: string): void {
  test.info().annotations.push({ type, description });
  console.log(`[${type}] ${description}`);
}

/** The viewers of the running test whose sync debug overlay is on (`watched`). */
const watchedViewers: Actor[] = [];

/** The viewer with the sync debug overlay on, so that a failure shows what its engine decided. */
async function watched(opening: Promise<Actor>): Promise<Actor> {
  const viewer = await opening;
  await showSyncDebug(viewer.context);
  watchedViewers.push(viewer);
  return viewer;
}

test.beforeEach(() => {
  watchedViewers.length = 0;
});

test.afterEach(async ({}, testInfo) => {
  if (testInfo.status === testInfo.expectedStatus) return;
  for (const viewer of watchedViewers) {
    const text = await syncDebugText(viewer.page);
    console.log(`[sync debug ${viewer.username}]\n${text}`);
    await testInfo.attach(`sync debug ${viewer.username}`, { body: text, contentType: 'text/plain' });
  }
});

/** A muted player is acceptable only as the announced autoplay fallback. */
async function expectMutedOnlyWithNotice(viewer: Actor, cinema: CinemaPage): Promise<void> {
  const media = await cinema.media();
  if (media.muted) {
    note('autoplay', `${viewer.username} fell back to muted playback`);
    await expect(cinema.mutedNotice).toBeVisible();
  }
}

test('two viewers watch the HLS clip in sync and chat as text', async ({ app, media, actors }) => {
  test.setTimeout(120_000);
  const a = await watched(actors.visitor('a'));
  const b = await watched(actors.visitor('b'));
  const cinemaA = new CinemaPage(a.page, app.origin);
  const cinemaB = new CinemaPage(b.page, app.origin);
  let roomId = '';

  await test.step('A registers, creates a room and plays the pushed clip, then pauses it', async () => {
    const register = new RegisterPage(a.page, app.origin);
    await register.goto();
    await register.register(a.username, a.password);
    const createRoom = new CreateRoomPage(a.page, app.origin);
    await createRoom.goto();
    roomId = await createRoom.create(uniqueName('room'));
    await cinemaA.waitConnected();
    // Added to a room where nothing plays, the clip becomes the current movie at once (docs/contract.md
    // §4.5: isPlaying=true at 0 s).
    await cinemaA.pushMovie({ url: `${media.url}/clip/index.m3u8`, name: CLIP_NAME });
    await expect(cinemaA.currentMovieName).toHaveText(CLIP_NAME);
    await cinemaA.waitMediaLoaded();
    await expect.poll(async () => isPlaying(await cinemaA.media()), { message: 'the clip does not play after it was added' }).toBe(true);
    // Paused, so that A's play below is the event under test. Not before A's engine has finished its
    // first start (a scheduled start pauses the element for a moment, and a script's pause() of a
    // paused element fires no event, something no person can do).
    await expect(a.page.getByTestId('sync-indicator')).toHaveAttribute('data-state', 'in-sync');
    await cinemaA.pause();
  });

  await test.step('B registers and joins by the room id: paused where A paused', async () => {
    const register = new RegisterPage(b.page, app.origin);
    await register.goto();
    await register.register(b.username, b.password);
    const joinRoom = new JoinRoomPage(b.page, app.origin);
    await joinRoom.goto();
    await joinRoom.join(roomId);
    await cinemaB.waitConnected();
    await expect(cinemaB.currentMovieName).toContainText(CLIP_NAME);
    await cinemaB.waitMediaLoaded();
    await expect(cinemaA.viewerCount).toContainText('2');
    const joined = await pollUntil(
      () => samplePair(a.page, b.page),
      (pair) => pair.a.paused && pair.b.paused && inSync(pair),
      { timeoutMs: 3000 },
    );
    expect(joined.ok, `B did not start paused at A's position: ${pairText(joined.last)}`).toBe(true);
  });

  await test.step('A plays: B plays too, less than 0.1 s apart', async () => {
    await cinemaA.play();
    const playedAt = Date.now();
    let bPlayingAfterMs = -1;
    const started = await pollUntil(
      () => samplePair(a.page, b.page),
      (pair) => {
        if (bPlayingAfterMs < 0 && isPlaying(pair.b)) bPlayingAfterMs = pair.b.atMs - playedAt;
        return isPlaying(pair.a) && isPlaying(pair.b) && inSync(pair);
      },
      { timeoutMs: ACTION_WINDOW_MS, startMs: playedAt },
    );
    expect(started.ok, `not playing in sync ${ACTION_WINDOW_MS} ms after A pressed play: ${pairText(started.last)}`).toBe(true);
    note(
      'play',
      `B playing ${bPlayingAfterMs} ms and in sync ${started.elapsedMs} ms after A's play, A−B ${started.last.driftSec.toFixed(3)} s`,
    );

    // B must really advance (not just report paused=false), and stay in step while it does.
    await a.page.waitForTimeout(700);
    const later = await samplePair(a.page, b.page);
    expect(later.b.currentTime - started.last.b.currentTime, `B did not advance: ${pairText(later)}`).toBeGreaterThan(0.4);
    expect(inSync(later), `drifted apart while playing: ${pairText(later)}`).toBe(true);
    note('playing', `A−B ${later.driftSec.toFixed(3)} s 0.7 s later`);
    await expectMutedOnlyWithNotice(b, cinemaB);
  });

  await test.step('A seeks to 20 s: B follows', async () => {
    await cinemaA.seek(20);
    const seekedAt = Date.now();
    const followed = await pollUntil(
      () => samplePair(a.page, b.page),
      (pair) => isPlaying(pair.a) && isPlaying(pair.b) && positionAt(pair.b, pair.b.atMs) >= 19.5 && inSync(pair),
      { timeoutMs: ACTION_WINDOW_MS, startMs: seekedAt },
    );
    expect(followed.ok, `B did not follow A's seek to 20 s: ${pairText(followed.last)}`).toBe(true);
    note('seek', `B in sync at ~20 s ${followed.elapsedMs} ms after the seek, A−B ${followed.last.driftSec.toFixed(3)} s`);
    // Not just passing through: still together a second later.
    await a.page.waitForTimeout(1000);
    const settled = await samplePair(a.page, b.page);
    expect(isPlaying(settled.a) && isPlaying(settled.b) && inSync(settled), `apart again after the seek: ${pairText(settled)}`).toBe(true);
    note('after seek', `A−B ${settled.driftSec.toFixed(3)} s 1 s later`);
  });

  await test.step('A pauses: B pauses at the same position', async () => {
    await cinemaA.pause();
    const pausedAt = Date.now();
    const paused = await pollUntil(
      () => samplePair(a.page, b.page),
      (pair) => pair.a.paused && pair.b.paused && inSync(pair),
      { timeoutMs: ACTION_WINDOW_MS, startMs: pausedAt },
    );
    expect(paused.ok, `B did not pause with A: ${pairText(paused.last)}`).toBe(true);
    note('pause', `B paused ${paused.elapsedMs} ms after A, A−B ${paused.last.driftSec.toFixed(3)} s`);
    // Both frames show the burned-in timecode: a person can compare them in the report.
    for (const [who, viewer, cinema] of [['A', a, cinemaA], ['B', b, cinemaB]] as const) {
      // From the top: scrolled down to the push form, the sticky header would cover the timecode.
      await viewer.page.evaluate(() => window.scrollTo(0, 0));
      await test.info().attach(`${who} paused`, { body: await cinema.video.screenshot(), contentType: 'image/png' });
    }
  });

  await test.step('B sends markup in chat: A sees it as literal text', async () => {
    const line = '<b>hi</b> & ok';
    await cinemaB.sendChat(line);
    const message = cinemaA.chatMessages.filter({ hasText: line });
    await expect(message).toHaveCount(1);
    await expect(message.locator('b')).toHaveCount(0);
  });

  expect(a.errors, 'uncaught errors in A').toEqual([]);
  expect(b.errors, 'uncaught errors in B').toEqual([]);
});

test('a late joiner starts where the playing room is', async ({ app, media, actors }) => {
  const a = await watched(actors.user('a'));
  const roomId = await app.api.createRoom(a.token!, uniqueName('late'));
  const movieId = await app.api.pushMovie(a.token!, roomId, { url: `${media.url}/clip/index.m3u8`, name: CLIP_NAME });
  await app.api.setCurrent(a.token!, roomId, movieId);

  const cinemaA = new CinemaPage(a.page, app.origin);
  await cinemaA.goto(roomId);
  await expect.poll(async () => isPlaying(await cinemaA.media()), { message: 'A never plays the current movie' }).toBe(true);
  await expectMutedOnlyWithNotice(a, cinemaA);
  // Let the room run a while, so the joiner has to start mid-clip.
  await a.page.waitForTimeout(3000);

  const c = await watched(actors.user('c'));
  const cinemaC = new CinemaPage(c.page, app.origin);
  await cinemaC.goto(roomId);
  const openedAt = Date.now();
  const caughtUp = await pollUntil(
    () => samplePair(a.page, c.page),
    (pair) => isPlaying(pair.a) && isPlaying(pair.b) && inSync(pair),
    // From opening the page, so page load and the player's start count too. CI took 3.4–4.0 s in
    // the previous session and over 5 s on this session's more loaded machine (also at the commit that
    // had passed, d22d24f); the engine's own figure (in sync within 2 s of the first frame) is
    // bench:sync's to measure.
    { timeoutMs: 8000, startMs: openedAt },
  );
  expect(caughtUp.ok, `the late joiner (B below) is not in sync 8 s after opening the room: ${pairText(caughtUp.last)}`).toBe(true);
  note('late join', `playing in sync ${caughtUp.elapsedMs} ms after opening, A−joiner ${caughtUp.last.driftSec.toFixed(3)} s`);
  await expectMutedOnlyWithNotice(c, cinemaC);
  expect([...a.errors, ...c.errors]).toEqual([]);
});

/** Two members, A (the creator) and B, in a room playing the clip, both players running and in step. */
/** A room of A's with B as a member, playing the clip (through the API); neither has opened it yet. */
async function clipRoom(app: App, media: { url: string }, a: Actor, b: Actor) {
  const roomId = await app.api.createRoom(a.token!, uniqueName('step'));
  await app.api.joinRoom(b.token!, roomId);
  const movieId = await app.api.pushMovie(a.token!, roomId, { url: `${media.url}/clip/index.m3u8`, name: CLIP_NAME });
  await app.api.setCurrent(a.token!, roomId, movieId);
  return { roomId, cinemaA: new CinemaPage(a.page, app.origin), cinemaB: new CinemaPage(b.page, app.origin) };
}

async function playingRoom(app: App, media: { url: string }, actors: Actors) {
  const a = await watched(actors.user('a'));
  const b = await watched(actors.user('b'));
  const { roomId, cinemaA, cinemaB } = await clipRoom(app, media, a, b);
  await cinemaA.goto(roomId);
  await cinemaB.goto(roomId);
  const together = await pollUntil(
    () => samplePair(a.page, b.page),
    (pair) => isPlaying(pair.a) && isPlaying(pair.b) && inSync(pair),
    { timeoutMs: 15_000 },
  );
  expect(together.ok, `the two members never played in step: ${pairText(together.last)}`).toBe(true);
  return { a, b, cinemaA, cinemaB };
}

/** Milliseconds from `sinceMs` until `condition` holds for A and B, or fails the test after `timeoutMs`. */
async function stepDelay(a: Actor, b: Actor, what: string, sinceMs: number, condition: (pair: PairSample) => boolean, timeoutMs = ACTION_WINDOW_MS): Promise<number> {
  const result = await pollUntil(() => samplePair(a.page, b.page), condition, { timeoutMs, startMs: sinceMs });
  expect(result.ok, `${what} not within ${timeoutMs} ms: ${pairText(result.last)}`).toBe(true);
  return result.elapsedMs;
}

test('the room label follows my own pause and play at once, and the other member stays in step', async ({ app, media, actors }) => {
  const { a, b, cinemaA } = await playingRoom(app, media, actors);
  const labelA = a.page.getByTestId('room-playback');
  const labelB = b.page.getByTestId('room-playback');
  await expect(labelA).toHaveAttribute('data-state', 'playing');
  // Not before A's first start is over (a scheduled start pauses the element for a moment).
  await expect(a.page.getByTestId('sync-indicator')).toHaveAttribute('data-state', 'in-sync');

  await cinemaA.pause();
  // My own label: no round trip to wait for (SyncTV does not echo a STATUS to its sender).
  await expect(labelA).toHaveAttribute('data-state', 'paused', { timeout: 300 });
  const pausedAt = Date.now();
  const paused = await stepDelay(a, b, 'B paused with A', pausedAt, (pair) => pair.a.paused && pair.b.paused && inSync(pair));
  await expect(labelB).toHaveAttribute('data-state', 'paused');
  note('own pause', `B paused in step ${paused} ms after A's pause`);

  await cinemaA.play();
  const playedAt = Date.now();
  await expect(labelA).toHaveAttribute('data-state', 'playing', { timeout: 300 });
  const played = await stepDelay(a, b, 'both playing in step', playedAt, (pair) => isPlaying(pair.a) && isPlaying(pair.b) && inSync(pair));
  await expect(labelB).toHaveAttribute('data-state', 'playing');
  note('own play', `both playing in step ${played} ms after A's play`);
  // Still together a second later: the label's change did not disturb the start.
  await a.page.waitForTimeout(1000);
  const later = await samplePair(a.page, b.page);
  expect(isPlaying(later.a) && isPlaying(later.b) && inSync(later), `apart a second after the play: ${pairText(later)}`).toBe(true);
  expect([...a.errors, ...b.errors]).toEqual([]);
});

// A page on a 4× slower CPU (Chromium's throttling, as Lighthouse's mobile profile uses it). Its start
// comes late, so it catches up by rate instead of seeking again and again (docs/sync.md "Catching
// up"): five runs on 2026-11-26 were in step 468–675 ms after the play, steady median 4–10 ms; eight
// on 2026-12-02, a busier day, 137–1013 ms and 6–72 ms.
test('a member whose CPU is 4× slower (a cheap phone) follows a play and stays in step in steady play', async ({ app, media, actors }) => {
  test.setTimeout(90_000);
  const a = await watched(actors.user('a'));
  const b = await watched(actors.user('b'));
  // Chromium's CPU throttling, as Lighthouse's mobile profile uses it: B's page runs 4× slower.
  await (await b.page.context().newCDPSession(b.page)).send('Emulation.setCPUThrottlingRate', { rate: 4 });
  const { roomId, cinemaA, cinemaB } = await clipRoom(app, media, a, b);
  await cinemaA.goto(roomId);
  await expect(a.page.getByTestId('sync-indicator')).toHaveAttribute('data-state', 'in-sync');
  await cinemaA.pause();
  await cinemaB.goto(roomId);
  await cinemaB.waitMediaLoaded();
  await stepDelay(a, b, 'B paused where A paused', Date.now(), (pair) => pair.a.paused && pair.b.paused && inSync(pair), 10_000);

  // The start on a slow page varies with the machine's load: bench:sync measures it; this test asks
  // that it comes within 5 s, and that steady play then holds.
  await cinemaA.play();
  const played = await stepDelay(a, b, 'both playing in step', Date.now(), (pair) => isPlaying(pair.a) && isPlaying(pair.b) && inSync(pair), 5000);
  note('slow CPU', `in step ${played} ms after A's play`);

  // Steady play: every sample within 0.1 s for 5 s, and the typical one within a frame or two.
  await a.page.waitForTimeout(1500);
  const drifts: number[] = [];
  for (let i = 0; i < 25; i += 1) {
    const pair = await samplePair(a.page, b.page);
    expect(isPlaying(pair.a) && isPlaying(pair.b) && inSync(pair), `apart in steady play: ${pairText(pair)}`).toBe(true);
    drifts.push(Math.abs(pair.driftSec) * 1000);
    await a.page.waitForTimeout(200);
  }
  drifts.sort((x, y) => x - y);
  // The typical drift is a figure, not a pass mark: on 2026-12-02 this machine's load moved it from
  // 6 to 72 ms between runs of the same engine (the old and the new alike); `npm run bench:sync`
  // measures it. Every sample above stayed within 0.1 s.
  note('slow CPU steady', `median ${drifts[12].toFixed(0)} ms, max ${drifts[24].toFixed(0)} ms over 25 samples`);
  expect([...a.errors, ...b.errors]).toEqual([]);
});
