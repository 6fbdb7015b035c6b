'use client';
/**
 * The playlist's dialogs, downloaded when one is first opened: edit a movie (name, address, type,
 * live, proxy, and its request headers, subtitles and other sources) or rename a folder (`POST
 * /api/room/movie/edit`, which replaces the whole base, so every field the form does not show is kept
 * as it was; docs/contract.md §4.5, §7.1), and create a folder (`POST /api/room/movie/push` with
 * `isFolder`). Errors show at their field when they are about one.
 */
import { useAtomValue } from 'jotai';
import { publicSettingsAtom } from '@/lib/session';
import { useState, type FormEvent } from 'react';
import { useForm } from 'react-hook-form';
import { clsx } from 'clsx';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Modal } from '@/components/ui/drawer';
import { TextField } from '@/components/ui/field';
import { describeError } from '@/lib/i18n/error-text';
import { editMovie, pushMovie } from '@/hooks/data/movies';
import type { Movie, MovieBase } from '@/lib/contract/types';
import { useT } from '@/lib/i18n';
import { notifySuccess } from '@/lib/notify';
import { inputClasses } from '@/components/ui/input';
import { useFormAction } from '@/components/common/use-form-action';
import { MOVIE_TYPES, movieBaseOf } from './movie-push';
import { RowList, markMovieProblems, type MovieFormValues } from './movie-rows';
import '@/lib/i18n/messages/cinema';
import '@/lib/i18n/messages/movie-form';
import '@/lib/i18n/messages/errors';

type FieldErrors = { name?: string; url?: string; form?: string };

/** Where a failure belongs: the name or URL field, or the whole form. */
function placeError(error: unknown): FieldErrors {
  const described = describeError(error);
  if (described.field === 'name') return { name: described.message };
  if (described.field === 'url') return { url: described.message };
  return { form: described.message };
}

export interface MovieEditDialogProps {
  roomId: string;
  /** The movie or folder to edit; null closes the dialog. */
  movie: Movie | null;
  onClose: () => void;
}

export function MovieEditDialog({ roomId, movie, onClose }: MovieEditDialogProps) {
  const t = useT();
  const folder = Boolean(movie?.base.isFolder);
  // A vendor's movie (docs/vendors.md) has no address of its own to edit: its name is what changes.
  const vendor = movie?.base.vendorInfo?.vendor ?? '';
  return (
    <Modal
      open={movie !== null}
      onOpenChange={(open) => !open && onClose()}
      title={movie ? (folder ? t('movieEdit.folderTitle') : t('movieEdit.title', { name: movie.base.name })) : ''}
      description={movie && !folder ? (vendor ? t('movieEdit.vendorHint') : t('movieEdit.hint')) : undefined}
      closeLabel={t('cinema.dialog.cancel')}
      testId="movie-edit-dialog"
    >
      {movie ? folder || vendor ? <FolderForm key={movie.id} roomId={roomId} movie={movie} onClose={onClose} /> : <EditForm key={movie.id} roomId={roomId} movie={movie} onClose={onClose} /> : null}
    </Modal>
  );
}

/** A movie's base as the form's values: the maps of headers and subtitles become rows. */
export function formValuesOf(base: MovieBase): MovieFormValues {
  return {
    url: base.url,
    name: base.name,
    live: Boolean(base.live),
    type: base.type ?? '',
    proxy: Boolean(base.proxy),
    convert: Boolean(base.convert),
    headers: Object.entries(base.headers ?? {}).map(([key, value]) => ({ key, value })),
    subtitles: Object.entries(base.subtitles ?? {}).map(([name, subtitle]) => ({ name, url: subtitle.url, type: subtitle.type })),
    moreSources: (base.moreSources ?? []).map((source) => ({ name: source.name, url: source.url, type: source.type })),
    bulk: '',
  };
}

/**
 * The base to send for an edit (`POST /api/room/movie/edit` replaces the whole base): the form's
 * fields over the movie's own, so that what the form does not show (danmaku, folder, vendor, RTMP)
 * stays; headers, subtitles and sources are exactly the form's rows (none left: removed).
 */
export function editedBase(base: MovieBase, fields: MovieFormValues): MovieBase {
  const edited = movieBaseOf(fields);
  return {
    ...base,
    name: edited.name,
    url: edited.url,
    type: edited.type,
    live: edited.live,
    proxy: edited.proxy,
    convert: edited.convert,
    headers: edited.headers,
    subtitles: edited.subtitles,
    moreSources: edited.moreSources,
  };
}

