/**
 * `npm run bench:sync`: the playback sync benchmark (not a timed test).
 *
 * Starts the companion server over the static export in `out/`, a media server for the committed
 * HLS clip (`e2e/media/clip/`), a TCP proxy that delays one client's traffic, and N headless Chromium
 * clients (one browser context and one user each) in one room. It then plays a scripted ~64 s
 * session (./lib/scenario.ts), samples every page's <video> every 100 ms in the page and the room's
 * status from the server every 100 ms, and prints per phase the inter-client drift, the time to
 * converge after each action and the hard seeks and rate changes; then a pass/fail line per target.
 * Writes `bench/results/sync-latest.json` (figures and run metadata), `sync-latest.svg` (the plot)
 * and `sync-latest-raw.json` (every sample, for re-analysis); `sync-browsers-latest.*` for a run
 * with `--browsers`.
 *
 *   npm run bench:sync [-- --clients N] [--strict] [--build] [--delay-ms 150] [--skew-ms 5000] [--cpu-throttle 4] [--voice N]
 *     [--browsers chromium,firefox,webkit]   (one more viewer in each other engine: docs/browsers.md "Figures")
 *     [--muted-engines]   (those viewers under their engine's own autoplay rule: started without a gesture, muted)
 *   npm run bench:sync -- --reanalyze bench/results/sync-latest-raw.json | --markdown
 *
 * Exit code 0 even when targets are missed, unless `--strict`; 2 on a setup error or the hard timeout.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import Database from 'better-sqlite3';
import { chromium, type Browser, type Page } from '@playwright/test';
import { startServer } from '@/server/app';
import { DATABASE_FILE } from '@/server/db/database';
import { SeedApi, uniqueName } from '@/e2e/support/api';
import { startMediaServer } from '@/e2e/support/media-server';
import { chromiumLaunchOptions } from '@/e2e/support/chromium';
import { decodeMessage, MessageType } from '@/lib/contract/message';
import type { CurrentMovie, Envelope } from '@/lib/contract/types';
import type { RoomSample } from './lib/analysis';
import { startDelayProxy } from './lib/delay-proxy';
import { probeScript, type ProbeAction, type ProbeApi } from './lib/page-probe';
import { analyzeRun, TARGETS, type ClientRecord, type EngineDecision, type EngineName, type FrameRecord, type Phase, type RunReport } from './lib/report';
import { engineInstalled, launchEngine, openSignedIn, type EngineName as OtherEngine, type EnginePage } from '@/e2e/support/engines';
import { actionRecord, assignRoles, scenario, SESSION_END_SEC, type Roles, type ScenarioStep } from './lib/scenario';
import { figuresMarkdown, type ResultsFile } from './lib/markdown';
import { renderDriftSvg } from './lib/svg-plot';

const repoRoot = path.resolve(__dirname, '..');
const resultsDir = path.join(__dirname, 'results');
const SAMPLE_EVERY_MS = 100;
const ROOM_POLL_MS = 100;
const DRAIN_EVERY_MS = 1000;
/** A gap between a page's 100 ms samples above this (ms) is reported as a freeze of that page. */
const FREEZE_MS = 250;
/** Everything, setup included, must finish within this (env BENCH_HARD_TIMEOUT_S); then the bench cleans up and exits 2. */
const HARD_TIMEOUT_MS = Number(process.env.BENCH_HARD_TIMEOUT_S || 180) * 1000;
const LOAD_TIMEOUT_MS = 25_000;
const USER_PASSWORD = 'bench-sync-123';
/** Every permission bit (docs/contract.md §5.4 AllPermissions). */
const ALL_PERMISSIONS = 0xffffffff;

interface Options {
  clients: number;
  /** A `sync-latest-raw.json` to analyse again instead of running a session. */
  reanalyze: string | null;
  /** Print the docs/benchmarks.md tables of `bench/results/sync-latest.json` and stop. */
  markdown: boolean;
  strict: boolean;
  build: boolean;
  delayMs: number;
  skewMs: number;
  /** How many times slower the throttled client's CPU runs (Chromium's CPU throttling; 1 = off). */
  cpuThrottle: number;
  /** How many of the first clients talk in a voice call (Chromium's fake microphone) throughout the session; 0 = none. */
  voice: number;
  /** The engines other than Chromium that get one viewer each (`--browsers chromium,firefox,webkit`). */
  otherEngines: OtherEngine[];
  /**
   * Whether those viewers keep their engine's own autoplay rule (sound only after a gesture, so the
   * bench's start without one is muted; `--muted-engines`). By default they play with sound, as
   * the Chromium clients do (headless Chromium allows it) and as a viewer who has pressed Unmute.
   */
  mutedEngines: boolean;
}

/** A wrong command line: reported as one line, without a stack. */
class UsageError extends Error {}

