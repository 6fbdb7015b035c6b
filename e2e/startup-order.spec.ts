/**
 * Start-up order (docs/reference-client.md §6): on a direct load, no screen calls the API before
 * `GET /api/user/me` (when a token is stored) and `GET /api/public/settings`, sent at once, have finished.
 * A room link is the exception that saves a phone's round trips (lib/room/early-start.ts): its
 * document sends the start-up's reads and the room's at once, before the hall's code has run, and the
 * app uses those answers instead of asking again.
 */
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test, type Actor } from './fixtures';
import { CinemaPage } from './pages/cinema-page';
import { uniqueName } from './support/api';
import { startSyncTvStaticServer } from './support/synctv-static-server';

/** `start <path>` / `end <path>` for every API request of the page, in the order the browser saw them. */
function recordApiTraffic(page: Page): string[] {
  const log: string[] = [];
  const apiPath = (url: string) => {
    const { pathname } = new URL(url);
    return pathname.startsWith('/api/') || pathname.startsWith('/oauth2/') ? pathname : null;
  };
  page.on('request', (request) => {
    const path = apiPath(request.url());
    if (path) log.push(`start ${path}`);
  });
  const end = (request: { url(): string }) => {
    const path = apiPath(request.url());
    if (path) log.push(`end ${path}`);
  };
  page.on('requestfinished', end);
  page.on('requestfailed', end);
  return log;
}

/**
 * Checks the log: the start-up calls first (at once: neither waits for the other, bench/first-frame.ts),
 * both finished before any other call starts.
 */
function expectStartupFirst(log: string[], signedIn: boolean, screenCall: string): void {
  const startup = signedIn ? ['/api/user/me', '/api/public/settings'] : ['/api/public/settings'];
  const expectedHead = startup.flatMap((path) => [`start ${path}`, `end ${path}`]);
  const head = log.slice(0, expectedHead.length);
  expect([...head].sort(), `API traffic: ${log.join(', ')}`).toEqual([...expectedHead].sort());
  // Every start-up call starts before the first one ends.
  const firstEnd = head.findIndex((entry) => entry.startsWith('end '));
  expect(firstEnd, `API traffic: ${log.join(', ')}`).toBe(startup.length);
  expect(log).toContain(`start ${screenCall}`);
  if (!signedIn) expect(log).not.toContain('start /api/user/me');
}

const screens = [
  { name: 'home', route: '/', testId: 'page-home', call: '/api/room/hot' },
  { name: '/rooms', route: '/rooms', testId: 'page-rooms', call: '/api/room/list' },
];

for (const screen of screens) {
  for (const who of ['signed in', 'visitor'] as const) {
    test(`a direct load of ${screen.name} (${who}) calls ${who === 'signed in' ? '/api/user/me and ' : ''}/api/public/settings at once, then the screen's API`, async ({ app, actors }) => {
      const actor: Actor = who === 'signed in' ? await actors.user() : await actors.visitor();
      const log = recordApiTraffic(actor.page);
      const screenCall = actor.page.waitForResponse((response) => new URL(response.url()).pathname === screen.call);
      await actor.page.goto(app.url(screen.route));
      await expect(actor.page.getByTestId(screen.testId)).toBeVisible();
      await screenCall;
      expectStartupFirst(log, who === 'signed in', screen.call);
      expect(actor.errors).toEqual([]);
    });
  }
}

