/**
 * Short-lived secrets of the email flows (docs/contract.md §4.2): image captchas (svg-captcha,
 * digits, returned as an SVG data URL) and the codes mailed for sign-up, password reset and email
 * binding. Both live in a SecretStore (../cluster/secret-store.ts: this process's memory, or Redis
 * shared by every instance), expire after 5 minutes and are single-use: a captcha is spent by its
 * first check, right or wrong; a code by its first correct use or its fifth wrong one.
 */
import crypto from 'node:crypto';
import drawCaptcha, { create as createCaptcha } from 'svg-captcha';
import type { SecretStore } from '../cluster/secret-store';

/** Lifetime of a captcha and of a mailed code, ms (§4.2: "valid for 5 min"). */
export const VERIFICATION_TTL_MS = 5 * 60 * 1000;
/** Wrong codes allowed before a mailed code is spent. */
const MAX_CODE_ATTEMPTS = 5;
/** Mailed codes: 6 characters without look-alikes (0/O, 1/I/L). */
const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
const CODE_LENGTH = 6;

/** `{captchaId, captchaBase64}` of the captcha routes (§4.2); `captchaBase64` is a data URL. */
export interface Captcha {
  captchaId: string;
  captchaBase64: string;
}

/** Image captchas. `fixedAnswer` (tests only; `npm start` never sets it) replaces the random digits. */
export class CaptchaStore {
  constructor(
    private readonly secrets: SecretStore,
    private readonly fixedAnswer?: string,
  ) {}

  /** A new captcha: 5 digits drawn as SVG paths with noise lines. */
  async create(): Promise<Captcha> {
    const options = { size: 5, charPreset: '0123456789', noise: 2, width: 150, height: 50, background: '#f4f4f5' };
    const { text, data } = this.fixedAnswer
      ? { text: this.fixedAnswer, data: drawCaptcha(this.fixedAnswer, options) }
      : createCaptcha(options);
    const captchaId = crypto.randomBytes(10).toString('base64url');
    await this.secrets.set(`captcha:${captchaId}`, text, VERIFICATION_TTL_MS);
    return { captchaId, captchaBase64: `data:image/svg+xml;base64,${Buffer.from(data).toString('base64')}` };
  }

  /** True when `answer` matches; the captcha is spent either way. */
  async verify(captchaId: string, answer: string): Promise<boolean> {
    const expected = await this.secrets.take(`captcha:${captchaId}`);
    return expected !== null && safeEqual(expected, answer.trim());
  }
}

/** What a mailed code is for; a code of one purpose never works for another. */
export type CodePurpose = 'signup' | 'retrieve' | 'bind';

/** Codes mailed to an address, keyed by purpose and address (and user, for binding). */
export class EmailCodeStore {
  constructor(private readonly secrets: SecretStore) {}

  /** A new code for `key` (replacing an earlier one, and its count of wrong tries). */
  async issue(purpose: CodePurpose, key: string): Promise<string> {
    let code = '';
    for (let i = 0; i < CODE_LENGTH; i++) code += CODE_ALPHABET[crypto.randomInt(CODE_ALPHABET.length)];
    const id = `code:${purpose}:${key}`;
    await this.secrets.delete(`${id}:wrong`);
    await this.secrets.set(id, code, VERIFICATION_TTL_MS);
    return code;
  }

  /**
   * True when `code` is the live code for `key` (case-insensitive); a correct code is spent, and of
   * two instances checking it at once only one accepts it.
   */
  async consume(purpose: CodePurpose, key: string, code: string): Promise<boolean> {
    const id = `code:${purpose}:${key}`;
    const expected = await this.secrets.get(id);
    if (expected === null) return false;
    if (safeEqual(expected, code.trim().toUpperCase())) return this.secrets.delete(id);
    if ((await this.secrets.increment(`${id}:wrong`, VERIFICATION_TTL_MS)) >= MAX_CODE_ATTEMPTS) await this.secrets.delete(id);
    return false;
  }
}

function safeEqual(expected: string, actual: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(actual);
  return a.length === b.length && crypto.timingSafeEqual(a, b);
}
