'use client';
/**
 * What the playlist does with the server (docs/contract.md §4.5): play a movie (`POST
 * /api/room/movie/current`), and the actions that are confirmed first: delete one or several, clear
 * the open folder, stop playback. Each success is told in a toast, each failure in words.
 */
import { useState } from 'react';
import { clearMovies, deleteMovies, setCurrentMovie } from '@/hooks/data/movies';
import type { Movie } from '@/lib/contract/types';
import { useT } from '@/lib/i18n';
import { notifyError, notifySuccess } from '@/lib/notify';
import '@/lib/i18n/messages/cinema';

/** An action waiting for its confirmation. */
export type PendingAction = { kind: 'delete'; movie: Movie } | { kind: 'deleteMany'; ids: string[] } | { kind: 'clear' } | { kind: 'stop' };

/** Where the list is, for what follows an action: the open folder, the page shown and how many rows it has. */
export interface ListPlace {
  folderId: string;
  page: number;
  rows: number;
}

/** What the list does once an action succeeded (`pageBack`: the page emptied, show the one before; `cleared`: the folder was emptied). */
export interface ActionOutcomes {
  pageBack(): void;
  cleared(): void;
  deletedSelection(): void;
  refresh(): void;
}

/** The confirmation dialog's texts for an action. */
function confirmText(pending: PendingAction, t: ReturnType<typeof useT>): { title: string; description: string; confirm: string } {
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

/**
 * The playlist's server actions in room `roomId`: `play` (with `busyId` the movie it is under way
 * for), `ask` for a confirmed action, and the confirmation's state: `open`, its texts, `confirm` and
 * `dismiss`.
 */
export function useMovieActions(roomId: string, place: ListPlace, outcomes: ActionOutcomes) {
  const t = useT();
  const [busyId, setBusyId] = useState<string | null>(null);
  const [pending, setPending] = useState<PendingAction | null>(null);
  // Kept while the dialog closes, so its text does not change under the user.
  const [lastPending, setLastPending] = useState<PendingAction>({ kind: 'stop' });

  const play = async (movie: Movie) => {
    setBusyId(movie.id);
    try {
      // A child of a dynamic folder is the folder's id with its path under it (docs/vendors.md).
      await setCurrentMovie(roomId, movie.id, movie.subPath);
      notifySuccess(t('cinema.movies.playSet', { name: movie.base.name }));
    } catch (err) {
      notifyError(err);
    } finally {
      setBusyId(null);
    }
  };

  const ask = (next: PendingAction) => {
    setLastPending(next);
    setPending(next);
  };

  /** Runs the confirmed action. */
  const run = async (action: PendingAction) => {
    if (action.kind === 'delete' || action.kind === 'deleteMany') {
      const ids = action.kind === 'delete' ? [action.movie.id] : action.ids;
      await deleteMovies(roomId, ids);
      notifySuccess(t('cinema.movies.deleted'));
      if (action.kind === 'deleteMany') outcomes.deletedSelection();
      // The last rows of the last page went away: show the page before.
      if (place.rows === ids.length && place.page > 1) outcomes.pageBack();
    } else if (action.kind === 'clear') {
      await clearMovies(roomId, place.folderId);
      notifySuccess(t('cinema.movies.cleared'));
      outcomes.cleared();
    } else {
      await setCurrentMovie(roomId, '');
      notifySuccess(t('cinema.movies.stopped'));
    }
    outcomes.refresh();
  };

  const confirm = async () => {
    if (!pending) return;
    try {
      await run(pending);
    } catch (err) {
      notifyError(err);
    }
  };

  return { busyId, play, ask, open: pending !== null, texts: confirmText(pending ?? lastPending, t), confirm, dismiss: () => setPending(null) };
}
