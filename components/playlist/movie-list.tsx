'use client';
/**
 * The playlist (docs/contract.md §4.5): the folder path as a breadcrumb, a search in the open
 * folder, folders and movies with name, URL and tags; a movie's name (or a double-click on its row)
 * plays it, and a row menu (Radix dropdown) has open or "play this", edit and delete (confirmed
 * first), each disabled with the reason when the member may not; a checkbox per row for deleting
 * several at once; new folder, reorder (drag and drop, also by keyboard), stop playback and clear the
 * folder, which fold into one menu when the card is narrow; pagination that works with both the
 * companion server's paging and v0.9.11's unpaged list. Dialogs and reordering load when first used.
 */
import { lazy, Suspense, useState } from 'react';
import { useAtomValue } from 'jotai';
import { ArrowUpDown, FolderPlus, ListVideo, Plus, Square, Trash2 } from 'lucide-react';
import { usePaginationLabels } from '@/hooks/use-pagination-labels';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { EmptyState } from '@/components/ui/empty-state';
import { Pagination } from '@/components/ui/pagination';
import { Skeleton } from '@/components/ui/skeleton';
import { useErrorDescription } from '@/hooks/use-error-description';
import { hasCurrentMovie, MOVIE_PAGE_SIZE, pageOfMovies, type MovieListView } from '@/hooks/data/movies';
import type { Movie, MovieList as MovieListData } from '@/lib/contract/types';
import { useT } from '@/lib/i18n';
import { currentMovieAtom, roomAbilitiesAtom } from '@/lib/room/atoms';
import { MovieFolderBar, MovieListTitleBar, MovieSelectionBar, type ToolbarAction } from './movie-list-bar';
import { MovieRow, type MovieRowActions } from './movie-row';
import { useMovieActions } from './use-movie-actions';
import '@/lib/i18n/messages/cinema';

const MovieEditDialog = lazy(() => import('./movie-dialogs').then((m) => ({ default: m.MovieEditDialog })));
const NewFolderDialog = lazy(() => import('./movie-dialogs').then((m) => ({ default: m.NewFolderDialog })));
const StreamInfoDialog = lazy(() => import('./stream-info-dialog'));
const MovieReorder = lazy(() => import('./movie-reorder').then((m) => ({ default: m.MovieReorder })));

export interface MovieListProps {
  roomId: string;
  /** The folder, page (from 1) and search shown. */
  view: MovieListView;
  onViewChange: (view: MovieListView) => void;
  data: MovieListData | undefined;
  error: unknown;
  isLoading: boolean;
  /** Re-reads the list (also done on every MOVIES message). */
  refresh: () => void;
  /** Opens "Add a movie" (the empty list's button). */
  onAddMovie?: () => void;
  /** The folder was cleared by this viewer (the hall says so in the chat). */
  onCleared?: () => void;
}

/** The dialog open over the list: a movie's edit, a new folder, or a broadcast's stream info. */
type Dialog = { kind: 'edit'; movie: Movie } | { kind: 'folder' } | { kind: 'stream'; movie: Movie };

