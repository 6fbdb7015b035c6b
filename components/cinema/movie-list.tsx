'use client';
/**
 * The root folder's movies (server-contract.md §4.5): name, URL, live tag, and a row menu (Radix
 * dropdown) with "play this" and delete (confirmed first), each disabled with the reason when the
 * member may not; stop playback and clear, with pagination that works with both the companion
 * server's paging and v0.9.11's unpaged list.
 */
import { useState } from 'react';
import { clsx } from 'clsx';
import { useAtomValue } from 'jotai';
import { ListVideo, MoreHorizontal, Play, RefreshCw, Square, Trash2 } from 'lucide-react';
import { usePaginationLabels } from '@/hooks/use-pagination-labels';
import { Badge } from '@/components/ui/badge';
import { ActionMenu } from '@/components/ui/action-menu';
import { Button, buttonClasses } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { Pagination } from '@/components/ui/pagination';
import { Skeleton } from '@/components/ui/skeleton';
import { Spinner } from '@/components/ui/spinner';
import { describeError } from '@/lib/api/error-text';
import { clearMovies, deleteMovies, hasCurrentMovie, MOVIE_PAGE_SIZE, pageOfMovies, setCurrentMovie } from '@/lib/api/movie';
import type { Movie, MovieList as MovieListData } from '@/lib/contract/types';
import { useT } from '@/lib/i18n';
import { notifyError, notifySuccess } from '@/lib/notify';
import { currentMovieAtom, roomAbilitiesAtom } from '@/lib/room/atoms';
import { ConfirmDialog } from './confirm-dialog';
import '@/lib/i18n/messages/cinema';
import '@/lib/i18n/messages/errors';

export interface MovieListProps {
  roomId: string;
  /** Page shown, from 1. */
  page: number;
  onPageChange: (page: number) => void;
  data: MovieListData | undefined;
  error: unknown;
  isLoading: boolean;
  /** Re-reads the list (also done on every MOVIES message). */
  refresh: () => void;
}

type Pending = { kind: 'delete'; movie: Movie } | { kind: 'clear' } | { kind: 'stop' };

