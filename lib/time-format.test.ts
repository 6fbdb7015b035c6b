/** Dates and times as a reader sees them, in both UI languages (date-fns with zh-CN and en-US). */
import { dateLocaleReady, formatClockTime, formatDateTime, formatLongDate, formatRelativeTime, loadDateLocale } from './time-format';

beforeAll(async () => {
  // Chinese relative times need their date-fns locale, which loads on first use.
  expect(dateLocaleReady('zh')).toBe(false);
  expect(formatRelativeTime(0, 60_000, 'zh')).toBe('');
  await loadDateLocale('zh');
});

const now = new Date(2025, 5, 15, 12, 0, 0).getTime();
const SEC = 1000;
const MIN = 60 * SEC;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

describe('formatRelativeTime', () => {
  it.each([
    [10 * SEC, 'less than a minute ago', '不到 1 分钟前'],
    [5 * MIN, '5 minutes ago', '5 分钟前'],
    [3 * HOUR, 'about 3 hours ago', '大约 3 小时前'],
    [30 * HOUR, '1 day ago', '1 天前'],
    [5 * DAY, '5 days ago', '5 天前'],
    [120 * DAY, '4 months ago', '4 个月前'],
    [3 * 365 * DAY, 'almost 3 years ago', '将近 3 年前'],
  ])('%d ms ago reads "%s" in English and "%s" in Chinese', (agoMs, en, zh) => {
    expect(formatRelativeTime(now - agoMs, now, 'en')).toBe(en);
    expect(formatRelativeTime(now - agoMs, now, 'zh')).toBe(zh);
  });

  it('words future times as such', () => {
    expect(formatRelativeTime(now + 5 * MIN, now, 'en')).toBe('in 5 minutes');
    expect(formatRelativeTime(now + 5 * MIN, now, 'zh')).toBe('5 分钟内');
  });

  it('gives an empty text for an invalid time instead of throwing', () => {
    expect(formatRelativeTime(Number.NaN, now, 'en')).toBe('');
  });
});

describe('formatDateTime and formatLongDate', () => {
  it('write the date the way each language does', () => {
    expect(formatLongDate(now, 'en')).toBe('June 15, 2025');
    expect(formatLongDate(now, 'zh')).toBe('2025年6月15日');
    expect(formatDateTime(now, 'en')).toMatch(/^Jun 15, 2025,? 12:00:00\sPM$/);
    expect(formatDateTime(now, 'zh')).toBe('2025年6月15日 12:00:00');
    expect(formatDateTime(Number.NaN, 'zh')).toBe('');
  });
});

describe('formatClockTime', () => {
  it('gives the local 24-hour time with leading zeros', () => {
    expect(formatClockTime(new Date(2025, 0, 2, 9, 5, 7).getTime())).toBe('09:05:07');
    expect(formatClockTime(new Date(2025, 0, 2, 0, 0, 0).getTime())).toBe('00:00:00');
    expect(formatClockTime(new Date(2025, 0, 2, 23, 59, 59).getTime())).toBe('23:59:59');
  });
});
