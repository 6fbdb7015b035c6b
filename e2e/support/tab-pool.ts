import type { Browser, BrowserContext, Page } from '@playwright/test';

/**
 * Browser tabs kept across the tests of one Playwright worker, each in its own browser context.
 *
 * Why: on this machine a fresh context's first page costs about 2.8 s more CPU than the same load in
 * a tab that already has its renderer (4.2 s against 1.4 s for the home page, docs/testing.md), and
 * nearly every test opens one to three of them. A kept tab is handed to the next test only after it
 * is back to what a fresh context gives: its listeners, init scripts, routes, permissions and cookies
 * removed, localStorage, sessionStorage, IndexedDB and caches of every origin it opened cleared, and
 * the page left on an empty document of that site (navigating to about:blank would cost a new
 * renderer). A tab whose state cannot be put back that way (a second tab, a CDP session, an emulated
 * viewport or media, offline, extra headers, exposed functions, a clock) is closed instead, and so is
 * every tab of a test that did not pass, so that its trace and screenshot show it as it was.
 */
export interface Tab {
  context: BrowserContext;
  page: Page;
}

interface KeptTab extends Tab {
  /** Origins the tab's documents came from, whose storage is cleared on release. */
  origins: Set<string>;
  /** What a test added through `addInitScript`, removed on release. */
  initScripts: { [Symbol.asyncDispose](): Promise<void> }[];
  /** Set when the test changed something `release` cannot undo. */
  dirty: boolean;
  /** The listeners the pool itself attached, kept on release. */
  baseline: Map<object, Map<string | symbol, Set<unknown>>>;
}

/** The page every released tab is left on, served by `page.route` and never by a server. */
const BLANK_PATH = '/__e2e-blank__';
const BLANK_HTML = '<!doctype html><meta charset="utf-8"><title>blank</title>';

/** Methods whose effect outlives the test and that release cannot reset: calling one retires the tab. */
const PAGE_STICKY = ['setViewportSize', 'emulateMedia', 'exposeFunction', 'exposeBinding', 'setExtraHTTPHeaders'] as const;
const CONTEXT_STICKY = ['newCDPSession', 'setOffline', 'setExtraHTTPHeaders', 'setGeolocation', 'setHTTPCredentials', 'exposeFunction', 'exposeBinding', 'newPage'] as const;

type Emitter = {
  eventNames(): (string | symbol)[];
  rawListeners(type: string | symbol): unknown[];
  removeListener(type: string | symbol, listener: unknown): unknown;
};

function listenersOf(emitter: Emitter): Map<string | symbol, Set<unknown>> {
  return new Map(emitter.eventNames().map((name) => [name, new Set(emitter.rawListeners(name))]));
}

function removeAddedListeners(emitter: Emitter, baseline: Map<string | symbol, Set<unknown>> | undefined): void {
  for (const name of emitter.eventNames()) {
    const kept = baseline?.get(name);
    for (const listener of emitter.rawListeners(name)) if (!kept?.has(listener)) emitter.removeListener(name, listener);
  }
}

/** Tabs of one worker: `take` at the start of a test, `release` at its end, `close` with the worker. */
export class TabPool {
  private readonly idle: KeptTab[] = [];
  private readonly inUse = new Map<Page, KeptTab>();
  private readonly newContext: Browser['newContext'];

  /**
   * @param browser the worker's browser; its `newContext` is bound now, before a test may wrap it.
   * Tabs are opened during a test, so Playwright gives their contexts the project's options
   * (viewport, locale, user agent), as it does to any `browser.newContext()` in a test.
   */
  constructor(browser: Browser) {
    this.newContext = browser.newContext.bind(browser);
  }

  /** A tab with a fresh context's state: one kept from an earlier test, else a new one. */
  async take(): Promise<Tab> {
    const tab = this.idle.pop() ?? (await this.open());
    this.inUse.set(tab.page, tab);
    return tab;
  }

