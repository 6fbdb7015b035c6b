/** @jest-environment node */
/**
 * `npm run admin -- reset-password` (server/admin-main.ts) as an operator runs it beside a running
 * server, on the same data directory (or PostgreSQL database): the new password signs in, every
 * older token stops working, and an unknown user or a password that does not fit changes nothing.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import crypto from 'node:crypto';
import { databaseFor, get, launch, openServerDatabase, post, signUpUser, type TestServer } from './test-support/harness';

jest.setTimeout(60_000);

let server: TestServer;

beforeAll(async () => {
  server = await launch();
});

afterAll(async () => {
  await server?.stop();
});

/** Runs the admin command as `npm run admin` does (tsx) on the server's data; its output and exit code. */
async function admin(...args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const databaseUrl = await databaseFor(server.dataDir);
  const run = spawnSync(process.execPath, ['--import', 'tsx', path.join(__dirname, 'admin-main.ts'), ...args], {
    cwd: path.join(__dirname, '..'),
    env: { ...process.env, DATA_DIR: server.dataDir, DATABASE_URL: databaseUrl ?? '' },
    encoding: 'utf8',
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe('npm run admin -- reset-password', () => {
  it('gives a user a new password, printed once, that signs in; their older tokens stop working', async () => {
    const user = await signUpUser(server, 'forgot');
    const reset = await admin('reset-password', user.username);
    expect(reset.status).toBe(0);
    const password = /is now: (\S+)/.exec(reset.stdout)?.[1] ?? '';
    expect(password.length).toBeGreaterThanOrEqual(8);
    expect((await post(server, '/api/user/login', { username: user.username, password })).status).toBe(200);
    expect((await post(server, '/api/user/login', { username: user.username, password: user.password })).status).toBe(403);
    expect((await get(server, '/api/user/me', { token: user.token })).status).toBe(401);
  });

  it('takes a chosen password, and changes nothing for an unknown user or a password that does not fit', async () => {
    const user = await signUpUser(server, 'chosen');
    expect((await admin('reset-password', user.username, 'chosen-pass-1')).status).toBe(0);
    expect((await post(server, '/api/user/login', { username: user.username, password: 'chosen-pass-1' })).status).toBe(200);
    const unknown = await admin('reset-password', 'nobody-here');
    expect([unknown.status, unknown.stderr.trim()]).toEqual([1, 'no user named "nobody-here"']);
    const short = await admin('reset-password', user.username, 'short');
    expect(short.status).toBe(1);
    expect(short.stderr).toContain('the new password does not fit');
    expect((await post(server, '/api/user/login', { username: user.username, password: 'chosen-pass-1' })).status).toBe(200);
    const usage = await admin();
    expect([usage.status, usage.stderr.trim()]).toEqual([1, 'usage: npm run admin -- reset-password <username> [<new password>] | rotate-secret']);
  });
});

/** Whether the HS256 token's signature is `secret`'s. */
function signedWith(token: string, secret: string): boolean {
  const [header, payload, signature] = token.split('.');
  return crypto.createHmac('sha256', secret).update(`${header}.${payload}`).digest('base64url') === signature;
}

describe('npm run admin -- rotate-secret', () => {
  it('signs new sessions with a new secret within 10 s, and keeps the sessions signed with the old one', async () => {
    const before = await signUpUser(server, 'rotated');
    const rotated = await admin('rotate-secret');
    expect(rotated.status).toBe(0);
    expect(rotated.stdout).toMatch(/the signing secret is rotated \(new fingerprint [\w-]{22}\)/);
    expect(rotated.stdout).toContain('stay valid for 48 h');
    const db = await openServerDatabase(server.dataDir);
    const stored = await db.all<{ slot: string; secret: string }>('SELECT slot, secret FROM signing_secrets ORDER BY slot');
    await db.close();
    const [current, previous] = stored.map((row) => row.secret);
    expect(stored.map((row) => row.slot)).toEqual(['current', 'previous']);
    expect(signedWith(before.token, previous)).toBe(true);
    // The running server takes the new secret within 10 s; the session from before still works.
    const started = Date.now();
    let token = '';
    while (!signedWith(token, current)) {
      expect(Date.now() - started).toBeLessThan(12_000);
      await new Promise((resolve) => setTimeout(resolve, 200));
      token = (await post(server, '/api/user/login', { username: before.username, password: before.password })).body.data.token as string;
    }
    expect((await get(server, '/api/user/me', { token })).status).toBe(200);
    expect((await get(server, '/api/user/me', { token: before.token })).status).toBe(200);
  });
});
