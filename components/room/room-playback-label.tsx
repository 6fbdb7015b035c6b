'use client';
/**
 * What the room is doing, under the video: playing, paused, ended (the room passed the end of the
 * movie), "loading" until this viewer's player has shown a frame of it (never "playing" over a
 * picture that has not come), or "cannot play" when this viewer's player cannot load the source, with the room's rate
 * when it is not 1×. It reads the status the sync engine follows (`playbackStatusAtom`, which changes
 * with this user's own play or pause at once) and asks the engine a few times a second whether the
 * movie has ended.
 */
import { useEffect, useState } from 'react';
import { useAtomValue } from 'jotai';
import { Badge } from '@/components/ui/badge';
import { useT } from '@/lib/i18n';
import { playbackStatusAtom } from '@/lib/room/atoms';
import type { SyncIndicator } from '@/lib/sync/correction';
import '@/lib/i18n/messages/cinema';

/** How often (ms) the label asks the engine whether the movie has ended. */
const POLL_MS = 500;

export interface RoomPlaybackLabelProps {
  /** The sync engine's indicator (`usePlaybackSync().readIndicator`). */
  readIndicator: () => SyncIndicator;
  /** True when this viewer's player failed to load the source. */
  cannotPlay: boolean;
  /** True until this viewer's player has shown the movie's first frame: the room may play, this picture does not yet. */
  loading?: boolean;
}

export function RoomPlaybackLabel({ readIndicator, cannotPlay, loading = false }: RoomPlaybackLabelProps) {
  const t = useT();
  const status = useAtomValue(playbackStatusAtom)?.status;
  const [ended, setEnded] = useState(false);
  useEffect(() => {
    const update = () => setEnded(readIndicator().state === 'ended');
    update();
    const timer = setInterval(update, POLL_MS);
    return () => clearInterval(timer);
  }, [readIndicator]);
  if (!status) return null;
  const state = cannotPlay ? 'cannotPlay' : loading ? 'loading' : ended ? 'ended' : status.isPlaying ? 'playing' : 'paused';
  return (
    <span data-testid="room-playback" data-state={state} className="flex shrink-0 gap-1">
      {state === 'cannotPlay' ? (
        <Badge tone="red">{t('cinema.room.cannotPlay')}</Badge>
      ) : state === 'loading' ? (
        <Badge>{t('cinema.room.loading')}</Badge>
      ) : state === 'ended' ? (
        <Badge>{t('cinema.room.ended')}</Badge>
      ) : state === 'playing' ? (
        <Badge tone="green">{t('cinema.room.playing')}</Badge>
      ) : (
        <Badge>{t('cinema.room.paused')}</Badge>
      )}
      {status.playbackRate !== 1 && (state === 'playing' || state === 'paused') ? <Badge tone="brand">{t('cinema.room.rate', { rate: status.playbackRate })}</Badge> : null}
    </span>
  );
}
