/**
 * Friends on other browsers (docs/browsers.md): a Firefox ESR and a WebKitGTK viewer in one room
 * with a Chromium friend, each engine acting in turn. The engines are Debian's, driven over
 * WebDriver BiDi and WebDriver (./support/engines.ts); the friend is Playwright's Chromium.
 */
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, PROXY_MEDIA_HOST, test, USER_PASSWORD } from './fixtures';
import { CinemaPage } from './pages/cinema-page';
import { uniqueName } from './support/api';
import { engineInstalled, engineSyncDebug, launchEngine, openSignedIn, sampleEngine, type EngineName, type EnginePage } from './support/engines';
import { startPlainHost } from './support/plain-host';
import { isPlaying, positionAt, sampleMedia, showSyncDebug, syncDebugText, type MediaSample } from './support/playback';
import { webUrl } from './support/urls';
import { DefaultPermissions, Permission } from '../lib/contract/roles';

/** |A − B| (s) at B's instant when both play; Infinity when either does not (not in step yet). */
function playingGap(a: MediaSample, b: MediaSample): number {
  if (!a.present || !b.present || !isPlaying(a) || !isPlaying(b)) return Number.POSITIVE_INFINITY;
  return Math.abs(positionAt(a, b.atMs) - b.currentTime);
}

/** |A − B| (s) when both are paused; Infinity otherwise. */
function pausedGap(a: MediaSample, b: MediaSample): number {
  if (!a.present || !b.present || !a.paused || !b.paused) return Number.POSITIVE_INFINITY;
  return Math.abs(a.currentTime - b.currentTime);
}

type Fixtures = Parameters<Parameters<typeof test>[2]>[0];

/**
 * The Chromium friend's room with `path` (on the test media host) current and playing in the
 * friend's hall; `prefix` names the room.
 */
async function friendsPlayingRoom({ app, media, actors }: Pick<Fixtures, 'app' | 'media' | 'actors'>, prefix: string, path: string) {
  const friend = await actors.user('c');
  const roomId = await app.api.createRoom(friend.token!, uniqueName(prefix));
  const movieId = await app.api.pushMovie(friend.token!, roomId, { url: `${media.url}${path}`, name: 'Timecode clip' });
  // Making it current starts it playing for the room (docs/contract.md §4.5).
  await app.api.setCurrent(friend.token!, roomId, movieId);
  const cinema = new CinemaPage(friend.page, app.origin);
  await cinema.goto(roomId);
  await expect.poll(async () => isPlaying(await sampleMedia(friend.page)), { timeout: 20_000 }).toBe(true);
  return { friend, roomId, cinema };
}

/** A new member of `roomId` whom its creator (`creatorToken`) lets play, pause and seek for the room; their token. */
async function memberWhoControls(app: Fixtures['app'], creatorToken: string, roomId: string, prefix: string): Promise<string> {
  const token = await app.api.signup(uniqueName(prefix), 'password-123');
  await app.api.joinRoom(token, roomId);
  await app.api.setMemberPermissions(creatorToken, roomId, token, DefaultPermissions | Permission.SetCurrentStatus);
  return token;
}

/**
 * Samples the friend's player `times` times, 250 ms apart: it is never paused (nobody paused the
 * room) and its position moves on without jumping back (nobody seeked it). Its own engine may
 * still correct a few frames while a starting browser takes the CPU (a seek, a moment of
 * buffering), which a viewer would not take for anyone's pause.
 */
async function expectKeepsPlaying(friendPage: Page, times: number): Promise<void> {
  const first = await sampleMedia(friendPage);
  let last = first;
  for (let i = 1; i < times; i += 1) {
    await friendPage.waitForTimeout(250);
    const sample = await sampleMedia(friendPage);
    expect(sample.present && !sample.paused && !sample.ended, `the friend keeps playing: ${JSON.stringify(sample)}`).toBe(true);
    expect(sample.currentTime, `the friend's position moves on, not back: ${JSON.stringify([last, sample])}`).toBeGreaterThan(last.currentTime - 0.5);
    last = sample;
  }
  expect(first.present && !first.paused, `the friend plays: ${JSON.stringify(first)}`).toBe(true);
  expect(last.currentTime, 'the friend has moved on').toBeGreaterThan(first.currentTime + 0.25 * (times - 1) * 0.5);
}

/** The movies an engine plays in the room: an MP4 from a host with Range and CORS, and HLS (hls.js or the engine's own). */
const MOVIES = {
  MP4: '/mp4/clip.mp4',
  HLS: '/clip/index.m3u8',
} as const;

/**
 * The journeys: each engine on each movie. WebKitGTK's passed 30 runs of 30 on 2026-12-04 (15 MP4,
 * 15 HLS) after the machine's fixes from the recorded event orders (docs/browsers.md "Known gaps").
 * E2E_ENGINES=webkit (or firefox, or both, comma-separated) runs only the engines named.
 */
