/**
 * The movie proxy through the UI (docs/contract.md §4.5): a movie added with "Play
 * through the server" plays with every request going to the companion server, and a source on this
 * machine's own address is refused at the URL field.
 */
import path from 'node:path';
import { expect, PROXY_MEDIA_HOST, test } from './fixtures';
import { CinemaPage } from './pages/cinema-page';
import { uniqueName } from './support/api';
import { startMediaServer } from './support/media-server';

test('a proxied HLS movie plays through the server, and a local address is refused', async ({ app, actors, media }) => {
  const source = await startMediaServer(path.join(__dirname, 'media'), PROXY_MEDIA_HOST);
  try {
    const a = await actors.user('owner');
    const roomId = await app.api.createRoom(a.token!, uniqueName('proxy'));
    const cinema = new CinemaPage(a.page, app.origin);
    const requested: string[] = [];
    a.page.on('request', (request) => requested.push(request.url()));
    await cinema.goto(roomId);
    await cinema.waitConnected();

    await cinema.openPushForm();
    await a.page.getByTestId('movie-push-url').fill(`${source.url}/clip/index.m3u8`);
    await a.page.getByTestId('movie-push-name').fill('proxied clip');
    await a.page.getByTestId('movie-push-advanced').locator('summary').click();
    await a.page.getByTestId('movie-push-proxy').check();
    await a.page.getByTestId('movie-push-submit').click();
    await expect(cinema.movieItem('proxied clip')).toContainText('Proxy');
    // Nothing played: the added movie plays at once.
    await expect(cinema.currentMovieName).toHaveText('proxied clip');
    await cinema.waitMediaLoaded();
    const fetched = requested.filter((url) => url.includes('/clip/') || url.includes('/movie/proxy/'));
    // Segments came through the companion server; the browser never asked the source itself.
    expect(fetched.some((url) => url.startsWith(`${app.origin}/api/room/movie/proxy/`) && url.includes('/m3u8/'))).toBe(true);
    expect(fetched.filter((url) => url.startsWith(source.url))).toEqual([]);

    // The usual test media server listens on 127.0.0.1, this machine's own address: refused, at the field.
    await a.page.getByTestId('movie-push-url').fill(`${media.url}/clip/index.m3u8`);
    await a.page.getByTestId('movie-push-name').fill('local clip');
    await a.page.getByTestId('movie-push-submit').click();
    await expect(a.page.locator('#movie-push-url-error')).toContainText("local network can't be proxied");
    await expect(cinema.movieItem('local clip')).toHaveCount(0);
    expect(a.errors).toEqual([]);
  } finally {
    await source.close();
  }
});
