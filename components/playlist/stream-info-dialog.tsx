'use client';
/**
 * The stream info of a live movie pushed over RTMP (docs/live.md; docs/reference-client.md
 * "直播推流信息"): the server (`rtmp://{host}/{app}/`) and the stream key (hidden until shown), each
 * with a copy button; a one-line OBS guide and an ffmpeg example; and whether the server receives
 * the push, checked every LIVE_STATUS_EVERY_MS while the dialog is open, and whether the room plays
 * it (with the button to play it, or who can). Only the movie's creator
 * gets the key (§4.5): anyone else sees the server's reason. Loaded when first opened.
 */
import { useCallback, useEffect, useState } from 'react';
import { Check, Copy, Eye, EyeOff } from 'lucide-react';
import { clsx } from 'clsx';
import { Button } from '@/components/ui/button';
import { CopyRow } from '@/components/ui/copy-row';
import { Modal } from '@/components/ui/drawer';
import { Spinner } from '@/components/ui/spinner';
import { Notice } from '@/components/common/notice';
import { useAtomValue } from 'jotai';
import { pushServerUrl, setCurrentMovie, useLiveStatus, usePublishKey } from '@/hooks/data/movies';
import { useT } from '@/lib/i18n';
import { describeError } from '@/lib/i18n/error-text';
import { notifyError, notifySuccess } from '@/lib/notify';
import { currentMovieAtom, roomAbilitiesAtom } from '@/lib/room/atoms';
import '@/lib/i18n/messages/live';

/** How often the open dialog asks whether the push arrives, ms. */
export const LIVE_STATUS_EVERY_MS = 2000;

export interface StreamInfoDialogProps {
  roomId: string;
  /** The live movie; null closes the dialog. */
  movie: { id: string; name: string } | null;
  onClose: () => void;
}

export default function StreamInfoDialog({ roomId, movie, onClose }: StreamInfoDialogProps) {
  const t = useT();
  return (
    <Modal
      open={movie !== null}
      onOpenChange={(open) => !open && onClose()}
      title={t('live.title', { name: movie?.name ?? '' })}
      description={t('live.description')}
      closeLabel={t('live.close')}
      testId="stream-info-dialog"
    >
      {movie ? <StreamInfo roomId={roomId} movieId={movie.id} /> : null}
    </Modal>
  );
}

function StreamInfo({ roomId, movieId }: { roomId: string; movieId: string }) {
  const t = useT();
  const key = usePublishKey(roomId, movieId);
  const status = useLiveStatus(roomId, movieId, key.data !== undefined, LIVE_STATUS_EVERY_MS);
  const [shown, setShown] = useState(false);
  const [copied, setCopied] = useState<'server' | 'key' | null>(null);
  const [copyFailed, setCopyFailed] = useState<'server' | 'key' | null>(null);
  const current = useAtomValue(currentMovieAtom);
  const abilities = useAtomValue(roomAbilitiesAtom);
  const [starting, setStarting] = useState(false);
  const playForRoom = async () => {
    setStarting(true);
    try {
      await setCurrentMovie(roomId, movieId);
    } catch (error) {
      notifyError(error);
    } finally {
      setStarting(false);
    }
  };

  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(null), 2000);
    return () => clearTimeout(timer);
  }, [copied]);

  const copy = useCallback(
    async (which: 'server' | 'key', text: string) => {
      try {
        await navigator.clipboard.writeText(text);
        setCopyFailed(null);
        setCopied(which);
        notifySuccess(t('live.copied'));
      } catch {
        setCopyFailed(which);
      }
    },
    [t],
  );

  if (key.error) {
    return (
      <div className="space-y-3">
        <Notice tone="error" testId="stream-info-error">
          {describeError(key.error).message}
        </Notice>
        <Button variant="outline" size="sm" onClick={() => void key.mutate()}>
          {t('live.retry')}
        </Button>
      </div>
    );
  }
  if (!key.data) {
    return (
      <p aria-busy="true" className="flex items-center gap-2 text-sm text-zinc-500 dark:text-zinc-400">
        <Spinner className="h-4 w-4" />
        {t('live.loading')}
      </p>
    );
  }

  const server = pushServerUrl(key.data);
  const receiving = status.data === true;
  // The server plays an arriving push for the room when it may (docs/live.md "Going live"); when it
  // did not, the broadcaster hears so, with the way to play it or who can.
  const playing = current?.current.movie.id === movieId;
  const copyButton = (which: 'server' | 'key', text: string) => (
    <Button variant="outline" data-testid={`stream-info-copy-${which}`} onClick={() => void copy(which, text)}>
      {copied === which ? <Check className="h-4 w-4" aria-hidden /> : <Copy className="h-4 w-4" aria-hidden />}
      {t('live.copy')}
    </Button>
  );

  return (
    <div className="space-y-4">
      <p role="status" data-testid="stream-info-status" data-receiving={receiving} className="flex items-center gap-2 text-sm">
        <span aria-hidden className={clsx('h-2.5 w-2.5 shrink-0 rounded-full', receiving ? 'bg-green-500' : 'animate-pulse bg-amber-500')} />
        {status.error && status.data === undefined ? t('live.statusUnknown') : receiving ? t(playing ? 'live.receiving' : 'live.receivingNotPlaying') : t('live.waiting')}
      </p>
      {receiving && !playing && current ? (
        <div className="flex flex-wrap items-center gap-2" data-testid="stream-info-not-playing">
          {abilities.canSetCurrentMovie ? (
            <Button size="sm" data-testid="stream-info-play" disabled={starting} onClick={() => void playForRoom()}>
              {t('live.playForRoom')}
            </Button>
          ) : (
            <p className="text-xs text-zinc-600 dark:text-zinc-400">{t('live.askToPlay')}</p>
          )}
        </div>
      ) : null}
      {!receiving ? (
        <p className="text-xs text-zinc-600 dark:text-zinc-400" data-testid="stream-info-not-arriving">
          {t('live.notArriving', { host: key.data.host })}
        </p>
      ) : null}
      <CopyRow id="stream-info-server" label={t('live.server')} value={server} failure={copyFailed === 'server' ? t('live.copyFailed') : null}>
        {copyButton('server', server)}
      </CopyRow>
      <CopyRow id="stream-info-key" label={t('live.key')} value={key.data.token} type={shown ? 'text' : 'password'} failure={copyFailed === 'key' ? t('live.copyFailed') : null}>
        <Button variant="outline" size="icon" data-testid="stream-info-show-key" aria-pressed={shown} aria-label={shown ? t('live.hide') : t('live.show')} onClick={() => setShown(!shown)}>
          {shown ? <EyeOff className="h-4 w-4" aria-hidden /> : <Eye className="h-4 w-4" aria-hidden />}
        </Button>
        {copyButton('key', key.data.token)}
      </CopyRow>
      <p className="text-sm text-zinc-700 dark:text-zinc-300">{t('live.obs')}</p>
      <div className="space-y-1">
        <p className="text-sm text-zinc-700 dark:text-zinc-300">{t('live.ffmpeg')}</p>
        <pre data-testid="stream-info-ffmpeg" className="overflow-x-auto whitespace-pre-wrap break-all rounded-lg bg-zinc-100 p-2 font-mono text-xs dark:bg-zinc-950">
          {`ffmpeg -re -i video.mp4 -c:v libx264 -preset veryfast -c:a aac -f flv "${server}${shown ? key.data.token : t('live.keyPlaceholder')}"`}
        </pre>
      </div>
    </div>
  );
}
