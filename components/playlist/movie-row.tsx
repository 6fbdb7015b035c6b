'use client';
/**
 * One row of the playlist (docs/contract.md §4.5): a selection box, the name (a folder opens, a
 * movie plays when the member may set the current movie; a double-click on the row plays it too),
 * its tags and address, and its menu: open or play, stream info (a broadcast's creator), edit,
 * delete, each disabled with the reason when the member may not.
 */
import { clsx } from 'clsx';
import { useAtomValue } from 'jotai';
import { Folder, FolderOpen, MoreHorizontal, Pencil, Play, Radio, Trash2 } from 'lucide-react';
import { ActionMenu, type ActionMenuItem } from '@/components/ui/action-menu';
import { Badge } from '@/components/ui/badge';
import { buttonClasses } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import type { Movie } from '@/lib/contract/types';
import { useT } from '@/lib/i18n';
import type { RoomAbilities } from '@/lib/room/abilities';
import { playbackStatusAtom, roomAbilitiesAtom, roomMemberAtom } from '@/lib/room/atoms';
import '@/lib/i18n/messages/cinema';

/** What a row asks the list to do with its movie. */
export interface MovieRowActions {
  play(movie: Movie): void;
  /** Opens a folder (in a dynamic folder, at the row's `subPath`). */
  openFolder(movie: Movie): void;
  edit(movie: Movie): void;
  streamInfo(movie: Movie): void;
  delete(movie: Movie): void;
  /** Ticks (`on`) or unticks the movie's box. */
  select(id: string, on: boolean): void;
}

export interface MovieRowProps {
  movie: Movie;
  /** The room's current movie. */
  isCurrent: boolean;
  /** Whether the movie's box is shown (the member may delete it and it is not playing), and whether it is ticked. */
  selectable: boolean;
  selected: boolean;
  /** A request about this movie is under way (its menu shows a spinner). */
  busy: boolean;
  actions: MovieRowActions;
  /** The row is an entry of a dynamic folder (docs/vendors.md): it opens or plays, nothing else. */
  inDynamicFolder?: boolean;
}

/** A vendor movie's badge (docs/vendors.md). */
const VENDOR_NAMES: Record<string, string> = { alist: 'AList', emby: 'Emby/Jellyfin', bilibili: 'bilibili' };

export function MovieRow({ movie, isCurrent, selectable, selected, busy, actions, inDynamicFolder = false }: MovieRowProps) {
  const t = useT();
  const abilities = useAtomValue(roomAbilitiesAtom);
  const myId = useAtomValue(roomMemberAtom)?.userId ?? '';
  // The current movie's label follows the room: playing or paused (a live one says live).
  const roomPlaying = useAtomValue(playbackStatusAtom)?.status.isPlaying;
  const folder = Boolean(movie.base.isFolder);
  const playable = !folder && !isCurrent && abilities.canSetCurrentMovie;
  const { name } = movie.base;
  return (
    <li
      data-testid="movie-item"
      data-movie-id={movie.id}
      // A double-click anywhere on a movie's row plays it, as in a media player's playlist.
      onDoubleClick={playable ? () => actions.play(movie) : undefined}
      className={clsx('flex items-center gap-2 px-4 py-3', isCurrent && 'bg-brand-50/60 dark:bg-brand-500/10')}
    >
      {selectable ? (
        // The label around the box makes a 44 px touch target without moving the row.
        <label className="-m-3.5 flex h-11 w-11 shrink-0 cursor-pointer items-center justify-center">
          <input
            type="checkbox"
            data-testid="movie-select"
            aria-label={t('cinema.movies.select', { name })}
            checked={selected}
            onChange={(event) => actions.select(movie.id, event.target.checked)}
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
            <button type="button" data-testid="movie-open-folder" data-name className="cursor-pointer truncate font-medium hover:underline" title={`ID: ${movie.id}`} onClick={() => actions.openFolder(movie)}>
              {name}
            </button>
          ) : playable ? (
            <button
              type="button"
              data-testid="movie-title"
              data-name
              className="cursor-pointer truncate text-left font-medium hover:text-brand-700 hover:underline dark:hover:text-brand-300"
              title={t('cinema.movies.playTitle', { name })}
              onClick={() => actions.play(movie)}
            >
              {name}
            </button>
          ) : (
            <span data-name className="truncate font-medium" title={`ID: ${movie.id}`}>
              {name}
            </span>
          )}
          {folder ? <Badge>{t('cinema.movies.folder')}</Badge> : null}
          {movie.base.live ? <Badge tone="red">{t('cinema.movies.live')}</Badge> : null}
          {movie.base.proxy ? <Badge tone="green">{t('cinema.movies.proxy')}</Badge> : null}
          {movie.base.vendorInfo?.vendor && !inDynamicFolder ? <Badge>{VENDOR_NAMES[movie.base.vendorInfo.vendor]}</Badge> : null}
          {isCurrent && !movie.base.live ? (
            <Badge tone="brand">
              <span data-testid="current-movie-state">{roomPlaying === false ? t('cinema.movies.pausedNow') : t('cinema.movies.playing')}</span>
            </Badge>
          ) : null}
        </div>
        {folder ? null : (
          <p className="truncate text-xs text-zinc-500 dark:text-zinc-400" title={movie.base.url}>
            {movie.base.url || vendorLine(movie) || movie.id}
            {movie.base.type ? ` [${movie.base.type}]` : ''}
            {movie.creator ? ` · ${movie.creator}` : ''}
          </p>
        )}
      </div>
      <ActionMenu label={t('cinema.movies.actions', { name })} testId="movie-actions" className={buttonClasses('ghost', 'icon', 'shrink-0')} items={rowMenu({ movie, isCurrent, myId, abilities, actions, inDynamicFolder }, t)}>
        {busy ? <Spinner className="h-4 w-4" /> : <MoreHorizontal className="h-4 w-4" aria-hidden />}
      </ActionMenu>
    </li>
  );
}

