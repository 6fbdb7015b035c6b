import type { Page } from '@playwright/test';
import { expect, test as base, USER_PASSWORD, webUrl } from './fixtures';
import { uniqueName } from './support/api';
import { buildPreviewExport } from './support/preview-build';
import { settle } from './support/route-cases';
import { startStaticHost, type StaticHost } from './support/static-host';

/**
 * Serving mode 3: a preview host serves the export from its own origin, a build made with
 * NEXT_PUBLIC_API_ORIGIN pointing at the API server (here the e2e companion server). Every API call
 * and the room WebSocket must go to that origin (its CORS allows it), never to the preview host,
 * which has no API at all. The host is a plain static server whose unknown paths get `404.html`,
 * so a deep link into a room also exercises the route boot script's 404 path.
 */
/** Both tests in one worker: the preview build (`next build` in `.next/`) must not run twice at once. */
base.describe.configure({ mode: 'default' });

const test = base.extend<object, { preview: StaticHost }>({
  preview: [
    async ({ app }, use) => {
      const host = await startStaticHost(await buildPreviewExport(app.origin));
      await use(host);
      await host.close();
    },
    { scope: 'worker', timeout: 240_000 },
  ],
});

const CLIP_NAME = 'Preview clip';

/** Origins of the page's API requests and WebSockets, recorded from the first navigation on. */
function recordTraffic(page: Page) {
  const traffic = { api: [] as string[], sockets: [] as string[] };
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith('/api/')) traffic.api.push(request.url());
  });
  page.on('websocket', (socket) => traffic.sockets.push(socket.url()));
  return traffic;
}

test('login, the room list and the viewing hall work from the preview origin, talking to the API origin', async ({ app, preview, media, actors }) => {
  const owner = uniqueName('owner');
  const ownerToken = await app.api.signup(owner, USER_PASSWORD);
  const roomName = uniqueName('preview');
  const roomId = await app.api.createRoom(ownerToken, roomName);
  const movieId = await app.api.pushMovie(ownerToken, roomId, { url: `${media.url}/clip/index.m3u8`, name: CLIP_NAME });
  await app.api.setCurrent(ownerToken, roomId, movieId);

  const viewer = await actors.visitor('pv');
  await app.api.signup(viewer.username, viewer.password);
  const { page } = viewer;
  const traffic = recordTraffic(page);

  await test.step('log in on the preview host', async () => {
    await page.goto(webUrl(preview.origin, '/auth/login'));
    await page.getByTestId('login-username').fill(viewer.username);
    await page.getByTestId('login-password').fill(viewer.password);
    await page.getByTestId('login-submit').click();
    await expect(page.getByTestId('header-username')).toContainText(viewer.username);
  });

  await test.step('find the room in the room list and join it', async () => {
    await page.getByTestId('nav-rooms').first().click();
    const card = page.locator(`[data-testid="room-card"][data-room-id="${roomId}"]`);
    await expect(card).toBeVisible();
    await card.getByTestId('room-join').click();
    await expect(page.getByTestId('page-cinema')).toHaveAttribute('data-room-id', roomId);
    await expect(page.getByTestId('ws-state')).toHaveAttribute('data-state', 'open');
    await expect(page.getByTestId('current-movie-name')).toContainText(CLIP_NAME);
    await expect
      .poll(() => page.getByTestId('player-video').evaluate((video: HTMLVideoElement) => video.readyState), {
        message: 'the clip never shows a frame',
      })
      .toBeGreaterThanOrEqual(2);
  });

  const apiWs = `${app.origin.replace(/^http/, 'ws')}/api/room/ws`;
  expect(traffic.sockets.length, 'room WebSockets opened').toBeGreaterThan(0);
  for (const url of traffic.sockets) expect(url.startsWith(apiWs), `WebSocket ${url} goes to ${apiWs}`).toBe(true);
  expect(traffic.api.length, 'API calls made').toBeGreaterThan(0);
  for (const url of traffic.api) expect(url.startsWith(`${app.origin}/api/`), `API call ${url} goes to ${app.origin}`).toBe(true);
  await settle(page);
  expect(viewer.errors).toEqual([]);
});

test('a deep link into a room opens it on the preview host, whose unknown paths answer 404.html', async ({ app, preview, actors }) => {
  const user = await actors.user('pvd');
  const roomId = await app.api.createRoom(user.token!, uniqueName('deep'));
  const traffic = recordTraffic(user.page);
  const url = webUrl(preview.origin, `/cinema/${roomId}`);

  const first = await user.page.goto(url);
  expect(first?.status(), 'the preview host has no file for a real room id').toBe(404);
  await expect(user.page.getByTestId('page-cinema')).toHaveAttribute('data-room-id', roomId);
  await expect(user.page).toHaveURL(url);
  await expect(user.page.getByTestId('ws-state')).toHaveAttribute('data-state', 'open');
  for (const socket of traffic.sockets) expect(socket.startsWith(app.origin.replace(/^http/, 'ws'))).toBe(true);
  expect(traffic.sockets.length).toBeGreaterThan(0);
  await settle(user.page);
  expect(user.errors).toEqual([]);
});
