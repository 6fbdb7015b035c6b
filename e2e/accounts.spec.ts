import type { Page } from '@playwright/test';
import { CAPTCHA_ANSWER, expect, test, USER_PASSWORD, type App } from './fixtures';
import { uniqueName } from './support/api';
import { codeIn, linkIn, type MailSink } from '../server/test-support/mail-sink';

/**
 * Accounts end to end: email sign-up and password reset with a real SMTP server
 * receiving the mails, the user center, and OAuth2 with a real authorization server standing in
 * for GitHub. The image captcha's answer is fixed on the e2e server (CAPTCHA_ANSWER).
 */

const token = (page: Page) => page.evaluate(() => window.localStorage.getItem('userToken'));

/** An account created through the email sign-up API, reading the code from the mail. */
async function emailAccount(app: App, mail: MailSink, email: string): Promise<string> {
  const captcha = (await app.api.request('GET', '/api/user/signup/email/captcha')).body?.data as { captchaId: string };
  const sent = await app.api.request('POST', '/api/user/signup/email/captcha', { json: { email, captchaId: captcha.captchaId, answer: CAPTCHA_ANSWER } });
  expect(sent.status).toBe(204);
  const code = codeIn(await mail.next(email));
  const answer = await app.api.request('POST', '/api/user/signup/email', { json: { email, captcha: code, password: USER_PASSWORD } });
  return (answer.body?.data as { token: string }).token;
}

test('email sign-up: a wrong captcha is refused at its field, then the mailed code creates the account and signs in', async ({ app, actors, mail }) => {
  const visitor = await actors.visitor();
  const page = visitor.page;
  const email = `${uniqueName('m')}@example.com`;
  await page.goto(app.url('/auth/register'));
  await page.getByTestId('register-method-email').click();
  await page.getByTestId('register-email-email').fill(email);
  await expect(page.getByTestId('register-email-answer-image').locator('img')).toBeVisible();
  await page.getByTestId('register-email-answer').fill('11111');
  await page.getByTestId('register-email-send').click();
  // The address is confirmed before anything is mailed.
  await expect(page.getByTestId('confirm-dialog')).toContainText(email);
  await page.getByTestId('confirm-ok').click();
  await expect(page.locator('#register-email-answer-error')).toHaveText("The captcha doesn't match. Try again.");
  expect(mail.mails.some((m) => m.to.includes(email))).toBe(false);

  // A fresh image was loaded; the right answer sends the mail.
  await page.getByTestId('register-email-answer').fill(CAPTCHA_ANSWER);
  await page.getByTestId('register-email-send').click();
  await page.getByTestId('confirm-ok').click();
  await expect(page.getByTestId('register-email-sent')).toContainText(email);
  const received = await mail.next(email);
  expect(received.subject).toContain('sign-up code');
  await page.getByTestId('register-email-code').fill('WRONG1');
  await page.getByTestId('register-email-password').fill(USER_PASSWORD);
  await page.getByTestId('register-email-password-confirm').fill(USER_PASSWORD);
  await page.getByTestId('register-email-submit').click();
  await expect(page.locator('#register-email-code-error')).toHaveText('The code from the email is wrong or has expired');

  await page.getByTestId('register-email-code').fill(codeIn(received));
  await page.getByTestId('register-email-submit').click();
  await expect(page.getByTestId('page-home')).toBeVisible();
  // The username is the address; the session works.
  await page.goto(app.url('/user/me'));
  await expect(page.getByTestId('profile-username')).toHaveText(email);
  await expect(page.getByTestId('profile-email')).toHaveText(email);
  expect(visitor.errors).toEqual([]);
});

test('a captcha is single-use, and an unknown address gets the same 204 on the reset route', async ({ app }) => {
  const captcha = (await app.api.request('GET', '/api/user/retrieve/email/captcha')).body?.data as { captchaId: string; captchaBase64: string };
  expect(captcha.captchaBase64).toMatch(/^data:image\/svg\+xml;base64,/);
  const body = { email: `${uniqueName('nobody')}@example.com`, captchaId: captcha.captchaId, answer: CAPTCHA_ANSWER };
  const started = Date.now();
  const first = await app.api.request('POST', '/api/user/retrieve/email/captcha', { json: body });
  expect(first.status).toBe(204);
  expect(Date.now() - started).toBeGreaterThanOrEqual(2900);
  const again = await app.api.request('POST', '/api/user/retrieve/email/captcha', { json: body });
  expect(again.status).toBe(400);
  expect(again.body?.error).toBe('captcha verify failed');
});

