/**
 * Going live from an encoder, as people would (docs/live.md): the broadcaster creates a broadcast
 * with "Go live" in the add-movie card, gets the stream info (server, key hidden until shown), and
 * ffmpeg pushes the committed FLV clip over RTMP to what the dialog shows; the dialog turns green,
 * the viewer who was told "waiting for the broadcaster" sees the picture, both play at the live
 * edge and within 1 s of each other; a danmaku typed in the broadcaster's player in fullscreen
 * flies over the viewer's picture; the viewer switches to the HLS remux, whose segments come
 * disguised as PNG, and it plays; when the encoder stops the viewer is told the broadcast ended.
 * Someone else sees "Stream info" disabled with why.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { expect, test } from './fixtures';
import { uniqueName } from './support/api';
import { CinemaPage } from './pages/cinema-page';
import { DefaultPermissions, Permission } from '../lib/contract/roles';

const CLIP = path.resolve(__dirname, 'media', 'flv', 'clip.flv');

/** ffmpeg pushing the clip in real time, looped, to `url`: as it is (H.264/AAC), or with `codecs` (e.g. `-c:v flv1`). */
function push(url: string, codecs: string[] = ['-c', 'copy']): ChildProcess {
  return spawn('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-re', '-stream_loop', '-1', '-i', CLIP, ...codecs, '-f', 'flv', url], { stdio: 'ignore' });
}

