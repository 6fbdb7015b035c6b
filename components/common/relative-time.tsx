'use client';
import { formatDistance } from 'date-fns';
import { useNow } from '@/hooks/use-now';
import { useDateLocale } from '@/lib/i18n';

export interface RelativeTimeProps {
  /** The moment, Unix ms (the contract's `createdAt`). */
  timeMs: number;
  className?: string;
}

/** "5 minutes ago" in the current language, refreshed every 30 s; the full date is in the tooltip. */
export function RelativeTime({ timeMs, className }: RelativeTimeProps) {
  const now = useNow();
  const locale = useDateLocale();
  const date = new Date(timeMs);
  if (now === null || Number.isNaN(date.getTime())) return null;
  return (
    <time dateTime={date.toISOString()} title={date.toLocaleString(locale.code)} className={className}>
      {formatDistance(date, Math.max(now, timeMs), { addSuffix: true, locale })}
    </time>
  );
}
