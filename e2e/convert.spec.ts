/**
 * A film Chromium cannot play (HEVC with E-AC-3 and AC-3 sounds, in MKV), on a host without Range
 * or CORS (`python3 -m http.server`): the notice says so and offers "Play through the server
 * (convert)" to whoever may change the movie; the room switches for everyone, both browsers play the
 * server's conversion with sound, in step; a viewer picks another sound; and a seek far ahead plays
 * without waiting for what lies before it; a refusal and a conversion that fails are said in words
 * over the picture; a room that converts automatically plays such a film converted from the start;
 * an image subtitle is drawn into the picture of the viewer who picks it; TrueHD, AC-3 in MP4 and DTS
 * each play with sound (docs/transcode.md).
 */
import path from 'node:path';
import os from 'node:os';
import { mkdtempSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, PROXY_MEDIA_HOST, test } from './fixtures';
import { CinemaPage } from './pages/cinema-page';
import { uniqueName } from './support/api';
import { IMAGE_SUBTITLE_BOX, makeConversionFilm, makeConversionMedia, type ConversionMedia } from './support/conversion-media';
import { startPlainHost, type PlainHost } from './support/plain-host';
import { sampleMedia } from './support/playback';
import { expectTogether } from './support/watch-party';

let host: PlainHost;
let film = '';
let media: ConversionMedia;
test.beforeAll(async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'convert-e2e-'));
  film = path.basename(makeConversionFilm(dir));
  media = makeConversionMedia(dir);
  host = await startPlainHost(dir, PROXY_MEDIA_HOST);
});
test.afterAll(async () => {
  await host?.close();
});

/** Waits until the player's problem notice lies over the picture, where a viewer reads it (not laid out below it, hidden). */
async function expectNoticeOverPicture(page: Page): Promise<void> {
  const inside = async () => {
    const [notice, video] = await Promise.all([page.getByTestId('player-problem').boundingBox(), page.getByTestId('player-video').boundingBox()]);
    return Boolean(notice && video && notice.y >= video.y && notice.y + notice.height <= video.y + video.height);
  };
  await expect.poll(inside, { message: 'the notice is not over the picture', timeout: 2000 }).toBe(true);
}

/** The bytes of sound the page's <video> has decoded so far (Chromium's `webkitAudioDecodedByteCount`). */
function audioDecoded(page: Page): Promise<number> {
  return page.getByTestId('player-video').evaluate((video) => (video as HTMLVideoElement & { webkitAudioDecodedByteCount: number }).webkitAudioDecodedByteCount);
}

test('a film the browser cannot decode plays for the whole room through the server, with sound, in step, and seeks far at once', async ({ app, actors }) => {
  test.setTimeout(120_000);
  const owner = await actors.user('owner');
  const viewer = await actors.user('viewer');
  const roomId = await app.api.createRoom(owner.token!, uniqueName('convert'));
  const movieId = await app.api.pushMovie(owner.token!, roomId, { url: `${host.url}/${film}`, name: 'HEVC film' });
  await app.api.setCurrent(owner.token!, roomId, movieId);
  const [cinemaA, cinemaB] = [new CinemaPage(owner.page, app.origin), new CinemaPage(viewer.page, app.origin)];

  await test.step('the player says it cannot play the film, and offers the conversion', async () => {
    await cinemaA.goto(roomId);
    await expect(owner.page.getByTestId('player-problem')).toBeVisible({ timeout: 15_000 });
    await expectNoticeOverPicture(owner.page);
    await expect(owner.page.getByTestId('remedy-convert')).toBeEnabled();
    await expect(owner.page.getByTestId('remedy-convert')).toHaveText('Play through the server (convert)');
    await owner.page.screenshot({ path: test.info().outputPath('convert-offered.png'), fullPage: true });
  });

  await test.step('one click: both browsers play the conversion with sound, in step', async () => {
    await cinemaB.goto(roomId);
    await owner.page.getByTestId('remedy-convert').click();
    for (const cinema of [cinemaA, cinemaB]) await cinema.waitMediaLoaded();
    await expect(owner.page.getByTestId('player-problem')).toHaveCount(0);
    await expectTogether(owner.page, viewer.page);
    for (const page of [owner.page, viewer.page]) await expect.poll(() => audioDecoded(page), { message: 'no sound was decoded', timeout: 10_000 }).toBeGreaterThan(0);
    await owner.page.screenshot({ path: test.info().outputPath('convert-playing.png') });
  });

  const audio = viewer.page.getByTestId('audio-choice');
  await test.step('at the server\'s limit, another sound is refused in words', async () => {
    app.setSetting('convert_max_conversions', 1);
    try {
      await expect(audio.locator('option')).toHaveText(['English', 'Japanese']);
      await audio.selectOption({ label: 'Japanese' });
      await expect(viewer.page.getByTestId('player-problem')).toContainText('This server is converting as many films as it may: try again later', { timeout: 15_000 });
      await viewer.page.screenshot({ path: test.info().outputPath('convert-refused.png') });
    } finally {
      app.setSetting('convert_max_conversions', 2);
    }
    await audio.selectOption({ label: 'English' });
    await expect(viewer.page.getByTestId('player-problem')).toHaveCount(0);
    await expectTogether(owner.page, viewer.page);
  });

  await test.step('the viewer picks the Japanese sound: their own conversion, still with sound, still in step', async () => {
    await audio.selectOption({ label: 'Japanese' });
    await expect(viewer.page.getByTestId('media-choice-hint')).toBeVisible();
    await expect.poll(() => viewer.page.getByTestId('player-video').evaluate((video) => (video as HTMLVideoElement).currentSrc), { timeout: 10_000 }).toMatch(/^blob:/);
    await expectTogether(owner.page, viewer.page);
    const before = await audioDecoded(viewer.page);
    await expect.poll(() => audioDecoded(viewer.page), { message: 'no sound after the switch', timeout: 10_000 }).toBeGreaterThan(before);
  });

  await test.step('a seek far ahead plays at once, for both', async () => {
    const started = Date.now();
    await cinemaA.seek(48);
    for (const page of [owner.page, viewer.page]) {
      await expect.poll(async () => {
        const sample = await sampleMedia(page);
        return sample.currentTime > 48 && !sample.paused && sample.readyState >= 3;
      }, { message: 'not playing past 48 s', timeout: 20_000 }).toBe(true);
    }
    test.info().annotations.push({ type: 'seek far ahead', description: `${Date.now() - started} ms until both played past 48 s` });
    await expectTogether(owner.page, viewer.page, 48);
  });
});

