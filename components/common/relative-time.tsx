'use client';
import { useEffect, useState } from 'react';
import { useNow } from '@/hooks/use-now';
import { useLocale } from '@/lib/i18n';
import { dateLocaleReady, formatDateTime, formatRelativeTime, loadDateLocale } from '@/lib/time-format';

export interface RelativeTimeProps {
  /** The moment, Unix ms (the contract's `createdAt`). */
  timeMs: number;
  className?: string;
}

/**
 * "5 minutes ago" in the UI language (date-fns), refreshed every 30 s; the full date and time is in
 * the tooltip. Nothing until the clock is known (prerender) and the language's date locale is loaded.
 */
export function RelativeTime({ timeMs, className }: RelativeTimeProps) {
  const now = useNow();
  const [locale] = useLocale();
  const [, setLoaded] = useState(0);
  const ready = dateLocaleReady(locale);
  useEffect(() => {
    if (ready) return;
    let live = true;
    loadDateLocale(locale).then(
      () => live && setLoaded((count) => count + 1),
      (error: unknown) => console.error('Could not load the date locale', error),
    );
    return () => {
      live = false;
    };
  }, [locale, ready]);
  const date = new Date(timeMs);
  if (now === null || !ready || Number.isNaN(date.getTime())) return null;
  return (
    <time dateTime={date.toISOString()} title={formatDateTime(timeMs, locale)} className={className}>
      {/* A server clock slightly ahead of ours must not make a new room read "in 1 minute". */}
      {formatRelativeTime(Math.min(timeMs, now), now, locale)}
    </time>
  );
}
