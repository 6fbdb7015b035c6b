/**
 * `npm run size`: the JavaScript a browser downloads until each screen is usable, gzip-compressed,
 * against the budgets below. Run it after `npm run build` (it measures ./out).
 *
 * How: the companion server serves ./out on a random port; Debian's Chromium (never a downloaded
 * one) opens each route in a fresh context (empty cache) and every script response body is
 * compressed with zlib gzip level 9 (what `gzip -9` and the usual size tools report), then summed.
 * "Usable" = the screen's `page-<route>` root is visible and no script has been requested for
 * QUIET_MS. Link prefetches (Next fetching other routes' payloads and chunks for later clicks) are
 * refused, since they serve future navigations, not this screen. The viewing hall additionally
 * waits for the first video frame of the committed HLS clip (e2e/media/clip), so the player and
 * hls.js are included; its budget counts the scripts requested until that first frame, and the table also shows what it downloads after it (the
 * player's controls, which load once the picture is there) in the `after KB` column. Heavy parts must load only where they are used: a screen that downloads one
 * of LAZY_PARTS it does not need (hls.js outside the hall, sonner, Radix Dialog and DropdownMenu,
 * nprogress) fails.
 *
 * Prints a table (KB = 1024 bytes) and a `Size checks: N passed, N failed` line, and exits 1 when a
 * budget is exceeded, a lazy part came down early, or a screen never became usable. Runs through tsx (`tsx scripts/size.mjs`) so it can start the TypeScript server in-process.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';
import { startServer } from '../server/app.ts';
import { SeedApi } from '../e2e/support/api.ts';
import { startMediaServer } from '../e2e/support/media-server.ts';
import { chromiumLaunchOptions } from '../e2e/support/chromium.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const WEB_DIR = path.join(ROOT, 'out');
const KB = 1024;
/** A screen counts as loaded once no script request has started for this long, ms. */
const QUIET_MS = 1500;
/** Longest wait for a screen to become usable, ms. */
const USABLE_TIMEOUT_MS = 30_000;
const PASSWORD = 'size-pass-123';
/** `--verbose`: also list every script of every screen with its gzip size. */
const VERBOSE = process.argv.includes('--verbose');

/**
 * Budgets in KB of gzip JavaScript: home and the viewing hall (to its first frame), every
 * other screen OTHER_BUDGET. The hall's grew from 320 as features landed, each time by what it
 * measured (docs/benchmarks.md "Size budget"), to 332.6; then down to 300.1; then to 300.5; then
 * to 300.9; then to 301.2; then to 301.3; then to 301.8 (measured 301.74 on 2026-12-08, from
 * 301.25: the autoplay policy's pause of a start with sound that no gesture allowed, a catch-up
 * start's learned latency and the learned cost of a rate change; docs/browsers.md "No browser moves
 * the room", docs/sync.md "Latencies"). 301.3 was (measured 301.25 on 2026-12-08, from 301.14: the speed
 * menu's redraw that asks for no rate and an own seek's late `seeked`, docs/browsers.md "No browser
 * moves the room"). 301.2 was (measured 301.1 on 2026-12-07, from 300.8: the machine's rule for a pause
 * or play the element already undid and the speed menu that shows the room's rate, not split
 * between the two; docs/player.md). 300.9 was (measured 300.8 on 2026-12-03, from 300.4: the sync
 * machine's five fixes found by replaying each
 * engine's recorded event orders, docs/browsers.md "Event orders"; issue 60). 300.5 was (measured
 * 300.1 on 2026-12-02, from 299.4, plus the 0.4 KB of variance: WebKit's seekable guard and the sync
 * engine's telling a browser's own pause and play from a person's, your own actions told to you,
 * the "Join the room" notice where even a muted start is refused; issue 60). Before, 300.1 (measured 299.7, plus the
 * 0.4 KB that what comes before the first frame varies by) once the error catalogue came with the
 * first error, the socket's codec through ts-proto instead of protobuf-es's reflection, and the
 * chat and the playlist after the first frame (2026-11-28, issue 48). It had grown to 332.6 with the sync engine as a pure state
 * machine beside its shell and the player and playlist split by concern (measured 332.6, from 330.2:
 * issue 48), before that to 330.6 with the evening's fixes (measured 330.2,
 * from 328.4 for the commit before on the same machine and hour: the sync engine's handling of a
 * source that cannot seek, the room session's "who did it" and its going on after the proxy is turned
 * on, the player's reasons for every engine and its source retries; the hosting guide and the notice
 * of who did what load when first shown), before that to 328.4 with the room socket's codec loaded
 * when the socket opens (measured 328.1, from 327.9: the socket's code in three chunks instead of
 * one, which a LAN still fetches before the first frame; a phone fetches it after the hall's code,
 * and its first frame comes up to 0.5 s sooner), before that to 328.2 with the handling of input before
 * hydration (measured 327.8, from 327.6: it is in every page's layout chunk, see home below), and
 * before that to 328 with the room link's early start
 * (measured 327.2, from 326.7: the start-up and the room session taking the document's early answers;
 * the first frame on the mobile profile came 0.7 s sooner); before that 327 with going live (measured 326.3: the
 * player's "waiting for the broadcaster" and "broadcast ended" states and their retry, the
 * playlist's "Stream info" item, their texts; the stream info dialog itself loads on first use;
 * before that 326 with the common start and the room label that tells the truth, measured 324.8;
 * what comes down before the first frame varies by up to
 * 0.4 KB with the machine's load, since a slower first frame lets one more chunk in); home's
 * from 150 to 152 (measured 151.8: the popular list's paging and refresh, and the header's Log in
 * and Register carrying the current page), then to 152.2 (measured 152.1, from 151.9: what a page
 * does with a menu tap and a form sent before it has hydrated, components/layout/early-input.ts,
 * which keeps a password out of the address).
 */