function parseArgs(argv: string[]): Options {
  const options: Options = { clients: 3, reanalyze: null, markdown: false, strict: false, build: false, delayMs: 150, skewMs: 5000, cpuThrottle: 4, voice: 0, otherEngines: [], mutedEngines: false };
  const numberAfter = (i: number, flag: string): number => {
    const value = Number(argv[i + 1]);
    if (argv[i + 1] === undefined || !Number.isFinite(value)) throw new UsageError(`${flag} needs a number`);
    return value;
  };
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    if (arg === '--strict') options.strict = true;
    else if (arg === '--build') options.build = true;
    else if (arg === '--markdown') options.markdown = true;
    else if (arg === '--reanalyze') {
      options.reanalyze = argv[i + 1] ?? '';
      i += 1;
      if (!options.reanalyze) throw new UsageError('--reanalyze needs the path of a sync-latest-raw.json');
    }
    else if (arg === '--clients') options.clients = numberAfter(i++, arg);
    else if (arg === '--delay-ms') options.delayMs = numberAfter(i++, arg);
    else if (arg === '--skew-ms') options.skewMs = numberAfter(i++, arg);
    else if (arg === '--cpu-throttle') options.cpuThrottle = numberAfter(i++, arg);
    else if (arg === '--voice') options.voice = numberAfter(i++, arg);
    else if (arg === '--browsers') {
      const names = (argv[i + 1] ?? '').split(',').filter(Boolean);
      i += 1;
      const unknown = names.filter((name) => !['chromium', 'firefox', 'webkit'].includes(name));
      if (names.length === 0 || unknown.length) throw new UsageError(`--browsers takes chromium,firefox,webkit (some of them), got ${argv[i] ?? 'nothing'}`);
      if (!names.includes('chromium')) throw new UsageError('--browsers must include chromium: its clients carry the delayed network, the skewed clock and the slow CPU');
      options.otherEngines = [...new Set(names.filter((name): name is 'firefox' | 'webkit' => name !== 'chromium'))];
    }
    else if (arg === '--muted-engines') options.mutedEngines = true;
    else if (arg === '--help' || arg === '-h') {
      console.log('usage: npm run bench:sync -- [--clients N (>= 2, default 3; the 4th runs on a 4× slower CPU)] [--strict] [--build] [--delay-ms 150] [--skew-ms 5000] [--cpu-throttle 4] [--voice N (the first N clients talk in a voice call)]');
      console.log('       [--browsers chromium,firefox,webkit (one more viewer in Firefox ESR and in WebKitGTK; the first pauses and resumes, the second changes the rate)]');
      console.log('       [--muted-engines (those viewers start muted, under their own autoplay rule; by default they play with sound, as the Chromium clients do)]');
      console.log('       npm run bench:sync -- --reanalyze bench/results/sync-latest-raw.json [--strict]');
      console.log('       npm run bench:sync -- --markdown    (the docs/benchmarks.md tables of bench/results/sync-latest.json)');
      process.exit(0);
    } else throw new UsageError(`unknown argument ${arg} (try --help)`);
  }
  if (!Number.isInteger(options.clients) || options.clients < 2) throw new UsageError(`--clients must be an integer >= 2, got ${options.clients}`);
  if (options.clients > 8) throw new UsageError('--clients above 8 would measure this machine, not the engine');
  if (!Number.isInteger(options.voice) || options.voice === 1 || options.voice < 0 || options.voice > options.clients) {
    throw new UsageError(`--voice must be 0 or an integer from 2 to --clients, got ${options.voice}`);
  }
  if (options.mutedEngines && options.otherEngines.length === 0) throw new UsageError('--muted-engines is for the viewers of --browsers');
  for (const engine of options.otherEngines) {
    if (!engineInstalled(engine)) throw new UsageError(`${engine} is not installed here: node scripts/prerequisites.mjs installs it`);
  }
  return options;
}

// ---------------------------------------------------------------------------------------------
// Clean-up: everything started registers how to stop it; Ctrl-C, errors and the hard timeout all
// run the same list, newest first.

const cleanups: { name: string; run: () => Promise<unknown> }[] = [];
let cleaning: Promise<void> | null = null;

function onCleanup(name: string, run: () => Promise<unknown>): void {
  cleanups.push({ name, run });
}

function cleanup(): Promise<void> {
  cleaning ??= (async () => {
    while (cleanups.length > 0) {
      const { name, run } = cleanups.pop()!;
      let timer: NodeJS.Timeout | undefined;
      try {
        // A referenced timer: it also keeps Node alive while a step waits on something unreferenced.
        await Promise.race([run(), new Promise((_, reject) => (timer = setTimeout(() => reject(new Error('timed out after 10 s')), 10_000)))]);
        if (process.env.BENCH_DEBUG) console.error(`cleaned up ${name}`);
      } catch (error) {
        console.error(`clean-up of ${name} failed: ${(error as Error).message}`);
      } finally {
        clearTimeout(timer);
      }
    }
  })();
  return cleaning;
}

function exitAfterCleanup(code: number): void {
  void cleanup().finally(() => process.exit(code));
}

process.on('SIGINT', () => {
  console.error('\ninterrupted: cleaning up');
  exitAfterCleanup(130);
});
process.on('SIGTERM', () => exitAfterCleanup(143));

// ---------------------------------------------------------------------------------------------

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function log(line: string): void {
  console.log(`[bench ${new Date().toISOString().slice(11, 19)}] ${line}`);
}

/** Newest modification time (ms) of the source files under `dirs`, tests left out. */
function newestSourceMs(dirs: string[]): number {
  let newest = 0;
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/\.(tsx?|css)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) newest = Math.max(newest, statSync(full).mtimeMs);
    }
  };
  for (const dir of dirs) if (existsSync(dir)) walk(dir);
  return newest;
}

/** Makes sure `out/` holds the export: builds it when missing or when `--build` asks; warns when older than the sources. */
function ensureExport(build: boolean): string {
  const webDir = path.join(repoRoot, 'out');
  const index = path.join(webDir, 'index.html');
  if (build || !existsSync(index)) {
    log(build ? 'building the client (npm run build)' : 'out/index.html is missing: building the client (npm run build)');
    const result = spawnSync('npm', ['run', 'build'], { cwd: repoRoot, stdio: 'inherit' });
    if (result.status !== 0 || !existsSync(index)) {
      throw new Error('`npm run build` failed; the benchmark needs the static export in out/ (run `npm run build`)');
    }
  }
  const sourcesMs = newestSourceMs(['lib', 'components', 'app', 'hooks'].map((d) => path.join(repoRoot, d)));
  if (sourcesMs > statSync(index).mtimeMs) {
    log('WARNING: out/ is older than the client sources; the figures are for the last build (pass --build to rebuild)');
  }
  return webDir;
}