test('a room that converts automatically plays a film the browser cannot decode at once, without the notice', async ({ app, actors }) => {
  test.setTimeout(90_000);
  const owner = await actors.user('owner');
  const roomId = await app.api.createRoom(owner.token!, uniqueName('convert-auto'));
  const cinema = new CinemaPage(owner.page, app.origin);
  await cinema.goto(roomId);
  // The first test's conversions may still be there (they stop 15 s after their last viewer).
  app.setSetting('convert_max_conversions', 8);

  await test.step('the owner turns it on in the room settings', async () => {
    const settings = await cinema.openSettings();
    const toggle = settings.getByTestId('setting-auto_convert');
    await expect(toggle).toHaveAttribute('aria-checked', 'false');
    await expect(toggle).toBeEnabled();
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-checked', 'true');
    await owner.page.screenshot({ path: test.info().outputPath('convert-auto-setting.png') });
    await cinema.closePanel();
  });

  await test.step('the film starts converted, with sound, and the notice never shows', async () => {
    const movieId = await app.api.pushMovie(owner.token!, roomId, { url: `${host.url}/${film}`, name: 'HEVC film' });
    let noticed = false;
    await owner.page.exposeFunction('noticeShown', () => (noticed = true));
    await owner.page.evaluate(() => {
      new MutationObserver(() => {
        if (document.querySelector('[data-testid="player-problem"]')) (window as unknown as { noticeShown: () => void }).noticeShown();
      }).observe(document.body, { childList: true, subtree: true });
    });
    await app.api.setCurrent(owner.token!, roomId, movieId);
    await cinema.waitMediaLoaded();
    await expect.poll(() => audioDecoded(owner.page), { message: 'no sound was decoded', timeout: 10_000 }).toBeGreaterThan(0);
    expect(await owner.page.getByTestId('player-video').evaluate((video) => (video as HTMLVideoElement).currentSrc)).toMatch(/^blob:/);
    expect(noticed, 'the player said it could not play the film').toBe(false);
  });
  app.setSetting('convert_max_conversions', 2);
});

test('TrueHD, AC-3 in MP4 and DTS each play through the server with sound', async ({ app, actors }) => {
  test.setTimeout(60_000);
  const owner = await actors.user('owner');
  const roomId = await app.api.createRoom(owner.token!, uniqueName('convert-sounds'));
  const cinema = new CinemaPage(owner.page, app.origin);
  app.setSetting('convert_max_conversions', 8);
  for (const [name, file] of [['TrueHD', media.trueHd], ['AC-3 in MP4', media.ac3Mp4], ['DTS', media.dts]] as const) {
    await test.step(name, async () => {
      const movieId = await app.api.pushMovie(owner.token!, roomId, { url: `${host.url}/${path.basename(file)}`, name, convert: true });
      await app.api.setCurrent(owner.token!, roomId, movieId);
      // A fresh page: its <video> has decoded nothing yet.
      await cinema.goto(roomId);
      await cinema.waitMediaLoaded();
      expect(await owner.page.getByTestId('player-video').evaluate((video) => (video as HTMLVideoElement).currentSrc)).toMatch(/^blob:/);
      await expect.poll(() => audioDecoded(owner.page), { message: `no sound decoded from ${name}`, timeout: 10_000 }).toBeGreaterThan(0);
      await expect(owner.page.getByTestId('player-problem')).toHaveCount(0);
    });
  }
  app.setSetting('convert_max_conversions', 2);
});

