/**
 * Start-up order (docs/reference-client.md §6): on a direct load, no screen calls the API before
 * `GET /api/user/me` (when a token is stored) and `GET /api/public/settings`, sent at once, have finished.
 */
import type { Page } from '@playwright/test';
import { expect, test, type Actor } from './fixtures';

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