test('password reset from the mailed link: the link fills the form, the new password signs in, the old one no longer works', async ({ app, actors, mail }) => {
  const email = `${uniqueName('r')}@example.com`;
  const oldToken = await emailAccount(app, mail, email);
  const visitor = await actors.visitor();
  const page = visitor.page;
  await page.goto(app.url('/auth/login'));
  await page.getByTestId('login-forgot').click();
  await expect(page.getByTestId('page-reset')).toBeVisible();
  await page.getByTestId('reset-email').fill(email);
  await page.getByTestId('reset-answer').fill(CAPTCHA_ANSWER);
  await page.getByTestId('reset-send').click();
  await page.getByTestId('confirm-ok').click();
  await expect(page.getByTestId('reset-sent')).toBeVisible();
  const link = linkIn(await mail.next(email));
  expect(link).toContain('/web/auth/reset?captcha=');

  // Opened from the mail (another tab would do the same): email and code are filled in.
  await page.goto(link);
  await expect(page.getByTestId('reset-email')).toHaveValue(email);
  await expect(page.getByTestId('reset-code')).toHaveValue(new URL(link).searchParams.get('captcha')!);
  await page.getByTestId('reset-password').fill('new-pass-9876');
  await page.getByTestId('reset-password-confirm').fill('new-pass-9876');
  await page.getByTestId('reset-submit').click();
  await expect(page.getByTestId('page-home')).toBeVisible();
  expect(await app.api.meStatus(oldToken)).toBe(401);

  // Email login with the new password works; the old password is refused.
  const fresh = await actors.visitor();
  await fresh.page.goto(app.url('/auth/login'));
  await fresh.page.getByTestId('login-mode-email').click();
  await fresh.page.getByTestId('login-email').fill(email);
  await fresh.page.getByTestId('login-password').fill(USER_PASSWORD);
  await fresh.page.getByTestId('login-submit').click();
  await expect(fresh.page.locator('#login-password-error')).toHaveText('Wrong email or password');
  await fresh.page.getByTestId('login-password').fill('new-pass-9876');
  await fresh.page.getByTestId('login-submit').click();
  await expect(fresh.page.getByTestId('page-home')).toBeVisible();
  expect(visitor.errors.concat(fresh.errors)).toEqual([]);
});

test('user center: bind and unbind an email, rename, change the password (old token dies, the page keeps working)', async ({ app, actors, mail }) => {
  const user = await actors.user('uc');
  const page = user.page;
  await page.goto(app.url('/user/me'));
  await expect(page.getByTestId('profile-email')).toHaveText('None');

  const email = `${uniqueName('b')}@example.com`;
  await page.getByTestId('bind-email').click();
  await page.locator('#bind-address').fill(email);
  await page.getByTestId('bind-answer').fill(CAPTCHA_ANSWER);
  await page.getByTestId('bind-send').click();
  await page.getByTestId('confirm-ok').click();
  await expect(page.getByTestId('bind-sent')).toContainText(email);
  await page.getByTestId('bind-code').fill(codeIn(await mail.next(email)));
  await page.getByTestId('bind-submit').click();
  await expect(page.getByTestId('profile-email')).toHaveText(email);

  await page.getByTestId('unbind-email').click();
  await page.getByTestId('confirm-ok').click();
  await expect(page.getByTestId('profile-email')).toHaveText('None');

  const renamed = uniqueName('rn');
  await page.getByTestId('rename').click();
  await page.locator('#rename-username').fill(renamed);
  await page.getByTestId('rename-submit').click();
  await expect(page.getByTestId('profile-username')).toHaveText(renamed);

  const before = await token(page);
  await page.getByTestId('change-password').click();
  await page.locator('#new-password').fill('changed-pw-123');
  await page.locator('#new-password-confirm').fill('changed-pw-123');
  await page.getByTestId('password-submit').click();
  await expect(page.getByTestId('password-form')).toBeHidden();
  const after = await token(page);
  expect(after).not.toBe(before);
  expect(await app.api.meStatus(before!)).toBe(401);
  await page.reload();
  await expect(page.getByTestId('profile-username')).toHaveText(renamed);
  expect(await app.api.login(renamed, 'changed-pw-123')).toBeTruthy();
  expect(user.errors).toEqual([]);
});

test('user center: leave a joined room, delete an own room, and delete the account only after confirming', async ({ app, actors }) => {
  const owner = await actors.user('own');
  const member = await actors.user('mem');
  const joined = await app.api.createRoom(owner.token!, uniqueName('jr'));
  // Joining = opening the room once as a member.
  await member.page.goto(app.url(`/cinema/${joined}`));
  await expect(member.page.getByTestId('page-cinema')).toBeVisible();
  const ownRoomName = uniqueName('own-room');
  const own = await app.api.createRoom(member.token!, ownRoomName);

  const page = member.page;
  await page.goto(app.url('/user/me'));
  const ownRow = page.locator(`[data-room-id="${own}"]`);
  await expect(ownRow).toContainText(ownRoomName);
  await ownRow.getByTestId('room-delete').click();
  await expect(page.getByTestId('confirm-dialog')).toContainText(ownRoomName);
  await page.getByTestId('confirm-ok').click();
  await expect(ownRow).toBeHidden();
  expect((await app.api.request('GET', `/api/room/check?roomId=${own}`)).status).toBe(404);

  await page.getByTestId('tab-joined').click();
  const joinedRow = page.locator(`[data-room-id="${joined}"]`);
  await expect(joinedRow).toBeVisible();
  await joinedRow.getByTestId('room-leave').click();
  await page.getByTestId('confirm-ok').click();
  await expect(joinedRow).toBeHidden();

  // Cancel first: nothing happens.
  await page.getByTestId('delete-account').click();
  await expect(page.getByTestId('confirm-dialog')).toContainText('deleted for good');
  await page.getByTestId('confirm-cancel').click();
  expect(await app.api.meStatus(member.token!)).toBe(200);
  await page.getByTestId('delete-account').click();
  await page.getByTestId('confirm-ok').click();
  await expect(page.getByTestId('page-home')).toBeVisible();
  expect(await token(page)).toBeNull();
  expect(await app.api.meStatus(member.token!)).toBe(401);
  expect(member.errors).toEqual([]);
});

