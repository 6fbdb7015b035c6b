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
import { lazy, Suspense, useState, type FormEvent } from 'react';
import { clsx } from 'clsx';
import { useAtomValue } from 'jotai';
import { ArrowUpDown, ChevronRight, Folder, Radio, FolderOpen, FolderPlus, ListVideo, MoreHorizontal, Pencil, Play, Plus, RefreshCw, Search, Square, Trash2, X } from 'lucide-react';
import { usePaginationLabels } from '@/hooks/use-pagination-labels';
import { Badge } from '@/components/ui/badge';
import { ActionMenu, type ActionMenuItem } from '@/components/ui/action-menu';
import { Button, buttonClasses } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { Pagination } from '@/components/ui/pagination';
import { Skeleton } from '@/components/ui/skeleton';
import { Spinner } from '@/components/ui/spinner';
import { describeError } from '@/lib/i18n/error-text';
import { clearMovies, deleteMovies, hasCurrentMovie, MOVIE_PAGE_SIZE, pageOfMovies, setCurrentMovie, type MovieListView } from '@/hooks/data/movies';
import type { Movie, MovieList as MovieListData } from '@/lib/contract/types';
import { useT } from '@/lib/i18n';
import { notifyError, notifySuccess } from '@/lib/notify';
import { currentMovieAtom, playbackStatusAtom, roomAbilitiesAtom, roomMemberAtom } from '@/lib/room/atoms';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import '@/lib/i18n/messages/cinema';
import '@/lib/i18n/messages/errors';

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

type Pending = { kind: 'delete'; movie: Movie } | { kind: 'deleteMany'; ids: string[] } | { kind: 'clear' } | { kind: 'stop' };

