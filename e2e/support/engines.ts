/**
 * The two other browser engines of the cross-engine journeys (docs/browsers.md, docs/testing.md):
 * Debian's Firefox ESR over WebDriver BiDi (puppeteer-core; Playwright 1.65's BiDi Firefox asks
 * for commands ESR 153 lacks, e.g. `emulation.setMediaFeaturesOverride`) and Debian's WebKitGTK
 * MiniBrowser through `WebKitWebDriver` (classic WebDriver, selenium-webdriver) on its own Xvfb
 * display. Neither is downloaded: both come from apt (scripts/prerequisites.mjs).
 *
 * A page of either engine is an `EnginePage`: what a journey needs of a person's browser (open a
 * link, click, type, read the page) with the same names for both, so that one journey runs in each.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import puppeteer, { type Browser as PuppeteerBrowser, type Page as PuppeteerPage } from 'puppeteer-core';
import { Builder, By, Key, Origin, type WebDriver } from 'selenium-webdriver';
import { freePort } from '../../server/test-support/redis';
import type { MediaSample } from './playback';
import { FUTURE_DATA_AHEAD_SEC } from '../../lib/sync/media';

/** The engines besides Chromium, by the name docs/browsers.md gives them. */
export type EngineName = 'firefox' | 'webkit';

/** Where Debian puts each engine. */
export const FIREFOX_PATH = process.env.FIREFOX_PATH || '/usr/bin/firefox-esr';
export const WEBKIT_DRIVER_PATH = process.env.WEBKIT_DRIVER_PATH || '/usr/bin/WebKitWebDriver';
export const MINIBROWSER_PATH = process.env.MINIBROWSER_PATH || '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';

/** Whether the engine is installed here (the journeys of a missing one fail with the apt command, never skip in CI). */
export function engineInstalled(name: EngineName): boolean {
  return name === 'firefox' ? existsSync(FIREFOX_PATH) : existsSync(WEBKIT_DRIVER_PATH) && existsSync(MINIBROWSER_PATH) && existsSync('/usr/bin/Xvfb');
}

/** One tab of Firefox or WebKit, driven as a person uses it. */
export interface EnginePage {
  readonly engine: EngineName;
  /** Opens `url` and waits for its load event. */
  goto(url: string): Promise<void>;
  /** Runs `body` (a function body that may `return`) in the page with `args` as `arguments`, and returns its JSON result. */
  run<T>(body: string, ...args: unknown[]): Promise<T>;
  /** Clicks the element that `css` selects, with the engine's pointer input (a user gesture). */
  click(css: string): Promise<void>;
  /**
   * Clicks, with the engine's pointer input, the element that `body` (a function body) returns:
   * for what no selector reaches, e.g. an item of media-chrome's menus inside their shadow roots.
   */
  clickFound(body: string): Promise<void>;
  /** Types `text` into the element that `css` selects, as keystrokes. */
  type(css: string, text: string): Promise<void>;
  /** Presses `key` (a WebDriver key name: 'Escape', 'Enter') on whatever has the focus. */
  press(key: 'Escape' | 'Enter'): Promise<void>;
  /** Moves the engine's pointer over the middle of the element that `css` selects. */
  hover(css: string): Promise<void>;
  /** Makes the page's viewport `width` × `height` CSS px (WebKit: the window, sized until its viewport is). */
  resize(width: number, height: number): Promise<void>;
  /** Saves a PNG of the viewport (for failure reports). */
  screenshot(file: string): Promise<void>;
  close(): Promise<void>;
}

/** Waits until `check` resolves true, polling every 100 ms, for at most `timeoutMs`. */
async function until(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
}

/**
 * How long a WebDriver command into WebKitGTK may take before the journey fails naming it: its web
 * process starved of CPU has left a command unanswered for good (docs/browsers.md "Known gaps").
 */
const WEBDRIVER_ANSWER_MS = 30_000;

/** `command`, or an error naming `what` once it has gone `WEBDRIVER_ANSWER_MS` unanswered. */
function answered<T>(command: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`WebKitWebDriver did not answer ${what} within ${WEBDRIVER_ANSWER_MS / 1000} s`)), WEBDRIVER_ANSWER_MS);
  });
  return Promise.race([command, late]).finally(() => clearTimeout(timer));
}

