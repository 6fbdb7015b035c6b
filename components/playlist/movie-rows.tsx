'use client';
/**
 * The rows of a movie's request headers, subtitles and other sources (docs/contract.md §7.1
 * `headers`, `subtitles`, `moreSources`), added and removed freely, with their errors at the row:
 * shared by "Add a movie" (./movie-push-form.tsx) and the edit dialog (./movie-dialogs.tsx).
 */
import { useFieldArray, type Control, type FieldErrors, type UseFormRegister, type UseFormSetError } from 'react-hook-form';
import { Plus, X } from 'lucide-react';
import { clsx } from 'clsx';
import { Button } from '@/components/ui/button';
import { inputClasses } from '@/components/ui/input';
import { useT, type MessageKey } from '@/lib/i18n';
import type { MovieBase } from '@/lib/contract/types';
import { MOVIE_TYPES, SUBTITLE_TYPES, pushProblem, rowProblems, type PushFields } from './movie-push';
import '@/lib/i18n/messages/cinema';
import '@/lib/i18n/messages/movie-form';

/**
 * A movie's fields in a form: every field of PushFields, and the lines of a bulk push (used by
 * "Add a movie" only; the edit dialog leaves it empty), so that both forms share one type.
 */
export type MovieFormValues = Required<PushFields> & { bulk: string };

/**
 * Checks a movie before it is sent (`pushProblem`, then every row's `rowProblems`) and puts each
 * problem at its field, the first one focused. Returns true when there was one: the submit stops.
 */
export function markMovieProblems(
  base: MovieBase,
  fields: MovieFormValues,
  setError: UseFormSetError<MovieFormValues>,
  t: (key: MessageKey) => string,
): boolean {
  const problem = pushProblem(base);
  if (problem) {
    setError(problem.field, { message: t(problem.key) }, { shouldFocus: true });
    return true;
  }
  const rows = rowProblems(fields);
  for (const [index, row] of rows.entries()) setError(row.path, { message: t(row.key) }, { shouldFocus: index === 0 });
  return rows.length > 0;
}

export interface RowListProps {
  kind: 'headers' | 'subtitles' | 'moreSources';
  control: Control<MovieFormValues>;
  register: UseFormRegister<MovieFormValues>;
  errors: FieldErrors<MovieFormValues>;
}

/** The texts of each row list: title, the two text columns, the type column (none for headers), the add button. */
const ROW_TEXTS: Record<RowListProps['kind'], { title: MessageKey; first: MessageKey; second: MessageKey; type?: MessageKey; add: MessageKey }> = {
  headers: { title: 'moviePush.headers', first: 'moviePush.headerKey', second: 'moviePush.headerValue', add: 'moviePush.addHeader' },
  subtitles: { title: 'moviePush.subtitles', first: 'moviePush.subtitleName', second: 'moviePush.subtitleUrl', type: 'moviePush.subtitleType', add: 'moviePush.addSubtitle' },
  moreSources: { title: 'moviePush.moreSources', first: 'moviePush.sourceName', second: 'moviePush.sourceUrl', type: 'moviePush.sourceType', add: 'moviePush.addSource' },
};

/** Rows of key/value (headers) or name/URL/type (subtitles, other sources), added and removed freely. */
export function RowList({ kind, control, register, errors }: RowListProps) {
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
                      {value || t('moviePush.typeAuto')}
                    </option>
                  ))}
                </select>
              ) : null}
              <Button variant="ghost" size="icon" aria-label={t('moviePush.removeRow')} onClick={() => remove(index)}>
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
