'use client';
/**
 * The movie push form itself (react-hook-form), in its own module so the viewing hall downloads it
 * only when the user opens "Add a movie" (MoviePushForm in ./movie-push-form.tsx). One movie:
 * `POST /api/room/movie/push` with URL, name, live and, under "Advanced options", type, proxy,
 * headers, subtitles and other sources; several at once: `POST /api/room/movie/pushs`, one a line
 * (server-contract.md §4.5, §7.1). Everything is checked with the shared rules first, errors show at
 * their field (or line), and nothing typed is lost on error.
 */
import { useState } from 'react';
import { useFieldArray, useForm, type Control, type FieldErrors, type UseFormRegister } from 'react-hook-form';
import { Plus, X } from 'lucide-react';
import { clsx } from 'clsx';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { TextField } from '@/components/ui/field';
import { inputClasses } from '@/components/ui/input';
import { pushMovie, pushMovies } from '@/lib/api/movie';
import { useT, type MessageKey } from '@/lib/i18n';
import { notifySuccess } from '@/lib/notify';
import { placeFormError } from '@/components/common/form-rules';
import { Notice } from '@/components/common/notice';
import {
  bulkBases,
  movieBaseOf,
  MOVIE_TYPES,
  pushProblem,
  rowProblems,
  SUBTITLE_TYPES,
  type MoviePushFieldsProps,
  type PushFields,
} from './movie-push';
import '@/lib/i18n/messages/cinema';

/** The form's values: one movie's fields, and the lines of a bulk push. */
type FormValues = Required<PushFields> & { bulk: string };

const EMPTY: FormValues = { url: '', name: '', live: false, type: '', proxy: false, headers: [], subtitles: [], moreSources: [], bulk: '' };

export function MoviePushFields({ roomId, parentId }: MoviePushFieldsProps) {
  const t = useT();
  const [mode, setMode] = useState<'one' | 'many'>('one');
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

  // A failure that belongs to no field (a permission, the server), shown above the button.
  const [failure, setFailure] = useState<string | null>(null);

  const pushOne = async (fields: FormValues) => {
    const base = { ...movieBaseOf(fields), parentId };
    const problem = pushProblem(base);
    if (problem) {
      setError(problem.field, { message: t(problem.key) }, { shouldFocus: true });
      return;
    }
    const rows = rowProblems(fields);
    if (rows.length) {
      for (const [index, row] of rows.entries()) setError(row.path, { message: t(row.key) }, { shouldFocus: index === 0 });
      return;
    }
    try {
      await pushMovie(roomId, base);
      notifySuccess(t('cinema.push.added', { name: base.name }));
      reset({ ...getValues(), url: '', name: '', headers: [], subtitles: [], moreSources: [] });
    } catch (error) {
      setFailure(placeFormError(error, { url: 'url', name: 'name' }, setError));
    }
  };

  const pushMany = async (fields: FormValues) => {
    const result = bulkBases(fields.bulk, fields);
    if ('line' in result) {
      const problem = t(result.key);
      setError('bulk', { message: result.line ? t('cinema.push.bulkLine', { line: result.line, problem }) : problem }, { shouldFocus: true });
      return;
    }
    try {
      await pushMovies(
        roomId,
        result.bases.map((base) => ({ ...base, parentId })),
      );
      notifySuccess(t('cinema.push.bulkAdded', { count: result.bases.length }));
      reset({ ...getValues(), bulk: '' });
    } catch (error) {
      setFailure(placeFormError(error, { url: 'bulk', name: 'bulk' }, setError));
    }
  };

  const onSubmit = async (fields: FormValues) => {
    setFailure(null);
    await (mode === 'one' ? pushOne(fields) : pushMany(fields));
  };

  return (
    <form noValidate onSubmit={handleSubmit(onSubmit)} className="space-y-4 p-4">
      <div role="group" aria-label={t('cinema.push.mode')} className="inline-flex rounded-lg bg-zinc-100 p-1 dark:bg-zinc-800">
        {(['one', 'many'] as const).map((value) => (
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
            {t(value === 'one' ? 'cinema.push.modeOne' : 'cinema.push.modeMany')}
          </button>
        ))}
      </div>

      {mode === 'one' ? (
        <>
          <TextField
            id="movie-push-url"
            label={t('cinema.push.url')}
            error={errors.url?.message}
            type="url"
            inputMode="url"
            autoComplete="off"
            placeholder="https://example.com/video.m3u8"
            {...register('url', { onChange: () => clearErrors('url') })}
          />
          <TextField
            id="movie-push-name"
            label={t('cinema.push.name')}
            error={errors.name?.message}
            autoComplete="off"
            {...register('name', { onChange: () => clearErrors('name') })}
          />
        </>
      ) : (
        <div className="space-y-1.5">
          <label htmlFor="movie-push-bulk" className="text-sm font-medium text-zinc-800 dark:text-zinc-200">
            {t('cinema.push.bulk')}
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
            {errors.bulk?.message ?? t('cinema.push.bulkHint')}
          </p>
        </div>
      )}

      <Checkbox id="movie-push-live" data-testid="movie-push-live" label={t('cinema.push.live')} {...register('live')} />

      <details className="group rounded-lg border border-zinc-200 dark:border-zinc-800" data-testid="movie-push-advanced">
        <summary className="cursor-pointer select-none px-3 py-2 text-sm font-medium">{t('cinema.push.advanced')}</summary>
        <div className="space-y-4 border-t border-zinc-200 p-3 dark:border-zinc-800">
          <div className="space-y-1.5">
            <label htmlFor="movie-push-type" className="text-sm font-medium text-zinc-800 dark:text-zinc-200">
              {t('cinema.push.type')}
            </label>
            <select id="movie-push-type" data-testid="movie-push-type" className={clsx(inputClasses, 'w-full')} {...register('type')}>
              {MOVIE_TYPES.map((value) => (
                <option key={value} value={value}>
                  {value || t('cinema.push.typeAuto')}
                </option>
              ))}
            </select>
          </div>
          <Checkbox id="movie-push-proxy" data-testid="movie-push-proxy" label={t('cinema.push.proxy')} hint={t('cinema.push.proxyHint')} {...register('proxy')} />
          {mode === 'one' ? (
            <>
              <RowList kind="headers" control={control} register={register} errors={errors} />
              <RowList kind="subtitles" control={control} register={register} errors={errors} />
              <RowList kind="moreSources" control={control} register={register} errors={errors} />
            </>
          ) : null}
        </div>
      </details>

      {failure ? (
        <Notice tone="error" testId="movie-push-failure">
          {failure}
        </Notice>
      ) : null}
      <Button data-testid="movie-push-submit" type="submit" className="w-full" loading={isSubmitting}>
        {isSubmitting ? null : <Plus className="h-4 w-4" aria-hidden />}
        {isSubmitting ? t('cinema.push.adding') : t('cinema.push.submit')}
      </Button>
    </form>
  );
}