  /**
   * Gives a tab back. `keep` false (the test did not pass) or anything release cannot undo closes its
   * context; otherwise the tab is reset as described above and kept for the next test.
   */
  async release(tab: Tab, keep: boolean): Promise<void> {
    const kept = this.inUse.get(tab.page);
    if (!kept) return;
    this.inUse.delete(tab.page);
    if (!keep || kept.dirty || kept.context.pages().length !== 1 || kept.page.isClosed()) {
      await kept.context.close().catch(() => undefined);
      return;
    }
    try {
      await this.reset(kept);
      this.idle.push(kept);
    } catch {
      await kept.context.close().catch(() => undefined);
    }
  }

  /** Closes every kept tab (the worker ends). */
  async close(): Promise<void> {
    for (const tab of [...this.idle, ...this.inUse.values()]) await tab.context.close().catch(() => undefined);
    this.idle.length = 0;
    this.inUse.clear();
  }

  private async open(): Promise<KeptTab> {
    const context = await this.newContext();
    const page = await context.newPage();
    const tab: KeptTab = { context, page, origins: new Set(), initScripts: [], dirty: false, baseline: new Map() };
    page.on('framenavigated', (frame) => {
      if (frame !== page.mainFrame()) return;
      const { origin, protocol } = new URL(frame.url());
      if (protocol === 'http:' || protocol === 'https:') tab.origins.add(origin);
    });
    const retire = (target: Record<string, unknown>, names: readonly string[]) => {
      for (const name of names) {
        const original = target[name] as (...args: unknown[]) => unknown;
        target[name] = (...args: unknown[]) => {
          tab.dirty = true;
          return original.apply(target, args);
        };
      }
    };
    retire(page as unknown as Record<string, unknown>, PAGE_STICKY);
    retire(context as unknown as Record<string, unknown>, CONTEXT_STICKY);
    retire(context.clock as unknown as Record<string, unknown>, ['install', 'setFixedTime', 'setSystemTime']);
    for (const target of [page, context] as const) {
      const original = target.addInitScript.bind(target) as (...args: unknown[]) => Promise<KeptTab['initScripts'][number]>;
      (target as unknown as Record<string, unknown>).addInitScript = async (...args: unknown[]) => {
        const script = await original(...args);
        tab.initScripts.push(script);
        return script;
      };
    }
    tab.baseline.set(page, listenersOf(page as unknown as Emitter));
    tab.baseline.set(context, listenersOf(context as unknown as Emitter));
    return tab;
  }

  private async reset(tab: KeptTab): Promise<void> {
    const { context, page } = tab;
    removeAddedListeners(page as unknown as Emitter, tab.baseline.get(page));
    removeAddedListeners(context as unknown as Emitter, tab.baseline.get(context));
    for (const script of tab.initScripts.splice(0)) await script[Symbol.asyncDispose]();
    await page.unrouteAll({ behavior: 'ignoreErrors' });
    await context.unrouteAll({ behavior: 'ignoreErrors' });
    await context.clearPermissions();
    await context.clearCookies();
    // Leave the app first (its scripts could write storage again), then empty each origin's storage
    // from a document of that origin: sessionStorage belongs to the tab and survives navigation.
    const blank = (route: { fulfill(response: { contentType: string; body: string }): Promise<void> }) =>
      route.fulfill({ contentType: 'text/html', body: BLANK_HTML });
    await page.route(`**${BLANK_PATH}`, blank);
    try {
      for (const origin of tab.origins) {
        await page.goto(`${origin}${BLANK_PATH}`);
        await page.evaluate(async () => {
          window.localStorage.clear();
          window.sessionStorage.clear();
          const databases = (await window.indexedDB.databases?.()) ?? [];
          await Promise.all(databases.map((db) => db.name && new Promise((done) => {
            const request = window.indexedDB.deleteDatabase(db.name!);
            request.onsuccess = request.onerror = request.onblocked = done;
          })));
          if ('caches' in window) for (const key of await window.caches.keys()) await window.caches.delete(key);
        });
      }
    } finally {
      await page.unroute(`**${BLANK_PATH}`, blank);
    }
    tab.origins.clear();
  }
}
