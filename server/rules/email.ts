/**
 * Email flows (docs/contract.md §4.2): sign-up with a mailed code, password reset ("retrieve")
 * and binding an address to an account, each behind an image captcha. Codes are valid 5 minutes
 * and single-use (./verification.ts); mails go out through ../mail/mailer.ts in the requester's
 * language. Order of checks: the request's own fields, then the site switches, then the captcha,
 * then the state of accounts, so nothing about accounts is revealed without a solved captcha.
 */
import { Role } from '@/lib/contract/roles';
import { validateCaptchaAnswer, validateEmail, validateEmailCode, validateNewUserPassword } from '@/lib/contract/validation';
import type { SiteSettings, Store, UserRecord } from '../db';
import { isUniqueViolation } from '../db/users';
import { badRequest, HttpError, serverError } from '../errors';
import type { Mailer } from '../mail/mailer';
import { codeMail, retrieveMail, type MailLanguage } from '../mail/texts';
import { hashPassword } from '../passwords';
import { insertUserWithFreeName, newId } from './users';
import type { CaptchaStore, EmailCodeStore } from './verification';

/** What the email flows need. */
export interface EmailServices {
  store: Store;
  captchas: CaptchaStore;
  codes: EmailCodeStore;
  mailer: Mailer;
}

/** The body of the three `POST .../captcha` routes: `{email, captchaId, answer}`. */
export interface CaptchaRequest {
  email: string;
  captchaId: string;
  answer: string;
}

/** Unknown addresses on the reset route wait this long (ms, random in the range) before the 204 (§4.2). */
export const UNKNOWN_EMAIL_DELAY_MS: readonly [number, number] = [3000, 4500];

function check(error: string | null): void {
  if (error) throw badRequest(error);
}

/** 500 `email is not enabled` unless the site's `enable_email` is on (§4.2). */
function requireEmailEnabled(settings: SiteSettings): void {
  if (!settings.enable_email) throw serverError('email is not enabled');
}

function checkCaptchaRequest(request: CaptchaRequest): void {
  check(validateEmail(request.email));
  if (!request.captchaId) throw badRequest('captcha id is empty');
  check(validateCaptchaAnswer(request.answer));
}

async function solveCaptcha(services: EmailServices, request: CaptchaRequest): Promise<void> {
  if (!(await services.captchas.verify(request.captchaId, request.answer))) throw badRequest('captcha verify failed');
}

/** Whether `email`'s domain is in the sign-up whitelist (always true when the whitelist is off). */
export function emailAllowed(settings: SiteSettings, email: string): boolean {
  if (!settings.email_signup_white_list_enable) return true;
  const domain = email.slice(email.lastIndexOf('@') + 1).toLowerCase();
  return settings.email_signup_white_list
    .split(',')
    .map((entry) => entry.trim().toLowerCase())
    .includes(domain);
}

function checkEmailSignupOpen(settings: SiteSettings): void {
  if (settings.disable_user_signup) throw badRequest('user signup disabled');
  if (settings.email_disable_user_signup) throw badRequest('email signup disabled');
}

/** Sends one mail with the current settings; any failure is a 500 `send email failed` (cause kept for the log). */
export async function deliver(services: EmailServices, settings: SiteSettings, mail: Parameters<Mailer['send']>[1]): Promise<void> {
  try {
    await services.mailer.send(settings, mail);
  } catch (error) {
    throw new HttpError(500, 'send email failed', { cause: error });
  }
}

/**
 * `POST /api/user/signup/email/captcha` → 204: mails a sign-up code. Errors: validation texts,
 * `user signup disabled`, `email signup disabled`, 500 `email is not enabled`, `email not in white
 * list`, `captcha verify failed`, `email already exists`, 500 `send email failed`.
 */
export async function sendSignupCode(services: EmailServices, request: CaptchaRequest, language: MailLanguage): Promise<void> {
  checkCaptchaRequest(request);
  const settings = await services.store.settings.get();
  checkEmailSignupOpen(settings);
  requireEmailEnabled(settings);
  if (!emailAllowed(settings, request.email)) throw badRequest('email not in white list');
  await solveCaptcha(services, request);
  if (await services.store.users.findByEmail(request.email)) throw badRequest('email already exists');
  const code = await services.codes.issue('signup', request.email);
  await deliver(services, settings, codeMail(language, request.email, code, 'signup'));
}

/**
 * `POST /api/user/signup/email {email, captcha, password}`: creates the account; its username is the
 * address (`#NNNN` added when taken). Pending when `signup_need_review` or `email_signup_need_review`.
 * Errors: validation texts, the sign-up switches, `email captcha verify failed`, `email already exists`.
 */
