'use client';
/**
 * The movie push form itself (react-hook-form), in its own module so the viewing hall downloads it
 * only when the user opens "Add a movie" (AddMovieCard in ./add-movie-card.tsx). One movie:
 * `POST /api/room/movie/push` with URL, name, live and, under "Advanced options", type, proxy,
 * headers, subtitles and other sources; several at once: `POST /api/room/movie/pushs`, one a line
 * (docs/contract.md §4.5, §7.1). Everything is checked with the shared rules first, errors show at
 * their field (or line), and nothing typed is lost on error.
 */
import { lazy, Suspense, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { Plus } from 'lucide-react';
import { clsx } from 'clsx';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { TextField } from '@/components/ui/field';
import { inputClasses } from '@/components/ui/input';
import { pushMovie, pushMovies } from '@/hooks/data/movies';
import { useT, type MessageKey } from '@/lib/i18n';
import { notifySuccess } from '@/lib/notify';
import { useFormAction, type ErrorFields } from '@/components/common/use-form-action';
import { useAtomValue } from 'jotai';
import { publicSettingsAtom, userAtom } from '@/lib/session';
import { Notice } from '@/components/common/notice';
import { RowList, markMovieProblems, type MovieFormValues } from './movie-rows';
import StreamInfoDialog from './stream-info-dialog';

/** The hosting guide (components/help/hosting-guide.tsx), downloaded when first opened. */
const HostingGuide = lazy(() => import('@/components/help/hosting-guide'));
/** "From AList" and "From Emby/Jellyfin" (./vendor-picker.tsx, docs/vendors.md), downloaded when such a mode is first chosen. */
const VendorPicker = lazy(() => import('./vendor-picker').then((m) => ({ default: m.VendorPicker })));
/** "From bilibili" (./bilibili-picker.tsx, docs/vendors.md "bilibili"), downloaded when first chosen. */
const BilibiliPicker = lazy(() => import('./bilibili-picker').then((m) => ({ default: m.BilibiliPicker })));
import {
  bulkBases,
  movieBaseOf,
  nameFromUrl,
  MOVIE_TYPES,
  type MoviePushFormProps,
} from './movie-push';
import '@/lib/i18n/messages/cinema';
import '@/lib/i18n/messages/movie-form';
import '@/lib/i18n/messages/vendors';

type FormValues = MovieFormValues;

/** How a movie is added: a link, a list of links, a push, or from a vendor. */
type Mode = 'one' | 'many' | 'live' | 'alist' | 'emby' | 'bilibili';

/** Each mode's button. */
const MODE_LABELS: Record<Mode, MessageKey> = {
  one: 'moviePush.modeOne',
  many: 'moviePush.modeMany',
  live: 'moviePush.modeLive',
  alist: 'alistPicker.title',
  emby: 'embyPicker.title',
  bilibili: 'bilibiliPicker.title',
};

const EMPTY: FormValues = { url: '', name: '', live: false, type: '', proxy: false, convert: false, headers: [], subtitles: [], moreSources: [], bulk: '' };

/** Where the server's field errors go in each mode: a bulk list's are about its text. */
const ERROR_FIELDS: Record<'one' | 'many' | 'live', ErrorFields<FormValues>> = {
  one: { url: 'url', name: 'name' },
  many: { url: 'bulk', name: 'bulk' },
  live: { name: 'name' },
};

export function MoviePushForm({ roomId, parentId, onPushed }: MoviePushFormProps) {
  const t = useT();
  const [mode, setMode] = useState<Mode>('one');
  // Vendor accounts belong to signed-in users: a guest is not offered "From AList".
  const signedIn = useAtomValue(userAtom) !== null;
  // Offered only by a server that converts (the companion server with ffmpeg, docs/transcode.md).
  const canConvert = useAtomValue(publicSettingsAtom)?.movieConvert === true;
  // The broadcast just created, whose stream info shows at once.
  const [created, setCreated] = useState<{ id: string; name: string } | null>(null);
  const [guideOpen, setGuideOpen] = useState(false);
  const {
    register,
    handleSubmit,
    reset,
    setError,
    clearErrors,
    control,
    getValues,
    formState: { errors, isSubmitting },
  } = useForm<FormValues>({ defaultValues: EMPTY });
  // The name a movie gets when its field is left empty: the file's name, or the page's host.
  const defaultName = nameFromUrl(useWatch({ control, name: 'url' }));

  // A failure that belongs to no field (a permission, the server), shown above the button.
  const { failure, setFailure, run } = useFormAction(setError, {});

  /**
   * Empties the fields `sent` filled once it was added, keeping what was typed into them meanwhile
   * (the next address, pasted while a slow network was still adding this one).
   */
  const clearSent = (sent: FormValues, keys: readonly (keyof FormValues)[]) => {
    const now = getValues();
    const next = { ...now };
    for (const key of keys) if (JSON.stringify(now[key]) === JSON.stringify(sent[key])) Object.assign(next, { [key]: EMPTY[key] });
    reset(next);
  };

  const pushOne = async (fields: FormValues) => {
    const base = { ...movieBaseOf({ ...fields, name: fields.name.trim() || nameFromUrl(fields.url) }), parentId };
    if (markMovieProblems(base, fields, setError, t)) return;
    const pushed = await pushMovie(roomId, base);
    clearSent(fields, ['url', 'name', 'headers', 'subtitles', 'moreSources']);
    if (onPushed) await onPushed([pushed]);
    else notifySuccess(t('cinema.push.added', { name: base.name }));
  };

  const pushMany = async (fields: FormValues) => {
    const result = bulkBases(fields.bulk, fields);
    if ('line' in result) {
      const problem = t(result.key);
      setError('bulk', { message: result.line ? t('moviePush.bulkLine', { line: result.line, problem }) : problem }, { shouldFocus: true });
      return;
    }
    const pushed = await pushMovies(
      roomId,
      result.bases.map((base) => ({ ...base, parentId })),
    );
    clearSent(fields, ['bulk']);
    if (onPushed) await onPushed(pushed);
    else notifySuccess(t('cinema.push.bulkAdded', { count: result.bases.length }));
  };

  /** "Go live": a movie whose source is an RTMP push (docs/live.md), as the reference client's "创建直播" sends it. */
  const pushLive = async (fields: FormValues) => {
    const name = fields.name.trim();
    if (!name) {
      setError('name', { message: t('moviePush.nameRequired') }, { shouldFocus: true });
      return;
    }
    const pushed = await pushMovie(roomId, { name, url: '', live: true, rtmpSource: true, proxy: false, type: 'flv', parentId });
    clearSent(fields, ['name']);
    setCreated({ id: pushed.id, name });
    if (onPushed) await onPushed([pushed]);
  };

  const modes: readonly Mode[] = signedIn ? ['one', 'many', 'live', 'alist', 'emby', 'bilibili'] : ['one', 'many', 'live'];

  const modeSwitch = (
    <div role="group" aria-label={t('moviePush.mode')} className="inline-flex flex-wrap rounded-lg bg-zinc-100 p-1 dark:bg-zinc-800">
      {modes.map((value) => (
        <button
          key={value}
          type="button"
          aria-pressed={mode === value}
          data-testid={`movie-push-mode-${value}`}
          onClick={() => {
            setMode(value);
            setFailure(null);
            clearErrors();
          }}
          className={clsx(
            'min-h-9 cursor-pointer rounded-md px-3 text-sm font-medium',
            mode === value ? 'bg-white shadow-sm dark:bg-zinc-950' : 'text-zinc-600 dark:text-zinc-300',
          )}
        >
          {t(MODE_LABELS[value])}
        </button>
      ))}
    </div>
  );

  if (mode === 'alist' || mode === 'emby' || mode === 'bilibili') {
    return (
      <div className="space-y-4 p-4">
        {modeSwitch}
        <Suspense fallback={<p aria-busy="true" className="text-sm text-zinc-500">{t('cinema.loading')}</p>}>
          {mode === 'bilibili' ? (
            <BilibiliPicker roomId={roomId} parentId={parentId} onPushed={onPushed} />
          ) : (
            <VendorPicker key={mode} vendor={mode} roomId={roomId} parentId={parentId} onPushed={onPushed} />
          )}
        </Suspense>
      </div>
    );
  }
  const push = { one: pushOne, many: pushMany, live: pushLive }[mode];
  const onSubmit = (fields: FormValues) => run(() => push(fields), ERROR_FIELDS[mode]);

  return (
    <>
      <form noValidate onSubmit={handleSubmit(onSubmit)} className="space-y-4 p-4">
        {modeSwitch}

        {mode === 'live' ? (
          <TextField
            id="movie-push-live-name"
            label={t('moviePush.liveName')}
            hint={t('moviePush.liveHint')}
            error={errors.name?.message}
            autoComplete="off"
            {...register('name', { onChange: () => clearErrors('name') })}
          />
        ) : mode === 'one' ? (
          <>
            <TextField
              id="movie-push-url"
              label={t('moviePush.url')}
              error={errors.url?.message}
              type="url"
              inputMode="url"
              autoComplete="off"
              placeholder="https://example.com/video.m3u8"
              hint={
                <button type="button" data-testid="movie-push-hosting-help" className="cursor-pointer text-left underline underline-offset-2" onClick={() => setGuideOpen(true)}>
                  {t('moviePush.hostingHelp')}
                </button>
              }
              {...register('url', { onChange: () => clearErrors('url') })}
            />
            <TextField
              id="movie-push-name"
              label={t('moviePush.nameOptional')}
              hint={defaultName ? t('moviePush.nameDefault', { name: defaultName }) : t('moviePush.nameHint')}
              placeholder={defaultName || undefined}
              error={errors.name?.message}
              autoComplete="off"
              {...register('name', { onChange: () => clearErrors('name') })}
            />
          </>
        ) : (
          <div className="space-y-1.5">
            <label htmlFor="movie-push-bulk" className="text-sm font-medium text-zinc-800 dark:text-zinc-200">
              {t('moviePush.bulk')}
            </label>
            <textarea
              id="movie-push-bulk"
              data-testid="movie-push-bulk"
              rows={5}
              spellCheck={false}
              aria-invalid={errors.bulk ? true : undefined}
              aria-describedby="movie-push-bulk-help"
              placeholder={'https://example.com/a.m3u8\nEpisode 2 | https://example.com/b.mp4'}
              className={clsx(inputClasses, 'h-auto w-full py-2 font-mono text-xs')}
              {...register('bulk', { onChange: () => clearErrors('bulk') })}
            />
            <p id="movie-push-bulk-help" role={errors.bulk ? 'alert' : undefined} className={clsx('text-xs', errors.bulk ? 'text-red-600 dark:text-red-400' : 'text-zinc-500 dark:text-zinc-400')}>
              {errors.bulk?.message ?? t('moviePush.bulkHint')}
            </p>
          </div>
        )}

        {mode === 'live' ? null : (
          <>
            <Checkbox id="movie-push-live" data-testid="movie-push-live" label={t('moviePush.live')} {...register('live')} />

            <details className="group rounded-lg border border-zinc-200 dark:border-zinc-800" data-testid="movie-push-advanced">
              <summary className="cursor-pointer select-none px-3 py-2 text-sm font-medium">{t('moviePush.advanced')}</summary>
              <div className="space-y-4 border-t border-zinc-200 p-3 dark:border-zinc-800">
                <div className="space-y-1.5">
                  <label htmlFor="movie-push-type" className="text-sm font-medium text-zinc-800 dark:text-zinc-200">
                    {t('moviePush.type')}
                  </label>
                  <select id="movie-push-type" data-testid="movie-push-type" className={clsx(inputClasses, 'w-full')} {...register('type')}>
                    {MOVIE_TYPES.map((value) => (
                      <option key={value} value={value}>
                        {value || t('moviePush.typeAuto')}
                      </option>
                    ))}
                  </select>
                </div>
                <Checkbox id="movie-push-proxy" data-testid="movie-push-proxy" label={t('moviePush.proxy')} hint={t('moviePush.proxyHint')} {...register('proxy')} />
                {canConvert ? <Checkbox id="movie-push-convert" data-testid="movie-push-convert" label={t('moviePush.convert')} hint={t('moviePush.convertHint')} {...register('convert')} /> : null}
                {mode === 'one' ? (
                  <>
                    <RowList kind="headers" control={control} register={register} errors={errors} />
                    <RowList kind="subtitles" control={control} register={register} errors={errors} />
                    <RowList kind="moreSources" control={control} register={register} errors={errors} />
                  </>
                ) : null}
              </div>
            </details>
          </>
        )}

        {failure ? (
          <Notice tone="error" testId="movie-push-failure">
            {failure}
          </Notice>
        ) : null}
        <Button data-testid="movie-push-submit" type="submit" className="w-full" loading={isSubmitting}>
          {isSubmitting ? null : <Plus className="h-4 w-4" aria-hidden />}
          {isSubmitting ? t('moviePush.adding') : t(mode === 'live' ? 'moviePush.liveSubmit' : 'moviePush.submit')}
        </Button>
      </form>
      <StreamInfoDialog roomId={roomId} movie={created} onClose={() => setCreated(null)} />
      {guideOpen ? (
        <Suspense fallback={null}>
          <HostingGuide open onOpenChange={setGuideOpen} />
        </Suspense>
      ) : null}
    </>
  );
}