/** The list of the open room; what the member may do and which movie plays come from the room atoms. */
export function MovieList({ roomId, view, onViewChange, data, error, isLoading, refresh, onAddMovie, onCleared }: MovieListProps) {
  const t = useT();
  const abilities = useAtomValue(roomAbilitiesAtom);
  const myId = useAtomValue(roomMemberAtom)?.userId ?? '';
  const { page, folderId, keyword } = view;
  const onPageChange = (next: number) => onViewChange({ ...view, page: next });
  const openFolder = (id: string) => onViewChange({ folderId: id, page: 1, keyword: '' });
  const [search, setSearch] = useState(keyword);
  // Selection and reordering belong to one folder view.
  const viewKey = `${folderId}\n${page}\n${keyword}`;
  const [selection, setSelection] = useState<{ key: string; ids: string[] }>({ key: viewKey, ids: [] });
  const selected = selection.key === viewKey ? selection.ids : [];
  const setSelected = (ids: string[]) => setSelection({ key: viewKey, ids });
  const [reordering, setReordering] = useState(false);
  const [editing, setEditing] = useState<Movie | null>(null);
  const [creatingFolder, setCreatingFolder] = useState(false);
  const [streamInfo, setStreamInfo] = useState<{ id: string; name: string } | null>(null);
  const [usedDialogs, setUsedDialogs] = useState(false);
  const paths = data?.paths?.length ? data.paths : [{ name: '', id: '', subPath: '' }];
  const loaded = useAtomValue(currentMovieAtom);
  const currentMovieId = loaded && hasCurrentMovie(loaded.current) ? loaded.current.movie.id : null;
  // The current movie's label follows the room: playing or paused (a live one says live).
  const roomPlaying = useAtomValue(playbackStatusAtom)?.status.isPlaying;
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
      } else if (pending.kind === 'deleteMany') {
        await deleteMovies(roomId, pending.ids);
        notifySuccess(t('cinema.movies.deleted'));
        setSelected([]);
        if (movies.length === pending.ids.length && page > 1) onPageChange(page - 1);
      } else if (pending.kind === 'clear') {
        await clearMovies(roomId, folderId);
        notifySuccess(t('cinema.movies.cleared'));
        onCleared?.();
        onViewChange({ ...view, page: 1 });
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
  const dialog = confirmText(shown, t);

  const editReason = (movie: Movie, isCurrent: boolean): string | undefined => {
    if (!abilities.canEditMovie) return t('cinema.movies.editNoPermission');
    if (isCurrent) return t('cinema.movies.editCurrent');
    // The server hides a proxied movie's address from everyone but its creator: an edit would lose it.
    if (movie.base.proxy && !movie.base.isFolder && movie.creatorId !== myId) return t('cinema.movies.editHidden');
    return undefined;
  };
  const reorderReason = !abilities.canEditMovie ? t('cinema.movies.reorderNoPermission') : keyword ? t('cinema.movies.reorderSearching') : undefined;
  const selectable = (movie: Movie) => abilities.canDelete(movie) && movie.id !== currentMovieId;
  const toggleSelected = (id: string, on: boolean) => setSelected(on ? [...selected, id] : selected.filter((other) => other !== id));

  /** The list's actions, shown as buttons or in one menu (ActionMenu's items, plus a pressed state for the reorder switch). */
  const toolbar: Array<ActionMenuItem & { pressed?: boolean }> = [];
  if (abilities.canAddMovie) {
    toolbar.push({
      id: 'new-folder',
      testId: 'movie-new-folder',
      icon: <FolderPlus className="h-3.5 w-3.5" aria-hidden />,
      label: t('cinema.movies.newFolder'),
      onSelect: () => {
        setUsedDialogs(true);
        setCreatingFolder(true);
      },
    });
  }
  if (movies.length > 1 || reordering) {
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
    toolbar.push({ id: 'stop', testId: 'movie-stop', icon: <Square className="h-3.5 w-3.5" aria-hidden />, label: t('cinema.movies.stop'), onSelect: () => ask({ kind: 'stop' }) });
  }
  if (abilities.canDeleteMovie && total > 0) {
    toolbar.push({ id: 'clear', testId: 'movie-clear', icon: <Trash2 className="h-3.5 w-3.5" aria-hidden />, label: t('cinema.movies.clear'), onSelect: () => ask({ kind: 'clear' }) });
  }

  const onSearch = (event: FormEvent) => {
    event.preventDefault();
    onViewChange({ ...view, page: 1, keyword: search.trim() });
  };

  return (
    <Card className="@container min-w-0 overflow-hidden">
      <section aria-label={t('cinema.movies.title')} data-testid="movie-list" tabIndex={-1} className="outline-none">
        <div className="flex items-center justify-between gap-2 border-b border-zinc-200 px-4 py-2.5 dark:border-zinc-800">
          <h2 className="truncate text-sm font-semibold">{t('cinema.movies.titleCount', { total })}</h2>
          {/* The actions as buttons when the card is wide enough for them in one row, else in one menu. */}
          <div className="hidden shrink-0 gap-2 @2xl:flex">
            {toolbar.map((action) => (
              <Button
                key={action.id}
                variant={action.pressed ? 'primary' : 'outline'}
                size="sm"
                data-testid={action.testId}
                aria-pressed={action.pressed}
                disabled={Boolean(action.disabledReason)}
                title={action.disabledReason}
                onClick={action.onSelect}
              >
                {action.icon}
                {action.label}
              </Button>
            ))}
            <Button variant="ghost" size="sm" data-testid="movie-refresh" onClick={refresh}>
              <RefreshCw className={clsx('h-3.5 w-3.5', isLoading && 'animate-spin')} aria-hidden />
              {t('cinema.movies.refresh')}
            </Button>
          </div>
          <div className="flex shrink-0 gap-1 @2xl:hidden">
            <Button variant="ghost" size="icon" data-testid="movie-refresh-compact" aria-label={t('cinema.movies.refresh')} title={t('cinema.movies.refresh')} onClick={refresh}>
              <RefreshCw className={clsx('h-4 w-4', isLoading && 'animate-spin')} aria-hidden />
            </Button>
            {toolbar.length > 0 ? (
              <ActionMenu label={t('cinema.movies.toolbar')} testId="movie-toolbar-menu" className={buttonClasses('outline', 'icon')} items={toolbar}>
                <MoreHorizontal className="h-4 w-4" aria-hidden />
              </ActionMenu>
            ) : null}
          </div>
        </div>

        <div className="flex flex-wrap items-center gap-2 border-b border-zinc-200 px-4 py-2 dark:border-zinc-800">
          <nav aria-label={t('cinema.movies.folders')} className="min-w-0 flex-1" data-testid="movie-breadcrumb">
            <ol className="flex min-w-0 flex-wrap items-center gap-1 text-sm">
              {paths.map((crumb, index) => {
                const last = index === paths.length - 1;
                const label = crumb.id ? crumb.name : t('cinema.movies.home');
                return (
                  <li key={`${crumb.id}:${index}`} className="flex min-w-0 items-center gap-1">
                    {index > 0 ? <ChevronRight className="h-3.5 w-3.5 shrink-0 text-zinc-400" aria-hidden /> : null}
                    {last ? (
                      <span aria-current="page" className="truncate font-medium">
                        {label}
                      </span>
                    ) : (
                      <button type="button" className="cursor-pointer truncate text-brand-700 hover:underline dark:text-brand-300" onClick={() => openFolder(crumb.id)}>
                        {label}
                      </button>
                    )}
                  </li>
                );
              })}
            </ol>
          </nav>
          <form role="search" onSubmit={onSearch} className="flex min-w-0 basis-56 items-center gap-1">
            <label className="relative min-w-0 flex-1">
              <span className="sr-only">{t('cinema.movies.searchLabel')}</span>
              <Search className="pointer-events-none absolute left-2.5 top-1/2 h-3.5 w-3.5 -translate-y-1/2 text-zinc-500" aria-hidden />
              <input
                type="search"
                data-testid="movie-search"
                value={search}
                placeholder={t('cinema.movies.search')}
                onChange={(event) => setSearch(event.target.value)}
                className="h-9 w-full rounded-lg border border-zinc-300 bg-white pl-8 pr-2 text-sm dark:border-zinc-700 dark:bg-zinc-950"
              />
            </label>
            {keyword ? (
              <Button
                variant="ghost"
                size="icon"
                aria-label={t('cinema.movies.searchClear')}
                onClick={() => {
                  setSearch('');
                  onViewChange({ ...view, page: 1, keyword: '' });
                }}
              >
                <X className="h-4 w-4" aria-hidden />
              </Button>
            ) : null}
          </form>
        </div>

        {selected.length > 0 ? (
          <div className="flex flex-wrap items-center gap-2 border-b border-zinc-200 bg-zinc-50 px-4 py-2 text-sm dark:border-zinc-800 dark:bg-zinc-800/50" data-testid="movie-selection">
            <span className="flex-1">{t('cinema.movies.selected', { count: selected.length })}</span>
            <Button variant="ghost" size="sm" onClick={() => setSelected([])}>
              {t('cinema.movies.unselect')}
            </Button>
            <Button variant="danger" size="sm" data-testid="movie-delete-selected" onClick={() => ask({ kind: 'deleteMany', ids: selected })}>
              <Trash2 className="h-3.5 w-3.5" aria-hidden />
              {t('cinema.movies.deleteSelected')}
            </Button>
          </div>
        ) : null}

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
            {movies.map((movie) => {
              const isCurrent = movie.id === currentMovieId;
              const folder = Boolean(movie.base.isFolder);
              const playable = !folder && !isCurrent && abilities.canSetCurrentMovie;
              return (
                <li
                  key={movie.id}
                  data-testid="movie-item"
                  data-movie-id={movie.id}
                  // A double-click anywhere on a movie's row plays it, as in a media player's playlist.
                  onDoubleClick={playable ? () => void play(movie) : undefined}
                  className={clsx('flex items-center gap-2 px-4 py-3', isCurrent && 'bg-brand-50/60 dark:bg-brand-500/10')}
                >
                  {selectable(movie) ? (
                    // The label around the box makes a 44 px touch target without moving the row.
                    <label className="-m-3.5 flex h-11 w-11 shrink-0 cursor-pointer items-center justify-center">
                      <input
                        type="checkbox"
                        data-testid="movie-select"
                        aria-label={t('cinema.movies.select', { name: movie.base.name })}
                        checked={selected.includes(movie.id)}
                        onChange={(event) => toggleSelected(movie.id, event.target.checked)}
                        className="h-4 w-4 shrink-0 cursor-pointer accent-brand-600"
                      />
                    </label>
                  ) : (
                    <span className="w-4 shrink-0" aria-hidden />
                  )}
                  {folder ? <Folder className="h-4 w-4 shrink-0 text-amber-500" aria-hidden /> : null}
                  <div className="min-w-0 flex-1">
                    <div className="flex flex-wrap items-center gap-2">
                      {folder ? (
                        <button
                          type="button"
                          data-testid="movie-open-folder"
                          data-name
                          className="cursor-pointer truncate font-medium hover:underline"
                          title={`ID: ${movie.id}`}
                          onClick={() => openFolder(movie.id)}
                        >
                          {movie.base.name}
                        </button>
                      ) : playable ? (
                        <button
                          type="button"
                          data-testid="movie-title"
                          data-name
                          className="cursor-pointer truncate text-left font-medium hover:text-brand-700 hover:underline dark:hover:text-brand-300"
                          title={t('cinema.movies.playTitle', { name: movie.base.name })}
                          onClick={() => void play(movie)}
                        >
                          {movie.base.name}
                        </button>
                      ) : (
                        <span data-name className="truncate font-medium" title={`ID: ${movie.id}`}>
                          {movie.base.name}
                        </span>
                      )}
                      {folder ? <Badge>{t('cinema.movies.folder')}</Badge> : null}
                      {movie.base.live ? <Badge tone="red">{t('cinema.movies.live')}</Badge> : null}
                      {movie.base.proxy ? <Badge tone="green">{t('cinema.movies.proxy')}</Badge> : null}
                      {isCurrent && !movie.base.live ? (
                        <Badge tone="brand">
                          <span data-testid="current-movie-state">{roomPlaying === false ? t('cinema.movies.pausedNow') : t('cinema.movies.playing')}</span>
                        </Badge>
                      ) : null}
                    </div>
                    {folder ? null : (
                      <p className="truncate text-xs text-zinc-500 dark:text-zinc-400" title={movie.base.url}>
                        {movie.base.url || movie.id}
                        {movie.base.type ? ` [${movie.base.type}]` : ''}
                        {movie.creator ? ` · ${movie.creator}` : ''}
                      </p>
                    )}
                  </div>
                  <ActionMenu
                    label={t('cinema.movies.actions', { name: movie.base.name })}
                    testId="movie-actions"
                    className={buttonClasses('ghost', 'icon', 'shrink-0')}
                    items={[
                      folder
                        ? { id: 'open', testId: 'movie-open', icon: <FolderOpen />, label: t('cinema.movies.open'), onSelect: () => openFolder(movie.id) }
                        : {
                            id: 'play',
                            testId: 'movie-play',
                            icon: <Play />,
                            label: t('cinema.movies.play'),
                            onSelect: () => void play(movie),
                            disabledReason: isCurrent ? t('cinema.movies.playing') : !abilities.canSetCurrentMovie ? t('cinema.movies.playNoPermission') : undefined,
                          },
                      ...(movie.base.rtmpSource && !folder
                        ? [
                            {
                              id: 'stream-info',
                              testId: 'movie-stream-info',
                              icon: <Radio />,
                              label: t('cinema.movies.streamInfo'),
                              onSelect: () => {
                                setUsedDialogs(true);
                                setStreamInfo({ id: movie.id, name: movie.base.name });
                              },
                              disabledReason: movie.creatorId !== myId ? t('cinema.movies.streamInfoNotYours') : undefined,
                            },
                          ]
                        : []),
                      {
                        id: 'edit',
                        testId: 'movie-edit',
                        icon: <Pencil />,
                        label: t('cinema.movies.edit'),
                        onSelect: () => {
                          setUsedDialogs(true);
                          setEditing(movie);
                        },
                        disabledReason: editReason(movie, isCurrent),
                      },
                      {
                        id: 'delete',
                        testId: 'movie-delete',
                        icon: <Trash2 />,
                        tone: 'danger',
                        label: t('cinema.movies.delete'),
                        onSelect: () => ask({ kind: 'delete', movie }),
                        disabledReason: !abilities.canDelete(movie) ? t('cinema.movies.deleteNoPermission') : isCurrent ? t('cinema.movies.deleteCurrent') : undefined,
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
        {usedDialogs ? (
          <Suspense fallback={null}>
            <MovieEditDialog roomId={roomId} movie={editing} onClose={() => setEditing(null)} />
            <NewFolderDialog roomId={roomId} open={creatingFolder} parentId={folderId} onClose={() => setCreatingFolder(false)} />
            <StreamInfoDialog roomId={roomId} movie={streamInfo} onClose={() => setStreamInfo(null)} />
          </Suspense>
        ) : null}
      </section>
    </Card>
  );
}

/** The confirmation dialog's texts for an action. */
function confirmText(pending: Pending, t: ReturnType<typeof useT>): { title: string; description: string; confirm: string } {
  switch (pending.kind) {
    case 'delete':
      return { title: t('cinema.movies.deleteTitle'), description: t('cinema.movies.deleteConfirm', { name: pending.movie.base.name }), confirm: t('cinema.movies.delete') };
    case 'deleteMany':
      return {
        title: t('cinema.movies.deleteSelectedTitle'),
        description: t('cinema.movies.deleteSelectedConfirm', { count: pending.ids.length }),
        confirm: t('cinema.movies.delete'),
      };
    case 'clear':
      return { title: t('cinema.movies.clearTitle'), description: t('cinema.movies.clearConfirm'), confirm: t('cinema.movies.clear') };
    default:
      return { title: t('cinema.movies.stopTitle'), description: t('cinema.movies.stopConfirm'), confirm: t('cinema.movies.stop') };
  }
}
