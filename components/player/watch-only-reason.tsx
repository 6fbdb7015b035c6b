'use client';
import { useT } from '@/lib/i18n';
import { WATCH_ONLY_REASON_ID } from './ids';
import '@/lib/i18n/messages/cinema';

/** Why a viewer without playback control cannot play, pause or seek; the player's play button is described by it. */
export function WatchOnlyReason() {
  const t = useT();
  return (
    <p id={WATCH_ONLY_REASON_ID} data-testid="watch-only-reason" className="text-xs text-zinc-600 dark:text-zinc-300">
      {t('cinema.player.watchOnly')}
    </p>
  );
}