interface RowListProps {
  kind: 'headers' | 'subtitles' | 'moreSources';
  control: Control<FormValues>;
  register: UseFormRegister<FormValues>;
  errors: FieldErrors<FormValues>;
}

/** The texts of each row list: title, the two text columns, the type column (none for headers), the add button. */
const ROW_TEXTS: Record<RowListProps['kind'], { title: MessageKey; first: MessageKey; second: MessageKey; type?: MessageKey; add: MessageKey }> = {
  headers: { title: 'cinema.push.headers', first: 'cinema.push.headerKey', second: 'cinema.push.headerValue', add: 'cinema.push.addHeader' },
  subtitles: { title: 'cinema.push.subtitles', first: 'cinema.push.subtitleName', second: 'cinema.push.subtitleUrl', type: 'cinema.push.subtitleType', add: 'cinema.push.addSubtitle' },
  moreSources: { title: 'cinema.push.moreSources', first: 'cinema.push.sourceName', second: 'cinema.push.sourceUrl', type: 'cinema.push.sourceType', add: 'cinema.push.addSource' },
};

/** Rows of key/value (headers) or name/URL/type (subtitles, other sources), added and removed freely. */
function RowList({ kind, control, register, errors }: RowListProps) {
  const t = useT();
  const texts = ROW_TEXTS[kind];
  // Three arrays of different row shapes share one component; react-hook-form types them apart.
  const { fields, append, remove } = useFieldArray({ control, name: kind as 'subtitles' });
  const [first, second] = kind === 'headers' ? (['key', 'value'] as const) : (['name', 'url'] as const);
  const rowErrors = errors[kind] as Array<Record<string, { message?: string } | undefined> | undefined> | undefined;
  const types = kind === 'subtitles' ? SUBTITLE_TYPES : MOVIE_TYPES;

  return (
    <fieldset className="space-y-2" data-testid={`movie-push-${kind}`}>
      <legend className="text-sm font-medium text-zinc-800 dark:text-zinc-200">{t(texts.title)}</legend>
      {fields.map((field, index) => {
        const error = rowErrors?.[index]?.[first]?.message ?? rowErrors?.[index]?.[second]?.message;
        return (
          <div key={field.id} className="space-y-1">
            <div className="flex flex-wrap items-center gap-2">
              <input
                aria-label={t(texts.first)}
                placeholder={t(texts.first)}
                aria-invalid={rowErrors?.[index]?.[first] ? true : undefined}
                className={clsx(inputClasses, 'min-w-0 flex-1 basis-28')}
                {...register(`${kind}.${index}.${first}` as 'subtitles.0.name')}
              />
              <input
                aria-label={t(texts.second)}
                placeholder={t(texts.second)}
                aria-invalid={rowErrors?.[index]?.[second] ? true : undefined}
                className={clsx(inputClasses, 'min-w-0 flex-[2] basis-40')}
                {...register(`${kind}.${index}.${second}` as 'subtitles.0.url')}
              />
              {texts.type ? (
                <select aria-label={t(texts.type)} className={clsx(inputClasses, 'w-28')} {...register(`${kind}.${index}.type` as 'subtitles.0.type')}>
                  {types.map((value) => (
                    <option key={value} value={value}>
                      {value || t('cinema.push.typeAuto')}
                    </option>
                  ))}
                </select>
              ) : null}
              <Button variant="ghost" size="icon" aria-label={t('cinema.push.removeRow')} onClick={() => remove(index)}>
                <X className="h-4 w-4" aria-hidden />
              </Button>
            </div>
            {error ? (
              <p role="alert" className="text-xs text-red-600 dark:text-red-400">
                {error}
              </p>
            ) : null}
          </div>
        );
      })}
      <Button
        variant="outline"
        size="sm"
        data-testid={`movie-push-add-${kind}`}
        onClick={() => append(kind === 'headers' ? ({ key: '', value: '' } as never) : { name: '', url: '', type: kind === 'subtitles' ? 'srt' : '' })}
      >
        <Plus className="h-3.5 w-3.5" aria-hidden />
        {t(texts.add)}
      </Button>
    </fieldset>
  );
}