const ENGINES: EngineName[] = process.env.E2E_ENGINES ? (process.env.E2E_ENGINES.split(',') as EngineName[]) : ['firefox', 'webkit'];
const JOURNEYS = ENGINES.flatMap((engine) => (['MP4', 'HLS'] as const).map((kind) => ({ engine, kind })));

for (const { engine, kind } of JOURNEYS) {
  const movie = { kind, path: MOVIES[kind] };
  test(`${engine}: in step with a Chromium friend on ${movie.kind}; the friend's pause and seek reach it, its own pause, seek and play reach the friend, and it never moves the room by itself`, async ({ app, media, actors }, testInfo) => {
    test.setTimeout(150_000);
    expect(engineInstalled(engine), `${engine} is not installed: node scripts/prerequisites.mjs installs it`).toBe(true);
    const { friend, roomId, cinema } = await friendsPlayingRoom({ app, media, actors }, engine.slice(0, 2), movie.path);

    const browser = await launchEngine(engine);
    let page: EnginePage | null = null;
    try {
      page = await browser.newPage();
      const token = await memberWhoControls(app, friend.token!, roomId, 'e');
      await openSignedIn(page, app.origin, token, webUrl(app.origin, `/cinema/${roomId}`));
      const other = page;
      const gap = async () => playingGap(await sampleMedia(friend.page), await sampleEngine(other));
      const pausedApart = async () => pausedGap(await sampleMedia(friend.page), await sampleEngine(other));

      // A late joiner in the room's step, with the film's real duration (WebKit once had 0.02 s).
      await expect.poll(gap, { timeout: 30_000, message: `${engine} should play in step with the room` }).toBeLessThan(0.3);
      expect((await sampleEngine(page)).duration).toBeGreaterThan(30);
      // Nobody touched anything: the room keeps playing for everyone (no pause "of" the engine's user).
      await expectKeepsPlaying(friend.page, 8);

      // The friend pauses: the engine follows, at the same frame.
      await cinema.pause();
      await expect.poll(pausedApart, { timeout: 10_000, message: `${engine} should follow the pause` }).toBeLessThan(0.15);
      // The friend seeks while paused.
      await cinema.seek(20);
      await expect.poll(async () => Math.abs((await sampleEngine(other)).currentTime - 20), { timeout: 10_000, message: `${engine} should follow the seek` }).toBeLessThan(0.15);

      // A moment later, as a person reacts (a seek in the instant after the room's lands is the
      // engine's landing, docs/sync.md), the engine's viewer seeks (the seek bar's element write)
      // and plays with its play button (a real click).
      await friend.page.waitForTimeout(1000);
      // What each click reached, and how the element stood then (for the failure report).
      await page.run(`window.__clicks = []; document.addEventListener('click', (event) => { const v = document.querySelector('video[data-testid="player-video"]'); window.__clicks.push({ target: event.composedPath()[0].tagName + '.' + (event.composedPath()[0].getAttribute && event.composedPath()[0].getAttribute('part')), paused: v.paused, seeking: v.seeking, readyState: v.readyState, at: v.currentTime }); }, true);`);
      // The seek bar's write, and what the element made of it. WebKitGTK has let a write fall without
      // a `seeking` while its pipeline was still settling from the room's seek (CI, 2026-12-08: the
      // picture stayed at 0:20); a person seeing the bar spring back drags again, and so does this.
      await page.run(`const v = document.querySelector('video[data-testid="player-video"]'); window.__seeks = []; for (const type of ['seeking', 'seeked']) v.addEventListener(type, () => window.__seeks.push(type + ' ' + v.currentTime.toFixed(2)));`);
      const seeksSeen = () => other.run<string[]>('return window.__seeks;');
      for (let attempt = 0; attempt < 2; attempt += 1) {
        await page.run(`document.querySelector('video[data-testid="player-video"]').currentTime = 8;`);
        const started = await expect.poll(async () => (await seeksSeen()).length, { timeout: 2000 }).toBeGreaterThan(0).then(() => true, () => false);
        if (started) break;
        testInfo.annotations.push({ type: 'engine', description: `${engine} fired no seeking for a write of currentTime (attempt ${attempt + 1})` });
      }
      await expect.poll(async () => Math.abs((await sampleMedia(friend.page)).currentTime - 8), { timeout: 10_000, message: `${engine}'s seek should reach the friend (its element: ${JSON.stringify(await seeksSeen())})` }).toBeLessThan(0.15);
      await page.click('[data-testid="player-play"]');
      await expect.poll(gap, { timeout: 15_000, message: `${engine}'s play should start the friend in step` }).toBeLessThan(0.3);
      // And, once its button says "pause" (media-chrome's `mediapaused` gone), pauses with it.
      await expect.poll(() => other.run<boolean>(`return !document.querySelector('[data-testid="player-play"]').hasAttribute('mediapaused');`), { message: `${engine}'s play button should show pause` }).toBe(true);
      await friend.page.waitForTimeout(500);
      await page.click('[data-testid="player-play"]');
      await expect.poll(pausedApart, { timeout: 10_000, message: `${engine}'s pause should reach the friend` }).toBeLessThan(0.15);
    } catch (error) {
      if (page) await page.screenshot(testInfo.outputPath(`${engine}.png`)).catch(() => undefined);
      if (page) {
        const clicks = await page.run<string>(`const v = document.querySelector('video[data-testid="player-video"]'); return JSON.stringify({ networkState: v && v.networkState, clicks: window.__clicks });`).catch((e: unknown) => String(e));
        await testInfo.attach(`${engine}-sync-debug`, { body: `${JSON.stringify(await sampleEngine(page).catch(() => null))}\n${await engineSyncDebug(page)}\n${clicks}` });
      }
      throw error;
    } finally {
      await browser.close();
    }
    expect(friend.errors).toEqual([]);
  });
}

