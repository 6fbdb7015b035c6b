/**
 * The player: media-chrome's controls over the page's <video> (the play button and the
 * keyboard drive the room through the sync engine), the quality menu of a stream in two qualities
 * (e2e/media/abr), a movie's SRT and ASS subtitles picked from the
 * captions menu (ASS drawn by JASSUB), chat lines flying as danmaku, the source selector of a movie
 * with `moreSources`, and a source that cannot play explained in words. Real browsers against the
 * companion server and the committed test media (scripts/make-test-media.sh).
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { CinemaPage } from './pages/cinema-page';
import { uniqueName } from './support/api';
import { expectTogether, openWatchParty } from './support/watch-party';

/**
 * The colour a viewer sees at a point of the player, as fractions of its width and height: a
 * screenshot of the element, decoded by the page itself (no image library needed).
 */
async function colourAt(page: Page, xFraction: number, yFraction: number): Promise<[number, number, number]> {
  // At the top of the page the whole picture is below the sticky header (a menu's focus may have
  // scrolled the page, and an element screenshot shows whatever covers the element).
  await page.evaluate(() => window.scrollTo(0, 0));
  const png = (await page.getByTestId('player-video').screenshot()).toString('base64');
  return page.evaluate(
    async ({ data, x, y }) => {
      const bitmap = await createImageBitmap(await (await fetch(`data:image/png;base64,${data}`)).blob());
      const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
      const context = canvas.getContext('2d')!;
      context.drawImage(bitmap, 0, 0);
      const [r, g, b] = context.getImageData(Math.floor(bitmap.width * x), Math.floor(bitmap.height * y), 1, 1).data;
      return [r, g, b] as [number, number, number];
    },
    { data: png, x: xFraction, y: yFraction },
  );
}

/**
 * Picks `label` in one of the settings menu's submenus (settings → `menu`), as a viewer does. The
 * pick returns to the settings menu, which Escape then closes.
 */
async function pickInSettings(page: Page, menu: string, label: string): Promise<void> {
  const entry = page.getByRole('menuitem', { name: menu });
  await page.getByTestId('player-settings').click();
  await entry.click();
  await page.getByRole('menuitemradio', { name: label, exact: true }).click();
  await expect(entry).toBeVisible();
  // Escape closes the menu that has the focus; the pick may leave the focus on the page, so the
  // key goes to the menu item itself (retried: the menu animates back from the submenu).
  await expect(async () => {
    if (await entry.isVisible()) await entry.press('Escape', { timeout: 1_000 });
    await expect(entry).toBeHidden({ timeout: 1_000 });
  }).toPass({ timeout: 10_000 });
}

/** Picks `label` in the captions menu (settings → Subtitles). */
function pickSubtitle(page: Page, label: string): Promise<void> {
  return pickInSettings(page, 'Subtitles', label);
}

