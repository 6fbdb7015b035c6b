'use client';
/**
 * React binding of the sync engine (lib/sync/engine.ts): one engine per <video> element, fed by the
 * room socket (STATUS, CHECK_STATUS, SYNC, open/close) and by the loaded current movie. The engine
 * shares the socket's server clock, so the SYNC round trips it measures also correct the timestamps
 * of everything the socket sends. The status it follows is the room's playback status the hall shows
 * (`playbackStatusAtom`): the engine is its one writer, so the label follows the user's own play or
 * pause at once and never disagrees with what the player does.
 */
import { getDefaultStore } from 'jotai';
import { useCallback, useEffect, useRef, useState } from 'react';
import { playbackStatusAtom } from '@/lib/room/atoms';
import type { ServerClock } from '@/lib/sync/clock';
import type { SyncIndicator } from '@/lib/sync/correction';
import { SyncEngine, type AutoplayOutcome, type HttpStatus } from '@/lib/sync/engine';
import { fromWireStatus } from '@/lib/sync/status';
import { MessageType, timestampMs, type Message } from '@/lib/contract/message';
import type { RoomSocket } from '@/lib/ws/room-socket';

export interface PlaybackSyncOptions {
  video: HTMLVideoElement | null;
  socket: RoomSocket | null;
  clock: ServerClock | null;
  /** The room status from `GET /movie/current` with the local times of its request and response. */
  target: HttpStatus | null;
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
}

const IDLE: SyncIndicator = { state: 'idle', driftMs: null };

export function usePlaybackSync(options: PlaybackSyncOptions): PlaybackSync {
  const { video, socket, clock, target, live, canControl } = options;
  const [engine, setEngine] = useState<SyncEngine | null>(null);
  const [autoplay, setAutoplay] = useState<PlaybackSync['autoplay']>(null);
  const store = getDefaultStore();
  // The engine calls the latest callbacks without being rebuilt when they change.
  const callbacks = useRef({ onControlDenied: options.onControlDenied, onManualSynced: options.onManualSynced });
  useEffect(() => {
    callbacks.current = { onControlDenied: options.onControlDenied, onManualSynced: options.onManualSynced };
  });

  useEffect(() => {
    if (!video || !socket || !clock) return;
    const created = new SyncEngine({
      media: video,
      clock,
      transport: {
        sendStatus: (status) => socket.sendStatus(status),
        sendSync: () => socket.sendSync(),
      },
      live,
      canControl,
      onAutoplay: (outcome) => setAutoplay((previous) => (outcome === 'ok' ? (previous === 'muted' && video.muted ? 'muted' : null) : outcome)),
      onControlDenied: () => callbacks.current.onControlDenied(),
      onManualSynced: () => callbacks.current.onManualSynced(),
      onTarget: (status) => store.set(playbackStatusAtom, { status, receivedAtMs: Date.now() }),
    });
    const onMessage = (message: Message) => {
      const payload = message.payload;
      if (payload.case !== 'playbackStatus') return;
      const status = fromWireStatus(payload.value);
      if (message.type === MessageType.SYNC) created.onSyncReply(status, timestampMs(message));
      else if (message.type === MessageType.STATUS || message.type === MessageType.CHECK_STATUS) created.onRemoteStatus(status);
    };
    const offMessage = socket.on('message', onMessage);
    const offState = socket.on('state', (state) => {
      if (state === 'open') created.setConnected(true);
      else if (state === 'closed') created.setConnected(false);
    });
    // The user pressing play after a refusal clears the notice.
    const onPlaying = () => setAutoplay((previous) => (previous === 'blocked' ? null : previous));
    const onVolume = () => setAutoplay((previous) => (previous === 'muted' && !video.muted ? null : previous));
    video.addEventListener('playing', onPlaying);
    video.addEventListener('volumechange', onVolume);
    setEngine(created);
    if (socket.state === 'open') created.setConnected(true);
    return () => {
      offMessage();
      offState();
      video.removeEventListener('playing', onPlaying);
      video.removeEventListener('volumechange', onVolume);
      created.destroy();
      store.set(playbackStatusAtom, null);
      setEngine(null);
      setAutoplay(null);
    };
    // live and canControl are pushed by the effect below: they must not rebuild the engine.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [video, socket, clock]);

  useEffect(() => {
    engine?.setLive(live);
    engine?.setCanControl(canControl);
  }, [engine, live, canControl]);

  useEffect(() => {
    if (engine && target) engine.loadTarget(target);
  }, [engine, target]);

  const manualSync = useCallback(() => (engine ? engine.manualSync() : socket?.sendSync() ?? false), [engine, socket]);
  const unmute = useCallback(() => {
    if (video) video.muted = false;
    setAutoplay((previous) => (previous === 'muted' ? null : previous));
  }, [video]);
  const readIndicator = useCallback(() => (engine ? engine.indicator() : IDLE), [engine]);

  return { autoplay, manualSync, unmute, readIndicator };
}
