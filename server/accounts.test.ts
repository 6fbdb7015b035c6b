/** @jest-environment node */
/**
 * Accounts on the companion server (docs/contract.md §4.2 email group, §4.7 OAuth2): image
 * captchas, mailed codes received by a real SMTP server (smtp-server), email sign-up / login /
 * reset / binding, the OAuth2 entry points, and the authorization matrix of the new routes. The
 * full OAuth2 round trip with an authorization server runs in e2e/accounts.spec.ts.
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import fs from 'node:fs';
import { DATABASE_FILE, openDatabase } from './db/database';
import { call, get, launch, post, signUpUser, tempDir, openServerDatabase, testDatabase, type TestDatabase, type TestServer, type TestUser } from './test-support/harness';
import { codeIn, startMailSink, type MailSink } from './test-support/mail-sink';

jest.setTimeout(30_000);

const ANSWER = '13579';
let server: TestServer;
let sink: MailSink;
let db: TestDatabase;
let counter = 0;

const address = (prefix: string) => `${prefix}${process.pid % 1000}n${++counter}@example.com`;
const setSetting = (name: string, value: unknown) =>
  db.run('INSERT INTO settings (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value', [name, JSON.stringify(value)]);
const setRole = (userId: string, role: number) => db.run('UPDATE users SET role = ? WHERE id = ?', [role, userId]);

async function captchaId(flow: 'signup' | 'retrieve' | 'bind', token?: string): Promise<string> {
  const response = await get(server, `/api/user/${flow}/email/captcha`, { token });
  expect(response.status).toBe(200);
  return response.body.data.captchaId;
}

async function sendCode(flow: 'signup' | 'retrieve' | 'bind', email: string, token?: string, headers?: Record<string, string>) {
  return call(server, 'POST', `/api/user/${flow}/email/captcha`, {
    token,
    headers,
    json: { email, captchaId: await captchaId(flow, token), answer: ANSWER },
  });
}

/** Email sign-up through the API; returns the token answer. */
async function emailSignup(email: string, password = 'mail-pw-1') {
  expect((await sendCode('signup', email)).status).toBe(204);
  const code = codeIn(await sink.next(email));
  return post(server, '/api/user/signup/email', { email, captcha: code, password });
}

beforeAll(async () => {
  sink = await startMailSink();
  server = await launch({ fixedCaptchaAnswer: ANSWER, initialSettings: sink.settings() });
  db = await openServerDatabase(server.dataDir);
});

afterAll(async () => {
  await db?.close();
  await server?.stop();
  await sink?.close();
});

describe('image captcha', () => {
  it('is an SVG data URL; a wrong answer is refused with the contract text, and a captcha works once', async () => {
    const captcha = await get(server, '/api/user/signup/email/captcha');
    expect(captcha.body.data.captchaBase64).toMatch(/^data:image\/svg\+xml;base64,/);
    const email = address('cap');
    const wrong = await post(server, '/api/user/signup/email/captcha', { email, captchaId: captcha.body.data.captchaId, answer: '00000' });
    expect([wrong.status, wrong.body.error]).toEqual([400, 'captcha verify failed']);
    // The wrong answer spent it: the right one no longer works with that id.
    const spent = await post(server, '/api/user/signup/email/captcha', { email, captchaId: captcha.body.data.captchaId, answer: ANSWER });
    expect([spent.status, spent.body.error]).toEqual([400, 'captcha verify failed']);
    expect(sink.mails.some((m) => m.to.includes(email))).toBe(false);
  });

  it('checks the fields first: empty id, empty answer, bad address', async () => {
    const cases: [Record<string, string>, string][] = [
      [{ email: 'a@example.com', captchaId: '', answer: '1' }, 'captcha id is empty'],
      [{ email: 'a@example.com', captchaId: 'x', answer: '' }, 'answer is empty'],
      [{ email: 'not-an-email', captchaId: 'x', answer: '1' }, 'invalid email'],
      [{ email: '', captchaId: 'x', answer: '1' }, 'email is empty'],
    ];
    for (const [body, error] of cases) {
      const response = await post(server, '/api/user/signup/email/captcha', body);
      expect([response.status, response.body.error]).toEqual([400, error]);
    }
  });
});

