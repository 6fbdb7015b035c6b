'use client';
/**
 * Adds a movie to the root folder: `POST /api/room/movie/push` with
 * `{url, name, live, type: '', proxy: false, parentId: ''}` (server-contract.md §4.5, §7.1). Checked
 * with the shared rules (lib/validation.ts) before anything is sent; nothing typed is lost on error.
 */
import { useForm } from 'react-hook-form';
import { Plus } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Checkbox } from '@/components/ui/checkbox';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { pushMovie } from '@/lib/api/movie';
import type { MovieBase } from '@/lib/api/types';
import { useT, type MessageKey } from '@/lib/i18n';
import { notifyError, notifySuccess } from '@/lib/notify';
import { validateMovieBase } from '@/lib/validation';

export interface PushFields {
  url: string;
  name: string;
  live: boolean;
}

/** URL schemes a SyncTV server plays directly (§7.1). */
const PLAYABLE_URL = /^(https?:\/\/|magnet:)/i;

/** The contract's movie validation texts (§8), shown in the user's language. */
const MOVIE_ERRORS: Record<string, MessageKey> = {
  'url too long': 'cinema.push.urlTooLong',
  'empty name': 'cinema.push.nameRequired',
  'type too long': 'cinema.push.typeTooLong',
};

/** The push body for the form's values (trimmed), as the reference client's "direct link" type sends it. */
export function movieBaseOf(fields: PushFields): MovieBase {
  return { url: fields.url.trim(), name: fields.name.trim(), live: fields.live, type: '', proxy: false, parentId: '' };
}

/**
 * Checks a push body: a URL is required and must be http(s) or magnet, then the contract's rules.
 * Returns the field and message key of the first problem, or null.
 */
export function pushProblem(base: MovieBase): { field: 'url' | 'name'; key: MessageKey } | null {
  if (!base.url) return { field: 'url', key: 'cinema.push.urlRequired' };
  if (!PLAYABLE_URL.test(base.url)) return { field: 'url', key: 'cinema.push.urlScheme' };
  const problem = validateMovieBase(base);
  if (!problem) return null;
  return { field: problem === 'empty name' ? 'name' : 'url', key: MOVIE_ERRORS[problem] ?? 'cinema.push.urlScheme' };
}

export function MoviePushForm({ roomId }: { roomId: string }) {
  const t = useT();
  const {
    register,
    handleSubmit,
    reset,
    setError,
    clearErrors,
    formState: { errors, isSubmitting },
  } = useForm<PushFields>({ defaultValues: { url: '', name: '', live: false } });

  const onSubmit = async (fields: PushFields) => {
    const base = movieBaseOf(fields);
    const problem = pushProblem(base);
    if (problem) {
      setError(problem.field, { message: t(problem.key) }, { shouldFocus: true });
      return;
    }
    try {
      await pushMovie(roomId, base);
      notifySuccess(t('cinema.push.added', { name: base.name }));
      reset({ url: '', name: '', live: fields.live });
    } catch (error) {
      notifyError(error);
    }
  };

  return (
    <Card className="min-w-0">
      <section aria-label={t('cinema.push.title')}>
        <h2 className="border-b border-zinc-200 px-4 py-2.5 text-sm font-semibold dark:border-zinc-800">{t('cinema.push.title')}</h2>
        <form noValidate onSubmit={handleSubmit(onSubmit)} className="space-y-4 p-4">
          <Field id="movie-push-url" label={t('cinema.push.url')} error={errors.url?.message}>
            <Input
              id="movie-push-url"
              data-testid="movie-push-url"
              type="url"
              inputMode="url"
              autoComplete="off"
              placeholder="https://example.com/video.m3u8"
              aria-invalid={errors.url ? true : undefined}
              aria-describedby={errors.url ? 'movie-push-url-error' : undefined}
              {...register('url', { onChange: () => clearErrors('url') })}
            />
          </Field>
          <Field id="movie-push-name" label={t('cinema.push.name')} error={errors.name?.message}>
            <Input
              id="movie-push-name"
              data-testid="movie-push-name"
              autoComplete="off"
              aria-invalid={errors.name ? true : undefined}
              aria-describedby={errors.name ? 'movie-push-name-error' : undefined}
              {...register('name', { onChange: () => clearErrors('name') })}
            />
          </Field>
          <Checkbox id="movie-push-live" data-testid="movie-push-live" label={t('cinema.push.live')} {...register('live')} />
          <Button data-testid="movie-push-submit" type="submit" className="w-full" loading={isSubmitting}>
            {isSubmitting ? null : <Plus className="h-4 w-4" aria-hidden />}
            {isSubmitting ? t('cinema.push.adding') : t('cinema.push.submit')}
          </Button>
        </form>
      </section>
    </Card>
  );
}