/** The row menu's items, each disabled with the reason where the member may not (`abilities`, the room atoms'). */
function rowMenu(
  { movie, isCurrent, myId, abilities, actions, inDynamicFolder }: { movie: Movie; isCurrent: boolean; myId: string; abilities: RoomAbilities; actions: MovieRowActions; inDynamicFolder: boolean },
  t: ReturnType<typeof useT>,
): ActionMenuItem[] {
  const folder = Boolean(movie.base.isFolder);
  const editReason = (): string | undefined => {
    if (!abilities.canEditMovie) return t('cinema.movies.editNoPermission');
    if (isCurrent) return t('cinema.movies.editCurrent');
    // The server hides a proxied movie's address from everyone but its creator: an edit would lose it.
    if (movie.base.proxy && !folder && movie.creatorId !== myId) return t('cinema.movies.editHidden');
    return undefined;
  };
  const items: ActionMenuItem[] = [
    folder
      ? { id: 'open', testId: 'movie-open', icon: <FolderOpen />, label: t('cinema.movies.open'), onSelect: () => actions.openFolder(movie) }
      : {
          id: 'play',
          testId: 'movie-play',
          icon: <Play />,
          label: t('cinema.movies.play'),
          onSelect: () => actions.play(movie),
          disabledReason: isCurrent ? t('cinema.movies.playing') : !abilities.canSetCurrentMovie ? t('cinema.movies.playNoPermission') : undefined,
        },
  ];
  if (inDynamicFolder) return items;
  if (movie.base.rtmpSource && !folder) {
    items.push({
      id: 'stream-info',
      testId: 'movie-stream-info',
      icon: <Radio />,
      label: t('cinema.movies.streamInfo'),
      onSelect: () => actions.streamInfo(movie),
      disabledReason: movie.creatorId !== myId ? t('cinema.movies.streamInfoNotYours') : undefined,
    });
  }
  items.push(
    { id: 'edit', testId: 'movie-edit', icon: <Pencil />, label: t('cinema.movies.edit'), onSelect: () => actions.edit(movie), disabledReason: editReason() },
    {
      id: 'delete',
      testId: 'movie-delete',
      icon: <Trash2 />,
      tone: 'danger',
      label: t('cinema.movies.delete'),
      onSelect: () => actions.delete(movie),
      disabledReason: !abilities.canDelete(movie) ? t('cinema.movies.deleteNoPermission') : isCurrent ? t('cinema.movies.deleteCurrent') : undefined,
    },
  );
  return items;
}

/** Where a vendor movie comes from, for its row's second line: its AList path, the media server's kind, or bilibili's id ("" for others). */
function vendorLine(movie: Movie): string {
  const info = movie.base.vendorInfo;
  if (info?.vendor === 'alist') return info.alist?.path.replace(/^[^/]*\//, 'AList: /') ?? '';
  if (info?.vendor === 'emby') return VENDOR_NAMES.emby;
  if (info?.vendor === 'bilibili') {
    const bilibili = info.bilibili;
    return `bilibili: ${movie.base.live ? `https://live.bilibili.com/${bilibili?.cid ?? ''}` : bilibili?.epid ? `ep${bilibili.epid}` : (bilibili?.bvid ?? '')}`;
  }
  return '';
}