function gitInfo(): { commit: string | null; dirty: boolean | null } {
  try {
    const commit = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: repoRoot, encoding: 'utf8' }).trim();
    const status = execFileSync('git', ['status', '--porcelain'], { cwd: repoRoot, encoding: 'utf8' });
    return { commit, dirty: status.trim().length > 0 };
  } catch {
    return { commit: null, dirty: null };
  }
}

/**
 * Lets members of `roomId` set the playback status. The companion server has no room-settings route
 * (`POST /api/room/admin/settings`), so the bench writes the same setting into the run's own
 * database, before any other member joins (members copy `user_default_permissions` on joining).
 */
function grantMembersAllPermissions(dataDir: string, roomId: string): void {
  const db = new Database(path.join(dataDir, DATABASE_FILE));
  try {
    db.pragma('busy_timeout = 5000');
    const changed = db.prepare('UPDATE room_settings SET user_default_permissions = ? WHERE room_id = ?').run(ALL_PERMISSIONS, roomId).changes;
    if (changed !== 1) throw new Error(`room ${roomId} has no settings row`);
  } finally {
    db.close();
  }
}

/**
 * One tab of any engine as the bench drives it: `run` runs a function body (which may `return`) in
 * the page with `args` as `arguments` and gives back its JSON result; `goto` opens a URL with the
 * bench's probe in it.
 */
interface BenchPage {
  run<T>(body: string, ...args: unknown[]): Promise<T>;
  /**
   * A real click on the player's play button through the browser's driver, the pointer first
   * moved onto the video as a person's would be, which shows the control bar (the other engines'
   * clients only).
   */
  clickPlay?(): Promise<void>;
  goto(url: string): Promise<void>;
}

/** One client's browser page and what Node records about it. */
interface Client {
  record: ClientRecord;
  page: BenchPage;
  /** Chromium's clients: the Playwright page (the voice call's buttons). */
  playwright: Page | null;
  origin: string;
  token: string;
  errors: string[];
  loadIds: string[];
  /** The page's `Date.now()` minus real time at the last drain, ms. */
  dateSkewMs: number | null;
}

async function drain(client: Client): Promise<void> {
  let batch: ReturnType<ProbeApi['drain']> | null = null;
  try {
    batch = await client.page.run('return window.__syncBench ? window.__syncBench.drain() : null;');
  } catch {
    return; // navigating or closed: the next drain reads the new document
  }
  if (!batch) return;
  client.dateSkewMs = batch.dateSkewMs;
  if (!client.loadIds.includes(batch.loadId)) {
    if (client.loadIds.length > 0) client.record.events.push({ t: Date.now(), type: 'reload', user: false });
    client.loadIds.push(batch.loadId);
  }
  client.record.samples.push(...batch.samples);
  client.record.events.push(...batch.events);
  if (client.record.decisions) await drainDecisions(client, client.record.decisions);
}

/**
 * Adds the page's sync engine decisions made since the last drain (its debug record keeps the last
 * 40, so a drain every DRAIN_EVERY_MS misses none but in a burst of more than 40 between two).
 */
async function drainDecisions(client: Client, into: EngineDecision[]): Promise<void> {
  const read = await client.page
    .run<EngineDecision[] | null>(
      `const d = window.__synctvSyncDebug && window.__synctvSyncDebug();
      return d ? d.decisions.map((x) => ({ t: x.atMs, kind: x.kind, phase: x.phase, detail: x.detail, event: x.event })) : null;`,
    )
    .catch(() => null);
  const last = into.length ? into[into.length - 1].t : Number.NEGATIVE_INFINITY;
  const seen = new Set(into.filter((d) => d.t === last).map((d) => `${d.kind}|${d.detail}|${d.event}`));
  for (const decision of (read ?? []).slice().sort((a, b) => a.t - b.t)) {
    if (decision.t > last || (decision.t === last && !seen.has(`${decision.kind}|${decision.detail}|${decision.event}`))) into.push(decision);
  }
}

/** A WebSocket frame as the report keeps it: type name, `timestamp` and playback status when present. */
function frameRecord(t: number, dir: FrameRecord['dir'], payload: string | Buffer): FrameRecord {
  if (typeof payload === 'string') return { t, dir, type: 'text' };
  try {
    const message = decodeMessage(new Uint8Array(payload));
    const record: FrameRecord = { t, dir, type: MessageType[message.type] ?? `type${message.type}` };
    const timestampMs = Number(message.timestamp);
    if (timestampMs) record.timestampMs = timestampMs;
    if (message.payload.case === 'playbackStatus') {
      const { isPlaying, currentTime, playbackRate } = message.payload.value;
      record.status = { isPlaying, currentTime, playbackRate };
    }
    return record;
  } catch {
    return { t, dir, type: 'undecodable' };
  }
}