/** A movie's name, address, type, live and proxy switches, and its headers, subtitles and other sources. */
function EditForm({ roomId, movie, onClose }: { roomId: string; movie: Movie; onClose: () => void }) {
  const t = useT();
  const {
    register,
    handleSubmit,
    setError,
    control,
    formState: { errors, isSubmitting },
  } = useForm<MovieFormValues>({ defaultValues: formValuesOf(movie.base) });
  const currentType = movie.base.type ?? '';
  const canConvert = useAtomValue(publicSettingsAtom)?.movieConvert === true;
  const types: readonly string[] = (MOVIE_TYPES as readonly string[]).includes(currentType) ? MOVIE_TYPES : [...MOVIE_TYPES, currentType];

  const { failure, run } = useFormAction(setError, { url: 'url', name: 'name' });
  const submit = handleSubmit((fields) =>
    run(async () => {
      const base = editedBase(movie.base, fields);
      if (markMovieProblems(base, fields, setError, t)) return;
      await editMovie(roomId, movie.id, base);
      notifySuccess(t('movieEdit.saved', { name: base.name }));
      onClose();
    }),
  );

  return (
    <form noValidate onSubmit={(event) => void submit(event)} className="space-y-4" data-testid="movie-edit-form">
      <TextField id="movie-edit-name" label={t('movieEdit.name')} error={errors.name?.message} {...register('name')} />
      <TextField id="movie-edit-url" label={t('movieEdit.url')} error={errors.url?.message} spellCheck={false} className="font-mono text-xs" {...register('url')} />
      <div className="space-y-1.5">
        <label htmlFor="movie-edit-type" className="text-sm font-medium text-zinc-800 dark:text-zinc-200">
          {t('movieEdit.type')}
        </label>
        <select id="movie-edit-type" className={clsx(inputClasses, 'w-full')} {...register('type')}>
          {types.map((value) => (
            <option key={value} value={value}>
              {value || t('movieEdit.typeAuto')}
            </option>
          ))}
        </select>
      </div>
      <Checkbox id="movie-edit-live" label={t('movieEdit.live')} {...register('live')} />
      <Checkbox id="movie-edit-proxy" label={t('movieEdit.proxy')} {...register('proxy')} />
      {canConvert || movie.base.convert ? <Checkbox id="movie-edit-convert" label={t('movieEdit.convert')} hint={t('moviePush.convertHint')} {...register('convert')} /> : null}
      <RowList kind="headers" control={control} register={register} errors={errors} />
      <RowList kind="subtitles" control={control} register={register} errors={errors} />
      <RowList kind="moreSources" control={control} register={register} errors={errors} />
      <FormFooter failure={failure} busy={isSubmitting} submitLabel={t('movieEdit.save')} submitTestId="movie-edit-save" onCancel={onClose} />
    </form>
  );
}

/** A folder's or a vendor movie's name (its other fields stay as they are). */
function FolderForm({ roomId, movie, onClose }: { roomId: string; movie: Movie; onClose: () => void }) {
  const t = useT();
  return (
    <FolderNameForm
      id="movie-edit-name"
      label={t('movieEdit.name')}
      initial={movie.base.name}
      submitLabel={t('movieEdit.save')}
      submitTestId="movie-edit-save"
      onCancel={onClose}
      onSubmit={async (name) => {
        await editMovie(roomId, movie.id, { ...movie.base, name });
        notifySuccess(t('movieEdit.saved', { name }));
        onClose();
      }}
    />
  );
}

interface FolderNameFormProps {
  id: string;
  label: string;
  initial: string;
  submitLabel: string;
  submitTestId: string;
  onCancel: () => void;
  /** Sends the trimmed, non-empty name; a failure it throws shows at the field or under it. */
  onSubmit: (name: string) => Promise<void>;
}

/** One name field with Cancel and a submit button: renames a folder or names a new one. */
function FolderNameForm({ id, label, initial, submitLabel, submitTestId, onCancel, onSubmit }: FolderNameFormProps) {
  const t = useT();
  const [name, setName] = useState(initial);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const trimmed = name.trim();
    if (!trimmed) {
      setErrors({ name: t('moviePush.nameRequired') });
      return;
    }
    setBusy(true);
    setErrors({});
    try {
      await onSubmit(trimmed);
    } catch (error) {
      setErrors(placeError(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form noValidate onSubmit={(event) => void submit(event)} className="space-y-4">
      <TextField id={id} label={label} value={name} error={errors.name} data-autofocus onChange={(event) => setName(event.target.value)} />
      <FormFooter failure={errors.form ?? null} busy={busy} submitLabel={submitLabel} submitTestId={submitTestId} onCancel={onCancel} />
    </form>
  );
}

/** A dialog form's end: the failure that belongs to no field, then Cancel and the submit button. */
function FormFooter({ failure, busy, submitLabel, submitTestId, onCancel }: { failure: string | null; busy: boolean; submitLabel: string; submitTestId: string; onCancel: () => void }) {
  const t = useT();
  return (
    <>
      {failure ? (
        <p role="alert" className="text-sm text-red-600 dark:text-red-400">
          {failure}
        </p>
      ) : null}
      <div className="flex justify-end gap-2">
        <Button variant="outline" size="sm" onClick={onCancel} disabled={busy}>
          {t('cinema.dialog.cancel')}
        </Button>
        <Button type="submit" size="sm" loading={busy} data-testid={submitTestId}>
          {submitLabel}
        </Button>
      </div>
    </>
  );
}

export interface NewFolderDialogProps {
  roomId: string;
  open: boolean;
  /** The folder the new one goes into ("" = root). */
  parentId: string;
  onClose: () => void;
}

export function NewFolderDialog({ roomId, open, parentId, onClose }: NewFolderDialogProps) {
  const t = useT();
  return (
    <Modal open={open} onOpenChange={(next) => !next && onClose()} title={t('cinema.movies.newFolder')} closeLabel={t('cinema.dialog.cancel')} testId="new-folder-dialog">
      <FolderNameForm
        id="new-folder-name"
        label={t('cinema.movies.folderName')}
        initial=""
        submitLabel={t('cinema.movies.create')}
        submitTestId="new-folder-create"
        onCancel={onClose}
        onSubmit={async (name) => {
          await pushMovie(roomId, { name, url: '', isFolder: true, parentId });
          notifySuccess(t('cinema.movies.folderCreated', { name }));
          onClose();
        }}
      />
    </Modal>
  );
}
