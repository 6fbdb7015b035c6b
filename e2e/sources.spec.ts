/**
 * Why a source does not play, found for every engine (the <video> itself, hls.js, mpegts.js,
 * dash.js) within 5 s of the movie starting, in words, with the proxy offered where it helps, and
 * the room's label never saying "Playing" over a picture that never came. The hosts are real: the
 * test media server (CORS, Range), `python3 -m http.server` (neither), a port nobody listens on, and
 * the companion server's own web page where a video is expected.
 */
import path from 'node:path';
import { expect, PROXY_MEDIA_HOST, test } from './fixtures';
import { CinemaPage } from './pages/cinema-page';
import { uniqueName } from './support/api';
import { startPlainHost, type PlainHost } from './support/plain-host';

/** How soon (ms) after the movie starts the reason must be on the screen. */
const FOUND_WITHIN_MS = 5000;

const ENGINES = [
  { engine: 'the <video> element', file: 'mp4/clip.mp4', type: 'mp4' },
  { engine: 'hls.js', file: 'clip/index.m3u8', type: 'm3u8' },
  { engine: 'mpegts.js', file: 'flv/clip.flv', type: 'flv' },
  { engine: 'dash.js', file: 'dash/manifest.mpd', type: 'mpd' },
] as const;

let plain: PlainHost;
test.beforeAll(async () => {
  plain = await startPlainHost(path.join(__dirname, 'media'), PROXY_MEDIA_HOST);
});
test.afterAll(async () => {
  await plain?.close();
});

for (const { engine, file, type } of ENGINES) {
  test(`${engine}: an unreachable host, an HTTP error, a web page and a host without CORS are each told in words within 5 s`, async ({ app, actors, media }) => {
    test.setTimeout(90_000);
    const owner = await actors.user('owner');
    const roomId = await app.api.createRoom(owner.token!, uniqueName('sources'));
    const cinema = new CinemaPage(owner.page, app.origin);
    const problem = owner.page.getByTestId('player-problem');
    const label = owner.page.getByTestId('room-playback');
    let opened = false;
    const play = async (url: string) => {
      const id = await app.api.pushMovie(owner.token!, roomId, { url, name: uniqueName('m'), type });
      await app.api.setCurrent(owner.token!, roomId, id);
      if (!opened) {
        await cinema.goto(roomId);
        opened = true;
      }
    };

    await test.step('a host nobody answers on: unreachable, the proxy offered', async () => {
      await play(`http://127.0.0.1:9/${file}`);
      await expect(problem).toContainText('cannot be reached', { timeout: FOUND_WITHIN_MS });
      await expect(label).toHaveAttribute('data-state', 'cannotPlay');
      await expect(owner.page.getByTestId('remedy-proxy')).toBeEnabled();
    });

    await test.step('a missing file: the HTTP status', async () => {
      await play(`${media.url}/missing/${path.basename(file)}`);
      await expect(problem).toContainText('HTTP 404', { timeout: FOUND_WITHIN_MS });
      await expect(label).toHaveAttribute('data-state', 'cannotPlay');
    });

    await test.step('a web page where the video should be: not a video', async () => {
      await play(`${app.origin}/web/?${path.basename(file)}`);
      await expect(problem).toContainText('not a video', { timeout: FOUND_WITHIN_MS });
      await expect(label).toHaveAttribute('data-state', 'cannotPlay');
    });

    if (engine !== 'the <video> element') {
      await test.step('a host without CORS: blocked by the browser, the proxy offered; with the proxy it plays', async () => {
        await play(`${plain.url}/${file}`);
        await expect(problem).toContainText('CORS', { timeout: FOUND_WITHIN_MS });
        await expect(label).not.toHaveAttribute('data-state', 'playing');
        await owner.page.getByTestId('remedy-proxy').click();
        await expect(problem).toHaveCount(0, { timeout: 15_000 });
        await cinema.waitMediaLoaded();
        await expect(label).toHaveAttribute('data-state', 'playing');
      });
    }
    expect(owner.errors).toEqual([]);
  });
}

test('the label says the movie is loading, not playing, until its first frame', async ({ app, actors, media }) => {
  const owner = await actors.user('owner');
  const roomId = await app.api.createRoom(owner.token!, uniqueName('loading'));
  // Every request for the clip is held until the label has been read.
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  await owner.page.route('**/clip/index.m3u8', async (route) => {
    await held;
    await route.continue();
  });
  const id = await app.api.pushMovie(owner.token!, roomId, { url: `${media.url}/clip/index.m3u8`, name: 'slow to come' });
  await app.api.setCurrent(owner.token!, roomId, id);
  const cinema = new CinemaPage(owner.page, app.origin);
  await cinema.goto(roomId);
  await expect(owner.page.getByTestId('room-playback')).toHaveAttribute('data-state', 'loading');
  await expect(owner.page.getByTestId('room-playback')).toContainText('Loading');
  release();
  await cinema.waitMediaLoaded();
  await expect(owner.page.getByTestId('room-playback')).toHaveAttribute('data-state', 'playing');
});