async function openClient(
  browser: Browser,
  id: string,
  opts: { origin: string; token: string; conditions: string[]; delayed: boolean; skewMs: number; cpuThrottle: number; late: boolean },
): Promise<Client> {
  const context = await browser.newContext({ viewport: { width: 1000, height: 760 }, locale: 'en-US' });
  await context.addInitScript((token) => window.localStorage.setItem('userToken', token), opts.token);
  await context.addInitScript({ content: probeScript({ skewMs: opts.skewMs, sampleEveryMs: SAMPLE_EVERY_MS }) });
  const page = await context.newPage();
  // Chromium's CPU throttling (what Lighthouse's mobile profile uses) slows the page's main thread.
  if (opts.cpuThrottle > 1) await (await context.newCDPSession(page)).send('Emulation.setCPUThrottlingRate', { rate: opts.cpuThrottle });
  const record: ClientRecord = {
    id,
    conditions: opts.conditions,
    delayed: opts.delayed,
    skewed: opts.skewMs !== 0,
    throttled: opts.cpuThrottle > 1,
    late: opts.late,
    samples: [],
    events: [],
    frames: [],
  };
  const benchPage: BenchPage = {
    // A string, not a function: Playwright evaluates it as it is, with no helper of tsx's around it.
    run: (body, ...args) => page.evaluate(`(function () {${body}\n}).apply(null, ${JSON.stringify(args)})`),
    goto: async (url) => {
      await page.goto(url);
    },
  };
  const client: Client = { record, page: benchPage, playwright: page, origin: opts.origin, token: opts.token, errors: [], loadIds: [], dateSkewMs: null };
  page.on('pageerror', (error) => client.errors.push(error.message));
  page.on('websocket', (ws) => {
    record.events.push({ t: Date.now(), type: 'ws-open' });
    ws.on('framesent', (frame) => record.frames.push(frameRecord(Date.now(), 'sent', frame.payload)));
    ws.on('framereceived', (frame) => record.frames.push(frameRecord(Date.now(), 'received', frame.payload)));
    ws.on('close', () => record.events.push({ t: Date.now(), type: 'ws-close' }));
  });
  return client;
}

/**
 * A plain viewer in Firefox ESR or WebKitGTK (e2e/support/engines.ts). Neither driver can add a
 * script before the app's own, so the probe comes in once the page has loaded: its samples and
 * media events are the same, but the app's socket was opened before the probe's wrapper, so the
 * client has no frame records, and its clock cannot be skewed.
 */
async function openEngineClient(engine: OtherEngine, opts: { origin: string; token: string; muted: boolean }): Promise<Client> {
  const browser = await launchEngine(engine, { soundAllowed: !opts.muted });
  onCleanup(engine, () => browser.close());
  const tab: EnginePage = await browser.newPage();
  const probe = probeScript({ skewMs: 0, sampleEveryMs: SAMPLE_EVERY_MS });
  const record: ClientRecord = { id: engine, conditions: [engine, opts.muted ? 'muted (no gesture)' : 'with sound'], delayed: false, skewed: false, throttled: false, late: false, engine, samples: [], events: [], frames: [], decisions: [] };
  let opened = false;
  const page: BenchPage = {
    run: async (body, ...args) => {
      // A document that came back without the probe (the engine reloaded it: a web process that
      // the machine's load brought down) gets it again, and the record says so.
      if (opened && !(await tab.run<boolean>('return !!window.__syncBench;'))) {
        log(`${engine}: the page came back without the probe (reloaded); probing it again`);
        record.events.push({ t: Date.now(), type: 'reload', user: false });
        await tab.run(probe);
      }
      return tab.run(body, ...args);
    },
    clickPlay: async () => {
      // From outside the player onto it: a pointer already resting on the video would not move.
      // Each in the viewport first: WebKitWebDriver refuses a move to what lies outside it.
      await tab.run(`document.querySelector('[data-testid="ws-state"]').scrollIntoView({ block: 'center' });`);
      await tab.hover('[data-testid="ws-state"]');
      await tab.run(`document.querySelector('[data-testid="player"]').scrollIntoView({ block: 'center' });`);
      await tab.hover('[data-testid="player"]');
      await tab.click('[data-testid="player-play"]');
    },
    goto: async (url) => {
      // Without the debug overlay (the bench measures the room as people see it), but with the
      // engine's record, which `drain` keeps as the client's decisions.
      await openSignedIn(tab, new URL(url).origin, opts.token, url, { debug: 'record' });
      await tab.run(probe);
      opened = true;
      record.events.push({ t: Date.now(), type: 'ws-open' });
    },
  };
  return { record, page, playwright: null, origin: opts.origin, token: opts.token, errors: [], loadIds: [], dateSkewMs: null };
}

/**
 * Puts `callers` in the room's voice call (the hall's own Join voice button, Chromium's fake
 * microphone) and waits until every one is connected to every other and hears them speak, so the
 * session is measured with the call's audio flowing. Throws after 30 s.
 */
async function startCall(callers: Client[]): Promise<void> {
  const deadline = Date.now() + 30_000;
  const pages = callers.map((client) => {
    if (!client.playwright) throw new Error(`${client.record.id} is not a Chromium client: --voice is for Chromium's clients`);
    return client.playwright;
  });
  for (const page of pages) await page.getByTestId('voice-join').click();
  const others = callers.length - 1;
  for (const [i, client] of callers.entries()) {
    const heard = pages[i].locator('[data-testid="voice-person"][data-state="connected"][data-speaking="true"]');
    while ((await heard.count()) < others) {
      if (Date.now() > deadline) throw new Error(`${client.record.id} did not hear the ${others} others in the voice call within 30 s`);
      await sleep(250);
    }
  }
  log(`voice call: ${callers.map((client) => client.record.id).join(', ')} hear each other`);
}

/** Median time (ms) of a few GET round trips to `url`, on a connection already open. */
async function measureRoundTrip(url: string): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < 4; i += 1) {
    const started = performance.now();
    const res = await fetch(url);
    await res.arrayBuffer();
    if (i > 0) times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return Math.round(times[1]);
}

function roomUrl(origin: string, roomId: string): string {
  return `${origin}/web/cinema/${roomId}/`;
}