/** The list of the open room; what the member may do and which movie plays come from the room atoms. */
export function MovieList({ roomId, view, onViewChange, data, error, isLoading, refresh, onAddMovie, onCleared }: MovieListProps) {
  const t = useT();
  // The error catalogue comes down with the first error (hooks/use-error-description.ts).
  const errorText = useErrorDescription(error)?.message;
  const abilities = useAtomValue(roomAbilitiesAtom);
  const { page, folderId, keyword, subPath = '' } = view;
  // A dynamic folder (an AList folder, docs/vendors.md) is listed live from its source: its entries
  // can be opened and played, not edited, deleted, reordered or added to.
  const dynamic = Boolean(data?.dynamic);
  const onPageChange = (next: number) => onViewChange({ ...view, page: next });
  // Selection and reordering belong to one folder view.
  const viewKey = `${folderId}\n${subPath}\n${page}\n${keyword}`;
  const [selection, setSelection] = useState<{ key: string; ids: string[] }>({ key: viewKey, ids: [] });
  const selected = selection.key === viewKey ? selection.ids : [];
  const setSelected = (ids: string[]) => setSelection({ key: viewKey, ids });
  const [reordering, setReordering] = useState(false);
  // The dialogs' code loads when one is first opened, and stays mounted so they can animate closed.
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const [usedDialogs, setUsedDialogs] = useState(false);
  const openDialog = (next: Dialog) => {
    setUsedDialogs(true);
    setDialog(next);
  };
  const loaded = useAtomValue(currentMovieAtom);
  const currentMovieId = loaded && hasCurrentMovie(loaded.current) ? loaded.current.movie.id : null;
  const currentSubPath = loaded?.current.movie.subPath ?? '';
  const isCurrent = (movie: Movie) => movie.id === currentMovieId && (!dynamic || movie.subPath === currentSubPath);
  const paginationLabels = usePaginationLabels();
  const { movies, total } = pageOfMovies(data, page, MOVIE_PAGE_SIZE);
  const actions = useMovieActions(
    roomId,
    { folderId, page, rows: movies.length },
    {
      pageBack: () => onPageChange(page - 1),
      cleared: () => {
        onCleared?.();
        onViewChange({ ...view, page: 1 });
      },
      deletedSelection: () => setSelected([]),
      refresh,
    },
  );
  const rowActions: MovieRowActions = {
    play: (movie) => void actions.play(movie),
    openFolder: (movie) => onViewChange({ folderId: movie.id, subPath: movie.subPath || '', page: 1, keyword: '' }),
    edit: (movie) => openDialog({ kind: 'edit', movie }),
    streamInfo: (movie) => openDialog({ kind: 'stream', movie }),
    delete: (movie) => actions.ask({ kind: 'delete', movie }),
    select: (id, on) => setSelected(on ? [...selected, id] : selected.filter((other) => other !== id)),
  };

  /** The list's actions, shown as buttons or in one menu. */
  const toolbar: ToolbarAction[] = [];
  if (abilities.canAddMovie && !dynamic) {
    toolbar.push({ id: 'new-folder', testId: 'movie-new-folder', icon: <FolderPlus className="h-3.5 w-3.5" aria-hidden />, label: t('cinema.movies.newFolder'), onSelect: () => openDialog({ kind: 'folder' }) });
  }
  if ((movies.length > 1 || reordering) && !dynamic) {
    const reorderReason = !abilities.canEditMovie ? t('cinema.movies.reorderNoPermission') : keyword ? t('cinema.movies.reorderSearching') : undefined;
    toolbar.push({
      id: 'reorder',
      testId: 'movie-reorder-toggle',
      icon: <ArrowUpDown className="h-3.5 w-3.5" aria-hidden />,
      label: reordering ? t('cinema.movies.reorderDone') : t('cinema.movies.reorder'),
      pressed: reordering,
      disabledReason: reordering ? undefined : reorderReason,
      onSelect: () => setReordering(!reordering),
    });
  }
  if (currentMovieId && abilities.canSetCurrentMovie) {
    toolbar.push({ id: 'stop', testId: 'movie-stop', icon: <Square className="h-3.5 w-3.5" aria-hidden />, label: t('cinema.movies.stop'), onSelect: () => actions.ask({ kind: 'stop' }) });
  }
  if (abilities.canDeleteMovie && total > 0 && !dynamic) {
    toolbar.push({ id: 'clear', testId: 'movie-clear', icon: <Trash2 className="h-3.5 w-3.5" aria-hidden />, label: t('cinema.movies.clear'), onSelect: () => actions.ask({ kind: 'clear' }) });
  }

  return (
    <Card className="@container min-w-0 overflow-hidden">
      <section aria-label={t('cinema.movies.title')} data-testid="movie-list" tabIndex={-1} className="outline-none">
        <MovieListTitleBar total={total} actions={toolbar} refresh={refresh} loading={isLoading} />
        <MovieFolderBar paths={data?.paths} view={view} onViewChange={onViewChange} />
        <MovieSelectionBar count={selected.length} onClear={() => setSelected([])} onDelete={() => actions.ask({ kind: 'deleteMany', ids: selected })} />
        {error && !data ? (
          <p role="alert" className="px-4 py-6 text-sm text-red-600 dark:text-red-400">
            {t('cinema.movies.loadFailed', { error: errorText ?? '…' })}
          </p>
        ) : isLoading && !data ? (
          <div className="space-y-2 p-4" aria-busy="true">
            {[0, 1, 2].map((index) => (
              <Skeleton key={index} className="h-12" />
            ))}
          </div>
        ) : movies.length === 0 ? (
          <div className="p-4">
            <EmptyState
              icon={<ListVideo />}
              title={keyword ? t('cinema.movies.searchEmpty', { keyword }) : folderId ? t('cinema.movies.emptyFolder') : t('cinema.movies.empty')}
              className="py-8"
              action={
                !keyword && abilities.canAddMovie && onAddMovie ? (
                  <Button data-testid="movie-list-add" onClick={onAddMovie}>
                    <Plus className="h-4 w-4" aria-hidden />
                    {t('cinema.push.title')}
                  </Button>
                ) : null
              }
            />
          </div>
        ) : reordering ? (
          <div>
            <p className="px-4 pt-3 text-xs text-zinc-600 dark:text-zinc-400">{t('cinema.movies.reorderHint')}</p>
            <Suspense fallback={<Skeleton className="m-4 h-24" />}>
              <MovieReorder roomId={roomId} movies={movies} />
            </Suspense>
          </div>
        ) : (
          <ul className="divide-y divide-zinc-200 dark:divide-zinc-800">
            {movies.map((movie) => (
              <MovieRow
                key={`${movie.id}:${movie.subPath}`}
                movie={movie}
                isCurrent={isCurrent(movie)}
                inDynamicFolder={dynamic}
                selectable={!dynamic && abilities.canDelete(movie) && movie.id !== currentMovieId}
                selected={selected.includes(movie.id)}
                busy={actions.busyId === movie.id}
                actions={rowActions}
              />
            ))}
          </ul>
        )}
        <Pagination className="border-t border-zinc-200 px-4 py-2 dark:border-zinc-800" page={page} pageSize={MOVIE_PAGE_SIZE} total={total} onPageChange={onPageChange} labels={paginationLabels} />
        <ConfirmDialog
          open={actions.open}
          title={actions.texts.title}
          description={actions.texts.description}
          confirmLabel={actions.texts.confirm}
          onConfirm={actions.confirm}
          onOpenChange={(open) => !open && actions.dismiss()}
        />
        {usedDialogs ? (
          <Suspense fallback={null}>
            <MovieEditDialog roomId={roomId} movie={dialog?.kind === 'edit' ? dialog.movie : null} onClose={() => setDialog(null)} />
            <NewFolderDialog roomId={roomId} open={dialog?.kind === 'folder'} parentId={folderId} onClose={() => setDialog(null)} />
            <StreamInfoDialog roomId={roomId} movie={dialog?.kind === 'stream' ? { id: dialog.movie.id, name: dialog.movie.base.name } : null} onClose={() => setDialog(null)} />
          </Suspense>
        ) : null}
      </section>
    </Card>
  );
}
