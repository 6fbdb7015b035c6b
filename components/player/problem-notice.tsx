'use client';
/**
 * What the viewer reads when the current source cannot play, and what helps; downloaded only when a
 * source has a problem (components/player/source-problems.ts finds it). The alert sits in the
 * player's top layer (media-chrome's `top-chrome` slot), so it stays visible in fullscreen.
 */
import { useState } from 'react';
import { useAtomValue } from 'jotai';
import { Button } from '@/components/ui/button';
import { editMovie, setCurrentMovie } from '@/hooks/data/movies';
import type { Movie, MovieBase } from '@/lib/contract/types';
import { useT } from '@/lib/i18n';
import { notifyError } from '@/lib/notify';
import { describeError } from '@/lib/i18n/error-text';
import type { PlaybackState } from '@/lib/contract/playback';
import { playbackStatusAtom, roomAbilitiesAtom } from '@/lib/room/atoms';
import { publicSettingsAtom } from '@/lib/session';
import { roomIdAtom } from '@/lib/room/room-id';
import type { SourceProblem } from './source-problems';
import { NO_RANGE_REASON_ID } from './ids';
import '@/lib/i18n/messages/player-problem';
import '@/lib/i18n/messages/errors';

/** FLV's video codec ids (tag CodecID) and audio formats (SoundFormat) that browsers cannot decode. */
const FLV_VIDEO_CODECS: Record<string, string> = { '2': 'Sorenson H.263', '3': 'Screen Video', '4': 'On2 VP6', '5': 'On2 VP6 (alpha)', '6': 'Screen Video 2', '12': 'HEVC (H.265)' };
const FLV_AUDIO_CODECS: Record<string, string> = { '0': 'PCM', '1': 'ADPCM', '3': 'PCM', '4': 'Nellymoser', '5': 'Nellymoser', '6': 'Nellymoser', '7': 'G.711', '8': 'G.711', '11': 'Speex' };

/**
 * The codec named in mpegts.js's words (`Flv: Unsupported codec in video frame: 2`, `Flv: Unsupported
 * audio codec idx: 11`, or a four-character code of enhanced RTMP), in words a broadcaster knows.
 */
export function flvCodecName(message: string): string {
  const video = /video frame: (\S+)/.exec(message)?.[1];
  if (video) return FLV_VIDEO_CODECS[video] ?? video;
  const audio = /audio codec(?: idx)?: (\S+)/.exec(message)?.[1];
  if (audio) return FLV_AUDIO_CODECS[audio] ?? audio;
  return message || '?';
}

/** The sentence for a problem in the viewer's language. */
export function useProblemText(problem: SourceProblem): string {
  const t = useT();
  switch (problem.kind) {
    case 'unreachable':
      return t('playerProblem.problem.unreachable');
    case 'httpStatus':
      return t('playerProblem.problem.httpStatus', { status: problem.detail });
    case 'serverError':
      return describeError(problem.detail).message;
    case 'cors':
      return t('playerProblem.problem.cors');
    case 'mixedContent':
      return t('playerProblem.problem.mixedContent');
    case 'notMedia':
      return t('playerProblem.problem.notMedia', { type: problem.detail || '?' });
    case 'codec':
      return t('playerProblem.problem.codec');
    case 'broadcastCodec':
      return t('playerProblem.problem.broadcastCodec', { codec: flvCodecName(problem.detail) });
    case 'unplayable':
      return t('playerProblem.problem.unplayable');
    case 'unsupportedFormat':
      return t('playerProblem.problem.unsupportedFormat', { format: problem.detail });
    case 'noRange':
      return t('playerProblem.problem.noRange');
    default:
      return t('playerProblem.problem.unknown', { detail: problem.detail });
  }
}

/**
 * The problem as the player shows it: an alert over the picture, or, for a source without HTTP
 * Range (it plays, but nobody can seek in it or join it midway), a note under it, which the disabled
 * seek bar points to.
 */
export default function ProblemNotice({ problem }: { problem: SourceProblem }) {
  const text = useProblemText(problem);
  if (problem.kind === 'noRange') {
    return (
      <p id={NO_RANGE_REASON_ID} data-testid="player-no-range" className="text-xs text-amber-700 dark:text-amber-400">
        {text}
      </p>
    );
  }
  return (
    <div role="alert" slot="top-chrome" {...{ noautohide: '' }} data-testid="player-problem" className="w-full bg-red-600/90 px-3 py-2 text-sm leading-normal text-white">
      {text}
    </div>
  );
}

/**
 * The problems the movie proxy cures: the browser may not read the source (CORS), may not load it
 * (an http address on an https page), cannot reach it (a host only the server can reach), or the
 * host cannot seek (the proxy serves Range requests for it, server/proxy/range.ts).
 */