/** Waits until the page's player shows a frame and is playing (`playing`) or paused (`paused`). */
async function waitForPlayer(client: Client, state: 'playing' | 'paused'): Promise<void> {
  const deadline = Date.now() + LOAD_TIMEOUT_MS;
  let last = '';
  while (Date.now() < deadline) {
    const reading = await client.page
      .run<{ ready: boolean; seen: string }>(
        `const video = document.querySelector('video[data-testid="player-video"]');
        const socket = document.querySelector('[data-testid="ws-state"]');
        const seen = video ? 'readyState ' + video.readyState + (video.paused ? ', paused' : ', playing') + ', socket ' + (socket ? socket.dataset.state : 'none') : 'no player';
        if (!video || video.readyState < 2 || !socket || socket.dataset.state !== 'open') return { ready: false, seen };
        return { ready: arguments[0] === 'paused' ? video.paused : !video.paused && video.readyState >= 3, seen };`,
        state,
      )
      .catch((error: Error) => ({ ready: false, seen: error.message.split('\n')[0] }));
    if (reading.ready) return;
    last = reading.seen;
    await sleep(100);
  }
  throw new Error(`${client.record.id} did not get a ${state} player within ${LOAD_TIMEOUT_MS} ms (last seen: ${last})`);
}

/**
 * Performs `action` for the client's person: in Chromium through the page (Playwright's evaluate
 * carries a user gesture); in the other engines a play or pause is a real click on the player's
 * play button through the driver, since their script calls carry none, and the engine rightly takes
 * a pause that no person made on a page nobody has touched for the browser's (docs/browsers.md "No
 * browser moves the room"). Returns the real time of the action (Unix ms).
 */
async function act(client: Client, action: ProbeAction): Promise<number> {
  if (client.page.clickPlay && (action.kind === 'play' || action.kind === 'pause')) {
    await client.page.run(
      `window.__benchActedAt = null;
      document.addEventListener('click', () => { window.__benchActedAt = window.__syncBench.mark(arguments[0]); }, { capture: true, once: true });`,
      action,
    );
    await client.page.clickPlay();
    const actedAt = await client.page.run<number | null>('return window.__benchActedAt;');
    if (actedAt === null) throw new Error(`${client.record.id}: the click on the play button did not reach the page`);
    return actedAt;
  }
  return client.page.run<number>(
    `const probe = window.__syncBench;
    if (!probe) throw new Error('the bench probe is not installed');
    return probe.act(arguments[0]);`,
    action,
  );
}

/** Polls `GET /api/room/movie/current` every 100 ms; the envelope's `time` (µs) is the instant the status refers to. */
function pollRoom(origin: string, token: string, roomId: string, into: RoomSample[]): () => void {
  let busy = false;
  const timer = setInterval(async () => {
    if (busy) return;
    busy = true;
    try {
      const res = await fetch(`${origin}/api/room/movie/current`, { headers: { Authorization: token, 'X-Room-Id': roomId } });
      const body = (await res.json()) as Envelope<CurrentMovie>;
      if (res.ok && body.data) {
        const s = body.data.status;
        into.push({ t: body.time / 1000, isPlaying: Boolean(s.isPlaying), currentTime: s.currentTime ?? 0, playbackRate: s.playbackRate ?? 1 });
      }
    } catch {
      // A missed poll only leaves a gap; the analysis extrapolates across it.
    } finally {
      busy = false;
    }
  }, ROOM_POLL_MS);
  return () => clearInterval(timer);
}

/** Everything a run recorded (`sync-latest-raw.json`); `--reanalyze` reads it back. */
interface RawRun {
  meta: Record<string, unknown>;
  t0Ms: number;
  phases: Phase[];
  room: RoomSample[];
  clients: ClientRecord[];
}

