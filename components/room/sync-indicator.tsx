'use client';
/**
 * The per-user sync indicator: in sync, correcting or out of sync with the drift from the
 * room's position in ms; "live" for live streams (no position sync); "idle" before there is anything
 * to follow. It polls the engine a few times a second on its own, so the rest of the hall does not
 * re-render with it. `data-state` and `data-drift-ms` expose the same to tests and benchmarks.
 */
import { useEffect, useState } from 'react';
import { clsx } from 'clsx';
import { Badge, type BadgeTone } from '@/components/ui/badge';
import type { SyncIndicator as Indicator, SyncState } from '@/lib/sync/correction';
import { useT } from '@/lib/i18n';
import '@/lib/i18n/messages/cinema';

/** How often (ms) the indicator reads the engine. */
const POLL_MS = 250;
/** How long (ms) a state must hold before screen readers hear of it: a short correction stays quiet. */
const ANNOUNCE_AFTER_MS = 2000;

const view: Record<SyncState, { tone: BadgeTone; dot: string }> = {
  'in-sync': { tone: 'green', dot: 'bg-emerald-500' },
  correcting: { tone: 'amber', dot: 'animate-pulse bg-amber-500' },
  'out-of-sync': { tone: 'red', dot: 'bg-red-500' },
  struggling: { tone: 'amber', dot: 'bg-amber-500' },
  'cannot-seek': { tone: 'amber', dot: 'bg-amber-500' },
  ended: { tone: 'neutral', dot: 'bg-zinc-400' },
  live: { tone: 'brand', dot: 'bg-red-500' },
  idle: { tone: 'neutral', dot: 'bg-zinc-400' },
};

export interface SyncIndicatorProps {
  read: () => Indicator;
}

export function SyncIndicator({ read }: SyncIndicatorProps) {
  const t = useT();
  const [indicator, setIndicator] = useState<Indicator>(() => read());
  useEffect(() => {
    const update = () =>
      setIndicator((previous) => {
        const next = read();
        return next.state === previous.state && next.driftMs === previous.driftMs ? previous : next;
      });
    update();
    const timer = setInterval(update, POLL_MS);
    return () => clearInterval(timer);
  }, [read]);

  const { state, driftMs } = indicator;
  // The badge changes several times a second (the drift), so it is not a live region itself; a hidden
  // polite one says the state once it has held for ANNOUNCE_AFTER_MS.
  const [announced, setAnnounced] = useState<SyncState | null>(null);
  useEffect(() => {
    const timer = setTimeout(() => setAnnounced(state), ANNOUNCE_AFTER_MS);
    return () => clearTimeout(timer);
  }, [state]);
  const { tone, dot } = view[state];
  const showDrift = driftMs !== null && state !== 'idle' && state !== 'live' && state !== 'ended' && state !== 'cannot-seek';
  return (
    <>
      <span
        data-testid="sync-indicator"
        data-state={state}
        data-drift-ms={driftMs ?? ''}
        role="status"
        aria-live="off"
        title={showDrift ? t('cinema.sync.driftHint') : undefined}
      >
        <Badge tone={tone}>
          <span aria-hidden className={clsx('h-2 w-2 rounded-full', dot)} />
          {t(`cinema.sync.state.${state}`)}
          {showDrift ? <span className="tabular-nums">{t('cinema.sync.drift', { drift: formatDrift(driftMs) })}</span> : null}
        </Badge>
      </span>
      <span className="sr-only" aria-live="polite" data-testid="sync-announcement">
        {announced && announced !== 'idle' ? t(`cinema.sync.state.${announced}`) : ''}
      </span>
    </>
  );
}

/** Signed, so ahead and behind read differently: "+12", "−40", "0". */
function formatDrift(driftMs: number): string {
  if (driftMs > 0) return `+${driftMs}`;
  if (driftMs < 0) return `−${Math.abs(driftMs)}`;
  return '0';
}