const PROXY_HELPS: ReadonlySet<SourceProblem['kind']> = new Set(['cors', 'mixedContent', 'unreachable', 'noRange']);

/**
 * The problems the server's conversion cures (docs/transcode.md): a codec or a container the browser
 * cannot decode, or an answer it cannot play.
 */
const CONVERT_HELPS: ReadonlySet<SourceProblem['kind']> = new Set(['codec', 'unplayable', 'unsupportedFormat']);

/**
 * Whether the server may convert `movie` when it does not play: the server converts (the companion
 * server with ffmpeg), and the movie is a film at an address that is not converted yet: not live, not
 * a push, not a vendor's (an Emby or Jellyfin movie's media server converts it; an AList movie's
 * `url` and subtitles here are the proxy's, with the viewer's token, which an edit must not store:
 * its edit dialog offers the switch), and not proxied (its `url` here is the proxy's too).
 */
export function mayConvert(movie: Movie, serverConverts: boolean): boolean {
  const base = movie.base;
  if (!serverConverts || base.convert || base.live || base.rtmpSource || base.vendorInfo?.vendor) return false;
  return !base.url.startsWith('/');
}

export interface ProblemRemediesProps {
  movie: Movie;
  problem: SourceProblem;
  /** Asks the room to go on from `status` (at local Unix ms `atMs`) once the movie plays again (use-playback-sync `continueAt`). */
  onContinue?: (movieId: string, status: PlaybackState, atMs: number) => void;
}

/**
 * What helps when the current movie cannot play: for CORS, mixed content, unreachable sources and
 * hosts that cannot seek, turning on the movie proxy; for a codec or format the browser cannot
 * decode, having the server convert it (mayConvert). The current movie cannot be edited
 * (docs/contract.md §4.5), so either stops it, edits it and plays it again, from where the room was
 * when the user may set the status. Offered only with EditMovie and SetCurrentMovie (disabled with
 * the reason otherwise). Renders nothing for other problems.
 */
export function ProblemRemedies({ movie, problem, onContinue }: ProblemRemediesProps) {
  const t = useT();
  const roomId = useAtomValue(roomIdAtom);
  const abilities = useAtomValue(roomAbilitiesAtom);
  const playback = useAtomValue(playbackStatusAtom);
  const [busy, setBusy] = useState(false);
  const serverConverts = useAtomValue(publicSettingsAtom)?.movieConvert === true;
  const proxyHelps = !movie.base.proxy && !movie.base.live && PROXY_HELPS.has(problem.kind);
  const convertHelps = CONVERT_HELPS.has(problem.kind) && mayConvert(movie, serverConverts);
  if ((!proxyHelps && !convertHelps) || !roomId) return null;
  const allowed = abilities.canEditMovie && abilities.canSetCurrentMovie;
  /**
   * Plays the movie again with `change` made: the proxy on, or the server converting it. When the
   * server refuses the edit (e.g. `local ip is not allowed`), the movie plays on unchanged and the
   * viewer is told why: the room never stays stopped.
   */
  const playWith = async (change: Partial<MovieBase>) => {
    setBusy(true);
    let refusal: unknown = null;
    try {
      await setCurrentMovie(roomId, '');
      await editMovie(roomId, movie.id, { ...movie.base, ...change }).catch((error: unknown) => {
        refusal = error;
      });
      // Playing it again restarts it at 0: the room goes on from where it was instead.
      if (playback && abilities.canSetStatus) onContinue?.(movie.id, playback.status, playback.atMs);
      await setCurrentMovie(roomId, movie.id, movie.subPath);
    } catch (error) {
      // The edit's refusal, if any, says more than a failure to play the movie again.
      refusal ??= error;
    } finally {
      setBusy(false);
    }
    if (refusal) notifyError(refusal);
  };
  return (
    <div className="flex flex-wrap items-center gap-2" data-testid="player-remedies">
      {proxyHelps ? (
        <Button size="sm" variant="secondary" disabled={!allowed || busy} title={allowed ? undefined : t('playerProblem.remedy.noEdit')} data-testid="remedy-proxy" onClick={() => void playWith({ proxy: true })}>
          {t('playerProblem.remedy.enableProxy')}
        </Button>
      ) : (
        <Button size="sm" variant="secondary" disabled={!allowed || busy} title={allowed ? undefined : t('playerProblem.remedy.noEdit')} data-testid="remedy-convert" onClick={() => void playWith({ convert: true })}>
          {t('playerProblem.remedy.convert')}
        </Button>
      )}
      {allowed ? null : <span className="text-xs text-zinc-600 dark:text-zinc-400">{t('playerProblem.remedy.noEdit')}</span>}
    </div>
  );
}