async function runSession(options: Options, roles: Roles, webDir: string): Promise<{ report: RunReport; meta: Record<string, unknown>; raw: RawRun }> {
  const loadAtStart = os.loadavg();

  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'synctv-bench-'));
  onCleanup('data dir', () => rm(dataDir, { recursive: true, force: true }));
  const server = await startServer({ port: 0, host: '127.0.0.1', dataDir, webDir, rootPassword: randomBytes(12).toString('hex'), rateLimitScale: 0 });
  onCleanup('companion server', () => server.close());
  const media = await startMediaServer(path.join(repoRoot, 'e2e', 'media'));
  onCleanup('media server', () => media.close());
  const proxy = await startDelayProxy({ targetPort: server.port, delayMs: options.delayMs });
  onCleanup('delay proxy', () => proxy.close());
  const proxyRoundTripMs = await measureRoundTrip(`${proxy.origin}/api/public/settings`);
  log(`server ${server.url}, media ${media.url}, delayed origin ${proxy.origin} (+${options.delayMs} ms each way; HTTP round trip ${proxyRoundTripMs} ms)`);

  const api = new SeedApi(server.url);
  const ids = [...roles.initial, roles.late];
  const tokens: Record<string, string> = {};
  for (const id of ids) tokens[id] = await api.signup(uniqueName(`b${id}`), USER_PASSWORD);
  const roomId = await api.createRoom(tokens.c1, uniqueName('bench'));
  grantMembersAllPermissions(dataDir, roomId);
  const movieId = await api.pushMovie(tokens.c1, roomId, { url: `${media.url}/clip/index.m3u8`, name: 'Timecode clip' });

  // Playwright's own Ctrl-C handling would exit the process before the clean-up list has run.
  const browser = await chromium.launch({
    ...chromiumLaunchOptions,
    headless: true,
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  });
  onCleanup('browser', () => browser.close());
  const clients: Record<string, Client> = {};
  for (const engine of options.otherEngines) clients[engine] = await openEngineClient(engine, { origin: server.url, token: tokens[engine], muted: options.mutedEngines });
  for (const id of ids.filter((name) => !clients[name])) {
    const delayed = id === roles.delayed;
    const skewMs = id === roles.skewed ? options.skewMs : 0;
    const cpuThrottle = id === roles.throttled ? options.cpuThrottle : 1;
    const conditions = [
      ...(delayed ? [`network +${options.delayMs} ms each way`] : []),
      ...(skewMs ? [`clock ${skewMs > 0 ? '+' : ''}${skewMs} ms`] : []),
      ...(cpuThrottle > 1 ? [`CPU ${cpuThrottle}× slower`] : []),
      ...(id === roles.late ? ['late joiner'] : []),
    ];
    clients[id] = await openClient(browser, id, { origin: delayed ? proxy.origin : server.url, token: tokens[id], conditions, delayed, skewMs, cpuThrottle, late: id === roles.late });
  }

  // "Play this" starts the room at 0 s; c1 opens it and pauses, then the others join the paused room,
  // so that the session starts with a remote play.
  await api.setCurrent(tokens.c1, roomId, movieId);
  const c1 = clients[roles.initial[0]];
  await c1.page.goto(roomUrl(c1.origin, roomId));
  await waitForPlayer(c1, 'playing');
  await act(c1, { kind: 'pause' });
  await waitForPlayer(c1, 'paused');
  for (const id of roles.initial.slice(1)) {
    const client = clients[id];
    await client.page.goto(roomUrl(client.origin, roomId));
    await waitForPlayer(client, 'paused');
    log(`${id} (${client.record.conditions.join(', ') || 'chromium'}) has the paused room`);
  }
  if (options.voice > 0) await startCall(roles.initial.slice(0, options.voice).map((id) => clients[id]));
  log(`${roles.initial.length} clients loaded, room paused${options.voice ? `, ${options.voice} in a voice call` : ''}; settling 2 s`);
  await sleep(2000);
  for (const client of Object.values(clients)) await drain(client);

  const room: RoomSample[] = [];
  const stopPolling = pollRoom(server.url, tokens.c1, roomId, room);
  onCleanup('room poller', async () => stopPolling());
  let draining = true;
  const drainLoop = (async () => {
    while (draining) {
      await Promise.all(Object.values(clients).map(drain));
      await sleep(DRAIN_EVERY_MS);
    }
  })();

  // The room poller's first answers arrive before t0.
  await sleep(500);
  const t0Ms = Date.now();
  const steps: ScenarioStep[] = scenario(roles);
  const phases: Phase[] = [];
  let lateOpened: Promise<unknown> = Promise.resolve();
  for (const step of steps) {
    const wait = t0Ms + step.atSec * 1000 - Date.now();
    if (wait > 0) await sleep(wait);
    let startMs = Date.now();
    let action: Phase['action'];
    if (step.action) {
      const client = clients[step.action.by];
      if (step.action.kind === 'join') {
        startMs = Date.now();
        lateOpened = client.page.goto(roomUrl(client.origin, roomId)).catch((error: Error) => log(`late joiner failed to open: ${error.message}`));
      } else {
        const probeAction: ProbeAction = step.action.kind === 'seek' || step.action.kind === 'rate'
          ? { kind: step.action.kind, value: step.action.value }
          : { kind: step.action.kind };
        startMs = await act(client, probeAction);
      }
      action = actionRecord(step.action, startMs);
    }
    log(`t=${((startMs - t0Ms) / 1000).toFixed(1)} s  ${step.name}${step.action ? ` (${step.action.by})` : ''}`);
    if (phases.length > 0) phases[phases.length - 1].endMs = startMs;
    phases.push({ name: step.name, kind: step.kind, startMs, endMs: startMs, action });
  }
  const endMs = t0Ms + SESSION_END_SEC * 1000;
  await sleep(Math.max(0, endMs - Date.now()));
  phases[phases.length - 1].endMs = endMs;
  await lateOpened;
  draining = false;
  await drainLoop;
  stopPolling();
  await Promise.all(Object.values(clients).map(drain));
  const loadAtEnd = os.loadavg();
  const chromiumVersion = browser.version();
  const records = ids.map((id) => clients[id].record);
  const report = analyzeRun({ clients: records, room, phases, t0Ms, stepMs: SAMPLE_EVERY_MS });
  const meta = {
    date: new Date().toISOString(),
    clients: roles.initial.length,
    lateJoiner: roles.late,
    roles: Object.fromEntries(ids.map((id) => [id, clients[id].record.conditions])),
    actions: { seek: roles.seeker, pauseResume: roles.pauser, rate: roles.rater, play: roles.seeker },
    delayMs: options.delayMs,
    skewMs: options.skewMs,
    voice: options.voice,
    proxyRoundTripMs,
    measuredDateSkewMs: Object.fromEntries(ids.map((id) => [id, clients[id].dateSkewMs])),
    delayMethod: 'TCP proxy (bench/lib/delay-proxy.ts) in front of the companion server; the client opens the room through it, so its HTTP and WebSocket traffic is delayed each way; media segments are not',
    loadAverage: { start: loadAtStart.map((v) => Number(v.toFixed(2))), end: loadAtEnd.map((v) => Number(v.toFixed(2))) },
    cpus: os.cpus().length,
    node: process.version,
    chromium: chromiumVersion,
    engines: Object.fromEntries(ids.map((id) => [id, clients[id].record.engine ?? 'chromium'])),
    ...gitInfo(),
    targets: TARGETS,
    pageErrors: Object.fromEntries(ids.map((id) => [id, clients[id].errors])),
    reloads: Object.fromEntries(ids.map((id) => [id, Math.max(0, clients[id].loadIds.length - 1)])),
  };
  const raw: RawRun = { meta, t0Ms, phases, room, clients: records };
  return { report, meta, raw };
}

// ---------------------------------------------------------------------------------------------
// Output