describe('email sign-up and login', () => {
  it('mails a 6-character code in the request language; the code creates the account once; login by email works', async () => {
    const email = address('zh');
    const sent = await sendCode('signup', email, undefined, { 'Accept-Language': 'zh-CN,zh;q=0.9' });
    expect(sent.status).toBe(204);
    const mail = await sink.next(email);
    expect(mail.subject).toContain('注册验证码');
    const code = codeIn(mail);
    expect(code).toMatch(/^[A-Z0-9]{6}$/);

    const wrong = await post(server, '/api/user/signup/email', { email, captcha: 'ZZZZZZ', password: 'mail-pw-1' });
    expect([wrong.status, wrong.body.error]).toEqual([400, 'email captcha verify failed']);
    const created = await post(server, '/api/user/signup/email', { email, captcha: code, password: 'mail-pw-1' });
    expect(created.status).toBe(200);
    const me = await get(server, '/api/user/me', { token: created.body.data.token });
    expect(me.body.data).toMatchObject({ username: email, email, role: 3 });
    const replay = await post(server, '/api/user/signup/email', { email, captcha: code, password: 'mail-pw-1' });
    expect([replay.status, replay.body.error]).toEqual([400, 'email captcha verify failed']);

    const again = await sendCode('signup', email);
    expect([again.status, again.body.error]).toEqual([400, 'email already exists']);
    const login = await post(server, '/api/user/login', { email, password: 'mail-pw-1' });
    expect(login.body.data.token).toBeTruthy();
    const wrongPassword = await post(server, '/api/user/login', { email, password: 'nope-pw-1' });
    expect([wrongPassword.status, wrongPassword.body.error]).toEqual([403, 'password incorrect']);
    const unknown = await post(server, '/api/user/login', { email: address('none'), password: 'mail-pw-1' });
    expect([unknown.status, unknown.body.error]).toEqual([403, 'password incorrect']);
  });

  it('adds #NNNN when the address is already somebody\'s username', async () => {
    const email = address('taken');
    expect((await post(server, '/api/user/signup', { username: email, password: 'secret-pw' })).status).toBe(200);
    const created = await emailSignup(email);
    const me = await get(server, '/api/user/me', { token: created.body.data.token });
    expect(me.body.data.username).toMatch(new RegExp(`^${email.replace(/[.]/g, '\\.')}#\\d{4}$`));
  });

  it('follows the site switches: whitelist, review, email sign-up off, email off', async () => {
    await setSetting('email_signup_white_list_enable', true);
    try {
      const refused = await sendCode('signup', address('wl'));
      expect([refused.status, refused.body.error]).toEqual([400, 'email not in white list']);
      expect((await sendCode('signup', `wl${++counter}@gmail.com`)).status).toBe(204);
    } finally {
      await setSetting('email_signup_white_list_enable', false);
    }

    await setSetting('email_signup_need_review', true);
    try {
      const pending = await emailSignup(address('rev'));
      expect(pending.body.data).toEqual({ message: 'user account is pending approval', role: 2 });
    } finally {
      await setSetting('email_signup_need_review', false);
    }

    await setSetting('email_disable_user_signup', true);
    try {
      const off = await sendCode('signup', address('off'));
      expect([off.status, off.body.error]).toEqual([400, 'email signup disabled']);
      expect((await get(server, '/api/public/settings')).body.data.emailDisableSignup).toBe(true);
    } finally {
      await setSetting('email_disable_user_signup', false);
    }

    await setSetting('enable_email', false);
    try {
      const disabled = await sendCode('retrieve', address('x'));
      expect([disabled.status, disabled.body.error]).toEqual([500, 'email is not enabled']);
    } finally {
      await setSetting('enable_email', true);
    }
  });

  it('answers 500 `send email failed` when the SMTP server cannot be reached, and loses nothing', async () => {
    await setSetting('smtp_port', 1);
    try {
      const failed = await sendCode('signup', address('smtp'));
      expect([failed.status, failed.body.error]).toEqual([500, 'send email failed']);
    } finally {
      await setSetting('smtp_port', sink.port);
    }
    expect((await sendCode('signup', address('smtp'))).status).toBe(204);
  });
});

