/**
 * Records what each engine's <video> fires, in order, for the moments the sync machine has to read
 * right (docs/browsers.md "Event orders"): a play() without a gesture, a seek before the metadata, a
 * seek while playing and while paused, a rate change, a source swap while playing, a stall. Debian's
 * Chromium (Playwright), Firefox ESR (WebDriver BiDi) and WebKitGTK (WebDriver) each play the test
 * clip (e2e/media/mp4/clip.mp4) from a loopback server that, for the stall, holds the rest of the
 * file back once the clip's first ~14 s are sent, until the element has played to where they end.
 *
 * Writes lib/sync/testing/engine-orders.json, which the property tests' simulated element replays
 * (lib/sync/testing/machine-sim.ts): `npm run record:media-events [-- --engines chromium,firefox]`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { chromiumLaunchOptions } from '../e2e/support/chromium';
import { engineInstalled, launchEngine, type EngineName } from '../e2e/support/engines';
import { listenOnLoopback } from '../e2e/support/listen';
import type { EngineOrders, RecordedEvent, Scenario } from '../lib/sync/testing/engine-orders';

const CLIP = readFileSync(path.join(__dirname, '..', 'e2e', 'media', 'mp4', 'clip.mp4'));
const OUT = path.join(__dirname, '..', 'lib', 'sync', 'testing', 'engine-orders.json');
/** After how much the stall's server holds the rest of the file back: the clip's moov and about its first 14 s. */
const STALL_AFTER_BYTES = 220_000;
/** How long the stall's element waits without data once it has stopped (ms). */
const STALL_MS = 1500;

/** The page: one <video> at a time, every media event logged with the element's state at dispatch. */
const PAGE = `<!doctype html><meta charset="utf-8"><title>media events</title><body><button id="go">go</button><script>
const TYPES = ['loadstart', 'durationchange', 'loadedmetadata', 'loadeddata', 'canplay', 'canplaythrough', 'play', 'playing', 'pause',
  'waiting', 'stalled', 'seeking', 'seeked', 'ratechange', 'emptied', 'abort', 'suspend', 'ended', 'error', 'volumechange', 'timeupdate'];
window.__log = [];
let t0 = performance.now();
window.__mark = (what) => { window.__log.push({ type: '·' + what, ms: Math.round(performance.now() - t0) }); };
window.__video = (muted) => {
  document.querySelectorAll('video').forEach((old) => { old.pause(); old.removeAttribute('src'); old.load(); old.remove(); });
  window.__log = [];
  t0 = performance.now();
  const v = document.createElement('video');
  v.muted = muted;
  v.playsInline = true;
  document.body.append(v);
  let lastUpdate = -1;
  for (const type of TYPES) v.addEventListener(type, () => {
    if (type === 'timeupdate') { if (lastUpdate >= 0 && performance.now() - lastUpdate < 1000) return; lastUpdate = performance.now(); }
    window.__log.push({ type, ms: Math.round(performance.now() - t0), paused: v.paused, seeking: v.seeking, readyState: v.readyState, currentTime: Number(v.currentTime.toFixed(3)), muted: v.muted });
  });
  window.__v = v;
  return v;
};
window.__play = () => window.__v.play().then(() => __mark('play() resolved'), (e) => __mark('play() rejected: ' + e.name));
</script></body>`;

/** Each scenario: the steps run in the page (function bodies, or 'click': a click on the page's button), with the wait (ms) after each. */
const SCENARIOS: Record<Scenario, Array<[string, number]>> = {
  'play-without-gesture': [
    [`__video(false).src = '/clip.mp4';`, 1500],
    [`__mark('play()'); __play();`, 2000],
  ],
  'seek-before-metadata': [[`const v = __video(true); v.src = '/clip.mp4'; __mark('currentTime = 10'); v.currentTime = 10;`, 2500]],
  'seek-playing': [
    [`__video(true).src = '/clip.mp4'; __play();`, 2000],
    [`__mark('currentTime = 20'); __v.currentTime = 20;`, 2000],
  ],
  'seek-paused': [
    [`__video(true).src = '/clip.mp4';`, 1500],
    [`__mark('currentTime = 20'); __v.currentTime = 20;`, 2000],
  ],
  // Audible, started by a click (a gesture): WebKitGTK would refuse it otherwise.
  'rate-audible': [
    [`__video(false).src = '/clip.mp4'; document.getElementById('go').onclick = () => __play();`, 1000],
    ['click', 2000],
    [`__mark('playbackRate = 1.05'); __v.playbackRate = 1.05;`, 1500],
  ],
  'rate-playing': [
    [`__video(true).src = '/clip.mp4'; __play();`, 2000],
    [`__mark('playbackRate = 1.05'); __v.playbackRate = 1.05;`, 1500],
  ],
  // The rate and a pause at once (the engine's pause for a scheduled start after the room's rate).
  'rate-then-pause-muted': [
    [`__video(true).src = '/clip.mp4'; __play();`, 2000],
    [`__mark('playbackRate = 1.05; pause()'); __v.playbackRate = 1.05; __v.pause();`, 1500],
  ],
  // A rate set while paused, then play() (WebKitGTK takes the mute from it at the play).
  'rate-paused-then-play-muted': [
    [`__video(true).src = '/clip.mp4'; __play().then(() => __v.pause());`, 2000],
    [`__mark('playbackRate = 1.05'); __v.playbackRate = 1.05;`, 500],
    [`__mark('play()'); __play();`, 1500],
  ],
  // A pause while a seek of the playing element is in flight (the room paused meanwhile).
  'seek-then-pause': [
    [`__video(true).src = '/clip.mp4'; __play();`, 2000],
    [`__mark('currentTime = 20'); __v.currentTime = 20;`, 40],
    [`__mark('pause()'); __v.pause();`, 1500],
  ],
  'pause-then-play': [
    [`__video(true).src = '/clip.mp4'; __play();`, 2000],
    [`__mark('pause()'); __v.pause();`, 1000],
    [`__mark('play()'); __play();`, 1500],
  ],
  'swap-playing': [
    [`__video(true).src = '/clip.mp4'; __play();`, 2000],
    [`__mark('src = another URL'); __v.src = '/clip.mp4?other'; __play();`, 2500],
  ],
  // Played to the end of what it has, then `waiting` (or 30 s): the rest comes STALL_MS later.
  stall: [
    [`__video(true).src = '/stall.mp4'; __play();`, 1000],
    [`return new Promise((resolve) => { const started = performance.now(); const check = () => (__log.some((e) => e.type === 'waiting' && e.currentTime > 1) || performance.now() - started > 30000 ? resolve(true) : setTimeout(check, 50)); check(); });`, STALL_MS],
    [`__mark('the rest of the file'); return fetch('/release').then(() => true);`, 3000],
  ],
};

