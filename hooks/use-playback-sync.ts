'use client';
/**
 * React binding of the sync engine (lib/sync/engine.ts): one engine per <video> element, attached to
 * the room session (lib/room/session.ts), which feeds it every STATUS, CHECK_STATUS and SYNC frame,
 * the socket's state and the loaded current movie's status. The engine shares the session's server
 * clock, so the SYNC round trips it measures also correct the timestamps of everything the socket
 * sends. The status it follows goes back to the session as the room's playback truth (`followed`),
 * so the hall's label follows the user's own play or pause at once and never disagrees with what
 * the player does.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { PlaybackState } from '@/lib/contract/playback';
import type { RoomSession } from '@/lib/room/session';
import type { SyncIndicator } from '@/lib/sync/correction';
import { SyncEngine, type AutoplayOutcome, type SyncDebug } from '@/lib/sync/engine';

export interface PlaybackSyncOptions {
  video: HTMLVideoElement | null;
  session: RoomSession | null;
  live: boolean;
  canControl: boolean;
  onControlDenied: () => void;
  onManualSynced: () => void;
}

export interface PlaybackSync {
  /** 'muted': playing muted after the browser refused sound; 'blocked': not playing at all; null: fine. */
  autoplay: Exclude<AutoplayOutcome, 'ok'> | null;
  /** The sync button: resume in the click if the room plays, then SYNC. */
  manualSync: () => boolean;
  /** Unmutes after the muted fallback (a click, so the browser allows sound). */
  unmute: () => void;
  /** The sync indicator now (cheap; the indicator polls it). */
  readIndicator: () => SyncIndicator;
  /** The engine's phase, figures and last decisions for the `?debug=sync` overlay; null without an engine. */
  readDebug: () => SyncDebug | null;
  /**
   * The room goes on from `status` (at local Unix ms `atMs`) once `movieId` plays again, which
   * restarts it at 0: lib/room/session.ts `continueAt` (the movie proxy turned on for the current movie).
   */
  continueAt: (movieId: string, status: PlaybackState, atMs: number) => void;
}

const IDLE: SyncIndicator = { state: 'idle', driftMs: null };

export function usePlaybackSync(options: PlaybackSyncOptions): PlaybackSync {
  const { video, session, live, canControl } = options;
  const [engine, setEngine] = useState<SyncEngine | null>(null);
  const [autoplay, setAutoplay] = useState<PlaybackSync['autoplay']>(null);
  // The engine calls the latest callbacks without being rebuilt when they change.
  const callbacks = useRef({ onControlDenied: options.onControlDenied, onManualSynced: options.onManualSynced });
  useEffect(() => {
    callbacks.current = { onControlDenied: options.onControlDenied, onManualSynced: options.onManualSynced };
  });

  useEffect(() => {
    if (!video || !session) return;
    const created = new SyncEngine({
      media: video,
      clock: session.clock,
      transport: {
        sendStatus: (status) => session.sendStatus(status),
        sendSync: () => session.sendSync(),
      },
      live,
      canControl,
      onAutoplay: (outcome) => setAutoplay((previous) => (outcome === 'ok' ? (previous === 'muted' && video.muted ? 'muted' : null) : outcome)),
      onControlDenied: () => callbacks.current.onControlDenied(),
      onManualSynced: () => callbacks.current.onManualSynced(),
      onTarget: (status, atMs) => session.followed(status, atMs),
    });
    // The user pressing play after a refusal clears the notice.
    const onPlaying = () => setAutoplay((previous) => (previous === 'blocked' ? null : previous));
    const onVolume = () => setAutoplay((previous) => (previous === 'muted' && !video.muted ? null : previous));
    video.addEventListener('playing', onPlaying);
    video.addEventListener('volumechange', onVolume);
    setEngine(created);
    const detach = session.attachFollower(created);
    return () => {
      detach();
      video.removeEventListener('playing', onPlaying);
      video.removeEventListener('volumechange', onVolume);
      created.destroy();
      setEngine(null);
      setAutoplay(null);
    };
    // live and canControl are pushed by the effect below: they must not rebuild the engine.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [video, session]);

  useEffect(() => {
    engine?.setLive(live);
    engine?.setCanControl(canControl);
  }, [engine, live, canControl]);

  const manualSync = useCallback(() => (engine ? engine.manualSync() : session?.sendSync() ?? false), [engine, session]);
  const unmute = useCallback(() => {
    if (video) video.muted = false;
    setAutoplay((previous) => (previous === 'muted' ? null : previous));
  }, [video]);
  const readIndicator = useCallback(() => (engine ? engine.indicator() : IDLE), [engine]);
  const readDebug = useCallback(() => engine?.debug() ?? null, [engine]);
  const continueAt = useCallback((movieId: string, status: PlaybackState, atMs: number) => session?.continueAt(movieId, status, atMs), [session]);

  return { autoplay, manualSync, unmute, readIndicator, readDebug, continueAt };
}
