/** @jest-environment node */
/**
 * The server under its stores' faults (docs/deployment.md "Deadlines"), each on a throwaway
 * PostgreSQL and Redis of its own: a store frozen (SIGSTOP: it accepts connections and never
 * answers, as a stuck host does) makes the instance unready within 3 s and its requests fail with 503
 * `service unavailable` within seconds instead of hanging; the rate limits still count meanwhile; once
 * the store is back, everything works again without a restart. And instances on different hosts
 * over one PostgreSQL share the signing secret; one with another `JWT_SECRET` stays unready and says
 * why (docs/deployment.md "The signing secret").
 */
import fs from 'node:fs';
import { startPostgres, type TestPostgres } from './test-support/postgres';
import { startRedis, type TestRedis } from './test-support/redis';
import { freeze } from './test-support/freeze';
import { get, launch, post, signUpUser, tempDir, testsOnPostgres, type TestServer } from './test-support/harness';

jest.setTimeout(90_000);

// Its own stores in either run: the PostgreSQL run (`npm run test:pg`) would only repeat it.
const describeOnce = testsOnPostgres() ? describe.skip : describe;

describeOnce('a store that stops answering', () => {
  let postgres: TestPostgres;
  let redis: TestRedis;
  let server: TestServer;

  beforeAll(async () => {
    [postgres, redis] = await Promise.all([startPostgres(), startRedis()]);
    server = await launch({ databaseUrl: postgres.url, redisUrl: redis.url, rateLimitScale: 1 });
  });

  afterAll(async () => {
    await server?.stop();
    await Promise.all([postgres?.stop(), redis?.stop()]);
  });

  /** The status of `request` and how long (ms) it took. */
  async function timed(request: () => Promise<{ status: number; body: { error?: string } }>) {
    const started = Date.now();
    const response = await request();
    return { status: response.status, error: response.body?.error, ms: Date.now() - started };
  }

  it('PostgreSQL frozen: unready within 3 s, requests 503 within seconds, all well again once it thaws', async () => {
    const user = await signUpUser(server, 'frozenpg');
    const signIn = () => post(server, '/api/user/login', { username: user.username, password: user.password });
    // Ready first (on a loaded machine, a moment after the last test's store came back).
    await expectEventually(async () => (await get(server, '/readyz')).status === 200);
    const thaw = freeze(postgres.pid);
    try {
      const ready = await timed(() => get(server, '/readyz'));
      expect([ready.status, ready.ms < 3000]).toEqual([503, true]);
      const login = await timed(signIn);
      expect([login.status, login.error, login.ms < 8000]).toEqual([503, 'service unavailable', true]);
      const me = await timed(() => get(server, '/api/user/me', { token: user.token }));
      expect([me.status, me.ms < 8000]).toEqual([503, true]);
    } finally {
      thaw();
    }
    await expectEventually(async () => (await get(server, '/readyz')).status === 200);
    expect((await signIn()).status).toBe(200);
  });

  it('PostgreSQL down: unready within 3 s, requests 503 within seconds, all well again once it is back, without a restart', async () => {
    const user = await signUpUser(server, 'downpg');
    const signIn = () => post(server, '/api/user/login', { username: user.username, password: user.password });
    await postgres.downWhile(async () => {
      const ready = await timed(() => get(server, '/readyz'));
      expect([ready.status, ready.ms < 3000]).toEqual([503, true]);
      const login = await timed(signIn);
      expect([login.status, login.error, login.ms < 5000]).toEqual([503, 'service unavailable', true]);
      const me = await timed(() => get(server, '/api/user/me', { token: user.token }));
      expect([me.status, me.ms < 5000]).toEqual([503, true]);
    });
    await expectEventually(async () => (await get(server, '/readyz')).status === 200);
    expect((await signIn()).status).toBe(200);
  });

  it('Redis frozen: unready within 3 s, sign-ins still answered and still limited, ready again once it thaws', async () => {
    // Ready first (on a loaded machine, a moment after the last test's store came back).
    await expectEventually(async () => (await get(server, '/readyz')).status === 200);
    const thaw = freeze(redis.pid);
    try {
      const ready = await timed(() => get(server, '/readyz'));
      expect([ready.status, ready.ms < 3000]).toEqual([503, true]);
      // Ten attempts per account and minute, counted here while Redis does not answer.
      const attempts: number[] = [];
      for (let i = 0; i < 11; i++) {
        const attempt = await timed(() => post(server, '/api/user/login', { username: 'frozen-redis-victim', password: 'guess' }));
        expect(attempt.ms).toBeLessThan(5000);
        attempts.push(attempt.status);
      }
      expect(attempts).toEqual([...Array(10).fill(403), 429]);
    } finally {
      thaw();
    }
    await expectEventually(async () => (await get(server, '/readyz')).status === 200);
  });
});

describeOnce('instances on different hosts, one PostgreSQL', () => {
  let postgres: TestPostgres;
  const servers: TestServer[] = [];
  const dataDirs: string[] = [];
  /** An instance with a data directory of its own, as on another host. */
  const instance = async (options: Parameters<typeof launch>[0] = {}) => {
    const dataDir = tempDir();
    dataDirs.push(dataDir);
    const server = await launch({ databaseUrl: postgres.url, dataDir, logLevel: 'warn', ...options });
    servers.push(server);
    return server;
  };

  beforeAll(async () => {
    postgres = await startPostgres();
  });

  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await postgres?.stop();
    for (const dataDir of dataDirs) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('share the signing secret through the database: a session from one works on the other', async () => {
    const [a, b] = [await instance(), await instance()];
    const user = await signUpUser(a, 'twohosts');
    expect((await get(b, '/api/user/me', { token: user.token })).status).toBe(200);
    await expectEventually(async () => (await get(a, '/readyz')).status === 200 && (await get(b, '/readyz')).status === 200);
  });

  it('an instance with another JWT_SECRET does not become ready, and its log says why', async () => {
    const stray = await instance({ jwtSecret: 'a-secret-nobody-else-has-0123456789' });
    const ready = await get(stray, '/readyz');
    expect([ready.status, ready.body]).toEqual([503, { status: 'misconfigured' }]);
    expect(stray.output()).toMatch(/not ready: JWT_SECRET \(fingerprint [\w-]{22}\) differs from the secret the other instances sign with/);
    expect(stray.output()).not.toContain('a-secret-nobody-else-has');
  });
});

/** Waits (up to 15 s) until `check` holds. */
async function expectEventually(check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('did not recover within 15 s');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