test('OAuth2: sign-up through the provider, sign-in again as the same account, pending review, bind and unbind from the user center', async ({ app, actors, oauth }) => {
  const account = { id: Date.now(), login: uniqueName('gh') };
  oauth.signInAs(account);
  const visitor = await actors.visitor();
  await visitor.page.goto(app.url('/auth/register'));
  await visitor.page.getByTestId('register-method-oauth').click();
  await visitor.page.getByTestId('oauth-github').click();
  await expect(visitor.page.getByTestId('page-home')).toBeVisible();
  await visitor.page.goto(app.url('/user/me'));
  await expect(visitor.page.getByTestId('profile-username')).toHaveText(account.login);
  await expect(visitor.page.getByTestId('provider-github-state')).toContainText('Linked');

  // Another browser signs in with the same provider account, coming back to ?redirect.
  const again = await actors.visitor();
  await again.page.goto(app.url('/auth/login?redirect=%2Frooms'));
  await again.page.getByTestId('oauth-github').click();
  await expect(again.page.getByTestId('page-rooms')).toBeVisible();
  expect(await again.page.evaluate(() => window.localStorage.getItem('userToken'))).toBeTruthy();

  // With review on, a new provider account is Pending: a clear state, no token.
  app.setSetting('oauth2_github_signup_need_review', true);
  try {
    oauth.signInAs({ id: account.id + 1, login: uniqueName('ghp') });
    const pending = await actors.visitor();
    await pending.page.goto(app.url('/auth/login'));
    await pending.page.getByTestId('oauth-github').click();
    await expect(pending.page.getByTestId('callback-failed')).toContainText('awaiting review');
    expect(await token(pending.page)).toBeNull();
  } finally {
    app.setSetting('oauth2_github_signup_need_review', false);
  }

  // A password user links a provider account from the user center, then unlinks it.
  const user = await actors.user('bind');
  oauth.signInAs({ id: account.id + 2, login: uniqueName('ghb') });
  await user.page.goto(app.url('/user/me'));
  await user.page.getByTestId('provider-github-bind').click();
  await expect(user.page.getByTestId('page-myself')).toBeVisible();
  await expect(user.page.getByTestId('provider-github-state')).toContainText('Linked');
  await user.page.getByTestId('provider-github-unbind').click();
  await user.page.getByTestId('confirm-ok').click();
  await expect(user.page.getByTestId('provider-github-state')).toHaveText('Not linked');
  expect([...visitor.errors, ...again.errors, ...user.errors]).toEqual([]);
});

test('OAuth2: a replayed state and a wrong code are refused, and the callback screen says so', async ({ app, actors, oauth }) => {
  oauth.signInAs({ id: Date.now() + 7, login: uniqueName('ghr') });
  const start = (await app.api.request('POST', '/oauth2/login/github', { json: { redirect: '/' } })).body?.data as { url: string };
  const authorized = await fetch(start.url, { redirect: 'manual' });
  const callback = new URL(authorized.headers.get('location')!);
  const body = { code: callback.searchParams.get('code'), state: callback.searchParams.get('state') };
  const first = await app.api.request('POST', '/oauth2/callback/github', { json: body });
  expect(first.status).toBe(200);
  expect((first.body?.data as { type: string }).type).toBe('auth');
  expect(first.headers.get('x-oauth2-type')).toBe('auth');
  const replay = await app.api.request('POST', '/oauth2/callback/github', { json: body });
  expect(replay.body?.error).toBe('invalid oauth2 state');

  // A fresh state with a code the provider never issued.
  const second = (await app.api.request('POST', '/oauth2/login/github', { json: { redirect: '/' } })).body?.data as { url: string };
  const state = new URL(second.url).searchParams.get('state')!;
  const visitor = await actors.visitor();
  await visitor.page.goto(app.url(`/oauth2/callback/github?code=forged-code&state=${state}`));
  await expect(visitor.page.getByTestId('callback-failed')).toContainText("The provider didn't accept this sign-in's code");
  // And the replayed link, opened in the browser.
  await visitor.page.goto(app.url(`/oauth2/callback/github?code=${body.code}&state=${body.state}`));
  await expect(visitor.page.getByTestId('callback-failed')).toContainText('took too long');
  expect(visitor.errors).toEqual([]);
});