const BUDGETS = { home: 152.2, cinema: 301.8 };
const OTHER_BUDGET = 190;

/**
 * Heavy parts that must load only when used: a string each part's minified code keeps
 * (property names, attribute names, display names), and the screens that need the part before they
 * are usable. A screen that downloads a part it does not need fails, and so does one that needs a
 * part and did not download it.
 */
const LAZY_PARTS = [
  { name: 'hls.js', marker: 'manifestLoadingMaxRetry', neededOn: ['cinema'] },
  { name: 'sonner', marker: 'data-sonner-toaster', neededOn: [] },
  { name: 'Radix Dialog', marker: 'DialogContent', neededOn: [] },
  { name: 'Radix DropdownMenu', marker: 'DropdownMenuContent', neededOn: [] },
  { name: 'nprogress', marker: 'nprogress-custom-parent', neededOn: [] },
];

if (!existsSync(path.join(WEB_DIR, 'index.html'))) {
  console.error('out/index.html is missing: run `npm run build` first.');
  process.exit(1);
}

const dataDir = await mkdtemp(path.join(os.tmpdir(), 'synctv-size-'));
const server = await startServer({ port: 0, host: '127.0.0.1', dataDir, webDir: WEB_DIR, rootPassword: PASSWORD });
const media = await startMediaServer(path.join(ROOT, 'e2e', 'media'));
const browser = await chromium.launch({
  ...chromiumLaunchOptions,
});