/** The list of the open room; what the member may do and which movie plays come from the room atoms. */
export function MovieList({ roomId, page, onPageChange, data, error, isLoading, refresh }: MovieListProps) {
  const t = useT();
  const abilities = useAtomValue(roomAbilitiesAtom);
  const loaded = useAtomValue(currentMovieAtom);
  const currentMovieId = loaded && hasCurrentMovie(loaded.current) ? loaded.current.movie.id : null;
  const paginationLabels = usePaginationLabels();
  const [pending, setPending] = useState<Pending | null>(null);
  // Kept while the dialog closes, so its text does not change under the user.
  const [lastPending, setLastPending] = useState<Pending>({ kind: 'stop' });
  const [busyId, setBusyId] = useState<string | null>(null);
  const { movies, total } = pageOfMovies(data, page, MOVIE_PAGE_SIZE);

  const ask = (next: Pending) => {
    setLastPending(next);
    setPending(next);
  };

  const play = async (movie: Movie) => {
    setBusyId(movie.id);
    try {
      await setCurrentMovie(roomId, movie.id);
      notifySuccess(t('cinema.movies.playSet', { name: movie.base.name }));
    } catch (err) {
      notifyError(err);
    } finally {
      setBusyId(null);
    }
  };

  const runPending = async () => {
    if (!pending) return;
    try {
      if (pending.kind === 'delete') {
        await deleteMovies(roomId, [pending.movie.id]);
        notifySuccess(t('cinema.movies.deleted'));
        // The last row of the last page went away: show the page before.
        if (movies.length === 1 && page > 1) onPageChange(page - 1);
      } else if (pending.kind === 'clear') {
        await clearMovies(roomId, '');
        notifySuccess(t('cinema.movies.cleared'));
        onPageChange(1);
      } else {
        await setCurrentMovie(roomId, '');
        notifySuccess(t('cinema.movies.stopped'));
      }
      refresh();
    } catch (err) {
      notifyError(err);
    }
  };

  const shown = pending ?? lastPending;
  const dialog =
    shown.kind === 'delete'
      ? { title: t('cinema.movies.deleteTitle'), description: t('cinema.movies.deleteConfirm', { name: shown.movie.base.name }), confirm: t('cinema.movies.delete') }
      : shown.kind === 'clear'
        ? { title: t('cinema.movies.clearTitle'), description: t('cinema.movies.clearConfirm'), confirm: t('cinema.movies.clear') }
        : { title: t('cinema.movies.stopTitle'), description: t('cinema.movies.stopConfirm'), confirm: t('cinema.movies.stop') };

  return (
    <Card className="min-w-0 overflow-hidden">
      <section aria-label={t('cinema.movies.title')} data-testid="movie-list">
        <div className="flex flex-wrap items-center justify-between gap-2 border-b border-zinc-200 px-4 py-2.5 dark:border-zinc-800">
          <h2 className="text-sm font-semibold">{t('cinema.movies.titleCount', { total })}</h2>
          <div className="flex flex-wrap gap-2">
            {currentMovieId && abilities.canSetCurrentMovie ? (
              <Button variant="outline" size="sm" data-testid="movie-stop" onClick={() => ask({ kind: 'stop' })}>
                <Square className="h-3.5 w-3.5" aria-hidden />
                {t('cinema.movies.stop')}
              </Button>
            ) : null}
            {abilities.canDeleteMovie && total > 0 ? (
              <Button variant="outline" size="sm" data-testid="movie-clear" onClick={() => ask({ kind: 'clear' })}>
                <Trash2 className="h-3.5 w-3.5" aria-hidden />
                {t('cinema.movies.clear')}
              </Button>
            ) : null}
            <Button variant="ghost" size="sm" data-testid="movie-refresh" onClick={refresh}>
              <RefreshCw className={clsx('h-3.5 w-3.5', isLoading && 'animate-spin')} aria-hidden />
              {t('cinema.movies.refresh')}
            </Button>
          </div>
        </div>

        {error && !data ? (
          <p role="alert" className="px-4 py-6 text-sm text-red-600 dark:text-red-400">
            {t('cinema.movies.loadFailed', { error: describeError(error).message })}
          </p>
        ) : isLoading && !data ? (
          <div className="space-y-2 p-4" aria-busy="true">
            {[0, 1, 2].map((index) => (
              <Skeleton key={index} className="h-12" />
            ))}
          </div>
        ) : movies.length === 0 ? (
          <div className="p-4">
            <EmptyState icon={<ListVideo />} title={t('cinema.movies.empty')} className="py-8" />
          </div>
        ) : (
          <ul className="divide-y divide-zinc-200 dark:divide-zinc-800">
            {movies.map((movie) => {
              const isCurrent = movie.id === currentMovieId;
              return (
                <li
                  key={movie.id}
                  data-testid="movie-item"
                  data-movie-id={movie.id}
                  className={clsx('flex items-center gap-2 px-4 py-3', isCurrent && 'bg-brand-50/60 dark:bg-brand-500/10')}
                >
                  <div className="min-w-0 flex-1">
                    <div className="flex flex-wrap items-center gap-2">
                      <span className="truncate font-medium" title={`ID: ${movie.id}`}>
                        {movie.base.name}
                      </span>
                      {movie.base.live ? <Badge tone="red">{t('cinema.movies.live')}</Badge> : null}
                      {movie.base.proxy ? <Badge tone="green">{t('cinema.movies.proxy')}</Badge> : null}
                      {isCurrent ? <Badge tone="brand">{t('cinema.movies.playing')}</Badge> : null}
                    </div>
                    <p className="truncate text-xs text-zinc-500 dark:text-zinc-400" title={movie.base.url}>
                      {movie.base.url || movie.id}
                      {movie.base.type ? ` [${movie.base.type}]` : ''}
                      {movie.creator ? ` · ${movie.creator}` : ''}
                    </p>
                  </div>
                  <ActionMenu
                    label={t('cinema.movies.actions', { name: movie.base.name })}
                    testId="movie-actions"
                    className={buttonClasses('ghost', 'icon', 'shrink-0')}
                    items={[
                      {
                        id: 'play',
                        testId: 'movie-play',
                        icon: <Play />,
                        label: t('cinema.movies.play'),
                        onSelect: () => void play(movie),
                        disabledReason: isCurrent
                          ? t('cinema.movies.playing')
                          : !abilities.canSetCurrentMovie
                            ? t('cinema.movies.playNoPermission')
                            : movie.base.isFolder
                              ? t('cinema.movies.folderNotPlayable')
                              : undefined,
                      },
                      {
                        id: 'delete',
                        testId: 'movie-delete',
                        icon: <Trash2 />,
                        tone: 'danger',
                        label: t('cinema.movies.delete'),
                        onSelect: () => ask({ kind: 'delete', movie }),
                        disabledReason: !abilities.canDelete(movie)
                          ? t('cinema.movies.deleteNoPermission')
                          : isCurrent
                            ? t('cinema.movies.deleteCurrent')
                            : undefined,
                      },
                    ]}
                  >
                    {busyId === movie.id ? <Spinner className="h-4 w-4" /> : <MoreHorizontal className="h-4 w-4" aria-hidden />}
                  </ActionMenu>
                </li>
              );
            })}
          </ul>
        )}

        <Pagination
          className="border-t border-zinc-200 px-4 py-2 dark:border-zinc-800"
          page={page}
          pageSize={MOVIE_PAGE_SIZE}
          total={total}
          onPageChange={onPageChange}
          labels={paginationLabels}
        />

        <ConfirmDialog
          open={pending !== null}
          title={dialog.title}
          description={dialog.description}
          confirmLabel={dialog.confirm}
          onConfirm={runPending}
          onOpenChange={(open) => !open && setPending(null)}
        />
      </section>
    </Card>
  );
}