const pad = (text: string, width: number) => (text.length >= width ? text : text + ' '.repeat(width - text.length));
const num = (value: number | null | undefined) => (value === null || value === undefined || !Number.isFinite(value) ? '—' : `${Math.round(value)}`);

function printReport(report: RunReport, meta: Record<string, unknown>, ids: string[]): void {
  const load = meta.loadAverage as { start: number[]; end: number[] };
  console.log('');
  console.log(`Sync benchmark: ${meta.clients} clients + late joiner, chromium ${meta.chromium}, ${meta.cpus} cores, load average ${load.start.join(' ')} → ${load.end.join(' ')}`);
  const skews = (meta.measuredDateSkewMs ?? {}) as Record<string, number | null>;
  for (const [id, conditions] of Object.entries(meta.roles as Record<string, string[]>)) {
    const measured = [
      ...(conditions.some((c) => c.startsWith('clock')) ? [`page Date.now() − real time ${skews[id] ?? '?'} ms`] : []),
      ...(conditions.some((c) => c.startsWith('network')) ? [`HTTP round trip through the proxy ${meta.proxyRoundTripMs} ms`] : []),
    ];
    console.log(`  ${id}: ${conditions.join(', ') || 'plain'}${measured.length ? ` (measured: ${measured.join(', ')})` : ''}`);
  }
  const actions = meta.actions as Record<string, string>;
  console.log(`  actions: play and seek by ${actions.play}, pause and resume by ${actions.pauseResume}, rate changes by ${actions.rate}`);
  console.log('');
  console.log('Inter-client drift (largest pairwise |Δ| every 100 ms, ms): whole phase, and from convergence on ("after conv.");');
  console.log('ms from the action until all clients are within 100 ms holding 1 s / holding to the phase end;');
  console.log('engine-caused hard seeks and rate changes per client (' + ids.join('/') + ')');
  console.log(
    pad('phase', 14) + pad('t (s)', 12) + pad('action', 14) + pad('med/p95/max', 16) + pad('after conv.', 16) + pad('conv/settle', 13) + pad('seeks', 14) + 'rate changes',
  );
  for (const p of report.phases) {
    const action = p.action ? `${p.action.clientId} ${p.action.kind}${p.action.value !== undefined ? ` ${p.action.value}` : ''}` : '';
    const d = p.drift ? `${num(p.drift.median)}/${num(p.drift.p95)}/${num(p.drift.max)}` : '—';
    const s = p.driftAfterConvergence ? `${num(p.driftAfterConvergence.median)}/${num(p.driftAfterConvergence.p95)}/${num(p.driftAfterConvergence.max)}` : '';
    const ms = (value: number | null) => (value === null ? 'never' : num(value));
    const conv = p.convergence ? `${ms(p.convergence.convergedAfterMs)}/${ms(p.convergence.settledAfterMs)}` : '';
    const seeks = ids.map((id) => p.clients[id]?.engineSeeks ?? 0).join('/');
    const rates = ids.map((id) => p.clients[id]?.engineRateChanges ?? 0).join('/');
    console.log(pad(p.name, 14) + pad(`${p.startSec.toFixed(1)}–${p.endSec.toFixed(1)}`, 12) + pad(action, 14) + pad(d, 16) + pad(s, 16) + pad(conv, 13) + pad(seeks, 14) + rates);
  }
  const perEngine = report.phases.filter((p) => p.engineConvergedAfterMs);
  if (perEngine.length) {
    const engines = Object.keys(perEngine[0].engineConvergedAfterMs ?? {}) as EngineName[];
    console.log('');
    console.log("Per engine: ms from the action until that engine's clients and Chromium's are all within 100 ms, holding 1 s (Chromium: among its own)");
    console.log(pad('phase', 14) + pad('action', 16) + engines.map((engine) => pad(engine, 10)).join(''));
    for (const p of perEngine) {
      const action = p.action ? `${p.action.clientId} ${p.action.kind}` : '';
      console.log(pad(p.name, 14) + pad(action, 16) + engines.map((engine) => pad(p.engineConvergedAfterMs?.[engine] == null ? 'never' : num(p.engineConvergedAfterMs[engine]), 10)).join(''));
    }
  }
  console.log('');
  console.log('Drift against the room\'s expected position (GET /movie/current): median signed / p95 |Δ| / max |Δ|, ms (+ = ahead)');
  console.log(pad('phase', 14) + ids.map((id) => pad(id, 18)).join(''));
  for (const p of report.phases) {
    const cells = ids.map((id) => {
      const r = p.clients[id]?.vsRoom;
      return pad(r ? `${num(r.medianSigned)}/${num(r.p95Abs)}/${num(r.maxAbs)}` : '—', 18);
    });
    console.log(pad(p.name, 14) + cells.join(''));
  }
  if (report.phases.some((p) => ids.some((id) => p.clients[id]?.indicator))) {
    console.log('');
    console.log('Sync indicator (the engine\'s own view): % of the phase in-sync/correcting/out-of-sync, median reported drift ms');
    console.log(pad('phase', 14) + ids.map((id) => pad(id, 18)).join(''));
    for (const p of report.phases) {
      const cells = ids.map((id) => {
        const c = p.clients[id];
        if (!c?.indicator) return pad('—', 18);
        const pct = (state: string) => Math.round((c.indicator?.[state] ?? 0) * 100);
        return pad(`${pct('in-sync')}/${pct('correcting')}/${pct('out-of-sync')} ${num(c.indicatorDriftMedianMs)}`, 18);
      });
      console.log(pad(p.name, 14) + cells.join(''));
    }
  }
  const freezes = report.phases.flatMap((p) =>
    ids.filter((id) => (p.clients[id]?.longestSampleGapMs ?? 0) > FREEZE_MS).map((id) => `${p.name}/${id} ${p.clients[id].longestSampleGapMs} ms`),
  );
  console.log('');
  console.log(
    freezes.length
      ? `Page freezes (a sampler gap over ${FREEZE_MS} ms: the machine starved the renderer, see the load average): ${freezes.join(', ')}`
      : `Page freezes: none (no sampler gap over ${FREEZE_MS} ms)`,
  );
  console.log(
    'Outgoing timestamps minus real time (median over STATUS/SYNC sent, ms; ~0 = clock offset corrected): ' +
      ids.map((id) => `${id} ${num(report.outgoingTimestampErrorMs[id])}`).join(', '),
  );
  console.log('WebSocket frames sent per minute: ' + ids.map((id) => `${id} ${Object.entries(report.framesPerMinute[id] ?? {}).map(([k, v]) => `${k} ${v}`).join(' ') || '0'}`).join('; '));
  console.log('STATUS sent per phase (' + ids.join('/') + '): ' + report.phases.map((p) => `${p.name} ${ids.map((id) => p.clients[id]?.sent.STATUS ?? 0).join('/')}`).join(', '));
  const errors = Object.entries(meta.pageErrors as Record<string, string[]>).filter(([, list]) => list.length > 0);
  if (errors.length) console.log('Page errors: ' + errors.map(([id, list]) => `${id}: ${list.slice(0, 3).join(' | ')}`).join('; '));
  console.log('');
  for (const target of report.targets) console.log(`${target.pass ? 'PASS' : 'FAIL'}  ${target.name}: ${target.detail}`);
}