test('webkit: a late joiner gets the film’s real duration and seekable range, not the 0.02 s WebKitGTK took from a read before metadata', async ({ app, media, actors }, testInfo) => {
  test.setTimeout(90_000);
  expect(engineInstalled('webkit'), 'WebKitGTK is not installed: node scripts/prerequisites.mjs installs it').toBe(true);
  const owner = await actors.user('o');
  const roomId = await app.api.createRoom(owner.token!, uniqueName('wk'));
  const movieId = await app.api.pushMovie(owner.token!, roomId, { url: `${media.url}/mp4/clip.mp4`, name: 'Timecode clip' });
  await app.api.setCurrent(owner.token!, roomId, movieId);
  const browser = await launchEngine('webkit');
  let page: EnginePage | null = null;
  try {
    page = await browser.newPage();
    const token = await app.api.signup(uniqueName('w'), 'password-123');
    await app.api.joinRoom(token, roomId);
    await openSignedIn(page, app.origin, token, webUrl(app.origin, `/cinema/${roomId}`));
    const other = page;
    const reading = () =>
      other.run<{ duration: number; seekableEnd: number; readyState: number }>(`
        const v = document.querySelector('video[data-testid="player-video"]');
        if (!v || v.readyState < 1) return { duration: 0, seekableEnd: 0, readyState: v ? v.readyState : -1 };
        return { duration: v.duration, seekableEnd: v.seekable.length ? v.seekable.end(v.seekable.length - 1) : 0, readyState: v.readyState };`);
    await expect.poll(async () => (await reading()).readyState, { timeout: 30_000 }).toBeGreaterThanOrEqual(1);
    const { duration, seekableEnd } = await reading();
    // The clip is 40.19 s long (e2e/media/mp4/clip.mp4).
    expect(duration).toBeGreaterThan(40);
    expect(seekableEnd).toBeGreaterThan(40);
  } catch (error) {
    if (page) await page.screenshot(testInfo.outputPath('webkit.png')).catch(() => undefined);
    throw error;
  } finally {
    await browser.close();
  }
});


/** How much wider (px) than the viewport the page is, and what reaches furthest right: the engine's own reading. */
const SIDEWAYS = `
  const width = document.documentElement.clientWidth;
  const scrollWidth = Math.max(document.documentElement.scrollWidth, document.body.scrollWidth);
  let widest = '';
  let right = width;
  for (const element of document.body.querySelectorAll('*')) {
    const box = element.getBoundingClientRect();
    if (box.right > right + 0.5) { right = box.right; widest = element.tagName.toLowerCase() + (element.dataset.testid ? '[' + element.dataset.testid + ']' : ''); }
  }
  return { width, over: scrollWidth - width, widest };`;