/** Serves the page, the clip with Range, and the stall's clip (no Range; its rest once `/release` is asked for). */
async function startServer() {
  const held: Array<() => void> = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname === '/') return res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE);
    if (url.pathname === '/stall.mp4') {
      res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': CLIP.length, 'cache-control': 'no-store' });
      res.write(CLIP.subarray(0, STALL_AFTER_BYTES));
      held.push(() => res.end(CLIP.subarray(STALL_AFTER_BYTES)));
      return;
    }
    if (url.pathname === '/release') {
      for (const release of held.splice(0)) release();
      return res.writeHead(204).end();
    }
    if (url.pathname !== '/clip.mp4') return res.writeHead(404).end();
    const range = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? '');
    if (!range) return res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': CLIP.length, 'accept-ranges': 'bytes' }).end(CLIP);
    const start = Number(range[1]);
    const end = range[2] ? Math.min(Number(range[2]), CLIP.length - 1) : CLIP.length - 1;
    res.writeHead(206, { 'content-type': 'video/mp4', 'content-range': `bytes ${start}-${end}/${CLIP.length}`, 'content-length': end - start + 1, 'accept-ranges': 'bytes' });
    res.end(CLIP.subarray(start, end + 1));
  });
  return listenOnLoopback(server);
}

/** A page of any engine: open a URL, run a function body. */
interface Tab {
  goto(url: string): Promise<void>;
  run<T>(body: string): Promise<T>;
  /** A click with the engine's pointer (a user gesture). */
  click(css: string): Promise<void>;
  close(): Promise<void>;
}

async function openTab(engine: 'chromium' | EngineName): Promise<Tab> {
  if (engine === 'chromium') {
    const browser = await chromium.launch(chromiumLaunchOptions);
    const page = await browser.newPage();
    return {
      goto: async (url) => void (await page.goto(url)),
      run: (body) => page.evaluate(`(() => { ${body} })()`),
      click: (css) => page.click(css),
      close: () => browser.close(),
    };
  }
  const browser = await launchEngine(engine);
  const page = await browser.newPage();
  return { goto: (url) => page.goto(url), run: (body) => page.run(body), click: (css) => page.click(css), close: () => browser.close() };
}

async function record(engine: 'chromium' | EngineName, origin: string): Promise<Record<Scenario, RecordedEvent[]>> {
  const tab = await openTab(engine);
  try {
    const recorded = {} as Record<Scenario, RecordedEvent[]>;
    for (const [scenario, steps] of Object.entries(SCENARIOS) as Array<[Scenario, Array<[string, number]>]>) {
      await tab.goto(`${origin}/`);
      for (const [body, waitMs] of steps) {
        if (body === 'click') await tab.click('#go');
        else await tab.run(body);
        await new Promise((resolve) => setTimeout(resolve, waitMs));
      }
      recorded[scenario] = await tab.run<RecordedEvent[]>('return window.__log;');
      console.log(`${engine} ${scenario}: ${recorded[scenario].map((event) => event.type).join(' ')}`);
    }
    return recorded;
  } finally {
    await tab.close();
  }
}

async function main() {
  const flag = process.argv.indexOf('--engines');
  const engines = (flag > 0 ? process.argv[flag + 1].split(',') : ['chromium', 'firefox', 'webkit']) as Array<'chromium' | EngineName>;
  const server = await startServer();
  let orders: EngineOrders;
  try {
    orders = JSON.parse(readFileSync(OUT, 'utf8')) as EngineOrders;
  } catch {
    orders = { recordedOn: '', engines: {} };
  }
  try {
    for (const engine of engines) {
      if (engine !== 'chromium' && !engineInstalled(engine)) throw new Error(`${engine} is not installed: node scripts/prerequisites.mjs installs it`);
      orders.engines[engine] = await record(engine, server.origin);
    }
  } finally {
    await server.close();
  }
  orders.recordedOn = new Date().toISOString().slice(0, 10);
  writeFileSync(OUT, `${JSON.stringify(orders, null, 1)}\n`);
  console.log(`wrote ${path.relative(process.cwd(), OUT)}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
