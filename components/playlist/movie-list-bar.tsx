'use client';
/**
 * The playlist's bars (docs/contract.md §4.5): the title with the list's actions (new folder,
 * reorder, stop playback, clear the folder: buttons when the card is wide, one menu when narrow,
 * each disabled with the reason when the member may not), the folder path as a breadcrumb with a
 * search in the open folder, and the bar of the selected rows.
 */
import { useState, type FormEvent } from 'react';
import { clsx } from 'clsx';
import { ChevronRight, MoreHorizontal, RefreshCw, Trash2, X } from 'lucide-react';
import { ActionMenu, type ActionMenuItem } from '@/components/ui/action-menu';
import { Button, buttonClasses } from '@/components/ui/button';
import { SearchInput } from '@/components/ui/search-input';
import type { MovieListView } from '@/hooks/data/movies';
import type { MovieList as MovieListData } from '@/lib/contract/types';
import { useT } from '@/lib/i18n';
import '@/lib/i18n/messages/cinema';

/** One of the list's actions: ActionMenu's item, plus a pressed state for the reorder switch. */
export type ToolbarAction = ActionMenuItem & { pressed?: boolean };

/** The title (`total` movies) and the list's `actions`; `refresh` re-reads the list (`loading` spins its icon). */
export function MovieListTitleBar({ total, actions, refresh, loading }: { total: number; actions: ToolbarAction[]; refresh: () => void; loading: boolean }) {
  const t = useT();
  return (
    <div className="flex items-center justify-between gap-2 border-b border-zinc-200 px-4 py-2.5 dark:border-zinc-800">
      <h2 className="truncate text-sm font-semibold">{t('cinema.movies.titleCount', { total })}</h2>
      {/* The actions as buttons when the card is wide enough for them in one row, else in one menu. */}
      <div className="hidden shrink-0 gap-2 @2xl:flex">
        {actions.map((action) => (
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
          <RefreshCw className={clsx('h-3.5 w-3.5', loading && 'animate-spin')} aria-hidden />
          {t('cinema.movies.refresh')}
        </Button>
      </div>
      <div className="flex shrink-0 gap-1 @2xl:hidden">
        <Button variant="ghost" size="icon" data-testid="movie-refresh-compact" aria-label={t('cinema.movies.refresh')} title={t('cinema.movies.refresh')} onClick={refresh}>
          <RefreshCw className={clsx('h-4 w-4', loading && 'animate-spin')} aria-hidden />
        </Button>
        {actions.length > 0 ? (
          <ActionMenu label={t('cinema.movies.toolbar')} testId="movie-toolbar-menu" className={buttonClasses('outline', 'icon')} items={actions}>
            <MoreHorizontal className="h-4 w-4" aria-hidden />
          </ActionMenu>
        ) : null}
      </div>
    </div>
  );
}

/** The open folder's path (`paths`, the list's breadcrumb) and the search in it; both change the `view`. */
export function MovieFolderBar({ paths, view, onViewChange }: { paths: MovieListData['paths'] | undefined; view: MovieListView; onViewChange: (view: MovieListView) => void }) {
  const t = useT();
  const [search, setSearch] = useState(view.keyword);
  const crumbs = paths?.length ? paths : [{ name: '', id: '', subPath: '' }];
  const onSearch = (event: FormEvent) => {
    event.preventDefault();
    onViewChange({ ...view, page: 1, keyword: search.trim() });
  };
  return (
    <div className="flex flex-wrap items-center gap-2 border-b border-zinc-200 px-4 py-2 dark:border-zinc-800">
      <nav aria-label={t('cinema.movies.folders')} className="min-w-0 flex-1" data-testid="movie-breadcrumb">
        <ol className="flex min-w-0 flex-wrap items-center gap-1 text-sm">
          {crumbs.map((crumb, index) => {
            const label = crumb.id || crumb.subPath ? crumb.name : t('cinema.movies.home');
            return (
              <li key={`${crumb.id}:${crumb.subPath}:${index}`} className="flex min-w-0 items-center gap-1">
                {index > 0 ? <ChevronRight className="h-3.5 w-3.5 shrink-0 text-zinc-400" aria-hidden /> : null}
                {index === crumbs.length - 1 ? (
                  <span aria-current="page" className="truncate font-medium">
                    {label}
                  </span>
                ) : (
                  <button type="button" className="cursor-pointer truncate text-brand-700 hover:underline dark:text-brand-300" onClick={() => onViewChange({ folderId: crumb.id, subPath: crumb.subPath, page: 1, keyword: '' })}>
                    {label}
                  </button>
                )}
              </li>
            );
          })}
        </ol>
      </nav>
      <form role="search" onSubmit={onSearch} className="flex min-w-0 basis-56 items-center gap-1">
        <SearchInput label={t('cinema.movies.searchLabel')} data-testid="movie-search" value={search} placeholder={t('cinema.movies.search')} onChange={(event) => setSearch(event.target.value)} />
        {view.keyword ? (
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
  );
}

/** The bar of the ticked rows (`count`): untick them all, or delete them (after a confirmation). */
export function MovieSelectionBar({ count, onClear, onDelete }: { count: number; onClear: () => void; onDelete: () => void }) {
  const t = useT();
  if (count === 0) return null;
  return (
    <div className="flex flex-wrap items-center gap-2 border-b border-zinc-200 bg-zinc-50 px-4 py-2 text-sm dark:border-zinc-800 dark:bg-zinc-800/50" data-testid="movie-selection">
      <span className="flex-1">{t('cinema.movies.selected', { count })}</span>
      <Button variant="ghost" size="sm" onClick={onClear}>
        {t('cinema.movies.unselect')}
      </Button>
      <Button variant="danger" size="sm" data-testid="movie-delete-selected" onClick={onDelete}>
        <Trash2 className="h-3.5 w-3.5" aria-hidden />
        {t('cinema.movies.deleteSelected')}
      </Button>
    </div>
  );
}