test('webkit at 390×844 (an iPhone held upright): no screen scrolls sideways, and the video with its controls is on the screen of the hall', async ({ app, media, actors }, testInfo) => {
  test.setTimeout(90_000);
  expect(engineInstalled('webkit'), 'WebKitGTK is not installed: node scripts/prerequisites.mjs installs it').toBe(true);
  const owner = await actors.user('o');
  const roomId = await app.api.createRoom(owner.token!, uniqueName('wkphone'));
  const movieId = await app.api.pushMovie(owner.token!, roomId, { url: `${media.url}/clip/index.m3u8`, name: `A film with a long name ${'WithoutSpaces'.repeat(4)}` });
  await app.api.setCurrent(owner.token!, roomId, movieId);
  const browser = await launchEngine('webkit');
  let page: EnginePage | null = null;
  try {
    page = await browser.newPage();
    await page.resize(390, 844);
    const token = await app.api.signup(uniqueName('p'), 'password-123');
    await app.api.joinRoom(token, roomId);
    await openSignedIn(page, app.origin, token, webUrl(app.origin, '/'));
    const other = page;
    expect(await other.run<number>('return window.innerWidth;')).toBe(390);
    for (const [route, testId] of [
      ['/', 'page-home'],
      ['/rooms', 'room-card'],
      ['/createRoom', 'page-createRoom'],
      [`/cinema/${roomId}`, 'player'],
    ] as const) {
      await other.goto(webUrl(app.origin, route));
      await expect.poll(() => other.run<boolean>(`return Boolean(document.querySelector('[data-testid="${testId}"]'));`), { timeout: 15_000, message: `${route} shows` }).toBe(true);
      await expect
        .poll(async () => (await other.run<{ over: number; widest: string }>(SIDEWAYS)).over, { timeout: 5000, message: `${route} scrolls sideways in WebKit at 390 px` })
        .toBeLessThanOrEqual(0);
    }
    await expect.poll(async () => (await sampleEngine(other)).readyState, { timeout: 30_000, message: 'the video loads' }).toBeGreaterThanOrEqual(2);
    await other.hover('[data-testid="player"]');
    const boxes = () =>
      other.run<{ video: DOMRect; bar: DOMRect | null; opacity: number }>(`
        const bar = document.querySelector('[data-testid="player-controls"]');
        return { video: document.querySelector('[data-testid="player"]').getBoundingClientRect().toJSON(), bar: bar && bar.getBoundingClientRect().toJSON(), opacity: bar ? Number(getComputedStyle(bar).opacity) : 0 };`);
    await expect.poll(async () => (await boxes()).opacity, { timeout: 10_000, message: 'the control bar shows under the pointer' }).toBeGreaterThan(0.9);
    const { video, bar } = await boxes();
    expect(video.y, 'the video starts on the screen').toBeGreaterThanOrEqual(0);
    expect(video.y + video.height, 'the video ends on the screen').toBeLessThanOrEqual(844);
    expect(video.width, 'the video spans the width').toBeGreaterThan(390 * 0.9);
    expect(bar!.y + bar!.height, 'the controls are inside the video').toBeLessThanOrEqual(video.y + video.height + 0.5);
    expect(bar!.x + bar!.width, 'the controls fit the width').toBeLessThanOrEqual(390.5);
    await other.screenshot(testInfo.outputPath('webkit-390.png'));
  } catch (error) {
    if (page) await page.screenshot(testInfo.outputPath('webkit-390-failed.png')).catch(() => undefined);
    throw error;
  } finally {
    await browser.close();
  }
});

/**
 * The formats each engine's evening switches to after the MP4 from a host without Range.
 * WebKitGTK's FLV and DASH are docs/browsers.md "Known gaps" (each failed in some runs here, 2026-12-06).
 */
const EVENING_FORMATS: Record<EngineName, string[]> = {
  firefox: ['FLV', 'DASH'],
  webkit: ['HLS'],
};
/**
 * The engines whose evening `npm test` runs: both. WebKitGTK's passed 8 runs of 8 here on 2026-12-07
 * once it ran on its older renderer (docs/browsers.md "WebKitGTK on two cores"; before, 7 of 9, two
 * stopping at the 180 s). E2E_EVENING_ENGINES=firefox (or webkit) runs one.
 */
const EVENING_ENGINES: EngineName[] = process.env.E2E_EVENING_ENGINES ? (process.env.E2E_EVENING_ENGINES.split(',') as EngineName[]) : ENGINES;

/**
 * A function body that returns the visible element of `role` labelled `label` anywhere in the
 * page, shadow roots included (media-chrome's menus put their items there), for `clickFound`. An
 * element's label is its own text (a settings item also holds its submenu) or its first child's.
 */
function menuItem(role: string, label: string): string {
  return `
    const labelOf = (element) => Array.from(element.childNodes).filter((node) => node.nodeType === 3).map((node) => node.textContent).join('').trim()
      || (element.firstElementChild ? element.firstElementChild.textContent.trim() : '');
    const visit = (root) => {
      for (const element of root.querySelectorAll('*')) {
        if (element.getAttribute('role') === ${JSON.stringify(role)} && labelOf(element) === ${JSON.stringify(label)} && element.getClientRects().length) return element;
        if (element.shadowRoot) { const found = visit(element.shadowRoot); if (found) return found; }
      }
      return null;
    };
    return visit(document);`;
}

/** Whether the element `css` selects is on `page` and its text contains `text`. */
function shows(page: EnginePage, css: string, text = ''): Promise<boolean> {
  return page.run<boolean>(`const element = document.querySelector(arguments[0]); return Boolean(element) && element.textContent.includes(arguments[1]);`, css, text);
}

