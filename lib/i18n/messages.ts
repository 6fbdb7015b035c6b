/**
 * The one message catalogue: Simplified Chinese and English. Feature files under `messages/` each
 * hold `{zh, en}` with the same keys; TypeScript checks that English covers every Chinese key.
 * Texts may hold `{name}` placeholders, filled by `translate`.
 */
import { auth } from './messages/auth';
import { cinema } from './messages/cinema';
import { common } from './messages/common';
import { rooms } from './messages/rooms';
import { user } from './messages/user';

const zh = { ...common.zh, ...auth.zh, ...rooms.zh, ...cinema.zh, ...user.zh };

type Catalogue = { [K in keyof typeof zh]: string };

const en: Catalogue = { ...common.en, ...auth.en, ...rooms.en, ...cinema.en, ...user.en };

export type MessageKey = keyof typeof zh;
export type Locale = 'zh' | 'en';
export const locales: readonly Locale[] = ['zh', 'en'];
export const catalogues: Record<Locale, Catalogue> = { zh, en };

/** Looks up `key` in `locale` and fills `{name}` placeholders from `params`. Unknown placeholders stay as written. */
export function translate(locale: Locale, key: MessageKey, params?: Record<string, string | number>): string {
  const text = catalogues[locale][key] ?? catalogues.zh[key] ?? key;
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}