test('a member goes live from ffmpeg with the stream info the dialog gives; the viewer waits, watches, and is told when it ends', async ({ app, actors }) => {
  test.setTimeout(90_000);
  const host = await actors.user('host');
  const viewer = await actors.user('viewer');
  const roomId = await app.api.createRoom(host.token!, uniqueName('live'));
  await app.api.joinRoom(viewer.token!, roomId);

  const hostHall = new CinemaPage(host.page, app.origin);
  await hostHall.goto(roomId);
  await hostHall.waitConnected();
  const viewerHall = new CinemaPage(viewer.page, app.origin);
  await viewerHall.goto(roomId);
  await viewerHall.waitConnected();

  // "Go live": a name, and the stream info opens at once, the key hidden.
  await hostHall.openPushForm();
  await host.page.getByTestId('movie-push-mode-live').click();
  await host.page.getByLabel('Name of the broadcast').fill('Friday stream');
  await host.page.getByTestId('movie-push-submit').click();
  const dialog = host.page.getByTestId('stream-info-dialog');
  await expect(dialog).toBeVisible();
  const server = await dialog.getByTestId('stream-info-server').inputValue();
  expect(server).toBe(`rtmp://${new URL(app.origin).host}/${roomId}/`);
  const key = dialog.getByTestId('stream-info-key');
  await expect(key).toHaveAttribute('type', 'password');
  await dialog.getByTestId('stream-info-show-key').click();
  await expect(key).toHaveAttribute('type', 'text');
  await expect(dialog.getByTestId('stream-info-ffmpeg')).toContainText(`${server}${await key.inputValue()}`);
  await expect(dialog.getByTestId('stream-info-status')).toHaveAttribute('data-receiving', 'false');
  // Until the push arrives, what to check when OBS cannot connect.
  await expect(dialog.getByTestId('stream-info-not-arriving')).toContainText(`reach ${new URL(app.origin).host} (`);

  // The room was empty, so the broadcast became the current movie: the viewer waits for it.
  await expect(viewer.page.getByTestId('broadcast-off-air')).toHaveAttribute('data-state', 'waiting');

  const encoder = push(`${server}${await key.inputValue()}`);
  try {
    await expect(dialog.getByTestId('stream-info-status')).toHaveAttribute('data-receiving', 'true', { timeout: 15_000 });
    await expect(dialog.getByTestId('stream-info-not-arriving')).toHaveCount(0);
    // The viewer's player tries again on its own and plays the picture.
    await expect.poll(async () => (await viewerHall.media()).currentTime, { timeout: 20_000 }).toBeGreaterThan(1);
    await expect(viewer.page.getByTestId('broadcast-off-air')).toHaveCount(0);

    // Both play at the live edge: each within 3 s of the newest data it holds, and the two within
    // 1 s of each other (both get the newest data at once from the same server, so the difference
    // of their distances to it is the distance between them). Closing the dialog, the host watches too.
    await host.page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
    const behindLiveEdge = (page: typeof host.page) =>
      page.getByTestId('player-video').evaluate((video: HTMLVideoElement) => {
        const { buffered } = video;
        return !video.paused && buffered.length > 0 ? buffered.end(buffered.length - 1) - video.currentTime : Number.POSITIVE_INFINITY;
      });
    // A player that starts behind catches up by playing faster (not by a jump), so wait until that is done.
    const apart = async () => {
      const [hostBehind, viewerBehind] = await Promise.all([behindLiveEdge(host.page), behindLiveEdge(viewer.page)]);
      return Math.max(hostBehind, viewerBehind) < 3 && Math.abs(hostBehind - viewerBehind) < 0.5;
    };
    await expect.poll(apart, { timeout: 30_000 }).toBe(true);
    const samples: { host: number; viewer: number }[] = [];
    for (let i = 0; i < 5; i += 1) {
      const [hostBehind, viewerBehind] = await Promise.all([behindLiveEdge(host.page), behindLiveEdge(viewer.page)]);
      samples.push({ host: hostBehind, viewer: viewerBehind });
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    for (const sample of samples) {
      expect(sample.host).toBeLessThan(3);
      expect(sample.viewer).toBeLessThan(3);
      expect(Math.abs(sample.host - sample.viewer)).toBeLessThan(1);
    }

    // A danmaku typed in the player in fullscreen flies over the viewer's picture.
    await host.page.getByTestId('player-fullscreen').click();
    await expect.poll(() => host.page.evaluate(() => document.fullscreenElement !== null)).toBe(true);
    const danmaku = host.page.getByTestId('player-danmaku-input');
    await danmaku.fill('hello from fullscreen');
    await danmaku.press('Enter');
    await expect(viewer.page.getByTestId('danmaku-layer')).toContainText('hello from fullscreen');
    expect(await host.page.evaluate(() => document.fullscreenElement !== null)).toBe(true);

    // The viewer switches to the HLS remux: its segments come disguised as PNG (v0.9.11's default),
    // and the player strips the image and plays the MPEG-TS behind it.
    const pngSegments: string[] = [];
    viewer.page.on('response', (response) => {
      if (response.url().includes('/live/hls/data/') && response.headers()['content-type'] === 'image/png') pngSegments.push(response.url());
    });
    await viewer.page.getByTestId('source-select').selectOption({ label: 'HLS' });
    await expect.poll(() => pngSegments.length, { timeout: 20_000 }).toBeGreaterThan(0);
    const hlsStart = (await viewerHall.media()).currentTime;
    await expect.poll(async () => (await viewerHall.media()).currentTime, { timeout: 20_000 }).toBeGreaterThan(hlsStart + 1);
    await expect(viewer.page.getByTestId('player-problem')).toHaveCount(0);
  } finally {
    encoder.kill('SIGKILL');
  }
  await expect(viewer.page.getByTestId('broadcast-off-air')).toHaveAttribute('data-state', 'ended', { timeout: 15_000 });

  // Only the broadcaster has the key: for the viewer "Stream info" is disabled with the reason.
  await viewer.page.getByTestId('movie-actions').first().click();
  const item = viewer.page.getByTestId('movie-stream-info');
  await expect(item).toHaveAttribute('aria-disabled', 'true');
  await expect(item).toContainText('Only the person who created this broadcast');
  expect(host.errors).toEqual([]);
  expect(viewer.errors).toEqual([]);
});

test('a broadcast in a codec browsers cannot play says which, and what to set in OBS', async ({ app, actors }) => {
  const host = await actors.user('host');
  const viewer = await actors.user('viewer');
  const roomId = await app.api.createRoom(host.token!, uniqueName('live-codec'));
  await app.api.joinRoom(viewer.token!, roomId);
  const movieId = await app.api.pushMovie(host.token!, roomId, { name: 'Old encoder', url: '', live: true, rtmpSource: true, type: 'flv' });
  await app.api.setCurrent(host.token!, roomId, movieId);
  const key = await app.api.request('POST', '/api/room/movie/live/publishKey', { token: host.token, roomId, json: { id: movieId } });
  const { host: pushHost, app: pushApp, token } = (key.body as { data: { host: string; app: string; token: string } }).data;

  // Sorenson H.263 video (FLV's oldest codec), which no browser decodes.
  const encoder = push(`rtmp://${pushHost}/${pushApp}/${token}`, ['-c:v', 'flv1', '-c:a', 'aac']);
  try {
    const hall = new CinemaPage(viewer.page, app.origin);
    await hall.goto(roomId);
    const problem = viewer.page.getByTestId('player-problem');
    await expect(problem).toContainText('This broadcast uses Sorenson H.263', { timeout: 20_000 });
    await expect(problem).toContainText('x264 (H.264)');
    await expect(viewer.page.getByTestId('broadcast-off-air')).toHaveCount(0);
  } finally {
    encoder.kill('SIGKILL');
  }
  expect(viewer.errors).toEqual([]);
});

/** The live movie's stream key route's answer: where an encoder pushes `movieId`. */
async function pushUrl(app: { api: { request: (method: string, path: string, options: { token?: string; roomId?: string; json?: unknown }) => Promise<{ body: unknown }> } }, token: string, roomId: string, movieId: string): Promise<string> {
  const key = await app.api.request('POST', '/api/room/movie/live/publishKey', { token, roomId, json: { id: movieId } });
  const { host, app: room, token: streamKey } = (key.body as { data: { host: string; app: string; token: string } }).data;
  return `rtmp://${host}/${room}/${streamKey}`;
}

test('a push that arrives while another movie is current plays for the room; one its maker may not play says who can', async ({ app, actors, media }) => {
  test.setTimeout(120_000);
  const host = await actors.user('host');
  const viewer = await actors.user('viewer');
  const roomId = await app.api.createRoom(host.token!, uniqueName('live-over'));
  await app.api.joinRoom(viewer.token!, roomId);
  const earlier = await app.api.pushMovie(host.token!, roomId, { url: `${media.url}/mp4/clip.mp4`, name: 'earlier film' });
  await app.api.setCurrent(host.token!, roomId, earlier);
  const hostHall = new CinemaPage(host.page, app.origin);
  const viewerHall = new CinemaPage(viewer.page, app.origin);
  for (const hall of [hostHall, viewerHall]) {
    await hall.goto(roomId);
    await hall.waitConnected();
  }
  await expect(viewerHall.currentMovieName).toHaveText('earlier film');

  const encoders: ChildProcess[] = [];
  try {
    await test.step("the room's creator goes live: the room plays the broadcast, and the dialog says everyone sees it", async () => {
      await hostHall.openPushForm();
      await host.page.getByTestId('movie-push-mode-live').click();
      await host.page.getByLabel('Name of the broadcast').fill('Friday stream');
      await host.page.getByTestId('movie-push-submit').click();
      const dialog = host.page.getByTestId('stream-info-dialog');
      await expect(dialog).toBeVisible();
      // A room that plays something keeps it until the push arrives.
      await expect(viewerHall.currentMovieName).toHaveText('earlier film');
      const server = await dialog.getByTestId('stream-info-server').inputValue();
      await dialog.getByTestId('stream-info-show-key').click();
      encoders.push(push(`${server}${await dialog.getByTestId('stream-info-key').inputValue()}`));
      await expect(dialog.getByTestId('stream-info-status')).toHaveAttribute('data-receiving', 'true', { timeout: 15_000 });
      await expect(dialog.getByTestId('stream-info-status')).toContainText('everyone in the room sees it');
      await expect(viewerHall.currentMovieName).toHaveText('Friday stream');
      await expect.poll(async () => (await viewerHall.media()).currentTime, { timeout: 20_000 }).toBeGreaterThan(1);
      await host.page.keyboard.press('Escape');
    });

    await test.step('a member who may add movies but not play them goes live: told nobody sees it yet and who can play it; the creator plays it', async () => {
      await app.api.setCurrent(host.token!, roomId, earlier);
      await app.api.setMemberPermissions(host.token!, roomId, viewer.token!, DefaultPermissions | Permission.AddMovie);
      await expect(viewerHall.currentMovieName).toHaveText('earlier film');
      await viewerHall.openPushForm();
      await viewer.page.getByTestId('movie-push-mode-live').click();
      await viewer.page.getByLabel('Name of the broadcast').fill('from the sofa');
      await viewer.page.getByTestId('movie-push-submit').click();
      const dialog = viewer.page.getByTestId('stream-info-dialog');
      const server = await dialog.getByTestId('stream-info-server').inputValue();
      await dialog.getByTestId('stream-info-show-key').click();
      encoders.push(push(`${server}${await dialog.getByTestId('stream-info-key').inputValue()}`));
      await expect(dialog.getByTestId('stream-info-status')).toContainText('nobody sees it yet', { timeout: 15_000 });
      await expect(dialog.getByTestId('stream-info-not-playing')).toContainText('ask the room’s creator');
      await expect(hostHall.currentMovieName).toHaveText('earlier film');
      await hostHall.playMovie('from the sofa');
      await expect(dialog.getByTestId('stream-info-status')).toContainText('everyone in the room sees it');
      await expect.poll(async () => (await hostHall.media()).currentTime, { timeout: 20_000 }).toBeGreaterThan(1);
    });
  } finally {
    for (const encoder of encoders) encoder.kill('SIGKILL');
  }
  expect(host.errors).toEqual([]);
  expect(viewer.errors).toEqual([]);
});

test('the end of a broadcast reads the same over HTTP-FLV and HLS, and both pick a new push up within 5 s', async ({ app, actors }) => {
  test.setTimeout(120_000);
  const host = await actors.user('host');
  const flvViewer = await actors.user('flv');
  const hlsViewer = await actors.user('hls');
  const roomId = await app.api.createRoom(host.token!, uniqueName('live-end'));
  for (const viewer of [flvViewer, hlsViewer]) await app.api.joinRoom(viewer.token!, roomId);
  const movieId = await app.api.pushMovie(host.token!, roomId, { name: 'Stream', url: '', live: true, rtmpSource: true, type: 'flv' });
  await app.api.setCurrent(host.token!, roomId, movieId);
  const url = await pushUrl(app, host.token!, roomId, movieId);
  const halls = [new CinemaPage(flvViewer.page, app.origin), new CinemaPage(hlsViewer.page, app.origin)];
  for (const hall of halls) await hall.goto(roomId);
  const offAir = (viewer: typeof host) => viewer.page.getByTestId('broadcast-off-air');
  const onAir = async (hall: CinemaPage, viewer: typeof host) => {
    await expect(offAir(viewer)).toHaveCount(0);
    const at = (await hall.media()).currentTime;
    await expect.poll(async () => (await hall.media()).currentTime, { timeout: 20_000 }).toBeGreaterThan(at + 0.5);
  };

  let encoder = push(url);
  try {
    await expect.poll(async () => (await halls[0].media()).currentTime, { timeout: 20_000 }).toBeGreaterThan(1);
    await hlsViewer.page.getByTestId('source-select').selectOption({ label: 'HLS' });
    await expect.poll(() => halls[1].video.evaluate((video: HTMLVideoElement) => video.currentSrc), { timeout: 10_000 }).toMatch(/^blob:/);
    await onAir(halls[1], hlsViewer);

    await test.step('the encoder stops: both read that the broadcast ended', async () => {
      encoder.kill('SIGKILL');
      for (const viewer of [flvViewer, hlsViewer]) await expect(offAir(viewer)).toHaveAttribute('data-state', 'ended', { timeout: 20_000 });
      // And stay so while they try again.
      await flvViewer.page.waitForTimeout(4000);
      for (const viewer of [flvViewer, hlsViewer]) await expect(offAir(viewer)).toContainText('The broadcast ended');
    });

    await test.step('the encoder starts again: both play within 5 s of the push arriving', async () => {
      encoder = push(url);
      const flv = `${app.origin}/api/room/movie/live/flv/${movieId}.flv?token=${host.token}&roomId=${roomId}`;
      await expect.poll(async () => (await fetch(flv, { method: 'HEAD' })).status, { timeout: 15_000, intervals: [100] }).toBe(200);
      for (const viewer of [flvViewer, hlsViewer]) await expect(offAir(viewer)).toHaveCount(0, { timeout: 5000 });
      await onAir(halls[0], flvViewer);
      await onAir(halls[1], hlsViewer);
    });
  } finally {
    encoder.kill('SIGKILL');
  }
  expect(flvViewer.errors).toEqual([]);
  expect(hlsViewer.errors).toEqual([]);
});
