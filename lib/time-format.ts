/**
 * Every date and time the UI shows, through date-fns with its `zh-CN` and `en-US` locales, following
 * the UI language: relative times ("5 minutes ago", "5 分钟前") for list timestamps, a full date and
 * time for tooltips, a long date for the profile, and HH:mm:ss for chat lines. Inputs are Unix ms.
 * date-fns always carries en-US (its default locale); zh-CN is downloaded when first needed
 * (`loadDateLocale`), so that English readers do not download it (size budgets).
 */
import { formatDistance } from 'date-fns/formatDistance';
import { intlFormat } from 'date-fns/intlFormat';
import { lightFormat } from 'date-fns/lightFormat';
import type { Locale as DateFnsLocale } from 'date-fns/locale';
import { enUS } from 'date-fns/locale/en-US';
import type { Locale } from '@/lib/i18n/messages';

const dateFnsLocales: Partial<Record<Locale, DateFnsLocale>> = { en: enUS };
let zhLoading: Promise<void> | null = null;

/** Whether relative times can be written in `locale` now (zh-CN needs `loadDateLocale` first). */
export function dateLocaleReady(locale: Locale): boolean {
  return dateFnsLocales[locale] !== undefined;
}

/** Downloads date-fns's locale of `locale` (once; a failed download is retried by the next call). */
export function loadDateLocale(locale: Locale): Promise<void> {
  if (dateLocaleReady(locale)) return Promise.resolve();
  zhLoading ??= import('date-fns/locale/zh-CN').then(
    (module) => {
      dateFnsLocales.zh = module.zhCN;
    },
    (error: unknown) => {
      zhLoading = null;
      throw error;
    },
  );
  return zhLoading;
}

/** BCP 47 tag of a UI language, for Intl formatting and `<html lang>`. */
export function localeTag(locale: Locale): 'zh-CN' | 'en-US' {
  return locale === 'zh' ? 'zh-CN' : 'en-US';
}

function valid(timeMs: number): boolean {
  return Number.isFinite(timeMs) && Number.isFinite(new Date(timeMs).getTime());
}

/**
 * "5 minutes ago", "about 3 hours ago", "in 2 days", "3 天前": the distance from `nowMs` to `timeMs`
 * (Unix ms) in the UI language (date-fns `formatDistance` with a suffix). An invalid time, or a
 * language whose locale is not loaded yet (`dateLocaleReady`), gives "".
 */
export function formatRelativeTime(timeMs: number, nowMs: number, locale: Locale): string {
  const dateLocale = dateFnsLocales[locale];
  if (!dateLocale || !valid(timeMs) || !valid(nowMs)) return '';
  return formatDistance(timeMs, nowMs, { addSuffix: true, locale: dateLocale });
}

/** Date and time with the language's conventions ("Jun 15, 2025, 12:00:00 PM", "2025年6月15日 12:00:00"), for tooltips. */
export function formatDateTime(timeMs: number, locale: Locale): string {
  if (!valid(timeMs)) return '';
  return intlFormat(timeMs, { dateStyle: 'medium', timeStyle: 'medium' }, { locale: localeTag(locale) });
}

/** A long date ("June 15, 2025", "2025年6月15日"). */
export function formatLongDate(timeMs: number, locale: Locale): string {
  if (!valid(timeMs)) return '';
  return intlFormat(timeMs, { dateStyle: 'long' }, { locale: localeTag(locale) });
}

/** Local wall-clock time of `timeMs` (Unix ms) as 24-hour "HH:mm:ss", the same in every language. */
export function formatClockTime(timeMs: number): string {
  if (!valid(timeMs)) return '';
  return lightFormat(timeMs, 'HH:mm:ss');
}
