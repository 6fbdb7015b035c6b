/**
 * A person who meets a rate limit is told, in words, how long to wait. The server here is
 * this test's own with the real limits (the workers' servers turn them off, since every browser of
 * the suite signs in from 127.0.0.1).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startServer, type RunningServer } from '../server/app';
import { test as base, expect, ROOT_PASSWORD, USER_PASSWORD } from './fixtures';
import { SeedApi, uniqueName } from './support/api';

const test = base.extend<{ limited: { origin: string; api: SeedApi } }>({
  limited: async ({}, use) => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'synctv-e2e-limits-'));
    const server: RunningServer = await startServer({
      host: '127.0.0.1',
      port: 0,
      dataDir,
      webDir: path.resolve(__dirname, '..', 'out'),
      rootPassword: ROOT_PASSWORD,
      rateLimitScale: 1,
    });
    const origin = `http://127.0.0.1:${server.port}`;
    await use({ origin, api: new SeedApi(origin) });
    await server.close();
    await rm(dataDir, { recursive: true, force: true });
  },
});

test('after ten wrong passwords for one account, the login form says to try again in N seconds', async ({ browser, limited }) => {
  const username = uniqueName('limit');
  await limited.api.signup(username, USER_PASSWORD);
  // Ten wrong guesses a minute are allowed per account (server/http/limits.ts); these are spent here.
  for (let n = 0; n < 10; n++) {
    const response = await fetch(`${limited.origin}/api/user/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username, password: `wrong-${n}` }),
    });
    expect(response.status).toBe(403);
  }

  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(`${limited.origin}/web/auth/login/`);
    await page.getByTestId('login-username').fill(username);
    // Even the right password waits: the limit counts attempts, not failures.
    await page.getByTestId('login-password').fill(USER_PASSWORD);
    await page.getByTestId('login-submit').click();
    const notice = page.getByText(/Too many attempts\. Try again in \d+ s\./).first();
    await expect(notice).toBeVisible();
    const seconds = Number(/in (\d+) s/.exec((await notice.textContent()) ?? '')?.[1]);
    expect(seconds).toBeGreaterThan(0);
    expect(seconds).toBeLessThanOrEqual(60);
    await expect(page.getByText('too many requests')).toHaveCount(0);
    await expect(page.getByTestId('header-username')).toHaveCount(0);
  } finally {
    await context.close();
  }
});
