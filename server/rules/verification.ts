/**
 * Short-lived secrets of the email flows (docs/contract.md §4.2): image captchas (svg-captcha,
 * digits, returned as an SVG data URL) and the codes mailed for sign-up, password reset and email
 * binding. Both live in memory only, expire after 5 minutes and are single-use: a captcha is spent by
 * its first check, right or wrong; a code by its first correct use or its fifth wrong one.
 */
import crypto from 'node:crypto';
import drawCaptcha, { create as createCaptcha } from 'svg-captcha';

/** Lifetime of a captcha and of a mailed code, ms (§4.2: "valid for 5 min"). */
export const VERIFICATION_TTL_MS = 5 * 60 * 1000;
/** Most live entries of one store; the oldest is dropped beyond it, so a flood cannot grow memory without end. */
const MAX_ENTRIES = 20_000;
/** Wrong codes allowed before a mailed code is spent. */
const MAX_CODE_ATTEMPTS = 5;
/** Mailed codes: 6 characters without look-alikes (0/O, 1/I/L). */
const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
const CODE_LENGTH = 6;

interface Entry {
  secret: string;
  expiresAt: number;
  attempts: number;
}

/** A Map with expiry and a size bound; insertion order is age order. */
class ExpiringMap {
  private readonly entries = new Map<string, Entry>();

  set(key: string, secret: string): void {
    this.entries.delete(key);
    this.entries.set(key, { secret, expiresAt: Date.now() + VERIFICATION_TTL_MS, attempts: 0 });
    this.prune();
  }

  /** The live entry, or undefined (an expired one is removed). */
  get(key: string): Entry | undefined {
    const entry = this.entries.get(key);
    if (entry && entry.expiresAt <= Date.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry;
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  private prune(): void {
    const now = Date.now();
    for (const [key, entry] of this.entries) {
      if (this.entries.size <= MAX_ENTRIES && entry.expiresAt > now) break;
      this.entries.delete(key);
    }
  }
}

/** `{captchaId, captchaBase64}` of the captcha routes (§4.2); `captchaBase64` is a data URL. */
export interface Captcha {
  captchaId: string;
  captchaBase64: string;
}

/** Image captchas. `fixedAnswer` (tests only; `npm start` never sets it) replaces the random digits. */
export class CaptchaStore {
  private readonly answers = new ExpiringMap();

  constructor(private readonly fixedAnswer?: string) {}

  /** A new captcha: 5 digits drawn as SVG paths with noise lines. */
  create(): Captcha {
    const options = { size: 5, charPreset: '0123456789', noise: 2, width: 150, height: 50, background: '#f4f4f5' };
    const { text, data } = this.fixedAnswer
      ? { text: this.fixedAnswer, data: drawCaptcha(this.fixedAnswer, options) }
      : createCaptcha(options);
    const captchaId = crypto.randomBytes(10).toString('base64url');
    this.answers.set(captchaId, text);
    return { captchaId, captchaBase64: `data:image/svg+xml;base64,${Buffer.from(data).toString('base64')}` };
  }

  /** True when `answer` matches; the captcha is spent either way. */
  verify(captchaId: string, answer: string): boolean {
    const entry = this.answers.get(captchaId);
    this.answers.delete(captchaId);
    return entry !== undefined && safeEqual(entry.secret, answer.trim());
  }
}

/** What a mailed code is for; a code of one purpose never works for another. */
export type CodePurpose = 'signup' | 'retrieve' | 'bind';

/** Codes mailed to an address, keyed by purpose and address (and user, for binding). */
export class EmailCodeStore {
  private readonly codes = new ExpiringMap();

  /** A new code for `key` (replacing an earlier one). */
  issue(purpose: CodePurpose, key: string): string {
    let code = '';
    for (let i = 0; i < CODE_LENGTH; i++) code += CODE_ALPHABET[crypto.randomInt(CODE_ALPHABET.length)];
    this.codes.set(`${purpose}:${key}`, code);
    return code;
  }

  /** True when `code` is the live code for `key` (case-insensitive); a correct code is spent. */
  consume(purpose: CodePurpose, key: string, code: string): boolean {
    const id = `${purpose}:${key}`;
    const entry = this.codes.get(id);
    if (!entry) return false;
    if (safeEqual(entry.secret, code.trim().toUpperCase())) {
      this.codes.delete(id);
      return true;
    }
    entry.attempts += 1;
    if (entry.attempts >= MAX_CODE_ATTEMPTS) this.codes.delete(id);
    return false;
  }
}

function safeEqual(expected: string, actual: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(actual);
  return a.length === b.length && crypto.timingSafeEqual(a, b);
}
