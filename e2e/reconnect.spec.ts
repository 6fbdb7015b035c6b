/**
 * Reconnect: the companion server restarts while two viewers play the committed HLS clip.
 * Without anyone touching anything, both sockets come back (`ws-state` open) within a few seconds,
 * both players keep playing, and they are within 100 ms of each other again shortly after.
 *
 * The server here is this test's own (same port and data directory across the restart, like a real
 * restart), not the worker's shared one, so stopping it disturbs no other test.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { startServer, type RunningServer } from '../server/app';
import { test as base, expect, ROOT_PASSWORD, seedToken, USER_PASSWORD } from './fixtures';
import { CinemaPage } from './pages/cinema-page';
import { SeedApi, uniqueName } from './support/api';
import { collectPageErrors } from './support/page-errors';
import { describe, isPlaying, samplePair, type PairSample } from './support/playback';
import { pollUntil } from './support/poll';

/** Largest position difference between the two viewers that counts as in sync. */
const SYNC_TOLERANCE_SEC = 0.1;
/** How long the server stays down: long enough for every client to notice and back off at least once. */
const DOWNTIME_MS = 1500;

/** A companion server that can be restarted on the same port and data directory. */
interface RestartableServer {
  origin: string;
  api: SeedApi;
  /** Stops the server (every socket drops), waits `downMs`, and starts it again. */
  restart(downMs: number): Promise<void>;
}

const test = base.extend<{ restartable: RestartableServer }>({
  restartable: async ({}, use) => {
    const webDir = path.resolve(__dirname, '..', 'out');
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'synctv-e2e-restart-'));
    const options = { host: '127.0.0.1', dataDir, webDir, rootPassword: ROOT_PASSWORD, rateLimitScale: 0 };
    let server: RunningServer = await startServer({ ...options, port: 0 });
    const { port } = server;
    const origin = `http://127.0.0.1:${port}`;
    await use({
      origin,
      api: new SeedApi(origin),
      async restart(downMs) {
        await server.close();
        await new Promise((resolve) => setTimeout(resolve, downMs));
        server = await startServer({ ...options, port });
      },
    });
    await server.close();
    await rm(dataDir, { recursive: true, force: true });
  },
});

interface Viewer {
  page: Page;
  cinema: CinemaPage;
  errors: string[];
}

/** The viewers' contexts, closed after each test: players left running would load the machine for the next tests. */
const opened: BrowserContext[] = [];
test.afterEach(async () => {
  for (const context of opened.splice(0)) await context.close();
});

async function openViewer(browser: Browser, origin: string, token: string, roomId: string): Promise<Viewer> {
  const context = await browser.newContext();
  opened.push(context);
  await seedToken(context, token);
  const page = await context.newPage();
  const errors = collectPageErrors(page);
  const cinema = new CinemaPage(page, origin);
  await cinema.goto(roomId);
  return { page, cinema, errors };
}

function wsState(page: Page): Promise<string | null> {
  return page.getByTestId('ws-state').getAttribute('data-state');
}

function pairText(pair: PairSample): string {
  return `A ${describe(pair.a)} | B ${describe(pair.b)} | A−B ${pair.driftSec.toFixed(3)} s`;
}

function note(type: string, description: string): void {
  test.info().annotations.push({ type, description });
  console.log(`[${type}] ${description}`);
}

test('both viewers reconnect, keep playing and resync after a server restart, with no action', async ({ browser, restartable, media }) => {
  test.setTimeout(90_000);
  const { api, origin } = restartable;
  const aName = uniqueName('ra');
  const bName = uniqueName('rb');
  const aToken = await api.signup(aName, USER_PASSWORD);
  const bToken = await api.signup(bName, USER_PASSWORD);
  const roomId = await api.createRoom(aToken, uniqueName('restart'));
  const joined = await fetch(`${origin}/api/room/login`, {
    method: 'POST',
    headers: { Authorization: bToken, 'Content-Type': 'application/json' },
    body: JSON.stringify({ roomId, password: '' }),
  });
  expect(joined.status, 'B could not join the room').toBe(200);
  const movieId = await api.pushMovie(aToken, roomId, { url: `${media.url}/clip/index.m3u8`, name: 'Timecode clip' });
  await api.setCurrent(aToken, roomId, movieId);

  const a = await openViewer(browser, origin, aToken, roomId);
  const b = await openViewer(browser, origin, bToken, roomId);
  await a.cinema.waitConnected();
  await b.cinema.waitConnected();
  const before = await pollUntil(
    () => samplePair(a.page, b.page),
    (pair) => isPlaying(pair.a) && isPlaying(pair.b) && Math.abs(pair.driftSec) < SYNC_TOLERANCE_SEC,
    { timeoutMs: 10_000 },
  );
  expect(before.ok, `not playing in sync before the restart: ${pairText(before.last)}`).toBe(true);
  // Let them play a little, so the restart hits steady playback.
  await a.page.waitForTimeout(2000);

  const restarting = restartable.restart(DOWNTIME_MS);
  // Both notice the drop (the badge leaves "open") while the server is down.
  await expect.poll(() => wsState(a.page), { timeout: DOWNTIME_MS }).not.toBe('open');
  await expect.poll(() => wsState(b.page), { timeout: DOWNTIME_MS }).not.toBe('open');
  await restarting;
  const backAt = Date.now();

  // Reconnected on their own: the backoff is capped at 3.2 s.
  await expect.poll(() => wsState(a.page), { timeout: 5000, message: 'A did not reconnect within 5 s' }).toBe('open');
  await expect.poll(() => wsState(b.page), { timeout: 5000, message: 'B did not reconnect within 5 s' }).toBe('open');
  const reconnectedMs = Date.now() - backAt;

  const after = await pollUntil(
    () => samplePair(a.page, b.page),
    (pair) => isPlaying(pair.a) && isPlaying(pair.b) && Math.abs(pair.driftSec) < SYNC_TOLERANCE_SEC,
    { timeoutMs: 5000 },
  );
  expect(after.ok, `not back in sync 5 s after reconnecting: ${pairText(after.last)}`).toBe(true);
  note('reconnect', `both open ${reconnectedMs} ms after the server was back; in sync ${after.elapsedMs} ms later, A−B ${after.last.driftSec.toFixed(3)} s`);

  // And they stay together, still playing.
  await a.page.waitForTimeout(1500);
  const later = await samplePair(a.page, b.page);
  expect(isPlaying(later.a) && isPlaying(later.b), `stopped playing after the restart: ${pairText(later)}`).toBe(true);
  expect(Math.abs(later.driftSec), `drifted apart after the restart: ${pairText(later)}`).toBeLessThan(SYNC_TOLERANCE_SEC);
  expect([...a.errors, ...b.errors]).toEqual([]);
});
