/**
 * One room across two instances, as people see it (docs/deployment.md "Running more than one
 * instance"): two companion servers on one throwaway PostgreSQL and one throwaway Redis (Debian's
 * binaries, started here), each serving the exported client. A's browser talks only to the first,
 * B's only to the second: B signs in there with the account made on the first, both watch the clip
 * in step, B's chat reaches A, and A's ban closes B's hall. Solo project: it measures sync.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startServer, type RunningServer } from '../server/app';
import { startPostgres, type TestPostgres } from '../server/test-support/postgres';
import { startRedis, type TestRedis } from '../server/test-support/redis';
import { expect, ROOT_PASSWORD, seedToken, test, USER_PASSWORD } from './fixtures';
import { CinemaPage } from './pages/cinema-page';
import { LoginPage } from './pages/login-page';
import { SeedApi, uniqueName } from './support/api';
import { collectPageErrors } from './support/page-errors';
import { describe, isPlaying, samplePair, type PairSample } from './support/playback';
import { pollUntil } from './support/poll';
import { SYNC_TOLERANCE_SEC } from './support/watch-party';

/** Steady play across instances: the 95th percentile of the drift must stay within two frames at 60 fps (ms). */
const STEADY_P95_MS = 33;
/** Steady-play samples, one every 200 ms. */
const STEADY_SAMPLES = 40;

const repoRoot = path.resolve(__dirname, '..');

interface Instance {
  origin: string;
  api: SeedApi;
  server: RunningServer;
}

let postgres: TestPostgres | undefined;
let redis: TestRedis | undefined;
let dataDir = '';
const instances: Instance[] = [];

function pairText(pair: PairSample): string {
  return `A ${describe(pair.a)} | B ${describe(pair.b)} | A−B ${pair.driftSec.toFixed(3)} s`;
}

const together = (pair: PairSample) => isPlaying(pair.a) && isPlaying(pair.b) && Math.abs(pair.driftSec) < SYNC_TOLERANCE_SEC;

test.beforeAll(async () => {
  test.setTimeout(90_000);
  [postgres, redis] = await Promise.all([startPostgres(), startRedis()]);
  // One data directory for both, as one host runs them: it holds the JWT secret they share.
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'synctv-e2e-cluster-'));
  for (let i = 0; i < 2; i += 1) {
    const server = await startServer({
      port: 0,
      host: '127.0.0.1',
      dataDir,
      rootPassword: ROOT_PASSWORD,
      webDir: path.join(repoRoot, 'out'),
      databaseUrl: postgres.url,
      redisUrl: redis.url,
      logLevel: process.env.E2E_SERVER_LOG === '1' ? 'info' : 'silent',
      rateLimitScale: 0,
    });
    const origin = `http://127.0.0.1:${server.port}`;
    instances.push({ origin, api: new SeedApi(origin), server });
  }
});

