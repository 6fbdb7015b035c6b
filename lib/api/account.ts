/**
 * Account endpoints beyond username + password (docs/contract.md §4.2 email group, §4.7 OAuth2):
 * image captchas, mailed codes, email sign-up, password reset, email binding, OAuth2 sign-in and
 * binding, and the account's rooms. Every function throws `ApiError` with the server's text on failure.
 */
import { get, post } from './client';
import type { TokenResponse } from '@/lib/contract/types';

/** An image captcha: `captchaBase64` is a data URL (PNG on v0.9.11, SVG on the companion server). */
export interface Captcha {
  captchaId: string;
  captchaBase64: string;
}

/** Which email flow a captcha or code belongs to (the route's path segment). */
export type EmailFlow = 'signup' | 'retrieve' | 'bind';

const CAPTCHA_PATHS: Record<EmailFlow, string> = {
  signup: '/api/user/signup/email/captcha',
  retrieve: '/api/user/retrieve/email/captcha',
  bind: '/api/user/bind/email/captcha',
};

/** `GET /api/user/{signup|retrieve|bind}/email/captcha` → `{captchaId, captchaBase64}` (bind needs a session). */
export function getCaptcha(flow: EmailFlow): Promise<Captcha> {
  return get<Captcha>(CAPTCHA_PATHS[flow]);
}

/**
 * `POST /api/user/{flow}/email/captcha {email, captchaId, answer}` → 204: mails a code (5 minutes,
 * single use). Errors: `captcha verify failed`, `email not in white list`, `email already exists`,
 * `email already bind`, `this email same as current email`, 500 `email is not enabled`. The reset
 * flow answers 204 for an unknown address too.
 */
export function sendEmailCode(flow: EmailFlow, body: { email: string; captchaId: string; answer: string }): Promise<void> {
  return post<void>(CAPTCHA_PATHS[flow], { json: body });
}

/** `POST /api/user/signup/email {email, captcha, password}` → `{token, role}` or `{message, role}`; `captcha` is the mailed code. */
export function signupWithEmail(body: { email: string; captcha: string; password: string }): Promise<TokenResponse> {
  return post<TokenResponse>('/api/user/signup/email', { json: body });
}

/** `POST /api/user/retrieve/email {email, captcha, password}` → `{token, role}`: sets a new password. */
export function resetPassword(body: { email: string; captcha: string; password: string }): Promise<TokenResponse> {
  return post<TokenResponse>('/api/user/retrieve/email', { json: body });
}

/** `POST /api/user/bind/email {email, captcha}` → 204. */
export function bindEmail(body: { email: string; captcha: string }): Promise<void> {
  return post<void>('/api/user/bind/email', { json: body });
}

/** `POST /api/user/unbind/email` → 204. */
export function unbindEmail(): Promise<void> {
  return post<void>('/api/user/unbind/email');
}

/** `GET /oauth2/enabled` (no envelope) → provider names. */
export async function getOAuth2Enabled(): Promise<string[]> {
  return (await get<{ enabled?: string[] | null }>('/oauth2/enabled')).enabled ?? [];
}

/** `GET /oauth2/enabled/signup` (no envelope) → providers that allow sign-up. */
export async function getOAuth2SignupEnabled(): Promise<string[]> {
  return (await get<{ signupEnabled?: string[] | null }>('/oauth2/enabled/signup')).signupEnabled ?? [];
}

/** `POST /oauth2/login/:provider {redirect}` → `{url}`: the provider's authorization page. */
export function startOAuth2Login(provider: string, redirect: string): Promise<{ url: string }> {
  return post<{ url: string }>(`/oauth2/login/${encodeURIComponent(provider)}`, { json: { redirect } });
}

/** `POST /oauth2/bind/:provider {redirect}` → `{url}` (needs a session; the state is tied to the caller). */
export function startOAuth2Bind(provider: string, redirect: string): Promise<{ url: string }> {
  return post<{ url: string }>(`/oauth2/bind/${encodeURIComponent(provider)}`, { json: { redirect } });
}

/** `POST /oauth2/callback/:provider` answer: sign-in (`auth`, token or refusal) or binding (`bind`). */
export interface OAuth2CallbackResult {
  type: 'auth' | 'bind';
  token?: string;
  message?: string;
  role?: number;
  redirect?: string;
}

/** `POST /oauth2/callback/:provider {code, state}`. Errors: `invalid oauth2 state`, `invalid oauth2 code`, `user not found`. */
export function finishOAuth2(provider: string, body: { code: string; state: string }): Promise<OAuth2CallbackResult> {
  return post<OAuth2CallbackResult>(`/oauth2/callback/${encodeURIComponent(provider)}`, { json: body });
}

/** `POST /oauth2/unbind/:provider` → 204. */
export function unbindOAuth2(provider: string): Promise<void> {
  return post<void>(`/oauth2/unbind/${encodeURIComponent(provider)}`);
}

/** `GET /api/user/providers` (no envelope): enabled provider → `{providerUserId, createdAt (ms)}`, "" and 0 when unbound. */
export function getProviders(): Promise<Record<string, { providerUserId: string; createdAt: number }>> {
  return get<Record<string, { providerUserId: string; createdAt: number }>>('/api/user/providers');
}

/** `POST /api/user/room/delete {id}` → 204 (creator only: 403 `not creator`). */
export function deleteMyRoom(id: string): Promise<void> {
  return post<void>('/api/user/room/delete', { json: { id } });
}

/** `POST /api/user/room/exit {id}` → 204: leaves a joined room (the creator gets 500 `creator cannot be deleted`). */
export function exitRoom(id: string): Promise<void> {
  return post<void>('/api/user/room/exit', { json: { id } });
}

/** `POST /api/user/logout` → 204. **Deletes the account** (§3.1, §11 a): call only after the user confirmed. */
export function deleteAccount(): Promise<void> {
  return post<void>('/api/user/logout');
}