describe('password reset', () => {
  it('mails a code and a link for a known address; the code sets a new password once and old tokens stop working', async () => {
    const email = address('reset');
    const { token: oldToken } = (await emailSignup(email)).body.data;
    expect((await sendCode('retrieve', email)).status).toBe(204);
    const mail = await sink.next(email);
    const code = codeIn(mail);
    expect(mail.text).toContain(`/web/auth/reset?captcha=${code}&email=${encodeURIComponent(email)}`);

    const weak = await post(server, '/api/user/retrieve/email', { email, captcha: code, password: '' });
    expect([weak.status, weak.body.error]).toEqual([400, 'user password empty']);
    const short = await post(server, '/api/user/retrieve/email', { email, captcha: code, password: 'seven77' });
    expect([short.status, short.body.error]).toEqual([400, 'password too short']);
    const reset = await post(server, '/api/user/retrieve/email', { email, captcha: code, password: 'brand-new-pw' });
    expect(reset.status).toBe(200);
    expect((await get(server, '/api/user/me', { token: oldToken })).status).toBe(401);
    expect((await get(server, '/api/user/me', { token: reset.body.data.token })).status).toBe(200);
    const replay = await post(server, '/api/user/retrieve/email', { email, captcha: code, password: 'other-new-pw' });
    expect([replay.status, replay.body.error]).toEqual([400, 'email captcha verify failed']);
  });

  it('answers an unknown address with the same 204, later, and mails nothing', async () => {
    const email = address('ghost');
    const started = Date.now();
    expect((await sendCode('retrieve', email)).status).toBe(204);
    expect(Date.now() - started).toBeGreaterThanOrEqual(2900);
    expect(sink.mails.some((m) => m.to.includes(email))).toBe(false);
  });
});

describe('email binding', () => {
  it('binds with the mailed code, refuses the same or a taken address, and unbinds', async () => {
    const user = await signUpUser(server, 'bind');
    const email = address('bind');
    expect((await sendCode('bind', email, user.token)).status).toBe(204);
    const code = codeIn(await sink.next(email));
    // Another user cannot spend this user's code.
    const other = await signUpUser(server, 'other');
    const stolen = await post(server, '/api/user/bind/email', { email, captcha: code }, { token: other.token });
    expect([stolen.status, stolen.body.error]).toEqual([400, 'email captcha verify failed']);
    expect((await post(server, '/api/user/bind/email', { email, captcha: code }, { token: user.token })).status).toBe(204);
    expect((await get(server, '/api/user/me', { token: user.token })).body.data.email).toBe(email);

    const same = await sendCode('bind', email, user.token);
    expect([same.status, same.body.error]).toEqual([400, 'this email same as current email']);
    const taken = await sendCode('bind', email, other.token);
    expect([taken.status, taken.body.error]).toEqual([400, 'email already bind']);

    expect((await post(server, '/api/user/unbind/email', undefined, { token: user.token })).status).toBe(204);
    expect((await get(server, '/api/user/me', { token: user.token })).body.data.email).toBe('');
  });
});

describe('OAuth2 entry points', () => {
  it('lists only enabled providers, and public settings follow them', async () => {
    expect((await get(server, '/oauth2/enabled')).body).toEqual({ enabled: [] });
    expect((await get(server, '/api/public/settings')).body.data.oauth2DisableSignup).toBe(true);
    await setSetting('oauth2_gitlab_enabled', true);
    await setSetting('oauth2_github_enabled', true);
    await setSetting('oauth2_gitlab_disable_user_signup', true);
    try {
      expect((await get(server, '/oauth2/enabled')).body).toEqual({ enabled: ['github', 'gitlab'] });
      expect((await get(server, '/oauth2/enabled/signup')).body).toEqual({ signupEnabled: ['github'] });
      expect((await get(server, '/api/public/settings')).body.data.oauth2DisableSignup).toBe(false);

      const start = await post(server, '/oauth2/login/github', { redirect: '/rooms' });
      const url = new URL(start.body.data.url);
      expect(url.origin + url.pathname).toBe('https://github.com/login/oauth/authorize');
      expect(url.searchParams.get('redirect_uri')).toBe(`${server.url}/web/oauth2/callback/github`);
      expect(url.searchParams.get('state')).toMatch(/^[A-Za-z]{16}$/);

      const user = await signUpUser(server, 'prov');
      const providers = await get(server, '/api/user/providers', { token: user.token });
      expect(providers.body).toEqual({ github: { providerUserId: '', createdAt: 0 }, gitlab: { providerUserId: '', createdAt: 0 } });

      // A state belongs to one provider and one use; the code must not be empty.
      const state = url.searchParams.get('state');
      const otherProvider = await post(server, '/oauth2/callback/gitlab', { code: 'c', state });
      expect([otherProvider.status, otherProvider.body.error]).toEqual([400, 'invalid oauth2 state']);
      const used = await post(server, '/oauth2/callback/github', { code: 'c', state });
      expect([used.status, used.body.error]).toEqual([400, 'invalid oauth2 state']);
      const noCode = await post(server, '/oauth2/callback/github', { code: '', state: 'AAAAAAAAAAAAAAAA' });
      expect([noCode.status, noCode.body.error]).toEqual([400, 'invalid oauth2 code']);
    } finally {
      await setSetting('oauth2_gitlab_enabled', false);
      await setSetting('oauth2_github_enabled', false);
    }
    const off = await post(server, '/oauth2/login/github', { redirect: '' });
    expect([off.status, off.body.error]).toEqual([400, 'oauth2 provider not enabled']);
    const unknown = await post(server, '/oauth2/login/myspace', { redirect: '' });
    expect([unknown.status, unknown.body.error]).toEqual([400, 'invalid oauth2 provider']);
  });
});