let failed = false;
try {
  const origin = `http://127.0.0.1:${server.port}`;
  const api = new SeedApi(origin);
  const userToken = await api.signup(`size-${Date.now().toString(36)}`, PASSWORD);
  const rootToken = await api.login('root', PASSWORD);
  const roomId = await api.createRoom(userToken, 'size budget room');
  const movieId = await api.pushMovie(userToken, roomId, { url: `${media.url}/clip/index.m3u8`, name: 'clip' });
  await api.setCurrent(userToken, roomId, movieId);

  /** Route name, path without /web, who opens it. */
  const screens = [
    { name: 'home', path: '/', token: null },
    { name: 'login', path: '/auth/login', token: null },
    { name: 'rooms', path: '/rooms', token: null },
    { name: 'search', path: '/search', token: null },
    { name: 'createRoom', path: '/createRoom', token: userToken },
    { name: 'joinRoom', path: '/joinRoom', token: userToken },
    { name: 'myself', path: '/user/me', token: userToken },
    { name: 'admin', path: '/admin', token: rootToken },
    { name: 'cinema', path: `/cinema/${roomId}`, token: userToken, firstFrame: true },
  ];

  const rows = [];
  for (const screen of screens) {
    const result = await measure(origin, screen);
    const budget = BUDGETS[screen.name] ?? OTHER_BUDGET;
    const problems = [];
    if (result.error) problems.push(result.error);
    if (budget !== undefined && result.gzip > budget * KB) problems.push(`over the ${budget} KB budget`);
    for (const part of LAZY_PARTS) {
      const needed = part.neededOn.includes(screen.name);
      if (!needed && result.parts.has(part.name)) problems.push(`downloads ${part.name}`);
      if (needed && !result.parts.has(part.name)) problems.push(`did not download ${part.name}`);
    }
    if (problems.length) failed = true;
    rows.push({ ...screen, ...result, budget, problems });
  }
  printTable(rows);
  const failures = rows.filter((row) => row.problems.length).length;
  // One line for scripts/test-summary.mjs (CI's closing counts): a screen is one check.
  console.log(`Size checks: ${rows.length - failures} passed, ${failures} failed`);
} finally {
  await browser.close();
  await media.close();
  await server.close();
  await rm(dataDir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);

/**
 * Opens one screen in a fresh context and sums its scripts.
 * Returns counts and sizes in bytes, the names of the LAZY_PARTS that came down, and an error text
 * when the screen never became usable.
 */
async function measure(origin, screen) {
  const context = await browser.newContext();
  if (screen.token) {
    await context.addInitScript((token) => window.localStorage.setItem('userToken', token), screen.token);
  }
  if (screen.firstFrame) {
    // The instant (Unix ms) the page's <video> has its first frame ('loadeddata'), seen from the page.
    await context.addInitScript(() => {
      document.addEventListener('loadeddata', () => (window.__firstFrameAt ??= Date.now()), { capture: true });
    });
  }
  // Link prefetches fetch other routes' RSC payloads, which pull in those routes' chunks: code for
  // a later navigation, not for this screen. They carry `Next-Router-Prefetch: 1`; refuse them.
  await context.route(/\.txt(\?|$)/, (route) =>
    route.request().headers()['next-router-prefetch'] ? route.abort() : route.continue(),
  );
  const page = await context.newPage();
  const pending = [];
  let lastScriptAt = Date.now();
  /** When each script was requested (ms), by URL. */
  const requestedAt = new Map();
  page.on('request', (request) => {
    if (request.resourceType() !== 'script') return;
    lastScriptAt = Date.now();
    if (!requestedAt.has(request.url())) requestedAt.set(request.url(), lastScriptAt);
  });
  page.on('response', (response) => {
    if (response.request().resourceType() !== 'script') return;
    pending.push(response.body().then((body) => ({ url: response.url(), body }), () => null));
  });
  /** The first video frame (ms), for screens that wait for one. */
  let firstFrameAt = Infinity;
  let error = null;
  try {
    await page.goto(`${origin}/web${screen.path === '/' ? '/' : `${screen.path}/`}`);
    await page.getByTestId(`page-${screen.name}`).waitFor({ timeout: USABLE_TIMEOUT_MS });
    if (screen.firstFrame) {
      await page.waitForFunction(
        () => {
          const video = document.querySelector('video[data-testid="player-video"]');
          return !!video && video.readyState >= 2;
        },
        null,
        { timeout: USABLE_TIMEOUT_MS },
      );
      firstFrameAt = await page.evaluate(() => window.__firstFrameAt ?? Date.now());
      // The controls load a moment after the first frame: wait for them, so `after KB` has them.
      await page.getByTestId('player-controls').waitFor({ timeout: USABLE_TIMEOUT_MS });
    }
    const deadline = Date.now() + USABLE_TIMEOUT_MS;
    while (Date.now() - lastScriptAt < QUIET_MS && Date.now() < deadline) await page.waitForTimeout(100);
  } catch (caught) {
    error = `not usable: ${caught instanceof Error ? caught.message.split('\n')[0] : String(caught)}`;
  }
  const scripts = (await Promise.all(pending)).filter(Boolean);
  await context.close();
  let raw = 0;
  let gzip = 0;
  /** gzip bytes of the scripts requested after the first frame (counted apart from the budget). */
  let gzipAfter = 0;
  const parts = new Set();
  for (const { url, body } of scripts) {
    const size = gzipSync(body, { level: 9 }).length;
    if ((requestedAt.get(url) ?? 0) > firstFrameAt) {
      gzipAfter += size;
      if (VERBOSE) console.log(`  ${screen.name} (after the first frame): ${(size / KB).toFixed(1).padStart(6)} KB  ${new URL(url).pathname}`);
      continue;
    }
    raw += body.length;
    gzip += size;
    for (const part of LAZY_PARTS) if (body.includes(part.marker)) parts.add(part.name);
    if (VERBOSE) console.log(`  ${screen.name}: ${(size / KB).toFixed(1).padStart(6)} KB  ${new URL(url).pathname}`);
  }
  return { count: scripts.length, raw, gzip, gzipAfter, parts, error };
}

function printTable(rows) {
  const kb = (bytes) => (bytes / KB).toFixed(1);
  const header = ['route', 'path', 'scripts', 'raw KB', 'gzip KB', 'budget KB', 'after KB', 'result'];
  const lines = rows.map((row) => [
    row.name,
    row.path.replace(/[0-9a-f]{32}/, '<roomId>'),
    String(row.count),
    kb(row.raw),
    kb(row.gzip),
    row.budget === undefined ? '-' : String(row.budget),
    row.firstFrame ? kb(row.gzipAfter) : '-',
    row.problems.length ? `FAIL: ${row.problems.join('; ')}` : 'ok',
  ]);
  const widths = header.map((title, i) => Math.max(title.length, ...lines.map((line) => line[i].length)));
  const format = (cells) => cells.map((cell, i) => (i >= 2 && i <= 6 ? cell.padStart(widths[i]) : cell.padEnd(widths[i]))).join('  ');
  console.log('JavaScript downloaded until usable (gzip -9, fresh cache, companion server); for the hall, until its first');
  console.log('video frame, with what it downloads after that frame (the player controls) under `after KB`:');
  console.log(format(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const line of lines) console.log(format(line));
}
