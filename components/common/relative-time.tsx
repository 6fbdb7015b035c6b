'use client';
import { useNow } from '@/hooks/use-now';
import { useLocale } from '@/lib/i18n';
import { formatDateTime, formatRelativeTime } from '@/lib/time-format';

export interface RelativeTimeProps {
  /** The moment, Unix ms (the contract's `createdAt`). */
  timeMs: number;
  className?: string;
}

/** "5 minutes ago" in the UI language (date-fns), refreshed every 30 s; the full date and time is in the tooltip. */
export function RelativeTime({ timeMs, className }: RelativeTimeProps) {
  const now = useNow();
  const [locale] = useLocale();
  const date = new Date(timeMs);
  if (now === null || Number.isNaN(date.getTime())) return null;
  return (
    <time dateTime={date.toISOString()} title={formatDateTime(timeMs, locale)} className={className}>
      {/* A server clock slightly ahead of ours must not make a new room read "in 1 minute". */}
      {formatRelativeTime(Math.min(timeMs, now), now, locale)}
    </time>
  );
}