/** Adds a movie through the hall's "Add a movie" form (opened if closed) and waits for it in the list. */
async function pushThroughForm(page: EnginePage, name: string, url: string): Promise<void> {
  if (!(await page.run<boolean>(`return Boolean(document.querySelector('[data-testid="movie-push-url"]'));`))) await page.click('[data-testid="movie-push-open"]');
  await expect.poll(() => shows(page, '[data-testid="movie-push-url"]'), { timeout: 15_000, message: 'the form opens' }).toBe(true);
  await page.type('[data-testid="movie-push-url"]', url);
  await page.type('[data-testid="movie-push-name"]', name);
  await page.click('[data-testid="movie-push-submit"]');
  await expect.poll(() => shows(page, '[data-testid="movie-list"]', name), { timeout: 15_000, message: `${name} is listed` }).toBe(true);
}

/** Whether the engine page's video plays: not paused and its clock advancing over 0.5 s. */
async function enginePlays(page: EnginePage): Promise<boolean> {
  const before = await sampleEngine(page);
  await new Promise((resolve) => setTimeout(resolve, 500));
  const after = await sampleEngine(page);
  return after.present && !after.paused && after.currentTime > before.currentTime + 0.2;
}

for (const engine of EVENING_ENGINES) {
  // WebKitGTK's web process at times stops answering WebDriver at the switch from the MP4 to HLS
  // (2 runs of 9 here on 2026-12-08, with the sync engine of before that day's changes as well, and
  // once in a fresh-clone run): a browser hang, not the room's, so WebKitGTK's evening gets one more
  // try; a second failure fails it (docs/browsers.md "Known gaps").
  test.describe(`${engine}'s evening`, () => {
    if (engine === 'webkit') test.describe.configure({ retries: 1 });
    test(`${engine}: an evening as a newcomer: a guest by the share link in step, subtitles, signs up from the hall, danmaku and chat, signs in, creates a room and adds an MP4 without Range, ${EVENING_FORMATS[engine].join(' and ')} through the form, switching between them with a Chromium friend`, async ({ app, media, actors }, testInfo) => {
      test.setTimeout(180_000);
      expect(engineInstalled(engine), `${engine} is not installed: node scripts/prerequisites.mjs installs it`).toBe(true);
      const plainHost = await startPlainHost(path.join(__dirname, 'media'), PROXY_MEDIA_HOST);
      const friend = await actors.user('f');
      await showSyncDebug(friend.context);
      const roomId = await app.api.createRoom(friend.token!, uniqueName(`${engine.slice(0, 2)}ev`));
      const movieId = await app.api.pushMovie(friend.token!, roomId, {
        url: `${media.url}/mp4/clip.mp4`,
        name: 'Subtitled clip',
        subtitles: { SRT: { url: `${media.url}/subs/clip.srt`, type: 'srt' } },
      });
      await app.api.setCurrent(friend.token!, roomId, movieId);
      const cinema = new CinemaPage(friend.page, app.origin);
      await cinema.goto(roomId);
      await expect.poll(async () => isPlaying(await sampleMedia(friend.page)), { timeout: 20_000 }).toBe(true);

      const browser = await launchEngine(engine);
      let page: EnginePage | null = null;
      try {
        page = await browser.newPage();
        const other = page;
        const username = uniqueName(`${engine.slice(0, 2)}n`);
        /** The movie is the friend's current one, plays in the engine, and the friend plays in step with it. */
        const expectBothPlay = async (name: string) => {
          await expect(cinema.currentMovieName).toContainText(name, { timeout: 15_000 });
          await expect.poll(() => enginePlays(other), { timeout: 30_000, message: `${name} plays in ${engine}` }).toBe(true);
          const gap = async () => playingGap(await sampleMedia(friend.page), await sampleEngine(other));
          await expect.poll(gap, { timeout: 30_000, message: `${name}: the friend plays in step with ${engine}` }).toBeLessThan(0.3);
        };

        await test.step('a visitor opens the share link and watches as a guest, in step with the room', async () => {
          // The sync record without its overlay (docs/sync.md "Debugging"): the overlay's lines change
          // every step and move what is under it.
          await other.goto(webUrl(app.origin, '/'));
          await other.run(`localStorage.setItem('debug', 'sync-record');`);
          await other.goto(webUrl(app.origin, `/joinRoom/${roomId}`));
          await expect.poll(() => shows(other, '[data-testid="guest-banner"]'), { timeout: 15_000, message: 'the guest banner shows' }).toBe(true);
          const gap = async () => playingGap(await sampleMedia(friend.page), await sampleEngine(other));
          await expect.poll(gap, { timeout: 30_000, message: `${engine}'s guest should play in step with the room` }).toBeLessThan(0.3);
        });

        await test.step('the guest picks the SRT subtitle in the settings menu and sees its line', async () => {
          // A click that lands while the control bar is still fading in may only show it (Firefox,
          // CI 2026-12-08: the menu never opened): as a person does, press again until the menu shows.
          const menuOpen = () => other.run<boolean>(`const menu = document.querySelector('media-settings-menu'); return Boolean(menu) && !menu.hasAttribute('hidden');`);
          for (let attempt = 0; attempt < 3 && !(await menuOpen()); attempt += 1) {
            await other.hover('[data-testid="player"]');
            await other.click('[data-testid="player-settings"]');
            await expect.poll(menuOpen, { timeout: 3000 }).toBe(true).catch(() => undefined);
          }
          await other.clickFound(menuItem('menuitem', 'Subtitles'));
          await other.clickFound(menuItem('menuitemradio', 'SRT'));
          const line = () =>
            other.run<string>(`
              const video = document.querySelector('video[data-testid="player-video"]');
              const showing = Array.from(video.textTracks).find((track) => track.mode === 'showing');
              return showing ? showing.label + ': ' + Array.from(showing.activeCues || [], (cue) => cue.text).join('|') : 'none';`);
          await expect.poll(line, { timeout: 10_000, message: `${engine} shows the SRT line` }).toBe('SRT: Hello from <i>SRT</i>');
          // Closed with Escape, as a person does, before anything else is clicked.
          await other.press('Escape');
          await expect.poll(() => other.run<boolean>(`return document.querySelector('media-settings-menu').hasAttribute('hidden');`), { timeout: 10_000, message: 'the settings menu closes' }).toBe(true);
        });

        await test.step('the guest registers from the hall and is back in the room as a member; danmaku and chat go both ways', async () => {
          await other.click('[data-testid="guest-register"]');
          await expect.poll(() => shows(other, '[data-testid="page-register"]'), { timeout: 15_000 }).toBe(true);
          await other.type('[data-testid="register-username"]', username);
          await other.type('[data-testid="register-password"]', USER_PASSWORD);
          await other.type('[data-testid="register-password-confirm"]', USER_PASSWORD);
          await other.click('[data-testid="register-submit"]');
          await expect.poll(() => shows(other, '[data-testid="header-username"]', username), { timeout: 15_000, message: 'signed up' }).toBe(true);
          await expect.poll(() => other.run<string | null>(`const page = document.querySelector('[data-testid="page-cinema"]'); return page && page.getAttribute('data-room-id');`), { timeout: 15_000 }).toBe(roomId);
          await expect.poll(() => shows(other, '[data-testid="ws-state"][data-state="open"]'), { timeout: 15_000 }).toBe(true);
          await cinema.sendChat('hello as danmaku');
          await expect.poll(() => shows(other, '[data-testid="chat-message"]', 'hello as danmaku'), { timeout: 10_000, message: `${engine} shows the friend's line in the chat` }).toBe(true);
          await expect.poll(() => shows(other, '[data-testid="danmaku-layer"]', 'hello as danmaku'), { timeout: 10_000, message: `${engine} shows the friend's line as danmaku` }).toBe(true);
          await other.type('[data-testid="chat-input"]', `hello from ${engine}`);
          await other.click('[data-testid="chat-send"]');
          await expect(cinema.chatMessages.last()).toContainText(`${username}: hello from ${engine}`);
        });

        let ownRoomId = '';
        await test.step('signs out from the user menu, signs in from the header, and creates a room of their own from the home page', async () => {
          await other.click('[data-testid="header-username"]');
          await other.click('[data-testid="user-menu-sign-out"]');
          // Signed out, the app goes home (hooks/use-sign-out.ts); the person then presses "Log in".
          await expect.poll(() => shows(other, '[data-testid="page-home"]'), { timeout: 15_000, message: 'home after signing out' }).toBe(true);
          // "Signed out" sits over the header's middle for a few seconds; the person waits for it to go.
          await expect.poll(() => other.run<number>(`return document.querySelectorAll('[data-sonner-toast]').length;`), { timeout: 15_000, message: 'the toast goes' }).toBe(0);
          await other.click('[data-testid="nav-login"]');
          await expect.poll(() => shows(other, '[data-testid="page-login"]'), { timeout: 15_000, message: 'the sign-in form' }).toBe(true);
          await other.type('[data-testid="login-username"]', username);
          await other.type('[data-testid="login-password"]', USER_PASSWORD);
          await other.click('[data-testid="login-submit"]');
          await expect.poll(() => shows(other, '[data-testid="header-username"]', username), { timeout: 15_000, message: 'signed in' }).toBe(true);
          await other.clickFound(`return document.querySelector('[data-testid="page-home"] a[href$="/createRoom/"]') || document.querySelector('[data-testid="page-home"] a[href$="/createRoom"]');`);
          await expect.poll(() => shows(other, '[data-testid="page-createRoom"]'), { timeout: 15_000, message: 'the create room form' }).toBe(true);
          await other.type('[data-testid="create-room-name"]', uniqueName(`${engine} night`));
          await other.click('[data-testid="create-room-submit"]');
          await expect.poll(async () => (ownRoomId = (await other.run<string | null>(`const page = document.querySelector('[data-testid="page-cinema"]'); return page && page.getAttribute('data-room-id');`)) ?? ''), { timeout: 15_000 }).toMatch(/^[0-9a-f]{32}$/);
        });

        await test.step('the friend joins the new room; the first movie added through the form plays at once for both, from a host without Range', async () => {
          await app.api.joinRoom(friend.token!, ownRoomId);
          await cinema.goto(ownRoomId);
          await cinema.waitConnected();
          await pushThroughForm(other, 'Plain MP4', `${plainHost.url}/mp4/clip.mp4?fresh=${uniqueName('p')}`);
          await expectBothPlay('Plain MP4');
        });

        const formats = [
          { name: 'FLV clip', url: `${media.url}/flv/clip.flv` },
          { name: 'DASH clip', url: `${media.url}/dash/manifest.mpd` },
          { name: 'HLS clip', url: `${media.url}/clip/index.m3u8` },
        ].filter((movie) => EVENING_FORMATS[engine].includes(movie.name.split(' ')[0]));
        for (const movie of formats) await pushThroughForm(other, movie.name, movie.url);
        await other.run(`window.__logs = []; for (const level of ['error', 'warn', 'log']) { const original = console[level]; console[level] = (...args) => { window.__logs.push(level + ' ' + args.map(String).join(' ').slice(0, 300)); original.apply(console, args); }; } const v = document.querySelector('video[data-testid="player-video"]'); v.addEventListener('error', () => window.__logs.push('element error ' + v.error.code + ' ' + v.error.message));`);
        for (const movie of formats) {
          await test.step(`switches the room to ${movie.name} from its row's menu: it plays in ${engine} and in step for the friend`, async () => {
            await other.clickFound(`return document.querySelector('[data-testid="movie-item"][data-movie-id="' + Array.from(document.querySelectorAll('[data-testid="movie-item"]')).find((item) => item.textContent.includes(${JSON.stringify(movie.name)})).dataset.movieId + '"] [data-testid="movie-actions"]');`);
            await expect.poll(() => other.run<boolean>(`return Array.from(document.querySelectorAll('[data-testid="movie-actions"]')).some((button) => button.getAttribute('aria-expanded') === 'true' && button.getAttribute('aria-label').includes(arguments[0]));`, movie.name), { timeout: 10_000, message: `${movie.name}'s menu opens` }).toBe(true);
            await other.click('[data-testid="movie-play"]');
            await expectBothPlay(movie.name);
          });
        }
        await other.screenshot(testInfo.outputPath(`${engine}-evening.png`));
        // What a failure here would report of the engine (docs/sync.md "Debugging", `sync-record`).
        expect(await engineSyncDebug(other)).toMatch(/^phase [a-z-]+ · drift/);
      } catch (error) {
        if (page) await page.screenshot(testInfo.outputPath(`${engine}-evening-failed.png`)).catch(() => undefined);
        if (page) await testInfo.attach(`${engine}-sync-debug`, { body: await engineSyncDebug(page) });
        if (page) await testInfo.attach(`${engine}-problem-and-console`, { body: await page.run<string>(`const problem = document.querySelector('[data-testid="player-problem"]'); const logs = (window.__logs || []).slice(-30).join('\\n'); const layer = document.querySelector('[data-testid="danmaku-layer"]'); return 'problem: ' + (problem ? problem.textContent : 'none') + '\\n' + logs + '\\n' + (layer ? JSON.stringify(layer.getBoundingClientRect()) + ' ' + layer.outerHTML.slice(0, 1500) : 'no layer');`).catch((e: unknown) => String(e)) });
        await testInfo.attach('friend-sync-debug', { body: await syncDebugText(friend.page) });
        throw error;
      } finally {
        await browser.close();
        await plainHost.close();
      }
      expect(friend.errors).toEqual([]);
    });
  });
}