describe('authorization matrix of the account routes', () => {
  const routes: [string, string, unknown][] = [
    ['GET', '/api/user/bind/email/captcha', undefined],
    ['POST', '/api/user/bind/email/captcha', { email: 'm@example.com', captchaId: 'x', answer: '1' }],
    ['POST', '/api/user/bind/email', { email: 'm@example.com', captcha: 'X' }],
    ['POST', '/api/user/unbind/email', undefined],
    ['GET', '/api/user/providers', undefined],
    ['POST', '/oauth2/bind/github', { redirect: '/user/me' }],
    ['POST', '/oauth2/unbind/github', undefined],
    ['POST', '/api/user/logout', undefined],
  ];
  let pending: TestUser;
  let banned: TestUser;

  beforeAll(async () => {
    pending = await signUpUser(server, 'pend');
    banned = await signUpUser(server, 'ban');
    await setRole(pending.id, 2);
    await setRole(banned.id, 1);
  });

  it.each(routes)('%s %s refuses visitors, bad tokens, pending and banned users with 401', async (method, route, json) => {
    const cases: [string | undefined, string][] = [
      [undefined, 'authentication token is empty'],
      ['not-a-token', 'authentication failed'],
      [pending.token, 'user account is pending approval'],
      [banned.token, 'user account has been banned'],
    ];
    for (const [token, error] of cases) {
      const response = await call(server, method, route, { token, json });
      expect([response.status, response.body?.error]).toEqual([401, error]);
    }
  });

  it.each(routes.filter(([, route]) => route !== '/api/user/logout'))('%s %s lets a signed-in user through (no 401/403)', async (method, route, json) => {
    const user = await signUpUser(server, 'ok');
    const response = await call(server, method, route, { token: user.token, json });
    expect([401, 403]).not.toContain(response.status);
    expect(response.status).toBeLessThan(500);
  });

  it('the public account routes answer visitors', async () => {
    for (const route of ['/api/user/signup/email/captcha', '/api/user/retrieve/email/captcha', '/oauth2/enabled', '/oauth2/enabled/signup']) {
      expect((await get(server, route)).status).toBe(200);
    }
  });
});

describe('data directories from before accounts', () => {
  it('gain the email column (unique when set) without losing users', async () => {
    const dir = tempDir();
    try {
      const old = new Database(path.join(dir, DATABASE_FILE));
      old.exec('CREATE TABLE users (id TEXT PRIMARY KEY, username TEXT NOT NULL UNIQUE, hashed_password TEXT NOT NULL, role INTEGER NOT NULL, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL)');
      old.prepare('INSERT INTO users VALUES (?, ?, ?, ?, ?, ?)').run('a'.repeat(32), 'old-user', 'hash', 3, 1, 1);
      old.prepare('INSERT INTO users VALUES (?, ?, ?, ?, ?, ?)').run('b'.repeat(32), 'old-user-2', 'hash', 3, 1, 1);
      old.close();
      const migrated = testDatabase(await openDatabase(dir));
      try {
        expect(await migrated.all('SELECT username, email FROM users ORDER BY username')).toEqual([
          { username: 'old-user', email: null },
          { username: 'old-user-2', email: null },
        ]);
        await migrated.run('UPDATE users SET email = ? WHERE id = ?', ['x@example.com', 'a'.repeat(32)]);
        // By its code: better-sqlite3's errors come from the realm of the first test file that loaded it
        // in this jest worker (the native module is loaded once), so they are no Error here.
        await expect(migrated.run('UPDATE users SET email = ? WHERE id = ?', ['x@example.com', 'b'.repeat(32)])).rejects.toMatchObject({ code: 'SQLITE_CONSTRAINT_UNIQUE' });
      } finally {
        await migrated.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
