import { test as base, expect, type BrowserContext, type Page } from '@playwright/test';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { startServer } from '../server/app';
import type { SiteSettings } from '../server/db';
import { startMailSink, type MailSink } from '../server/test-support/mail-sink';
import { startOAuthProvider, type OAuthProvider } from './support/oauth-provider';
import { startBilibiliStandIn, type BilibiliStandIn } from './support/bilibili-stand-in';
import { SeedApi, uniqueName } from './support/api';
import { startMediaServer, type MediaServer } from './support/media-server';
import { collectPageErrors } from './support/page-errors';
import { TabPool, type Tab } from './support/tab-pool';
import { webUrl } from './support/urls';

/** Root's password on the e2e companion server (env ROOT_PASSWORD's role, passed to startServer). */
export const ROOT_PASSWORD = 'rootpass-e2e';

/** A loopback address that the movie proxy of the e2e server may reach (PROXY_ALLOW_ADDRESSES). */
export const PROXY_MEDIA_HOST = '127.0.0.2';

/** The answer of every image captcha on the e2e server (StartServerOptions.fixedCaptchaAnswer). */
export const CAPTCHA_ANSWER = '24680';

/** Password of every user a test signs up (printable ASCII, within the contract's 32 bytes). */
export const USER_PASSWORD = 'pw-e2e-123456';

const repoRoot = path.resolve(__dirname, '..');

/** The companion server under test, one per worker, with its own fresh data directory. */
export interface App {
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  origin: string;
  /**
   * Absolute URL of a client route, e.g. `url('/cinema/abc')` → `http://127.0.0.1:1234/web/cinema/abc/`.
   * Adds the `/web` basePath and the trailing slash of the export (a query string is kept after it).
   */
  url(route: string): string;
  api: SeedApi;
  /** Changes a site setting in the server's SQLite file; the server reads settings on every request. */
  setSetting<K extends keyof SiteSettings>(name: K, value: SiteSettings[K]): void;
}

/**
 * One person: their own browser context (storage, cookies) and tab, and its uncaught errors. The tab
 * may have served an earlier test of the worker, reset to a fresh context's state (e2e/support/tab-pool.ts).
 */
export interface Actor {
  context: BrowserContext;
  page: Page;
  /** `pageerror` messages seen so far (hydration errors included). */
  errors: string[];
  username: string;
  password: string;
  /** Set when the actor was signed up through the API. */
  token?: string;
}

export interface Actors {
  /** A visitor without a session, in a tab with a fresh context's state; `username` is a fresh unused name to register with. */
  visitor(prefix?: string): Promise<Actor>;
  /** A user signed up through the API whose token is in localStorage before the first page script runs. */
  user(prefix?: string): Promise<Actor>;
  /** Root, logged in through the API with `ROOT_PASSWORD`. */
  root(): Promise<Actor>;
}

interface WorkerFixtures {
  app: App;
  media: MediaServer;
  /** The SMTP server that receives the e2e server's mail (email is on). */
  mail: MailSink;
  /** The OAuth2 authorization server behind the e2e server's `github` provider (enabled). */
  oauth: OAuthProvider;
  /** The bilibili stand-in (./support/bilibili-stand-in.ts) the server asks instead of bilibili. */
  bilibili: BilibiliStandIn;
  /** Browser tabs kept across this worker's tests, each reset to a fresh context's state. */
  tabs: TabPool;
}

interface TestFixtures {
  actors: Actors;
  /**
   * Fails the test when any page broke the documents' Content Security Policy (scripts/csp.mjs):
   * watches every context the test creates, and the kept tabs it is given (the function).
   */
  cspGuard: (context: BrowserContext) => void;
}