export async function signUpWithEmail(
  services: EmailServices,
  email: string,
  code: string,
  password: string,
): Promise<UserRecord> {
  check(validateEmail(email));
  check(validateEmailCode(code));
  check(validateNewUserPassword(password));
  const settings = await services.store.settings.get();
  checkEmailSignupOpen(settings);
  requireEmailEnabled(settings);
  if (!emailAllowed(settings, email)) throw badRequest('email not in white list');
  if (!(await services.codes.consume('signup', email, code))) throw badRequest('email captcha verify failed');
  if (await services.store.users.findByEmail(email)) throw badRequest('email already exists');
  const review = settings.signup_need_review || settings.email_signup_need_review;
  return await insertUserWithFreeName(services.store, {
    id: newId(),
    username: email,
    hashedPassword: await hashPassword(password),
    role: review ? Role.Pending : Role.User,
    createdAt: Date.now(),
    email,
  });
}

/**
 * `POST /api/user/retrieve/email/captcha` → 204: mails a reset code and the link
 * `<host>/web/auth/reset?captcha=<code>&email=<email>`. An unknown address gets the same 204 after a
 * random 3–4.5 s wait and no mail (no account enumeration). `host` is the `host` setting or
 * `http://<Host header>`. Errors: validation texts, 500 `email is not enabled`, `captcha verify failed`.
 */
export async function sendRetrieveCode(
  services: EmailServices,
  request: CaptchaRequest,
  language: MailLanguage,
  requestHost: string,
): Promise<void> {
  checkCaptchaRequest(request);
  const settings = await services.store.settings.get();
  requireEmailEnabled(settings);
  await solveCaptcha(services, request);
  const user = await services.store.users.findByEmail(request.email);
  if (!user) {
    const [min, max] = UNKNOWN_EMAIL_DELAY_MS;
    await new Promise((resolve) => setTimeout(resolve, min + Math.random() * (max - min)));
    return;
  }
  const code = await services.codes.issue('retrieve', request.email);
  const origin = settings.host ? settings.host.replace(/\/+$/, '') : `http://${requestHost}`;
  const link = `${origin}/web/auth/reset?${new URLSearchParams({ captcha: code, email: request.email })}`;
  await deliver(services, settings, retrieveMail(language, request.email, code, link));
}

/**
 * `POST /api/user/retrieve/email {email, captcha, password}`: sets a new password (validated by the
 * contract's password rules, unlike v0.9.11) and returns the updated user, whose older tokens stop
 * working. Errors: validation texts, 500 `email is not enabled`, `email captcha verify failed`.
 */
export async function resetPassword(services: EmailServices, email: string, code: string, password: string): Promise<UserRecord> {
  check(validateEmail(email));
  check(validateEmailCode(code));
  check(validateNewUserPassword(password));
  requireEmailEnabled(await services.store.settings.get());
  if (!(await services.codes.consume('retrieve', email, code))) throw badRequest('email captcha verify failed');
  const user = await services.store.users.findByEmail(email);
  if (!user) throw badRequest('email captcha verify failed');
  const hashedPassword = await hashPassword(password);
  await services.store.users.updatePassword(user.id, hashedPassword);
  return { ...user, hashedPassword };
}

/**
 * `POST /api/user/bind/email/captcha` → 204: mails a binding code for `user`. Errors: validation
 * texts, 500 `email is not enabled`, `captcha verify failed`, `this email same as current email`,
 * `email already bind`, 500 `send email failed`.
 */
export async function sendBindCode(
  services: EmailServices,
  user: UserRecord,
  request: CaptchaRequest,
  language: MailLanguage,
): Promise<void> {
  checkCaptchaRequest(request);
  const settings = await services.store.settings.get();
  requireEmailEnabled(settings);
  await solveCaptcha(services, request);
  if (request.email === user.email) throw badRequest('this email same as current email');
  if (await services.store.users.findByEmail(request.email)) throw badRequest('email already bind');
  const code = await services.codes.issue('bind', `${user.id}:${request.email}`);
  await deliver(services, settings, codeMail(language, request.email, code, 'bind'));
}

/** `POST /api/user/bind/email {email, captcha}` → 204. Errors: validation texts, `email captcha verify failed`, `email already bind`. */
export async function bindEmail(services: EmailServices, user: UserRecord, email: string, code: string): Promise<void> {
  check(validateEmail(email));
  check(validateEmailCode(code));
  if (!(await services.codes.consume('bind', `${user.id}:${email}`, code))) throw badRequest('email captcha verify failed');
  try {
    await services.store.users.updateEmail(user.id, email);
  } catch (error) {
    if (isUniqueViolation(error)) throw badRequest('email already bind');
    throw error;
  }
}
