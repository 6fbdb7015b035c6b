import { formatClockTime, formatRelativeTime, relativeTimeParts } from './time-format';

const now = new Date(2025, 5, 15, 12, 0, 0).getTime();
const SEC = 1000;
const MIN = 60 * SEC;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

describe('relativeTimeParts: unit and amount like date-fns formatDistance', () => {
  it.each([
    [10 * SEC, 0, 'second'],
    [29 * SEC, 0, 'second'],
    [40 * SEC, -1, 'minute'],
    [5 * MIN, -5, 'minute'],
    [44 * MIN, -44, 'minute'],
    [50 * MIN, -1, 'hour'],
    [89 * MIN, -1, 'hour'],
    [3 * HOUR + 20 * MIN, -3, 'hour'],
    [23 * HOUR + 20 * MIN, -23, 'hour'],
    [30 * HOUR, -1, 'day'],
    [5 * DAY, -5, 'day'],
    [29 * DAY, -29, 'day'],
    [40 * DAY, -1, 'month'],
    [50 * DAY, -2, 'month'],
    [200 * DAY, -7, 'month'],
    [365 * DAY, -1, 'year'],
    [3 * 365 * DAY, -3, 'year'],
  ])('%d ms ago → %d %s', (agoMs, value, unit) => {
    expect(relativeTimeParts(now - agoMs, now)).toEqual({ value, unit });
  });

  it('counts future times forward', () => {
    expect(relativeTimeParts(now + 5 * MIN, now)).toEqual({ value: 5, unit: 'minute' });
    expect(relativeTimeParts(now + 3 * DAY, now)).toEqual({ value: 3, unit: 'day' });
  });

  it('treats an invalid time as now instead of throwing', () => {
    expect(relativeTimeParts(Number.NaN, now)).toEqual({ value: 0, unit: 'second' });
  });
});

describe('formatRelativeTime: the text a user reads', () => {
  it.each([
    [10 * SEC, 'now', '现在'],
    [5 * MIN, '5 minutes ago', '5分钟前'],
    [3 * HOUR, '3 hours ago', '3小时前'],
    [30 * HOUR, 'yesterday', '昨天'],
    [5 * DAY, '5 days ago', '5天前'],
    [120 * DAY, '4 months ago', '4个月前'],
    [3 * 365 * DAY, '3 years ago', '3年前'],
  ])('%d ms ago reads "%s" in English and "%s" in Chinese', (agoMs, en, zh) => {
    expect(formatRelativeTime(now - agoMs, now, 'en')).toBe(en);
    expect(formatRelativeTime(now - agoMs, now, 'zh-CN')).toBe(zh);
  });

  it('words future times as such', () => {
    expect(formatRelativeTime(now + 5 * MIN, now, 'en')).toBe('in 5 minutes');
    expect(formatRelativeTime(now + 5 * MIN, now, 'zh-CN')).toBe('5分钟后');
    expect(formatRelativeTime(now + 30 * HOUR, now, 'en')).toBe('tomorrow');
  });
});

describe('formatClockTime', () => {
  it('gives the local 24-hour time with leading zeros', () => {
    expect(formatClockTime(new Date(2025, 0, 2, 9, 5, 7).getTime())).toBe('09:05:07');
    expect(formatClockTime(new Date(2025, 0, 2, 0, 0, 0).getTime())).toBe('00:00:00');
    expect(formatClockTime(new Date(2025, 0, 2, 23, 59, 59).getTime())).toBe('23:59:59');
  });
});