test('an MP4 with SRT and ASS subtitles plays in two browsers in sync; each subtitle shows when picked', async ({ app, actors, media }) => {
  test.setTimeout(90_000);
  const { a, b, cinemaA } = await openWatchParty(app, actors, 'subtitles', {
    url: `${media.url}/mp4/clip.mp4`,
    name: 'subtitled clip',
    subtitles: {
      SRT: { url: `${media.url}/subs/clip.srt`, type: 'srt' },
      ASS: { url: `${media.url}/subs/clip.ass`, type: 'ass' },
    },
  });
  await expectTogether(a.page, b.page);

  await test.step('the SRT subtitle shows its line when picked', async () => {
    await pickSubtitle(a.page, 'SRT');
    await expect
      .poll(() =>
        cinemaA.video.evaluate((video: HTMLVideoElement) => {
          const showing = Array.from(video.textTracks).find((track) => track.mode === 'showing');
          return showing ? `${showing.label}: ${Array.from(showing.activeCues ?? [], (cue) => (cue as VTTCue).text).join('|')}` : 'none';
        }),
      )
      .toBe('SRT: Hello from <i>SRT</i>');
  });

  await test.step('while the control bar shows, the subtitle line sits above it, and back down once the bar hides', async () => {
    const activeLine = () =>
      cinemaA.video.evaluate((video: HTMLVideoElement) => {
        const showing = Array.from(video.textTracks).find((track) => track.mode === 'showing');
        const cue = showing?.activeCues?.[0] as VTTCue | undefined;
        return cue ? String(cue.line) : 'no cue';
      });
    await a.page.getByTestId('player').hover();
    await expect(a.page.getByTestId('player-controls')).toBeVisible();
    await expect.poll(activeLine).toMatch(/^-\d+$/);
    await a.page.waitForTimeout(300);
    await a.page.screenshot({ path: test.info().outputPath('subtitle-above-bar.png') });
    // The pointer leaves and media-chrome hides the bar of the playing video: the line goes back.
    await a.page.mouse.move(0, 0);
    await expect.poll(activeLine, { timeout: 10_000 }).toBe('auto');
  });

  await test.step("the subtitle offset moves the SRT cues, for this viewer only", async () => {
    const firstCueStart = (page: Page) =>
      page.getByTestId('player-video').evaluate((video: HTMLVideoElement) => {
        const track = Array.from(video.textTracks).find((candidate) => candidate.label === 'SRT');
        return (track?.cues?.[0] as VTTCue | undefined)?.startTime ?? -1;
      });
    const before = await firstCueStart(a.page);
    expect(before).toBeGreaterThanOrEqual(0);
    await pickInSettings(a.page, 'Subtitle offset', '+2 s');
    await expect.poll(() => firstCueStart(a.page)).toBeCloseTo(before + 2, 3);
    await pickInSettings(a.page, 'Subtitle offset', '−0.5 s');
    await expect.poll(() => firstCueStart(a.page)).toBeCloseTo(Math.max(0, before - 0.5), 3);
    await pickInSettings(a.page, 'Subtitle offset', '0');
    await expect.poll(() => firstCueStart(a.page)).toBeCloseTo(before, 3);
  });

  await test.step('the ASS subtitle is drawn by libass over the paused picture when picked', async () => {
    // Paused at 5 s (the clip lasts 40 s, which a busy machine can spend on the steps above): a
    // paused video presents no new frame, so libass has to be asked to draw the one shown.
    await cinemaA.seek(5);
    await cinemaA.pause();
    await expect.poll(async () => (await cinemaA.media()).paused).toBe(true);
    // The top right of the clip's black timecode bar: black without the subtitle.
    const spot = [(276 + 20) / 320, (4 + 18) / 180] as const;
    const before = await colourAt(a.page, ...spot);
    expect(before[1], `expected black before the ASS subtitle, saw rgb(${before})`).toBeLessThan(80);
    await pickSubtitle(a.page, 'ASS');
    await expect(a.page.getByTestId('ass-canvas')).toHaveCount(1);
    await expect
      .poll(async () => {
        const [r, g, bl] = await colourAt(a.page, ...spot);
        return g > 180 && r < 100 && bl < 100;
      }, { timeout: 15_000, message: 'the green square of the ASS file never appeared' })
      .toBe(true);
    // Back to the SRT track: the libass canvas goes away.
    await pickSubtitle(a.page, 'SRT');
    await expect(a.page.getByTestId('ass-canvas')).toHaveCount(0);
    await cinemaA.play();
  });

  await expectTogether(a.page, b.page);
  expect(a.errors).toEqual([]);
  expect(b.errors).toEqual([]);
});

test("the player's own controls and keys drive the room; c goes to the chat; chat lines fly as danmaku unless turned off", async ({ app, actors, media }) => {
  test.setTimeout(90_000);
  const { a, b, cinemaB } = await openWatchParty(app, actors, 'controls', { url: `${media.url}/clip/index.m3u8`, name: 'clip' });
  await expectTogether(a.page, b.page);

  await test.step("A's pause button pauses B; k plays both again", async () => {
    await a.page.getByTestId('player-play').click();
    await expect.poll(async () => (await cinemaB.media()).paused, { timeout: 10_000 }).toBe(true);
    await a.page.getByTestId('player-play').focus();
    await a.page.keyboard.press('k');
    await expect.poll(async () => (await cinemaB.media()).paused, { timeout: 10_000 }).toBe(false);
    await expectTogether(a.page, b.page);
  });

  await test.step('c in the player moves to the chat input', async () => {
    await a.page.getByTestId('player-play').focus();
    await a.page.keyboard.press('c');
    await expect(a.page.getByTestId('chat-input')).toBeFocused();
  });

  await test.step("B's chat line flies over A's picture; with danmaku off, the next one does not", async () => {
    await cinemaB.sendChat('hello as danmaku');
    await expect(a.page.getByTestId('danmaku-layer')).toContainText('hello as danmaku');
    await a.page.getByTestId('danmaku-toggle').click();
    await expect(a.page.getByTestId('danmaku-toggle')).toHaveAttribute('aria-pressed', 'false');
    await cinemaB.sendChat('not flying');
    await expect(a.page.getByTestId('chat-message').filter({ hasText: 'not flying' })).toBeVisible();
    await expect(a.page.getByTestId('danmaku-layer').filter({ hasText: 'not flying' })).toHaveCount(0);
    // The choice is kept on this device.
    await a.page.reload();
    await expect(a.page.getByTestId('danmaku-toggle')).toHaveAttribute('aria-pressed', 'false');
  });
  expect(a.errors).toEqual([]);
  expect(b.errors).toEqual([]);
});

