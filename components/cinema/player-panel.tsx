'use client';
/**
 * The player card: the current movie's name, what the room is doing (paused, a speed other than 1×),
 * the viewer count, the sync indicator and the sync button above the player, the autoplay notices,
 * or the empty state when nothing plays. The movie, the room's status, the viewer count and the
 * socket state come from the room atoms.
 */
import { useAtomValue } from 'jotai';
import { Eye, Film, RefreshCcw, Volume2 } from 'lucide-react';
import { Notice } from '@/components/common/notice';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { Skeleton } from '@/components/ui/skeleton';
import { hasCurrentMovie, playableUrl } from '@/lib/api/movie';
import { useT } from '@/lib/i18n';
import { currentMovieAtom, playbackStatusAtom, roomAbilitiesAtom, roomConnectionAtom, viewerCountAtom } from '@/lib/room/atoms';
import { Player } from './player';
import { SyncIndicator } from './sync-indicator';
import type { PlaybackSync } from '@/hooks/use-playback-sync';
import '@/lib/i18n/messages/cinema';

export interface PlayerPanelProps {
  /** The current movie is still loading. */
  loading: boolean;
  sync: PlaybackSync;
  onVideo: (video: HTMLVideoElement | null) => void;
}

export function PlayerPanel({ loading, sync, onVideo }: PlayerPanelProps) {
  const t = useT();
  const loaded = useAtomValue(currentMovieAtom);
  const movie = loaded && hasCurrentMovie(loaded.current) ? loaded.current.movie : null;
  const viewerCount = useAtomValue(viewerCountAtom);
  const roomStatus = useAtomValue(playbackStatusAtom)?.status;
  // The sync button works only while the socket is open.
  const canSync = useAtomValue(roomConnectionAtom) === 'open';
  const canControl = useAtomValue(roomAbilitiesAtom).canSetStatus;
  return (
    <Card className="min-w-0 overflow-hidden">
      <section aria-label={t('cinema.player.title')}>
        <div className="flex flex-wrap items-center gap-2 border-b border-zinc-200 px-4 py-2.5 dark:border-zinc-800">
          <div className="flex min-w-0 flex-1 items-center gap-2">
            <Film className="h-4 w-4 shrink-0 text-zinc-500" aria-hidden />
            {movie ? (
              <h2 data-testid="current-movie-name" className="truncate text-sm font-semibold" title={movie.base.name}>
                {movie.base.name}
              </h2>
            ) : (
              <h2 className="truncate text-sm font-semibold text-zinc-500 dark:text-zinc-400">{t('cinema.player.nothing')}</h2>
            )}
            {movie?.base.live ? <Badge tone="red">{t('cinema.movies.live')}</Badge> : null}
            {movie && roomStatus && !movie.base.live ? (
              <span data-testid="room-playback" className="flex shrink-0 gap-1">
                {roomStatus.isPlaying ? null : <Badge>{t('cinema.room.paused')}</Badge>}
                {roomStatus.playbackRate !== 1 ? <Badge tone="brand">{t('cinema.room.rate', { rate: roomStatus.playbackRate })}</Badge> : null}
              </span>
            ) : null}
          </div>
          <span
            data-testid="viewer-count"
            className="inline-flex items-center gap-1 text-sm tabular-nums text-zinc-600 dark:text-zinc-300"
            title={t('cinema.viewers')}
          >
            <Eye className="h-4 w-4" aria-hidden />
            <span className="sr-only">{t('cinema.viewers')}: </span>
            {viewerCount ?? '–'}
          </span>
          {movie ? <SyncIndicator read={sync.readIndicator} /> : null}
          <Button variant="outline" size="sm" data-testid="sync-button" disabled={!canSync} onClick={() => sync.manualSync()} title={t('cinema.sync.hint')}>
            <RefreshCcw className="h-3.5 w-3.5" aria-hidden />
            {t('cinema.sync.button')}
          </Button>
        </div>

        <div className="space-y-2 p-2 sm:p-3">
          {movie ? (
            <Player key={`${movie.id}:${movie.base.url}`} url={playableUrl(movie.base.url)} type={movie.base.type} headers={movie.base.headers} live={Boolean(movie.base.live)} onVideo={onVideo} canControl={canControl || Boolean(movie.base.live)} />
          ) : loading ? (
            <Skeleton className="aspect-video w-full rounded-lg" />
          ) : (
            <EmptyState
              className="aspect-video w-full"
              icon={<Film />}
              title={<span data-testid="cinema-empty">{t('cinema.player.empty')}</span>}
            />
          )}

          {sync.autoplay === 'muted' ? (
            <Notice tone="warning" testId="autoplay-muted-notice">
              <div className="flex flex-wrap items-center gap-2">
                <span className="flex-1">{t('cinema.autoplay.muted')}</span>
                <Button size="sm" variant="secondary" data-testid="autoplay-unmute" onClick={sync.unmute}>
                  <Volume2 className="h-3.5 w-3.5" aria-hidden />
                  {t('cinema.autoplay.unmute')}
                </Button>
              </div>
            </Notice>
          ) : null}
          {sync.autoplay === 'blocked' ? (
            <Notice tone="error" testId="autoplay-blocked-notice">
              {t('cinema.autoplay.blocked')}
            </Notice>
          ) : null}
        </div>
      </section>
    </Card>
  );
}