/** `page` with each of its methods failing, named, once it has gone `WEBDRIVER_ANSWER_MS` unanswered. */
function answeringWithin(page: EnginePage): EnginePage {
  const bounded = { ...page };
  for (const key of Object.keys(page) as (keyof EnginePage)[]) {
    const method = page[key];
    if (typeof method !== 'function') continue;
    (bounded as Record<string, unknown>)[key] = (...args: unknown[]) => answered((method as (...a: unknown[]) => Promise<unknown>)(...args), `${key}(${String(args[0] ?? '').trim().slice(0, 60)})`);
  }
  return bounded;
}

/** How a person has set their browser up. */
export interface EngineOptions {
  /** Firefox's "Block audio and video" (`media.autoplay.default` 5): no start without a gesture, muted or not. */
  blockAllAutoplay?: boolean;
  /**
   * Sound allowed without a gesture (Firefox's `media.autoplay.default` 0, MiniBrowser's
   * `--autoplay-policy=allow`): the video starts audible, as for a viewer who has pressed Unmute,
   * and as headless Chromium always starts it (playwright.config.ts). By default each engine keeps
   * its own rule: sound only after a gesture, so a start without one is muted.
   */
  soundAllowed?: boolean;
}

/** The part of puppeteer's BiDi connection used here: one command and its answer. */
interface BidiSender {
  send(method: 'script.callFunction', params: object): Promise<{ result: { type: 'success' | 'exception'; result?: { value?: string }; exceptionDetails?: { text: string } } }>;
}

/** A function body returning the element that `css` selects. */
const selectorBody = (css: string) => `return document.querySelector(${JSON.stringify(css)});`;

/**
 * The viewport point (CSS px) at the middle of the element that `body` returns, once it is shown
 * (a box, not `visibility: hidden`), brought to the middle of the viewport first as a person scrolls
 * to what they press, on top there (the point hits the element, one of its own or the host it sits
 * in, as media-chrome's menus report: no toast, menu or dialog over it) and still (the same point at
 * two readings 100 ms apart: a menu opening or a list growing moved it between the reading and the
 * click, and the click went elsewhere); waits up to 10 s.
 */
async function middleOf(run: EnginePage['run'], body: string): Promise<[number, number]> {
  let middle: [number, number] | null = null;
  let before = '';
  await until(
    async () => {
      middle = await run<[number, number] | null>(`
        const element = (() => { ${body} })();
        if (!element || !element.getClientRects().length || getComputedStyle(element).visibility === 'hidden') return null;
        element.scrollIntoView({ block: 'center', inline: 'nearest' });
        const box = element.getBoundingClientRect();
        const x = box.left + box.width / 2;
        const y = box.top + box.height / 2;
        const root = element.getRootNode();
        const hit = (typeof root.elementFromPoint === 'function' ? root : document).elementFromPoint(x, y);
        return hit && (hit === element || element.contains(hit) || hit.contains(element)) ? [x, y] : null;`);
      const now = middle ? middle.join(',') : '';
      const still = now !== '' && now === before;
      before = now;
      return still;
    },
    10_000,
    `the element of ${body} to show, on top and still`,
  );
  return middle!;
}