test("the speed menu shows the room's rate while the sync engine nudges the element's: no 1.03x, and the item under the pointer stays", async ({ app, actors, media }) => {
  const a = await actors.user('speed');
  const roomId = await app.api.createRoom(a.token!, uniqueName('speed'));
  const movieId = await app.api.pushMovie(a.token!, roomId, { url: `${media.url}/clip/index.m3u8`, name: 'clip' });
  await app.api.setCurrent(a.token!, roomId, movieId);
  const cinema = new CinemaPage(a.page, app.origin);
  await cinema.goto(roomId);
  await cinema.waitMediaLoaded();
  await a.page.getByTestId('player-settings').click();
  await a.page.getByRole('menuitem', { name: 'Speed' }).click();
  const faster = a.page.getByRole('menuitemradio', { name: '1.5x', exact: true });
  await expect(faster).toBeVisible();
  const menu = a.page.getByTestId('player-speed-menu');
  const items = () => menu.evaluate((element) => Array.from(element.shadowRoot!.querySelectorAll('[role="menuitemradio"]'), (item) => `${item.textContent!.trim()}${item.getAttribute('aria-checked') === 'true' ? '*' : ''}`));
  const listed = await items();
  expect(listed).toContain('1x*');
  // What media-controller tells the menu when the engine nudges the element to 1.026 × the room's
  // rate (lib/sync/correction.ts maxNudge): before, the menu rebuilt its items at each nudge, with
  // "1.03x" checked, and the item the person was about to press was gone, the menu closed.
  await faster.evaluate((item) => ((window as unknown as { __item: Element }).__item = item));
  for (const rate of ['1.026', '0.97', '1']) {
    await menu.evaluate((element, value) => element.setAttribute('mediaplaybackrate', value), rate);
    expect(await items()).toEqual(listed);
  }
  expect(await faster.evaluate((item) => item === (window as unknown as { __item: Element }).__item)).toBe(true);
  await faster.click();
  // The room's rate, give or take the engine's own nudge.
  await expect.poll(async () => Math.abs((await cinema.media()).playbackRate - 1.5), { timeout: 10_000 }).toBeLessThan(0.08);
  await expect(a.page.getByTestId('room-playback')).toContainText('1.5×');
  // A late start's catch-up runs the element up to 2× the room's rate for half a second
  // (lib/sync/tuning.ts): the menu shows the listed rate nearest it, and asks for nothing. Before,
  // its redraw for 1.71× asked the player for 1.75×, and the room went to 1.75× as if the viewer had
  // picked it (seen from Firefox, whose refused autoplay made a catch-up at every SYNC reply).
  await menu.evaluate((element) => element.addEventListener('mediaplaybackraterequest', (event) => ((window as unknown as { __asked: unknown[] }).__asked ??= []).push((event as CustomEvent).detail)));
  for (const rate of ['1.71', '1.5']) await menu.evaluate((element, value) => element.setAttribute('mediaplaybackrate', value), rate);
  expect(await a.page.evaluate(() => (window as unknown as { __asked?: unknown[] }).__asked ?? [])).toEqual([]);
  expect(Math.abs((await cinema.media()).playbackRate - 1.5)).toBeLessThan(0.08);
  await expect(a.page.getByTestId('room-playback')).toContainText('1.5×');
  expect(a.errors).toEqual([]);
});