test.afterAll(async () => {
  for (const instance of instances.splice(0)) await instance.server.close();
  await redis?.stop();
  await postgres?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

test('two browsers on two instances watch one room in step, chat across, and a ban on one closes the hall on the other', async ({ tabs, cspGuard, media }) => {
  test.setTimeout(120_000);
  const [one, two] = instances;
  const aName = uniqueName('ca');
  const bName = uniqueName('cb');
  const aToken = await one.api.signup(aName, USER_PASSWORD);
  await one.api.signup(bName, USER_PASSWORD);
  const roomId = await one.api.createRoom(aToken, uniqueName('cluster'));
  const movieId = await one.api.pushMovie(aToken, roomId, { url: `${media.url}/clip/index.m3u8`, name: 'Timecode clip' });
  await one.api.setCurrent(aToken, roomId, movieId);

  // Tabs kept across the worker's tests, each reset to a fresh context's state (e2e/support/tab-pool.ts).
  const tabA = await tabs.take();
  const tabB = await tabs.take();
  for (const tab of [tabA, tabB]) cspGuard(tab.context);
  await seedToken(tabA.context, aToken);
  const pageA = tabA.page;
  const pageB = tabB.page;
  const errors = [pageA, pageB].map(collectPageErrors);
  const cinemaA = new CinemaPage(pageA, one.origin);
  const cinemaB = new CinemaPage(pageB, two.origin);

  await test.step('B signs in on the second instance with the account made on the first, and joins the room there', async () => {
    const login = new LoginPage(pageB, two.origin);
    await login.goto();
    await login.login(bName, USER_PASSWORD);
    const bToken = await pageB.evaluate(() => window.localStorage.getItem('userToken'));
    expect(bToken, 'the second instance signed B in').toBeTruthy();
    await two.api.joinRoom(bToken!, roomId);
  });

  await test.step('A on the first and B on the second play the clip together', async () => {
    await cinemaA.goto(roomId);
    await cinemaB.goto(roomId);
    await cinemaA.waitConnected();
    await cinemaB.waitConnected();
    // The viewer count covers both instances.
    await expect(cinemaA.viewerCount).toContainText('2');
    await expect(cinemaB.viewerCount).toContainText('2');
    const joined = await pollUntil(() => samplePair(pageA, pageB), together, { timeoutMs: 15_000 });
    expect(joined.ok, `never playing in step: ${pairText(joined.last)}`).toBe(true);
  });

  await test.step("A pauses and plays on the first instance: B follows on the second", async () => {
    await expect(pageA.getByTestId('sync-indicator')).toHaveAttribute('data-state', 'in-sync');
    await cinemaA.pause();
    const paused = await pollUntil(
      () => samplePair(pageA, pageB),
      (pair) => pair.a.paused && pair.b.paused && Math.abs(pair.driftSec) < SYNC_TOLERANCE_SEC,
      { timeoutMs: 4000 },
    );
    expect(paused.ok, `B did not pause with A: ${pairText(paused.last)}`).toBe(true);
    await cinemaA.play();
    const played = await pollUntil(() => samplePair(pageA, pageB), together, { timeoutMs: 4000 });
    expect(played.ok, `B did not play with A: ${pairText(played.last)}`).toBe(true);
    console.log(`[cluster] B paused ${paused.elapsedMs} ms and played in step ${played.elapsedMs} ms after A's actions`);
  });

  await test.step(`steady play: 95 % of ${STEADY_SAMPLES} samples within ${STEADY_P95_MS} ms`, async () => {
    await pageA.waitForTimeout(1500);
    const drifts: number[] = [];
    for (let i = 0; i < STEADY_SAMPLES; i += 1) {
      const pair = await samplePair(pageA, pageB);
      expect(together(pair), `apart in steady play: ${pairText(pair)}`).toBe(true);
      drifts.push(Math.abs(pair.driftSec) * 1000);
      await pageA.waitForTimeout(200);
    }
    drifts.sort((x, y) => x - y);
    const p95 = drifts[Math.ceil(STEADY_SAMPLES * 0.95) - 1];
    console.log(`[cluster] steady drift median ${drifts[STEADY_SAMPLES / 2].toFixed(1)} ms, p95 ${p95.toFixed(1)} ms, max ${drifts.at(-1)!.toFixed(1)} ms`);
    expect(p95, 'steady p95 drift across instances (ms)').toBeLessThanOrEqual(STEADY_P95_MS);
  });

  await test.step('B chats on the second instance: A reads it on the first', async () => {
    const line = `hello across ${uniqueName('x')}`;
    await cinemaB.sendChat(line);
    await expect(cinemaA.chatMessages.filter({ hasText: line })).toHaveCount(1);
  });

  await test.step("A bans B on the first instance: B's hall on the second closes with the reason", async () => {
    await cinemaA.openMembers();
    await pageA.getByTestId('members-filter-all').click();
    await expect(cinemaA.memberRow(bName).getByTestId('member-online')).toContainText('Online');
    await cinemaA.memberAction(bName, 'ban');
    await pageA.getByTestId('confirm-ok').click();
    await expect(pageB).toHaveURL((url) => url.pathname === `/web/joinRoom/${roomId}/`, { timeout: 15_000 });
    await expect(pageB.getByTestId('join-room-message')).toContainText('banned');
  });

  expect(errors.flat(), 'uncaught page errors').toEqual([]);
  expect(existsSync(path.join(dataDir, 'synctv.db')), 'a SQLite file beside PostgreSQL').toBe(false);
  // Back to the pool only after a pass (a failed test's tabs close with the worker, kept for its trace).
  for (const tab of [tabA, tabB]) await tabs.release(tab, true);
});
