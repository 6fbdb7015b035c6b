'use client';
/**
 * The sync debug overlay (`?debug=sync` in the hall's address; docs/sync.md "Debugging"): the
 * engine's phase and its data, the drift, the element's and the room's rate, the server clock offset and round
 * trip, the learned latencies and the last decisions with the events that led to them, read from the engine four times a second. For
 * developers and bug reports, so it is not translated; a lazy chunk that nobody else downloads. The
 * same record is `window.__synctvSyncDebug()`, with or without the overlay (`debug=sync-record`).
 */
import { useEffect, useState } from 'react';
import type { SyncDebug as Debug } from '@/lib/sync/engine';
import type { Phase } from '@/lib/sync/machine';

const POLL_MS = 250;

/** The phase's own data in words, for the `?debug=sync` overlay (times relative to `nowMs`). */
function describePhase(phase: Phase, nowMs: number): string {
  const inMs = (atMs: number | null) => (atMs === null ? 'not timed' : `in ${Math.round(atMs - nowMs)} ms`);
  switch (phase.name) {
    case 'scheduled':
      return `wait at ${phase.seekTo.toFixed(2)} s (${phase.far ? 'far' : 'near'}${phase.ready ? ', ready' : ''}), start ${inMs(phase.startAtMs)}`;
    case 'catching-up':
      return `rate +${(phase.nudge * 100).toFixed(1)} %, ends ${inMs(phase.endAtMs)}`;
    case 'switching-rate':
      return `× ${phase.from.status.playbackRate} → × ${phase.rate} ${inMs(phase.atMs)}`;
    case 'acquiring':
    case 'tracking':
    case 'recovering':
      return `nudge ${phase.nudge >= 0 ? '+' : ''}${(phase.nudge * 100).toFixed(1)} %`;
    case 'unreachable':
      return `checked ${Math.round(nowMs - phase.checkedAtMs)} ms ago`;
    default:
      return '';
  }
}

export interface SyncDebugProps {
  read: () => Debug | null;
  /** False for `debug=sync-record`: the record only, nothing on the page. */
  overlay: boolean;
}

export default function SyncDebug({ read, overlay }: SyncDebugProps) {
  const [debug, setDebug] = useState<Debug | null>(() => read());
  useEffect(() => {
    const timer = overlay ? setInterval(() => setDebug(read()), POLL_MS) : undefined;
    // For a driver without DevTools (WebDriver in WebKitGTK, e2e/support/engines.ts): the whole record as data.
    const exposed = window as Window & { __synctvSyncDebug?: () => Debug | null };
    exposed.__synctvSyncDebug = read;
    return () => {
      clearInterval(timer);
      if (exposed.__synctvSyncDebug === read) delete exposed.__synctvSyncDebug;
    };
  }, [read, overlay]);
  if (!overlay) return null;
  if (!debug) return <div data-testid="sync-debug" className="font-mono text-xs">sync: no engine</div>;
  const { phase, phaseData, nowMs, driftMs, playbackRate, roomRate, clockOffsetMs, rttMs, latencySec, decisions, invalidTransitions } = debug;
  const phaseText = describePhase(phaseData, nowMs);
  const start = decisions[0]?.atMs ?? 0;
  return (
    <section
      data-testid="sync-debug"
      data-phase={phase}
      aria-label="Sync debug"
      className="max-h-64 overflow-auto rounded-lg bg-zinc-950/90 p-2 font-mono text-[11px] leading-4 text-zinc-100"
    >
      <p>
        phase <strong data-testid="sync-debug-phase">{phase}</strong>
        {phaseText ? ` (${phaseText})` : ''} · drift {driftMs ?? '–'} ms · rate {playbackRate.toFixed(3)} (room {roomRate}) · clock{' '}
        {clockOffsetMs >= 0 ? '+' : ''}
        {clockOffsetMs} ms, rtt {rttMs ?? '–'} ms{invalidTransitions ? ` · ${invalidTransitions} invalid transitions` : ''}
      </p>
      <p>
        latency (ms):{' '}
        {Object.entries(latencySec)
          .map(([kind, sec]) => `${kind} ${Math.round(sec * 1000)}`)
          .join(' · ')}
      </p>
      <ol className="mt-1 space-y-0.5">
        {decisions
          .slice()
          .reverse()
          .map((decision) => (
            <li key={`${decision.atMs}-${decision.kind}-${decision.detail}`}>
              +{((decision.atMs - start) / 1000).toFixed(2)} s {decision.phase} · {decision.kind} {decision.detail}
              {decision.event ? ` ← ${decision.event}` : ''}
            </li>
          ))}
      </ol>
    </section>
  );
}