test('firefox: voice with a Chromium friend: each joins from the hall, sees the other connected and hears them (the speaking light); leaving reaches the other', async ({ app, actors }, testInfo) => {
  test.setTimeout(90_000);
  expect(engineInstalled('firefox'), 'Firefox is not installed: node scripts/prerequisites.mjs installs it').toBe(true);
  const friend = await actors.user('v');
  const roomId = await app.api.createRoom(friend.token!, uniqueName('fxvoice'));
  const cinema = new CinemaPage(friend.page, app.origin);
  await cinema.goto(roomId);
  await cinema.waitConnected();
  const browser = await launchEngine('firefox');
  let page: EnginePage | null = null;
  try {
    page = await browser.newPage();
    const other = page;
    const token = await app.api.signup(uniqueName('fv'), 'password-123');
    await app.api.joinRoom(token, roomId);
    const [friendId, otherId] = await Promise.all([app.api.userId(friend.token!), app.api.userId(token)]);
    await openSignedIn(other, app.origin, token, webUrl(app.origin, `/cinema/${roomId}`), { debug: false });
    await expect.poll(() => shows(other, '[data-testid="ws-state"][data-state="open"]'), { timeout: 15_000 }).toBe(true);

    await friend.page.getByTestId('voice-join').click();
    await expect(friend.page.getByTestId('voice-leave')).toHaveText('Leave voice (1)');
    await other.click('[data-testid="voice-join"]');
    await expect.poll(() => shows(other, '[data-testid="voice-leave"]', '(2)'), { timeout: 15_000, message: 'Firefox is in the call with two' }).toBe(true);
    await expect(friend.page.getByTestId('voice-leave')).toHaveText('Leave voice (2)');

    const firefoxSees = (attribute: string) => other.run<string | null>(`const person = document.querySelector('[data-testid="voice-person"][data-user-id="${friendId}"]'); return person && person.getAttribute(arguments[0]);`, attribute);
    const friendSees = friend.page.locator(`[data-testid="voice-person"][data-user-id="${otherId}"]`);
    await expect(friendSees).toHaveAttribute('data-state', 'connected', { timeout: 20_000 });
    await expect.poll(() => firefoxSees('data-state'), { timeout: 20_000, message: 'Firefox sees the friend connected' }).toBe('connected');
    // Each one's fake microphone (a tone) lights the other up as speaking.
    await expect(friendSees, "the friend hears Firefox's tone").toHaveAttribute('data-speaking', 'true', { timeout: 15_000 });
    await expect.poll(() => firefoxSees('data-speaking'), { timeout: 15_000, message: "Firefox hears the friend's tone" }).toBe('true');

    await other.click('[data-testid="voice-leave"]');
    await expect(friend.page.getByTestId('voice-leave')).toHaveText('Leave voice (1)', { timeout: 15_000 });
    await expect(friendSees).toHaveCount(0);
  } catch (error) {
    if (page) await page.screenshot(testInfo.outputPath('firefox-voice.png')).catch(() => undefined);
    throw error;
  } finally {
    await browser.close();
  }
  expect(friend.errors).toEqual([]);
});

