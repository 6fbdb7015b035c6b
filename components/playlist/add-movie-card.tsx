'use client';
/**
 * "Add a movie" on the viewing hall: a card whose title opens the push form. The form
 * (./movie-push-form.tsx, with react-hook-form) is downloaded the first time the card is opened,
 * not with the hall; once open it stays mounted, so closing and reopening keeps what was typed.
 */
import { useEffect, useId, useRef, useState, type ComponentType } from 'react';
import { clsx } from 'clsx';
import { ChevronDown, Plus } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { useT } from '@/lib/i18n';
import type { MoviePushFormProps } from './movie-push';
import '@/lib/i18n/messages/cinema';

export interface AddMovieCardProps {
  roomId: string;
  /** The folder the movie list shows ("" = root); movies are added there. */
  parentId?: string;
  /**
   * Set by another part of the hall that offers "Add a movie" (the empty player, the empty list):
   * the card opens, comes into view, focuses its address field and calls onOpenRequestHandled.
   * A request made before the card was on the page (its code still coming down) is honoured when
   * it mounts.
   */
  openRequested?: boolean;
  /** Called once an openRequested has been acted on; the owner clears the request. */
  onOpenRequestHandled?: () => void;
  /** See MoviePushFormProps: what happens once movies were added. */
  onPushed?: MoviePushFormProps['onPushed'];
}

/**
 * The "Add a movie" card (shown only to members who may add movies). Its title is a disclosure
 * button (`movie-push-open`, aria-expanded); opening it loads the form and focuses the URL field.
 * If the form cannot be downloaded, the card says why and offers a retry.
 */
export function AddMovieCard({ roomId, parentId = '', openRequested = false, onOpenRequestHandled, onPushed }: AddMovieCardProps) {
  const t = useT();
  const bodyId = useId();
  const bodyRef = useRef<HTMLDivElement>(null);
  const [open, setOpen] = useState(false);
  const [Fields, setFields] = useState<ComponentType<MoviePushFormProps> | null>(null);
  const [loadError, setLoadError] = useState<unknown>(null);
  const loading = useRef(false);
  // Set when the card is opened: the URL field takes the focus as soon as it is there; opened from
  // elsewhere in the hall ('request'), the card also comes into view.
  const [wantsFocus, setWantsFocus] = useState<false | 'open' | 'request'>(false);

  const loadFields = () => {
    if (loading.current) return;
    loading.current = true;
    setLoadError(null);
    import('./movie-push-form')
      .then((module) => setFields(() => module.MoviePushForm))
      .catch((error: unknown) => setLoadError(error ?? new Error('import failed')))
      .finally(() => {
        loading.current = false;
      });
  };

  const toggle = () => {
    const next = !open;
    setOpen(next);
    setWantsFocus(next ? 'open' : false);
    if (next && !Fields) loadFields();
  };

  useEffect(() => {
    if (!open || !Fields || !wantsFocus) return;
    const field = bodyRef.current?.querySelector<HTMLInputElement>('input');
    field?.focus({ preventScroll: wantsFocus === 'request' });
    if (wantsFocus === 'request') bodyRef.current?.closest('section')?.scrollIntoView({ behavior: 'smooth', block: 'center' });
    setWantsFocus(false);
  }, [open, Fields, wantsFocus]);

  // Asked to open from elsewhere in the hall.
  // Acted on once per request: the latest form state and callback are read through a ref.
  const latest = useRef({ Fields, loadFields, onOpenRequestHandled });
  useEffect(() => {
    latest.current = { Fields, loadFields, onOpenRequestHandled };
  });
  useEffect(() => {
    if (!openRequested) return;
    setOpen(true);
    setWantsFocus('request');
    if (!latest.current.Fields) latest.current.loadFields();
    latest.current.onOpenRequestHandled?.();
  }, [openRequested]);

  return (
    // Closed, the card keeps its own height instead of stretching beside the movie list.
    <Card className={clsx('min-w-0', !open && 'self-start')}>
      <section aria-label={t('cinema.push.title')}>
        <h2 className="text-sm font-semibold">
          <button
            type="button"
            data-testid="movie-push-open"
            aria-expanded={open}
            aria-controls={bodyId}
            onClick={toggle}
            className={clsx(
              'flex w-full cursor-pointer items-center gap-2 px-4 py-2.5 text-left transition-colors hover:bg-zinc-50 dark:hover:bg-zinc-800/60',
              'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-500',
              open ? 'rounded-t-2xl border-b border-zinc-200 dark:border-zinc-800' : 'rounded-2xl',
            )}
          >
            <Plus className="h-4 w-4 shrink-0 text-zinc-500" aria-hidden />
            <span className="flex-1">{t('cinema.push.title')}</span>
            <ChevronDown className={clsx('h-4 w-4 shrink-0 text-zinc-500 transition-transform', open && 'rotate-180')} aria-hidden />
          </button>
        </h2>
        <div id={bodyId} ref={bodyRef} hidden={!open}>
          {Fields ? (
            <Fields roomId={roomId} parentId={parentId} onPushed={onPushed} />
          ) : loadError ? (
            <div className="space-y-3 p-4">
              <p role="alert" className="text-sm text-red-600 dark:text-red-400">
                {t('cinema.push.loadFailed')}
              </p>
              <Button variant="outline" size="sm" data-testid="movie-push-retry" onClick={loadFields}>
                {t('cinema.error.retry')}
              </Button>
            </div>
          ) : open ? (
            <p aria-busy="true" className="flex items-center gap-2 p-4 text-sm text-zinc-500 dark:text-zinc-400">
              <Spinner className="h-4 w-4" />
              {t('cinema.loading')}
            </p>
          ) : null}
        </div>
      </section>
    </Card>
  );
}