/** `sync`, or `sync-browsers` for a run with other engines (its figures are kept apart from Chromium's). */
function resultsName(meta: Record<string, unknown>): string {
  return Object.values((meta.engines ?? {}) as Record<string, string>).some((engine) => engine !== 'chromium') ? 'sync-browsers' : 'sync';
}

async function writeResults(report: RunReport, meta: Record<string, unknown>, raw: RawRun | null, ids: string[]): Promise<void> {
  await mkdir(resultsDir, { recursive: true });
  const { series, ...figures } = report;
  const name = resultsName(meta);
  await writeFile(path.join(resultsDir, `${name}-latest.json`), JSON.stringify({ meta, ...figures, series }, null, 1) + '\n');
  if (raw) await writeFile(path.join(resultsDir, `${name}-latest-raw.json`), JSON.stringify(raw) + '\n');
  const load = meta.loadAverage as { start: number[] };
  const roles = meta.roles as Record<string, string[]>;
  const svg = renderDriftSvg({
    title: `Sync benchmark ${String(meta.date).slice(0, 16)}Z: drift per client vs the room, and between clients (load ${load.start[0]})`,
    tSec: series.tSec,
    clients: ids.map((id) => ({ id, label: `${id}${roles[id]?.length ? ` (${roles[id].join(', ')})` : ''}`, values: series.vsRoomMs[id] })),
    spreadMs: series.spreadMs,
    phases: report.phases.map((p) => ({ name: p.name, startSec: p.startSec })),
  });
  await writeFile(path.join(resultsDir, `${name}-latest.svg`), svg);
  log(`wrote ${path.relative(repoRoot, resultsDir)}/${name}-latest.json, ${name}-latest.svg${raw ? `, ${name}-latest-raw.json` : ''}`);
}

function verdict(report: RunReport, strict: boolean): number {
  const failed = report.targets.filter((t) => !t.pass).length;
  console.log(`\n${report.targets.length - failed} of ${report.targets.length} targets met${strict && failed ? ' (--strict: exit 1)' : ''}`);
  return strict && failed ? 1 : 0;
}

/** Re-runs the analysis (and rewrites sync-latest.json and .svg) from a raw file, e.g. after changing the analysis. */
async function reanalyze(file: string, strict: boolean): Promise<number> {
  const raw = JSON.parse(await readFile(file, 'utf8')) as RawRun;
  const report = analyzeRun({ clients: raw.clients, room: raw.room, phases: raw.phases, t0Ms: raw.t0Ms, stepMs: SAMPLE_EVERY_MS });
  const ids = raw.clients.map((c) => c.id);
  printReport(report, raw.meta, ids);
  await writeResults(report, { ...raw.meta, reanalyzedAt: new Date().toISOString() }, null, ids);
  return verdict(report, strict);
}

async function main(): Promise<number> {
  const options = parseArgs(process.argv.slice(2));
  if (options.reanalyze) return reanalyze(options.reanalyze, options.strict);
  if (options.markdown) {
    const results = JSON.parse(await readFile(path.join(resultsDir, 'sync-latest.json'), 'utf8')) as ResultsFile;
    process.stdout.write(figuresMarkdown(results));
    return 0;
  }
  const roles = assignRoles(options.clients, options.otherEngines);
  // The build (when needed) is not part of the bounded run: under load it alone can take minutes.
  const webDir = ensureExport(options.build);
  const hardTimeout = setTimeout(() => {
    console.error(`hard timeout: the benchmark took more than ${HARD_TIMEOUT_MS / 1000} s; cleaning up`);
    exitAfterCleanup(2);
  }, HARD_TIMEOUT_MS);
  try {
    const { report, meta, raw } = await runSession(options, roles, webDir);
    await cleanup();
    const ids = [...roles.initial, roles.late];
    printReport(report, meta, ids);
    await writeResults(report, meta, raw, ids);
    return verdict(report, options.strict);
  } finally {
    clearTimeout(hardTimeout);
    await cleanup();
  }
}

main().then(
  (code) => process.exit(code),
  (error: Error) => {
    console.error(error instanceof UsageError ? `bench:sync: ${error.message}` : `bench:sync failed: ${error.stack ?? error.message}`);
    exitAfterCleanup(2);
  },
);