test('firefox blocking all autoplay: the hall says so over the picture with one button, which joins the room at its position; the room hears nothing of the refusal', async ({ app, media, actors }, testInfo) => {
  test.setTimeout(90_000);
  expect(engineInstalled('firefox'), 'Firefox is not installed: node scripts/prerequisites.mjs installs it').toBe(true);
  const { friend, roomId, cinema } = await friendsPlayingRoom({ app, media, actors }, 'fxblock', MOVIES.MP4);
  const browser = await launchEngine('firefox', { blockAllAutoplay: true });
  let page: EnginePage | null = null;
  try {
    page = await browser.newPage();
    const other = page;
    const token = await memberWhoControls(app, friend.token!, roomId, 'fb');
    // Opened from a link: no gesture on this page yet.
    await openSignedIn(other, app.origin, token, webUrl(app.origin, `/cinema/${roomId}`));
    await expect.poll(() => shows(other, '[data-testid="autoplay-blocked"]'), { timeout: 20_000, message: 'the refusal is said over the picture' }).toBe(true);
    expect((await sampleEngine(other)).paused).toBe(true);
    // Refused is neither a pause nor a seek: the friend plays on, told of nobody's pause.
    await expectKeepsPlaying(friend.page, 6);
    await expect(cinema.chatMessages.filter({ hasText: 'paused' })).toHaveCount(0);
    await other.click('[data-testid="autoplay-join"]');
    const gap = async () => playingGap(await sampleMedia(friend.page), await sampleEngine(other));
    await expect.poll(gap, { timeout: 15_000, message: 'Firefox joins the room in step' }).toBeLessThan(0.3);
    expect(await shows(other, '[data-testid="autoplay-blocked"]')).toBe(false);
    expect(isPlaying(await sampleMedia(friend.page))).toBe(true);
  } catch (error) {
    if (page) await page.screenshot(testInfo.outputPath('firefox-autoplay-blocked.png')).catch(() => undefined);
    if (page) await testInfo.attach('firefox-sync-debug', { body: await engineSyncDebug(page) });
    throw error;
  } finally {
    await browser.close();
  }
  expect(friend.errors).toEqual([]);
});