/** Firefox ESR, headless, over WebDriver BiDi; each `newPage` is a tab in one fresh profile. */
export async function launchFirefox({ blockAllAutoplay = false, soundAllowed = false }: EngineOptions = {}): Promise<{ newPage(): Promise<EnginePage>; close(): Promise<void> }> {
  const browser: PuppeteerBrowser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: FIREFOX_PATH,
    headless: true,
    // Firefox's own autoplay rule (sound refused without a gesture) is the default a person has.
    // Voice gets Firefox's fake microphone and camera (a tone and a test pattern), granted without
    // asking, as Chromium's are (./chromium.ts).
    extraPrefsFirefox: {
      'media.autoplay.default': blockAllAutoplay ? 5 : soundAllowed ? 0 : 1,
      'media.autoplay.blocking_policy': 0,
      'media.navigator.streams.fake': true,
      'media.navigator.permission.disabled': true,
    },
  });
  return {
    async newPage() {
      const page: PuppeteerPage = await browser.newPage();
      await page.setViewport({ width: 1280, height: 800 });
      const connection = (browser as unknown as { connection: BidiSender }).connection;
      const context = (page.mainFrame() as unknown as { _id: string })._id;
      /**
       * Runs `body` in the page straight over BiDi, never asking for user activation. Firefox ties
       * a realm's activation to the `userActivation` of the last call into it: puppeteer's evaluate
       * asks for it (every reading of the page was a person's gesture: no autoplay was ever
       * refused), and a call without it after one with it clears the page's activation (a person's
       * real click was forgotten at the next reading). So every call here goes without it, and the
       * pointer and the keys go through BiDi's input actions, never puppeteer's locators, which
       * evaluate with it.
       */
      const run = async <T,>(body: string, ...args: unknown[]): Promise<T> => {
        const { result } = await connection.send('script.callFunction', {
          functionDeclaration: `(argsJson) => Promise.resolve((function () { ${body}\n }).apply(null, JSON.parse(argsJson))).then((value) => JSON.stringify(value === undefined ? null : value))`,
          awaitPromise: true,
          target: { context },
          arguments: [{ type: 'string', value: JSON.stringify(args) }],
          resultOwnership: 'none',
        });
        if (result.type === 'exception') throw new Error(`in the page: ${result.exceptionDetails?.text ?? 'an exception'}`);
        return JSON.parse(result.result?.value ?? 'null') as T;
      };
      return {
        engine: 'firefox',
        async goto(url) {
          await page.goto(url, { waitUntil: 'load' });
        },
        run,
        async click(css) {
          const [x, y] = await middleOf(run, selectorBody(css));
          await page.mouse.click(x, y);
        },
        async clickFound(body) {
          const [x, y] = await middleOf(run, body);
          await page.mouse.click(x, y);
        },
        async type(css, text) {
          // Into the field as a person types: a click in it (again if the focus is not there: the
          // keys would go to the page), everything in it selected, the keys.
          for (let attempt = 1; ; attempt += 1) {
            const [x, y] = await middleOf(run, selectorBody(css));
            await page.mouse.click(x, y);
            if (await run<boolean>('return document.activeElement === document.querySelector(arguments[0]);', css)) break;
            if (attempt === 3) throw new Error(`three clicks on ${css} left the focus elsewhere`);
          }
          await page.keyboard.down('Control');
          await page.keyboard.press('a');
          await page.keyboard.up('Control');
          if (text) await page.keyboard.type(text);
          else await page.keyboard.press('Backspace');
        },
        async press(key) {
          await page.keyboard.press(key);
        },
        async hover(css) {
          const [x, y] = await middleOf(run, selectorBody(css));
          await page.mouse.move(x, y);
        },
        async resize(width, height) {
          await page.setViewport({ width, height });
        },
        async screenshot(file) {
          await page.screenshot({ path: file as `${string}.png` });
        },
        async close() {
          await page.close();
        },
      };
    },
    close: () => browser.close(),
  };
}

/**
 * WebKitGTK's MiniBrowser under its own Xvfb display, through WebKitWebDriver. One WebDriver
 * session is one window; `newPage` starts one each (WebKitWebDriver serves one session at a time,
 * so each page gets its own driver).
 */
