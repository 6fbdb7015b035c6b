/**
 * The message catalogue: Simplified Chinese and English, one namespace file per feature under
 * `messages/` (`{zh, en}` with the same keys; `registerMessages` checks that English covers every
 * Chinese key). Texts may hold `{name}` placeholders, filled by `translate`.
 *
 * Only `common` (shell, navigation, route titles) is built in. A feature namespace registers itself
 * when its module is imported, and every component that uses its keys imports it
 * (`import '@/lib/i18n/messages/cinema';`), so a screen downloads the texts of the features it shows
 * and no others (size budgets). `namespaces.test.ts` checks those imports.
 */
import type { account } from './messages/account';
import type { admin } from './messages/admin';
import type { auth } from './messages/auth';
import type { cinema } from './messages/cinema';
import { common } from './messages/common';
import type { errors } from './messages/errors';
import type { help } from './messages/help';
import type { lists } from './messages/lists';
import type { live } from './messages/live';
import type { movieForm } from './messages/movie-form';
import type { player } from './messages/player';
import type { playerProblem } from './messages/player-problem';
import type { roomAdmin } from './messages/room-admin';
import type { rooms } from './messages/rooms';
import type { user } from './messages/user';
import type { vendors } from './messages/vendors';
import type { voice } from './messages/voice';

type AllTexts = typeof common.zh & typeof admin.zh & typeof auth.zh & typeof account.zh & typeof rooms.zh & typeof cinema.zh & typeof user.zh & typeof errors.zh & typeof roomAdmin.zh & typeof player.zh & typeof playerProblem.zh & typeof lists.zh & typeof movieForm.zh & typeof voice.zh & typeof live.zh & typeof help.zh & typeof vendors.zh;

/** Every key of every namespace (type only: the texts themselves load with their feature). */
export type MessageKey = keyof AllTexts;
export type Locale = 'zh' | 'en';
export const locales: readonly Locale[] = ['zh', 'en'];

/** One feature's texts: `en` must have every key of `zh`. */
export interface MessageNamespace<Texts extends Record<string, string>> {
  zh: Texts;
  en: { readonly [K in keyof Texts]: string };
}

const catalogues: Record<Locale, Partial<Record<MessageKey, string>>> = { zh: { ...common.zh }, en: { ...common.en } };

/** Adds a namespace's texts to the catalogue (idempotent; called at the bottom of each namespace module). */
export function registerMessages<Texts extends Record<string, string>>(namespace: MessageNamespace<Texts>): void {
  Object.assign(catalogues.zh, namespace.zh);
  Object.assign(catalogues.en, namespace.en);
}

/** True when `key` is in the catalogue, i.e. its namespace has been loaded (or it is a common key). */
export function isRegistered(key: string): boolean {
  return key in catalogues.zh;
}

/** Fills plural forms; installed by ./plural.ts, which every screen that shows a plural text imports. */
let pluralFormatter: ((locale: Locale, text: string, params: Record<string, string | number>) => string) | null = null;

/** Installs the plural formatter (./plural.ts), so that screens without plural texts do not download it. */
export function setPluralFormatter(formatter: typeof pluralFormatter): void {
  pluralFormatter = formatter;
}

/**
 * Looks up `key` in `locale` (then in Chinese), picks plural forms (`{n, plural, one {# room} other
 * {# rooms}}`, once ./plural.ts is loaded) and fills `{name}` placeholders from `params`.
 * Unknown placeholders stay as written; a key whose namespace was never imported comes back as the
 * key itself, which the namespace test and the screens' tests catch.
 */
export function translate(locale: Locale, key: MessageKey, params?: Record<string, string | number>): string {
  const text = catalogues[locale][key] ?? catalogues.zh[key] ?? key;
  if (!params) return text;
  return (pluralFormatter?.(locale, text, params) ?? text).replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}