test("a room link's document asks for the user, the settings, the room and its movie before the hall's code runs, once each, and preloads the movie's engine and playlist", async ({ app, actors, media }) => {
  const owner = await actors.user('owner');
  const roomId = await app.api.createRoom(owner.token!, uniqueName('early'));
  const movieId = await app.api.pushMovie(owner.token!, roomId, { url: `${media.url}/clip/index.m3u8`, name: 'clip' });
  await app.api.setCurrent(owner.token!, roomId, movieId);
  const log = recordApiTraffic(owner.page);
  const hall = new CinemaPage(owner.page, app.origin);
  await hall.goto(roomId);
  await hall.waitConnected();
  await hall.waitMediaLoaded();

  const early = ['/api/user/me', '/api/public/settings', '/api/room/me', '/api/room/info', '/api/room/movie/current'];
  const starts = log.filter((entry) => entry.startsWith('start ')).map((entry) => entry.slice('start '.length));
  expect(starts.slice(0, early.length), `API traffic: ${log.join(', ')}`).toEqual(early);
  for (const path of ['/api/user/me', '/api/public/settings', '/api/room/me', '/api/room/info']) {
    expect(starts.filter((start) => start === path), `${path} once: ${log.join(', ')}`).toHaveLength(1);
  }
  // The reads started before the hall's script had come down, and the document added a preload of the
  // engine's chunk (a link the exported HTML does not have), which the player then used: one download.
  const timing = await owner.page.evaluate(() => {
    const entries = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
    const hallScript = entries.find((entry) => /\/cinema\/.*\/page-[^/]+\.js$/.test(decodeURIComponent(entry.name)));
    const current = entries.find((entry) => entry.name.endsWith('/api/room/movie/current'));
    const preloads = [...document.head.querySelectorAll<HTMLLinkElement>('link[rel="preload"][as="script"]')].map((link) => link.href);
    const playlists = entries.filter((entry) => entry.name.endsWith('/clip/index.m3u8')).map((entry) => entry.initiatorType);
    return { hallScriptEnd: hallScript?.responseEnd ?? null, currentStart: current?.startTime ?? null, preloads, names: entries.map((entry) => entry.name), playlists };
  });
  // The document fetched the movie's playlist too, and hls.js took that answer instead of asking again.
  expect(timing.playlists).toEqual(['fetch']);
  expect(timing.currentStart).not.toBeNull();
  expect(timing.hallScriptEnd).not.toBeNull();
  expect(timing.currentStart!).toBeLessThan(timing.hallScriptEnd!);
  const html = await (await owner.page.request.get(owner.page.url())).text();
  const added = timing.preloads.filter((href) => !html.includes(`href="${new URL(href).pathname}"`));
  expect(added, `preloads: ${timing.preloads.join(', ')}`).toHaveLength(1);
  expect(timing.names.filter((name) => name === added[0]), 'the engine chunk came down once').toHaveLength(1);
  expect(owner.errors).toEqual([]);
});

test("behind SyncTV's /web, which compresses nothing, a room link's document brings the movie's engine as its gzip copy and runs it, and the movie's first frame comes", async ({ app, actors, media }) => {
  const synctv = await startSyncTvStaticServer({ webDir: path.resolve(__dirname, '..', 'out'), apiOrigin: app.origin });
  const owner = await actors.user('owner');
  try {
    const roomId = await app.api.createRoom(owner.token!, uniqueName('packed'));
    const movieId = await app.api.pushMovie(owner.token!, roomId, { url: `${media.url}/clip/index.m3u8`, name: 'clip' });
    await app.api.setCurrent(owner.token!, roomId, movieId);
    const scripts: string[] = [];
    owner.page.on('request', (request) => {
      const { pathname } = new URL(request.url());
      if (pathname.startsWith('/web/_next/static/chunks/')) scripts.push(pathname);
    });
    const hall = new CinemaPage(owner.page, synctv.origin);
    await hall.goto(roomId);
    await hall.waitConnected();
    await hall.waitMediaLoaded();

    const packed = scripts.filter((name) => name.endsWith('.js.gz'));
    expect(packed, `chunks: ${scripts.join(', ')}`).toHaveLength(1);
    // The chunk itself never came down: webpack took the one the document ran (and the policy allowed it: cspGuard).
    const chunk = packed[0].slice(0, -'.gz'.length);
    expect(scripts.filter((name) => name === chunk)).toEqual([]);
    expect(await owner.page.evaluate((href) => document.querySelectorAll(`link[href="${href}"]`).length, chunk), 'no preload of the chunk').toBe(0);
    expect(owner.errors).toEqual([]);
  } finally {
    // The room's socket goes through the server as an upgraded connection, which its close would wait for.
    await owner.page.goto('about:blank');
    await synctv.close();
  }
});
