'use client';
/**
 * Adding what a picker selected (the AList, Emby/Jellyfin and bilibili pickers, docs/vendors.md):
 * one `POST /api/room/movie/pushs` for all of it, "nothing selected" said in words, and the
 * failure kept for the picker to show; on success the picker clears its selection and the hall's
 * `onPushed` (or a toast) follows.
 */
import { useState } from 'react';
import { pushMovies } from '@/hooks/data/movies';
import type { MovieBase } from '@/lib/contract/types';
import { useT } from '@/lib/i18n';
import { notifySuccess } from '@/lib/notify';
import type { MoviePushFormProps } from './movie-push';
import '@/lib/i18n/messages/vendors';

export function usePushSelected(roomId: string, onPushed: MoviePushFormProps['onPushed']) {
  const t = useT();
  const [adding, setAdding] = useState(false);
  const [failure, setFailure] = useState<unknown>(null);
  /** Pushes `bases` (none: says so), then calls `cleared` before the hall hears of them. */
  const push = async (bases: MovieBase[], cleared: () => void) => {
    if (bases.length === 0) {
      setFailure(new Error(t('alistPicker.nothing')));
      return;
    }
    setAdding(true);
    setFailure(null);
    try {
      const pushed = await pushMovies(roomId, bases);
      cleared();
      if (onPushed) await onPushed(pushed);
      else notifySuccess(t('alistPicker.added', { count: pushed.length }));
    } catch (error) {
      setFailure(error);
    } finally {
      setAdding(false);
    }
  };
  return { adding, failure, setFailure, push };
}
