'use client';
/**
 * The playlist's dialogs, downloaded when one is first opened: edit a movie or rename a folder
 * (`POST /api/room/movie/edit`, which replaces the whole base, so every other field is kept as it
 * was; server-contract.md §4.5, §7.1), and create a folder (`POST /api/room/movie/push` with
 * `isFolder`). Errors show at their field when they are about one.
 */
import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Modal } from '@/components/ui/drawer';
import { TextField } from '@/components/ui/field';
import { describeError } from '@/lib/api/error-text';
import { editMovie, pushMovie } from '@/lib/api/movie';
import type { Movie, MovieBase } from '@/lib/contract/types';
import { useT } from '@/lib/i18n';
import { notifySuccess } from '@/lib/notify';
import { pushProblem } from './movie-push';
import '@/lib/i18n/messages/cinema';
import '@/lib/i18n/messages/errors';

/** Movie types a person can pick (reference-client.md §1.5 "Advanced options"); "" lets the server guess. */
const TYPES = ['', 'm3u8', 'mp4', 'flv', 'mpegts', 'mpd', 'webm'];

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
  return (
    <Modal
      open={movie !== null}
      onOpenChange={(open) => !open && onClose()}
      title={movie ? (folder ? t('cinema.edit.folderTitle') : t('cinema.edit.title', { name: movie.base.name })) : ''}
      description={movie && !folder ? t('cinema.edit.hint') : undefined}
      closeLabel={t('cinema.dialog.cancel')}
      testId="movie-edit-dialog"
    >
      {movie ? <EditForm key={movie.id} roomId={roomId} movie={movie} onClose={onClose} /> : null}
    </Modal>
  );
}

function EditForm({ roomId, movie, onClose }: { roomId: string; movie: Movie; onClose: () => void }) {
  const t = useT();
  const folder = Boolean(movie.base.isFolder);
  const [name, setName] = useState(movie.base.name);
  const [url, setUrl] = useState(movie.base.url);
  const [type, setType] = useState(movie.base.type ?? '');
  const [live, setLive] = useState(Boolean(movie.base.live));
  const [proxy, setProxy] = useState(Boolean(movie.base.proxy));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);
  const types = TYPES.includes(type) ? TYPES : [...TYPES, type];

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const base: MovieBase = folder
      ? { ...movie.base, name: name.trim() }
      : { ...movie.base, name: name.trim(), url: url.trim(), type, live, proxy };
    if (folder && !base.name) {
      setErrors({ name: t('cinema.push.nameRequired') });
      return;
    }
    const problem = folder ? null : pushProblem(base);
    if (problem) {
      setErrors({ [problem.field]: t(problem.key) });
      return;
    }
    setBusy(true);
    setErrors({});
    try {
      await editMovie(roomId, movie.id, base);
      notifySuccess(t('cinema.edit.saved', { name: base.name }));
      onClose();
    } catch (error) {
      setErrors(placeError(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form noValidate onSubmit={(event) => void submit(event)} className="space-y-4">
      <TextField id="movie-edit-name" label={t('cinema.edit.name')} value={name} error={errors.name} onChange={(event) => setName(event.target.value)} />
      {folder ? null : (
        <>
          <TextField
            id="movie-edit-url"
            label={t('cinema.edit.url')}
            value={url}
            error={errors.url}
            spellCheck={false}
            className="font-mono text-xs"
            onChange={(event) => setUrl(event.target.value)}
          />
          <div className="space-y-1.5">
            <label htmlFor="movie-edit-type" className="text-sm font-medium text-zinc-800 dark:text-zinc-200">
              {t('cinema.edit.type')}
            </label>
            <select
              id="movie-edit-type"
              value={type}
              onChange={(event) => setType(event.target.value)}
              className="h-10 w-full rounded-lg border border-zinc-300 bg-white px-2 text-sm dark:border-zinc-700 dark:bg-zinc-950"
            >
              {types.map((value) => (
                <option key={value} value={value}>
                  {value || t('cinema.edit.typeAuto')}
                </option>
              ))}
            </select>
          </div>
          <Checkbox id="movie-edit-live" label={t('cinema.edit.live')} checked={live} onChange={(event) => setLive(event.target.checked)} />
          <Checkbox id="movie-edit-proxy" label={t('cinema.edit.proxy')} checked={proxy} onChange={(event) => setProxy(event.target.checked)} />
        </>
      )}
      {errors.form ? (
        <p role="alert" className="text-sm text-red-600 dark:text-red-400">
          {errors.form}
        </p>
      ) : null}
      <div className="flex justify-end gap-2">
        <Button variant="outline" size="sm" onClick={onClose} disabled={busy}>
          {t('cinema.dialog.cancel')}
        </Button>
        <Button type="submit" size="sm" loading={busy} data-testid="movie-edit-save">
          {t('cinema.edit.save')}
        </Button>
      </div>
    </form>
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
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const trimmed = name.trim();
    if (!trimmed) {
      setError(t('cinema.push.nameRequired'));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await pushMovie(roomId, { name: trimmed, url: '', isFolder: true, parentId });
      notifySuccess(t('cinema.movies.folderCreated', { name: trimmed }));
      setName('');
      onClose();
    } catch (failure) {
      setError(describeError(failure).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal open={open} onOpenChange={(next) => !next && onClose()} title={t('cinema.movies.newFolder')} closeLabel={t('cinema.dialog.cancel')} testId="new-folder-dialog">
      <form noValidate onSubmit={(event) => void submit(event)} className="space-y-4">
        <TextField id="new-folder-name" label={t('cinema.movies.folderName')} value={name} error={error ?? undefined} data-autofocus onChange={(event) => setName(event.target.value)} />
        <div className="flex justify-end gap-2">
          <Button variant="outline" size="sm" onClick={onClose} disabled={busy}>
            {t('cinema.dialog.cancel')}
          </Button>
          <Button type="submit" size="sm" loading={busy} data-testid="new-folder-create">
            {t('cinema.movies.create')}
          </Button>
        </div>
      </form>
    </Modal>
  );
}
