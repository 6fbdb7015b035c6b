'use client';
/**
 * The movie push form itself (react-hook-form), in its own module so the viewing hall downloads it
 * only when the user opens "Add a movie" (MoviePushForm in ./movie-push-form.tsx). Sends
 * `POST /api/room/movie/push` with `{url, name, live, type: '', proxy: false, parentId: ''}`
 * (server-contract.md §4.5, §7.1), checked with the shared rules first; nothing typed is lost on error.
 */
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Plus } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { TextField } from '@/components/ui/field';
import { pushMovie } from '@/lib/api/movie';
import { useT } from '@/lib/i18n';
import { notifySuccess } from '@/lib/notify';
import { placeFormError } from '@/components/common/form-rules';
import { Notice } from '@/components/common/notice';
import { movieBaseOf, pushProblem, type MoviePushFieldsProps, type PushFields } from './movie-push';
import '@/lib/i18n/messages/cinema';

export function MoviePushFields({ roomId, parentId }: MoviePushFieldsProps) {
  const t = useT();
  const {
    register,
    handleSubmit,
    reset,
    setError,
    clearErrors,
    formState: { errors, isSubmitting },
  } = useForm<PushFields>({ defaultValues: { url: '', name: '', live: false } });

  // A failure that belongs to no field (a permission, the server), shown above the button.
  const [failure, setFailure] = useState<string | null>(null);

  const onSubmit = async (fields: PushFields) => {
    setFailure(null);
    const base = { ...movieBaseOf(fields), parentId };
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
      setFailure(placeFormError(error, { url: 'url', name: 'name' }, setError));
    }
  };

  return (
    <form noValidate onSubmit={handleSubmit(onSubmit)} className="space-y-4 p-4">
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
      <Checkbox id="movie-push-live" data-testid="movie-push-live" label={t('cinema.push.live')} {...register('live')} />
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