test('a stream in two qualities offers them in the quality menu; picking one plays it', async ({ app, actors, media }) => {
  test.setTimeout(60_000);
  const a = await actors.user('owner');
  const roomId = await app.api.createRoom(a.token!, uniqueName('quality'));
  const movieId = await app.api.pushMovie(a.token!, roomId, { url: `${media.url}/abr/index.m3u8`, name: 'two qualities' });
  await app.api.setCurrent(a.token!, roomId, movieId);
  const cinema = new CinemaPage(a.page, app.origin);
  await cinema.goto(roomId);
  await cinema.waitMediaLoaded();
  // The stream lasts 20 s, which a busy machine can spend before the menu opens: back near its start,
  // so that frames of the picked quality still come (an ended picture never changes).
  await cinema.seek(2);

  await a.page.getByTestId('player-settings').click();
  await a.page.getByRole('menuitem', { name: 'Quality' }).click();
  await expect(a.page.getByRole('menuitemradio', { name: '180p', exact: true })).toBeVisible();
  await a.page.getByRole('menuitemradio', { name: '90p', exact: true }).click();
  // hls.js switches at the next segment: the picture becomes 160x90.
  await expect.poll(() => cinema.video.evaluate((video: HTMLVideoElement) => video.videoHeight), { timeout: 15_000 }).toBe(90);
  expect(a.errors).toEqual([]);
});

test('a movie with more sources offers them; another source keeps the position and the room in sync', async ({ app, actors, media }) => {
  test.setTimeout(90_000);
  const { a, b, cinemaB } = await openWatchParty(app, actors, 'sources', {
    url: `${media.url}/clip/index.m3u8`,
    name: 'two sources',
    moreSources: [{ name: 'MP4 copy', url: `${media.url}/mp4/clip.mp4`, type: 'mp4' }],
  });
  await expectTogether(a.page, b.page, 3);

  const select = b.page.getByTestId('source-select');
  await expect(select.locator('option')).toHaveText(['Default', 'MP4 copy']);
  const before = (await cinemaB.media()).currentTime;
  await select.selectOption({ label: 'MP4 copy' });
  await expect.poll(() => cinemaB.video.evaluate((video: HTMLVideoElement) => video.currentSrc)).toContain('/mp4/clip.mp4');
  // It picks up where it was (not from 0), and stays with A.
  await expect.poll(async () => (await cinemaB.media()).currentTime, { timeout: 10_000 }).toBeGreaterThan(before);
  await expectTogether(a.page, b.page, before);
  expect(a.errors).toEqual([]);
  expect(b.errors).toEqual([]);
});

test('a source that cannot play says why in words', async ({ app, actors, media }) => {
  const a = await actors.user('owner');
  const roomId = await app.api.createRoom(a.token!, uniqueName('broken'));
  const cinema = new CinemaPage(a.page, app.origin);

  await test.step('a missing file: the HTTP status', async () => {
    const movieId = await app.api.pushMovie(a.token!, roomId, { url: `${media.url}/mp4/missing.mp4`, name: 'missing' });
    await app.api.setCurrent(a.token!, roomId, movieId);
    await cinema.goto(roomId);
    await expect(a.page.getByTestId('player-problem')).toContainText('HTTP 404');
  });

  await test.step('a web page instead of a video: not a video', async () => {
    const movieId = await app.api.pushMovie(a.token!, roomId, { url: `${app.origin}/web/`, name: 'a page', type: 'mp4' });
    await app.api.setCurrent(a.token!, roomId, movieId);
    await expect(a.page.getByTestId('player-problem')).toContainText('not a video (content type text/html)');
  });

  await test.step('a server that does not answer: unreachable, with the proxy offered', async () => {
    const movieId = await app.api.pushMovie(a.token!, roomId, { url: 'http://127.0.0.1:9/never.mp4', name: 'nowhere' });
    await app.api.setCurrent(a.token!, roomId, movieId);
    await expect(a.page.getByTestId('player-problem')).toContainText('cannot be reached');
    await expect(a.page.getByTestId('remedy-proxy')).toBeEnabled();
  });
});

test('with reduced motion asked for, danmaku starts off', async ({ app, actors, media }) => {
  const a = await actors.user('calm');
  await a.page.emulateMedia({ reducedMotion: 'reduce' });
  const roomId = await app.api.createRoom(a.token!, uniqueName('calm'));
  const movieId = await app.api.pushMovie(a.token!, roomId, { url: `${media.url}/clip/index.m3u8`, name: 'clip' });
  await app.api.setCurrent(a.token!, roomId, movieId);
  await new CinemaPage(a.page, app.origin).goto(roomId);
  await expect(a.page.getByTestId('danmaku-toggle')).toHaveAttribute('aria-pressed', 'false');
  await a.page.getByTestId('danmaku-settings-toggle').click();
  await expect(a.page.getByTestId('danmaku-settings')).toContainText('reduced motion');
});