/** The brightness (0–255) of the video's current frame at the image subtitle's box, drawn at its own size (160×90). */
function boxBrightness(page: Page): Promise<number> {
  return page.getByTestId('player-video').evaluate((video, box) => {
    const canvas = document.createElement('canvas');
    [canvas.width, canvas.height] = [160, 90];
    const context = canvas.getContext('2d')!;
    context.drawImage(video as HTMLVideoElement, 0, 0, 160, 90);
    const [red, green, blue] = context.getImageData(box.x + box.width / 2, box.y + box.height / 2, 1, 1).data;
    return (red + green + blue) / 3;
  }, IMAGE_SUBTITLE_BOX);
}

test('a viewer picks an image subtitle: the server draws it into their picture, and only theirs', async ({ app, actors }) => {
  test.setTimeout(60_000);
  const owner = await actors.user('owner');
  const roomId = await app.api.createRoom(owner.token!, uniqueName('convert-pgs'));
  const movieId = await app.api.pushMovie(owner.token!, roomId, { url: `${host.url}/${path.basename(media.imageSubtitle)}`, name: 'PGS film', convert: true });
  await app.api.setCurrent(owner.token!, roomId, movieId);
  const cinema = new CinemaPage(owner.page, app.origin);
  app.setSetting('convert_max_conversions', 8);
  await cinema.goto(roomId);
  await cinema.waitMediaLoaded();
  const currentSrc = () => owner.page.getByTestId('player-video').evaluate((video) => (video as HTMLVideoElement).currentSrc);
  // The room plays; the subtitle shows 3 s of every 4 (IMAGE_SUBTITLE_LINES), so 4.5 s of black
  // where it goes means it is not drawn.
  const staysBlack = async (what: string) => {
    for (let sample = 0; sample < 23; sample++) {
      expect(await boxBrightness(owner.page), what).toBeLessThan(40);
      await owner.page.waitForTimeout(200);
    }
  };
  await staysBlack('the room\'s picture has the subtitle drawn in');
  const choice = owner.page.getByTestId('burn-subtitle-choice');
  await expect(choice.locator('option')).toHaveText(['Off', 'English']);
  const roomSource = await currentSrc();
  await choice.selectOption({ label: 'English' });
  await expect(owner.page.getByTestId('media-choice-hint')).toBeVisible();
  await expect.poll(() => boxBrightness(owner.page), { message: 'no subtitle drawn into the picture', timeout: 15_000 }).toBeGreaterThan(200);
  await owner.page.screenshot({ path: test.info().outputPath('convert-image-subtitle.png') });
  const ownSource = await currentSrc();
  expect(ownSource).not.toBe(roomSource);
  await choice.selectOption({ label: 'Off' });
  await expect(owner.page.getByTestId('media-choice-hint')).toHaveCount(0);
  // Back on the room's conversion, playing: then no box, for longer than a line's gap.
  await expect.poll(async () => (await currentSrc()) !== ownSource && (await sampleMedia(owner.page)).readyState >= 3, { timeout: 15_000 }).toBe(true);
  await staysBlack('the subtitle stayed after it was turned off');
  app.setSetting('convert_max_conversions', 2);
});

test('a film whose source is removed while the room watches: the player says the conversion failed, in words', async ({ app, actors }) => {
  test.setTimeout(90_000);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'convert-gone-'));
  const source = await startPlainHost(path.dirname(makeConversionFilm(dir)), PROXY_MEDIA_HOST);
  const owner = await actors.user('owner');
  const roomId = await app.api.createRoom(owner.token!, uniqueName('convert-gone'));
  const movieId = await app.api.pushMovie(owner.token!, roomId, { url: `${source.url}/${film}`, name: 'Removed film', convert: true });
  await app.api.setCurrent(owner.token!, roomId, movieId);
  // The server has read what the film holds (the room's first viewer would have); then the host goes away.
  const current = await app.api.request('GET', '/api/room/movie/current', { token: owner.token!, roomId });
  // The first test's conversions may still be there (they stop 15 s after their last viewer).
  app.setSetting('convert_max_conversions', 8);
  try {
    const playlist = await fetch(`${app.origin}${(current.body as { data: { movie: { base: { url: string } } } }).data.movie.base.url}`);
    expect(playlist.status, await playlist.clone().text()).toBe(200);
    await source.close();
    await new CinemaPage(owner.page, app.origin).goto(roomId);
    // Its segment is asked for twice, then the player asks the server why (about 6 s).
    await expect(owner.page.getByTestId('player-problem')).toContainText('The server could not convert this film: the source may be damaged or gone', { timeout: 30_000 });
    await expectNoticeOverPicture(owner.page);
  } finally {
    app.setSetting('convert_max_conversions', 2);
  }
});
