/**
 * Time texts for the UI on the platform's Intl API (no date library on the critical path):
 * "5 minutes ago" / "5分钟前" for list timestamps and HH:mm:ss for chat lines.
 */

/** BCP 47 tag of a UI language, as Intl and `toLocaleString` take it. */
export type DateLocaleTag = 'zh-CN' | 'en';

/** A relative distance ready for `Intl.RelativeTimeFormat#format`: negative = in the past. */
export interface RelativeTimeParts {
  value: number;
  unit: Intl.RelativeTimeFormatUnit;
}

const MINUTE_SEC = 60;
const HOUR_MIN = 60;
const DAY_MIN = 1440;
const MONTH_MIN = 43_200; // 30 days, as date-fns's formatDistance counts a month
const YEAR_DAYS = 365.25;

/**
 * Picks the unit and rounded amount for the distance from `nowMs` to `timeMs` (both Unix ms), with
 * the thresholds of date-fns's `formatDistance`: under 30 s → 0 seconds ("now"; the display refreshes
 * every 30 s, so counting seconds would be stale), under 45 min → minutes, under 24 h → hours (45–89
 * min is 1 hour), under 30 days → days (24–41 h is 1 day), under 12 months (of 30 days) → months,
 * else years. The sign follows the direction: past times give negative values, future ones positive.
 * Non-finite input gives `{value: 0, unit: 'second'}`.
 */
export function relativeTimeParts(timeMs: number, nowMs: number): RelativeTimeParts {
  const diffSec = (timeMs - nowMs) / 1000;
  if (!Number.isFinite(diffSec)) return { value: 0, unit: 'second' };
  const sign = diffSec < 0 ? -1 : 1;
  const seconds = Math.abs(diffSec);
  const minutes = Math.round(seconds / MINUTE_SEC);
  const signed = (value: number, unit: Intl.RelativeTimeFormatUnit): RelativeTimeParts => ({ value: sign * value, unit });

  if (minutes === 0) return { value: 0, unit: 'second' };
  if (minutes < 45) return signed(minutes, 'minute');
  if (minutes < 90) return signed(1, 'hour');
  if (minutes < DAY_MIN) return signed(Math.round(minutes / HOUR_MIN), 'hour');
  if (minutes < 2520) return signed(1, 'day');
  if (minutes < MONTH_MIN) return signed(Math.round(minutes / DAY_MIN), 'day');
  const months = Math.round(minutes / MONTH_MIN);
  if (months < 12) return signed(months, 'month');
  return signed(Math.max(1, Math.round(minutes / DAY_MIN / YEAR_DAYS)), 'year');
}

// One formatter per language: a room list formats dozens of times on every 30 s tick.
const relativeFormatters = new Map<DateLocaleTag, Intl.RelativeTimeFormat>();

/**
 * "5 minutes ago", "yesterday", "in 3 hours", "现在", "上个月": the distance from `nowMs` to `timeMs`
 * (Unix ms) in language `locale`, with the units of {@link relativeTimeParts} and Intl's
 * `numeric: 'auto'` wording (1 day ago → "yesterday", 0 seconds → "now").
 */
export function formatRelativeTime(timeMs: number, nowMs: number, locale: DateLocaleTag): string {
  let formatter = relativeFormatters.get(locale);
  if (!formatter) {
    formatter = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
    relativeFormatters.set(locale, formatter);
  }
  const { value, unit } = relativeTimeParts(timeMs, nowMs);
  return formatter.format(value, unit);
}

const pad2 = (n: number) => String(n).padStart(2, '0');

/** Local wall-clock time of `timeMs` (Unix ms) as 24-hour "HH:mm:ss", the same in every language. */
export function formatClockTime(timeMs: number): string {
  const date = new Date(timeMs);
  return `${pad2(date.getHours())}:${pad2(date.getMinutes())}:${pad2(date.getSeconds())}`;
}