export const test = base.extend<TestFixtures, WorkerFixtures>({
  mail: [
    async ({}, use) => {
      const sink = await startMailSink();
      await use(sink);
      await sink.close();
    },
    { scope: 'worker' },
  ],

  oauth: [
    async ({}, use) => {
      const provider = await startOAuthProvider();
      await use(provider);
      await provider.close();
    },
    { scope: 'worker' },
  ],

  bilibili: [
    async ({}, use) => {
      const standIn = await startBilibiliStandIn({ mediaDir: path.join(repoRoot, 'e2e', 'media'), host: PROXY_MEDIA_HOST });
      await use(standIn);
      await standIn.close();
    },
    { scope: 'worker' },
  ],

  app: [
    async ({ mail, oauth, bilibili }, use) => {
      const webDir = path.join(repoRoot, 'out');
      if (!existsSync(path.join(webDir, 'index.html'))) {
        throw new Error('out/index.html is missing: build the client first (`npm run build`; `npm run test:e2e` does it)');
      }
      const dataDir = await mkdtemp(path.join(os.tmpdir(), 'synctv-e2e-'));
      const server = await startServer({
        port: 0,
        host: '127.0.0.1',
        dataDir,
        webDir,
        rootPassword: ROOT_PASSWORD,
        // The proxy test serves media on this second loopback address; 127.0.0.1 stays refused.
        proxyAllowAddresses: [PROXY_MEDIA_HOST],
        fixedCaptchaAnswer: CAPTCHA_ANSWER,
        initialSettings: {
          ...mail.settings(),
          oauth2_github_enabled: true,
          oauth2_github_client_id: oauth.clientId,
          oauth2_github_client_secret: oauth.clientSecret,
        },
        oauth2Endpoints: { github: oauth.endpoints },
        // bilibili is on the internet: the stand-in answers for it (docs/vendors.md "Testing"),
        // unless BILIBILI_URL asks for the journey against bilibili itself.
        bilibiliOrigin: process.env.BILIBILI_URL ? undefined : bilibili.origin,
        logLevel: process.env.E2E_SERVER_LOG === '1' ? 'info' : 'silent',
        // Every browser comes from 127.0.0.1; e2e/rate-limit.spec.ts runs its own server with the limits on.
        rateLimitScale: 0,
      });
      const origin = `http://127.0.0.1:${server.port}`;
      const setSetting: App['setSetting'] = (name, value) => {
        const db = new Database(path.join(dataDir, 'synctv.db'));
        try {
          db.prepare('INSERT INTO settings (name, value) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET value = excluded.value').run(name, JSON.stringify(value));
        } finally {
          db.close();
        }
      };
      await use({ origin, url: (route) => webUrl(origin, route), api: new SeedApi(origin), setSetting });
      await server.close();
      await rm(dataDir, { recursive: true, force: true });
    },
    { scope: 'worker' },
  ],

  media: [
    async ({}, use) => {
      const server = await startMediaServer(path.join(repoRoot, 'e2e', 'media'));
      await use(server);
      await server.close();
    },
    { scope: 'worker' },
  ],

  tabs: [
    async ({ browser }, use) => {
      const pool = new TabPool(browser);
      await use(pool);
      await pool.close();
    },
    { scope: 'worker' },
  ],

  cspGuard: [
    async ({ browser }, use) => {
      const violations: string[] = [];
      const watch = (watched: BrowserContext) => {
        watched.on('console', (message) => {
          if (message.type() === 'error' && /Content Security Policy/.test(message.text())) violations.push(`${message.page()?.url()}: ${message.text()}`);
        });
      };
      const newContext = browser.newContext.bind(browser);
      browser.newContext = async (...args) => {
        const created = await newContext(...args);
        watch(created);
        return created;
      };
      try {
        await use(watch);
      } finally {
        browser.newContext = newContext;
      }
      expect(violations, 'Content Security Policy violations').toEqual([]);
    },
    { auto: true },
  ],

  actors: async ({ app, tabs, cspGuard }, use, testInfo) => {
    const opened: Tab[] = [];
    const open = async (username: string, token?: string): Promise<Actor> => {
      // A tab kept from an earlier test, reset to a fresh context's state (e2e/support/tab-pool.ts).
      const tab = await tabs.take();
      opened.push(tab);
      cspGuard(tab.context);
      const { context, page } = tab;
      if (token) await seedToken(context, token);
      return { context, page, errors: collectPageErrors(page), username, password: USER_PASSWORD, token };
    };
    await use({
      visitor: (prefix = 'v') => open(uniqueName(prefix)),
      user: async (prefix = 'u') => {
        const username = uniqueName(prefix);
        return open(username, await app.api.signup(username, USER_PASSWORD));
      },
      root: async () => {
        const actor = await open('root', await app.api.login('root', ROOT_PASSWORD));
        return { ...actor, password: ROOT_PASSWORD };
      },
    });
    const passed = testInfo.status === testInfo.expectedStatus;
    for (const tab of opened) await tabs.release(tab, passed);
  },
});

export { expect, webUrl };

/**
 * Puts `token` into localStorage `userToken` before the app's first script runs, once per tab:
 * a later 401 that clears it must stay cleared across the app's own reloads.
 */
export async function seedToken(context: BrowserContext, token: string): Promise<void> {
  await context.addInitScript((value) => {
    if (window.sessionStorage.getItem('e2e-token-seeded')) return;
    window.localStorage.setItem('userToken', value);
    window.sessionStorage.setItem('e2e-token-seeded', '1');
  }, token);
}