export async function launchWebKit({ soundAllowed = false }: EngineOptions = {}): Promise<{ newPage(): Promise<EnginePage>; close(): Promise<void> }> {
  const children: ChildProcess[] = [];
  const dir = mkdtempSync(path.join(os.tmpdir(), 'synctv-webkit-'));
  // Xvfb picks a free display and writes its number to the file descriptor given.
  // Each child leads its own process group (MiniBrowser and its web processes are in the driver's),
  // killed whole on close and when the test's process exits: a worker torn down after a timeout
  // otherwise left a web process playing at a core's worth of CPU under the next tests.
  const xvfb = spawn('Xvfb', ['-displayfd', '3', '-screen', '0', '1280x900x24', '-nolisten', 'tcp'], { stdio: ['ignore', 'ignore', 'ignore', 'pipe'], detached: true });
  children.push(xvfb);
  const killAll = () => {
    for (const child of children) if (child.pid) try { process.kill(-child.pid, 'SIGKILL'); } catch { /* gone already */ }
  };
  process.once('exit', killAll);
  const display = await new Promise<string>((resolve, reject) => {
    let text = '';
    xvfb.stdio[3]!.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      if (text.includes('\n')) resolve(`:${text.trim()}`);
    });
    xvfb.once('exit', (code) => reject(new Error(`Xvfb exited with ${code}`)));
  });
  // MiniBrowser's toolbar keeps its window at least 447 px wide; a GTK style without padding or
  // icons lets it go down to a phone's 390 px viewport (e2e/engines.spec.ts "webkit at 390×844").
  mkdirSync(path.join(dir, 'gtk-3.0'), { recursive: true });
  writeFileSync(path.join(dir, 'gtk-3.0', 'gtk.css'), '* { padding: 0; margin: 0; min-width: 0; min-height: 0; font-size: 1px; -gtk-icon-style: regular; } image { -gtk-icon-transform: scale(0.1); }\n');
  const sessions: WebDriver[] = [];
  return {
    async newPage() {
      const port = await freePort();
      const driver = spawn(WEBKIT_DRIVER_PATH, [`--port=${port}`], {
        stdio: 'ignore',
        detached: true,
        env: {
          ...process.env,
          DISPLAY: display,
          // No sound server here: GStreamer's fake audio sink stands for the speakers (autoaudiosink
          // finds none and the media player reports a pipeline error otherwise).
          GST_PLUGIN_FEATURE_RANK: 'fakeaudiosink:MAX',
          // No GPU here: WebKit's DMA-BUF renderer composites every video frame through Mesa's
          // software GL, about one core for a playing 960 px video on this machine; its older
          // renderer takes 0.4 (measured 2026-12-07, docs/browsers.md "WebKitGTK on two cores").
          WEBKIT_DISABLE_DMABUF_RENDERER: process.env.WEBKIT_DISABLE_DMABUF_RENDERER ?? '1',
          XDG_RUNTIME_DIR: dir,
          XDG_CONFIG_HOME: dir,
        },
      });
      children.push(driver);
      await until(async () => (await fetch(`http://127.0.0.1:${port}/status`)).ok, 10_000, 'WebKitWebDriver');
      const session = await new Builder()
        .usingServer(`http://127.0.0.1:${port}`)
        .withCapabilities({ browserName: 'MiniBrowser', 'webkitgtk:browserOptions': { binary: MINIBROWSER_PATH, args: ['--automation', ...(soundAllowed ? ['--autoplay-policy=allow'] : [])] } })
        .build();
      sessions.push(session);
      await session.manage().window().setRect({ width: 1280, height: 800 });
      const page: EnginePage = {
        engine: 'webkit',
        async goto(url) {
          await session.get(url);
        },
        async run<T>(body: string, ...args: unknown[]) {
          return session.executeScript(body, ...args) as Promise<T>;
        },
        async click(css) {
          await until(async () => (await session.findElement(By.css(css))).isDisplayed(), 10_000, `${css} to show`);
          // In the middle of the viewport first, as a person scrolls to what they press: WebKitWebDriver
          // scrolls it to the top edge, under the page's sticky header, and refuses to click it there.
          await session.executeScript(`document.querySelector(arguments[0]).scrollIntoView({ block: 'center' });`, css);
          await session.findElement(By.css(css)).click();
        },
        async clickFound(body) {
          // The pointer at the element's middle in the viewport: WebKitWebDriver takes an element
          // inside a shadow root for not interactable, by element click and by an action at it.
          const [x, y] = await middleOf((script) => session.executeScript(script) as never, body);
          await session.actions().move({ x: Math.round(x), y: Math.round(y), origin: Origin.VIEWPORT }).click().perform();
        },
        async type(css, text) {
          await until(async () => (await session.findElement(By.css(css))).isDisplayed(), 10_000, `${css} to show`);
          await session.executeScript(`document.querySelector(arguments[0]).scrollIntoView({ block: 'center' });`, css);
          const element = await session.findElement(By.css(css));
          await element.clear();
          await element.sendKeys(text);
        },
        async press(key) {
          await session.actions().sendKeys(key === 'Escape' ? Key.ESCAPE : Key.ENTER).perform();
        },
        async hover(css) {
          await session.actions().move({ origin: await session.findElement(By.css(css)) }).perform();
        },
        async resize(width, height) {
          // The window holds the viewport and MiniBrowser's own frame: size it, measure once the
          // viewport has taken the new size (read at once, it was once still the old one, and the
          // correction came out negative: "Invalid width value"), correct by the frame.
          const viewport = async () => (await session.executeScript('return [window.innerWidth, window.innerHeight];')) as [number, number];
          const before = await viewport();
          await session.manage().window().setRect({ width, height });
          let inner = await viewport();
          for (let i = 0; i < 20 && inner[0] === before[0] && inner[1] === before[1] && (width !== before[0] || height !== before[1]); i += 1) {
            await new Promise((resolve) => setTimeout(resolve, 100));
            inner = await viewport();
          }
          const frame = [Math.max(0, width - inner[0]), Math.max(0, height - inner[1])];
          if (!frame[0] && !frame[1]) return;
          await session.manage().window().setRect({ width: width + frame[0], height: height + frame[1] });
          for (let i = 0; i < 20 && (inner[0] !== width || inner[1] !== height); i += 1) {
            await new Promise((resolve) => setTimeout(resolve, 100));
            inner = await viewport();
          }
        },
        async screenshot(file) {
          writeFileSync(file, Buffer.from(await session.takeScreenshot(), 'base64'));
        },
        async close() {
          await session.quit().catch(() => undefined);
          if (driver.pid) try { process.kill(-driver.pid, 'SIGKILL'); } catch { /* gone already */ }
        },
      };
      return answeringWithin(page);
    },
    async close() {
      await Promise.all(sessions.map((session) => answered(session.quit(), 'closing the window').catch(() => undefined)));
      killAll();
      process.off('exit', killAll);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Launches the named engine (`options`: Firefox only). */
export function launchEngine(name: EngineName, options: EngineOptions = {}) {
  return name === 'firefox' ? launchFirefox(options) : launchWebKit(options);
}

/**
 * The page code that reads the player like e2e/support/playback.ts `sampleMedia` (a function body).
 * Its readyState is the one the spec defines from the data at hand, as the engine reads it
 * (lib/sync/media.ts `readinessOf`): WebKitGTK reports HAVE_CURRENT_DATA after every seek and rate
 * change while it plays with the whole file buffered.
 */
export const SAMPLE_MEDIA = `
  const video = document.querySelector('video[data-testid="player-video"]');
  if (!video) return { present: false, currentTime: 0, paused: true, muted: false, seeking: false, ended: false, playbackRate: 1, readyState: 0, buffered: '', atMs: Date.now() };
  let readyState = video.readyState;
  const ahead = Math.min(video.currentTime + ${FUTURE_DATA_AHEAD_SEC}, Number.isFinite(video.duration) ? video.duration : Infinity);
  for (let i = 0; readyState === 2 && !video.seeking && i < video.buffered.length; i += 1) {
    if (video.currentTime >= video.buffered.start(i) && ahead <= video.buffered.end(i)) readyState = 3;
  }
  return { present: true, currentTime: video.currentTime, paused: video.paused, muted: video.muted, seeking: video.seeking, ended: video.ended,
    playbackRate: video.playbackRate, readyState, buffered: '', duration: video.duration, atMs: Date.now() };
`;

/** The engine page's player, as `sampleMedia` reads a Playwright page's. */
export function sampleEngine(page: EnginePage): Promise<MediaSample & { duration: number }> {
  return page.run(SAMPLE_MEDIA);
}

/**
 * The engine's sync record (`window.__synctvSyncDebug()`, docs/sync.md "Debugging") in a few
 * lines for a failure report: phase, drift (ms), rates, clock offset and round trip (ms), then the
 * decisions newest first with their age (ms). A note when the page keeps no record.
 */
export function engineSyncDebug(page: EnginePage): Promise<string> {
  return page
    .run<string>(`
      const read = window.__synctvSyncDebug;
      const d = read && read();
      if (!d) return read ? 'no engine' : 'no sync record on this page';
      const head = 'phase ' + d.phase + ' · drift ' + d.driftMs + ' ms · rate ' + d.playbackRate + ' (room ' + d.roomRate + ') · clock ' + d.clockOffsetMs + ' ms, rtt ' + d.rttMs + ' ms · phase data ' + JSON.stringify(d.phaseData).slice(0, 200);
      const lines = d.decisions.slice().reverse().map((x) => '-' + Math.round(d.nowMs - x.atMs) + ' ms ' + x.kind + ' → ' + x.phase + ' ' + x.detail + (x.event ? ' ← ' + x.event : ''));
      return [head].concat(lines).join('\\n');`)
    .catch((error: unknown) => `unreadable: ${String(error)}`);
}

/**
 * Signs `page` in with `token` (the API's JWT in localStorage, as the sign-in screen leaves it), turns
 * on the sync debug overlay (docs/sync.md "Debugging") for the failure reports unless `debug` is
 * false (`'record'`: only the engine's record, `debug=sync-record`, nothing on screen), and opens `url`.
 */
export async function openSignedIn(page: EnginePage, origin: string, token: string, url: string, { debug = true as boolean | 'record' } = {}): Promise<void> {
  await page.goto(`${origin}/web/`);
  const flag = debug === 'record' ? 'sync-record' : debug ? 'sync' : null;
  await page.run(`localStorage.setItem('userToken', arguments[0]);${flag ? ` localStorage.setItem('debug', '${flag}');` : ''}`, token);
  await page.goto(url);
}
