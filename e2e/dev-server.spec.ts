/**
 * `npm run dev` (next.config.mjs's dev configuration): Next's dev server renders the home page and
 * the dynamic routes, which only the dev configuration's rewrites serve (a real room URL, joined and
 * not), and proxies the API and the room WebSocket to the companion server. The static routes are the
 * export's as much as the dev server's, and each costs `next dev` a compile of its own (about 7 s
 * here), so the end-to-end tests of the build cover them.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { expect, test } from './fixtures';

const repoRoot = path.resolve(__dirname, '..');

/** Starts `next dev` on a free port in front of `apiOrigin`; resolves to its origin once it is ready. */
async function startNextDev(apiOrigin: string): Promise<{ origin: string; child: ChildProcess }> {
  const child = spawn(path.join(repoRoot, 'node_modules', '.bin', 'next'), ['dev', '--port', '0'], {
    cwd: repoRoot,
    env: { ...process.env, DEV_API_ORIGIN: apiOrigin, NODE_ENV: 'development' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const origin = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`next dev did not start:\n${output}`)), 60_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const local = /Local:\s+(http:\/\/\S+)/.exec(output);
      if (local && output.includes('Ready')) {
        clearTimeout(timer);
        resolve(local[1].replace(/\/$/, ''));
      }
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    child.on('exit', (code) => reject(new Error(`next dev exited (${code}):\n${output}`)));
  });
  return { origin, child };
}

test('npm run dev renders the home page and the room routes, and a real room with its socket', async ({ app, actors }) => {
  test.setTimeout(240_000);
  const user = await actors.user();
  const roomId = await app.api.createRoom(user.token!, `dev ${Date.now()}`);
  const dev = await startNextDev(app.origin);
  try {
    const { page } = user;
    for (const [route, testId] of [
      ['/', 'page-home'],
      [`/joinRoom/${roomId}/`, 'page-cinema'],
      [`/cinema/${roomId}/`, 'page-cinema'],
    ]) {
      const response = await page.goto(`${dev.origin}/web${route}`, { timeout: 120_000 });
      expect(response?.status(), route).toBe(200);
      await expect(page.getByTestId(testId), route).toBeVisible({ timeout: 60_000 });
    }
    await expect(page.getByTestId('ws-state')).toHaveAttribute('data-state', 'open', { timeout: 30_000 });
    await expect(page.getByTestId('room-name')).toContainText('dev ');
    expect(user.errors).toEqual([]);

    // A deep link to a room that does not exist: the 401 rules send the user to join it, which says why not.
    const response = await page.goto(`${dev.origin}/web/cinema/${'f'.repeat(32)}/`, { timeout: 120_000 });
    expect(response?.status()).toBe(200);
    await expect(page.getByTestId('page-joinRoom')).toBeVisible({ timeout: 60_000 });
    await expect(page.locator('#join-room-id-error')).toHaveText("That room doesn't exist");
  } finally {
    dev.child.kill('SIGTERM');
  }
});
