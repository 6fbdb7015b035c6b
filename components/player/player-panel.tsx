'use client';
/**
 * The player's two areas of the hall (app/globals.css `.hall-video`, `.hall-info`): the video itself
 * (or, with nothing playing, what to do about it), and the info bar under it: the current movie's
 * name and what the room is doing (playing, paused, a speed other than 1×, live), the viewer count,
 * the sync indicator and button, theater mode; the source selector when the movie has
 * `moreSources`; the audio track and bitrate of an Emby/Jellyfin movie, and the sound and image
 * subtitle of a movie this server converts (`mediaChoices`, each viewer's own, converted by the
 * media server or this one); the danmaku switch and its settings; what helps
 * when the source cannot play; the autoplay notices; over the picture, who just did what. The movie,
 * the room's status, the viewer count and the socket state come from the room atoms.
 */
import { lazy, Suspense, useCallback, useMemo, useState } from 'react';
import Link from 'next/link';
import { getDefaultStore, useAtomValue } from 'jotai';
import { Eye, Film, ListVideo, MessageSquareText, Plus, RectangleHorizontal, RefreshCcw, RotateCw, Settings2, Volume2 } from 'lucide-react';
import { Notice } from '@/components/common/notice';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { danmakuSettingsOf, type DanmakuSettings } from '@/components/player/danmaku-source';
import type { SourceProblem } from '@/components/player/source-problems';
import type { ChatLine } from '@/hooks/use-chat';
import { useErrorDescription } from '@/hooks/use-error-description';
import { hasCurrentMovie, playableUrl, withMediaChoice, type MediaChoice } from '@/hooks/data/movies';
import type { Movie } from '@/lib/contract/types';
import { useLocale, useT } from '@/lib/i18n';
import { trackLabel } from './track-label';
import { currentMovieAtom, playbackStatusAtom, roomAbilitiesAtom, roomConnectionAtom, roomIdAtom, viewerCountAtom } from '@/lib/room/atoms';
import { tokenAtom } from '@/lib/session';
import { readDanmakuSettings, readDebugFlag, writeDanmakuSettings } from '@/lib/storage';
import { Denied } from '@/components/room/denied';
import { Player } from './player';
import { useFirstFrame } from './use-first-frame';
import { WatchOnlyReason } from './watch-only-reason';
import { AutoplayBlocked } from './autoplay-blocked';
import type { ActionNotice } from './room-action-notice';

const NO_NOTICE: ActionNotice = { id: 0, text: null };
import { RoomPlaybackLabel } from '@/components/room/room-playback-label';
import { SyncIndicator } from '@/components/room/sync-indicator';
import type { PlaybackSync } from '@/hooks/use-playback-sync';
import '@/lib/i18n/messages/cinema';
import '@/lib/i18n/messages/player';

export interface PlayerPanelProps {
  /** The current movie is still loading. */
  loading: boolean;
  /** Why the current movie could not be loaded (null when it was). */
  loadError: unknown;
  onRetryLoad: () => void;
  sync: PlaybackSync;
  onVideo: (video: HTMLVideoElement | null) => void;
  /** The room's chat lines (newest last): new ones also fly over the picture as danmaku. */
  chatLines: ChatLine[];
  /** The `c` key in the player: focus the chat input. */
  onChatShortcut?: () => void;
  /** Sends a line as chat (the player's danmaku input); absent for a viewer who may not chat. */
  onSendChat?: (text: string) => boolean;
  theater: boolean;
  onToggleTheater: () => void;
  /** Opens "Add a movie" (the empty player's button). */
  onAddMovie: () => void;
  /** The movie list has something to pick from. */
  hasMovies: boolean;
  /** What someone just did to the room, said over the picture for a moment. */
  actionNotice?: ActionNotice;
}

/** One playable source of a movie: the main URL (index 0) or one of `moreSources`. */
interface MovieSource {
  name: string;
  url: string;
  type: string;
}

/** The movie's sources, main first; URLs made absolute (server-relative ones get the API origin). */
function sourcesOf(movie: Movie, mainName: string): MovieSource[] {
  return [
    { name: mainName, url: playableUrl(movie.base.url), type: movie.base.type ?? '' },
    ...(movie.base.moreSources ?? []).map((source) => ({ name: source.name, url: playableUrl(source.url), type: source.type })),
  ];
}

/** Nothing chosen: the source as the media server gives it. */
const NO_MEDIA_CHOICE: MediaChoice = { audio: null, maxBitrate: null, subtitle: null };

/** The overlay, its settings and the remedies of a broken source: each downloaded when first shown. */
const DanmakuLayer = lazy(() => import('@/components/player/danmaku-layer').then((module) => ({ default: module.DanmakuLayer })));
const DanmakuSettingsForm = lazy(() => import('@/components/player/danmaku-settings-form'));
const ProblemRemedies = lazy(() => import('@/components/player/problem-notice').then((module) => ({ default: module.ProblemRemedies })));
const ProblemNotice = lazy(() => import('@/components/player/problem-notice'));
/** What an account adds and the ways to get one: downloaded for a visitor only. */
const GuestBanner = lazy(() => import('@/components/room/guest-banner'));
const SyncDebug = lazy(() => import('@/components/room/sync-debug'));

/**
 * The sync debug mode asked for by `?debug=` or localStorage `debug` (docs/sync.md "Debugging"):
 * `sync` shows the overlay under the player, `sync-record` only keeps the record as
 * `window.__synctvSyncDebug()` (nothing on the page moves), anything else neither.
 */
function syncDebugMode(): 'overlay' | 'record' | null {
  const asked = [new URLSearchParams(window.location.search).get('debug'), readDebugFlag()];
  if (asked.includes('sync')) return 'overlay';
  if (asked.includes('sync-record')) return 'record';
  return null;
}

/** Who just did what, over the picture: downloaded with the first such notice. */
const RoomActionNotice = lazy(() => import('./room-action-notice').then((module) => ({ default: module.RoomActionNotice })));

const prefersReducedMotion = () => typeof window !== 'undefined' && window.matchMedia?.('(prefers-reduced-motion: reduce)').matches === true;

/** Scrolls the movie list into view and focuses its first movie's play button (or the list). */
function showMovieList() {
  const list = document.querySelector<HTMLElement>('[data-testid="movie-list"]');
  list?.scrollIntoView({ behavior: 'smooth', block: 'start' });
  (list?.querySelector<HTMLElement>('[data-testid="movie-title"]') ?? list)?.focus({ preventScroll: true });
}

/** Lead (s) of hls.js's start position while the room plays: about the time its first fragment takes to come. */
const START_LEAD_SEC = 1;

/**
 * Where the room will be (s) when the player has its first data: the room's playback status (the
 * session's one truth) moved on to now, plus START_LEAD_SEC while it plays; −1 before it is known.
 */
function roomPositionSoon(): number {
  const playback = getDefaultStore().get(playbackStatusAtom);
  if (!playback) return -1;
  const { status, atMs } = playback;
  if (!status.isPlaying) return status.currentTime;
  return status.currentTime + ((Date.now() - atMs) / 1000 + START_LEAD_SEC) * status.playbackRate;
}

export function PlayerPanel({ loading, loadError, onRetryLoad, sync, onVideo, chatLines, onChatShortcut, onSendChat, theater, onToggleTheater, onAddMovie, hasMovies, actionNotice = NO_NOTICE }: PlayerPanelProps) {
  const t = useT();
  const [locale] = useLocale();
  // The error catalogue comes down with the first error (hooks/use-error-description.ts).
  const loadErrorDescription = useErrorDescription(loadError);
  const loadErrorText = loadErrorDescription?.message;
  const loaded = useAtomValue(currentMovieAtom);
  const movie = loaded && hasCurrentMovie(loaded.current) ? loaded.current.movie : null;
  const viewerCount = useAtomValue(viewerCountAtom);
  const roomId = useAtomValue(roomIdAtom) ?? '';
  const signedIn = useAtomValue(tokenAtom) !== null;
  // The sync button works only while the socket is open.
  const canSync = useAtomValue(roomConnectionAtom) === 'open';
  const abilities = useAtomValue(roomAbilitiesAtom);
  const canControl = abilities.canSetStatus;
  const [video, setVideo] = useState<HTMLVideoElement | null>(null);
  const [problem, setProblem] = useState<SourceProblem | null>(null);
  const [subtitleProblem, setSubtitleProblem] = useState<string | null>(null);
  const [picked, setPicked] = useState<{ movieId: string; index: number }>({ movieId: '', index: 0 });
  const [danmaku, setDanmaku] = useState<DanmakuSettings>(() => danmakuSettingsOf(readDanmakuSettings(), prefersReducedMotion()));
  const [danmakuOpen, setDanmakuOpen] = useState(false);
  // `?debug=sync` (or localStorage `debug` = `sync`, which survives navigation) shows the engine's phase and
  // decisions (components/room/sync-debug.tsx; docs/sync.md "Debugging"); `sync-record` keeps the record
  // without the overlay. The hall renders after mount only.
  const [debugSync] = useState(syncDebugMode);

  const handleVideo = useCallback(
    (element: HTMLVideoElement | null) => {
      setVideo(element);
      onVideo(element);
    },
    [onVideo],
  );
  const updateDanmaku = (patch: Partial<DanmakuSettings>) =>
    setDanmaku((previous) => {
      const next = { ...previous, ...patch };
      writeDanmakuSettings(next);
      return next;
    });

  const sources = useMemo(() => (movie ? sourcesOf(movie, t('player.source.main')) : []), [movie, t]);
  const sourceIndex = movie && picked.movieId === movie.id && picked.index < sources.length ? picked.index : 0;
  // A child of a dynamic folder is the folder's id with its own path (docs/vendors.md).
  const movieKey = movie ? `${movie.id}:${movie.subPath}` : '';
  // The viewer's audio track and bitrate of an Emby/Jellyfin movie's main source, or sound and image
  // subtitle of a converted movie, for this movie only.
  const [mediaChoice, setMediaChoice] = useState<MediaChoice & { movieKey: string }>({ movieKey: '', ...NO_MEDIA_CHOICE });
  const choices = sourceIndex === 0 ? movie?.base.mediaChoices : undefined;
  const choice: MediaChoice = choices && mediaChoice.movieKey === movieKey ? mediaChoice : NO_MEDIA_CHOICE;
  const chosen = choice.audio !== null || choice.maxBitrate !== null || choice.subtitle !== null;
  const source = chosen ? { ...sources[0], url: withMediaChoice(sources[0].url, choice), type: 'm3u8' } : sources[sourceIndex];
  const defaultAudio = choices?.audioTracks.find((track) => track.default)?.index ?? choices?.audioTracks[0]?.index ?? null;
  const choose = (patch: Partial<MediaChoice>) => {
    const next = { ...choice, ...patch };
    // The default track at the original bitrate is the source as it is.
    if (next.audio === defaultAudio) next.audio = null;
    setMediaChoice({ movieKey, ...next });
  };
  const subtitles = useMemo(
    () => Object.entries(movie?.base.subtitles ?? {}).map(([name, subtitle]) => ({ name, url: playableUrl(subtitle.url), type: subtitle.type })),
    [movie],
  );
  const liveOrControl = canControl || Boolean(movie?.base.live);
  // The danmaku layer's code waits for the video's first frame: before it, it would only compete
  // with the player for a phone's bandwidth (bench/first-frame.ts).
  const hasFrame = useFirstFrame(video);

  return (
    <>
      {/* On a phone the video spans the screen edge to edge. */}
      <div className="hall-video -mx-3 min-w-0 sm:mx-0">
        {movie && source ? (
          <Player
            key={movieKey}
            url={source.url}
            type={source.type}
            headers={sourceIndex === 0 ? movie.base.headers : undefined}
            live={Boolean(movie.base.live)}
            broadcast={Boolean(movie.base.rtmpSource)}
            subtitles={subtitles}
            onVideo={handleVideo}
            canControl={liveOrControl}
            onProblem={setProblem}
            onSubtitleProblem={setSubtitleProblem}
            onChatShortcut={onChatShortcut}
            onToggleTheater={onToggleTheater}
            onSendDanmaku={onSendChat}
            startPosition={roomPositionSoon}
            overlay={
              <>
                {danmaku.enabled && hasFrame ? (
                  <Suspense fallback={null}>
                    <DanmakuLayer video={video} settings={danmaku} lines={chatLines} fileUrl={movie.base.danmu ? playableUrl(movie.base.danmu) : ''} streamUrl={movie.base.streamDanmu ? playableUrl(movie.base.streamDanmu) : ''} />
                  </Suspense>
                ) : null}
                {actionNotice.text ? (
                  <Suspense fallback={null}>
                    <RoomActionNotice notice={actionNotice} />
                  </Suspense>
                ) : null}
              </>
            }
            centerNotice={sync.autoplay === 'blocked' ? <AutoplayBlocked onJoin={() => sync.manualSync()} /> : null}
          />
        ) : loading ? (
          <Skeleton className="mx-auto aspect-video max-h-[var(--hall-video-max-h)] w-full max-w-[calc(var(--hall-video-max-h)*16/9)] sm:rounded-lg" />
        ) : loadError ? (
          // Something plays in the room but its source could not be had (e.g. an AList file that is
          // gone): said on the stage, where the picture would be, not "nothing is playing".
          <div className={STAGE_CLASSES}>
            <p role="alert" data-testid="current-failed" className="text-base font-medium">
              {t('cinema.currentFailed', { error: loadErrorText ?? '…' })}
            </p>
            {/* A video each viewer watches with their own bilibili account (docs/vendors.md): the way to bind one. */}
            {loadErrorDescription?.text?.startsWith('bilibili: bind') ? (
              <Link href="/user/me#platforms" className="text-sm font-medium underline underline-offset-2" data-testid="current-failed-bind">
                {t('cinema.bindBilibili')}
              </Link>
            ) : null}
            <Button size="sm" variant="secondary" onClick={onRetryLoad}>
              <RotateCw className="h-3.5 w-3.5" aria-hidden />
              {t('cinema.error.retry')}
            </Button>
          </div>
        ) : (
          <EmptyStage roomId={roomId} onAddMovie={onAddMovie} hasMovies={hasMovies} />
        )}
      </div>

      <Card className="hall-info min-w-0">
        <section aria-label={t('cinema.player.title')} className="space-y-2 px-3 py-2.5 sm:px-4">
          <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
            <div className="flex min-w-0 flex-1 basis-full items-center gap-2 sm:basis-auto">
              <Film className="h-4 w-4 shrink-0 text-zinc-500" aria-hidden />
              {movie ? (
                <h2 data-testid="current-movie-name" className="truncate text-base font-semibold" title={movie.base.name}>
                  {movie.base.name}
                </h2>
              ) : (
                <h2 className="truncate text-base font-semibold text-zinc-600 dark:text-zinc-300">{t('cinema.player.nothing')}</h2>
              )}
              {movie?.base.live ? <Badge tone="red">{t('cinema.movies.live')}</Badge> : null}
              {movie && !movie.base.live ? <RoomPlaybackLabel readIndicator={sync.readIndicator} cannotPlay={problem !== null && problem.kind !== 'noRange'} loading={!hasFrame} /> : null}
            </div>
            <div className="flex items-center gap-2">
              <span
                data-testid="viewer-count"
                className="inline-flex items-center gap-1 text-sm tabular-nums text-zinc-600 dark:text-zinc-300"
                title={t('cinema.viewers')}
              >
                <Eye className="h-4 w-4" aria-hidden />
                <span className="sr-only">{t('cinema.viewers')}: </span>
                {viewerCount ?? '–'}
              </span>
              {movie ? <SyncIndicator read={sync.readIndicator} /> : null}
              <Button variant="outline" size="sm" data-testid="sync-button" disabled={!canSync} onClick={() => sync.manualSync()} title={t('cinema.sync.hint')}>
                <RefreshCcw className="h-3.5 w-3.5" aria-hidden />
                {t('cinema.sync.button')}
              </Button>
              {/* Theater mode changes the layout of wide windows only. */}
              <span className="hidden lg:contents">
                <Button
                  variant={theater ? 'secondary' : 'ghost'}
                  size="sm"
                  data-testid="theater-toggle"
                  aria-pressed={theater}
                  title={`${t('player.view.theaterOn')} (t)`}
                  onClick={onToggleTheater}
                >
                  <RectangleHorizontal className="h-4 w-4" aria-hidden />
                  {t('player.view.theaterOn')}
                </Button>
              </span>
            </div>
          </div>

          {debugSync && movie ? (
            <Suspense fallback={null}>
              <SyncDebug read={sync.readDebug} overlay={debugSync === 'overlay'} />
            </Suspense>
          ) : null}
          {movie ? (
            <div className="flex flex-wrap items-center gap-2">
              {sources.length > 1 ? (
                <BarSelect
                  label={t('player.source.label')}
                  testId="source-select"
                  value={sourceIndex}
                  options={sources.map((option, index) => ({ value: index, label: option.name || `#${index}` }))}
                  onChange={(value) => setPicked({ movieId: movie.id, index: Number(value) })}
                />
              ) : null}
              {choices && choices.audioTracks.length > 1 ? (
                <BarSelect
                  label={t('player.choice.audio')}
                  testId="audio-choice"
                  title={t('player.choice.hint')}
                  value={choice.audio ?? defaultAudio ?? ''}
                  options={choices.audioTracks.map((track) => ({ value: track.index, label: trackLabel(track, locale) }))}
                  onChange={(value) => choose({ audio: Number(value) })}
                />
              ) : null}
              {choices && choices.maxBitrates.length > 0 ? (
                <BarSelect
                  label={t('player.choice.quality')}
                  testId="bitrate-choice"
                  title={t('player.choice.hint')}
                  value={choice.maxBitrate ?? ''}
                  options={[{ value: '', label: t('player.choice.original') }, ...choices.maxBitrates.map((bitrate) => ({ value: bitrate, label: t('player.choice.bitrate', { mbps: bitrate / 1_000_000 }) }))]}
                  onChange={(value) => choose({ maxBitrate: value ? Number(value) : null })}
                />
              ) : null}
              {choices?.burnSubtitles?.length ? (
                <BarSelect
                  label={t('player.choice.burnSubtitle')}
                  testId="burn-subtitle-choice"
                  title={t('player.choice.burnHint')}
                  value={choice.subtitle ?? ''}
                  options={[{ value: '', label: t('player.choice.none') }, ...choices.burnSubtitles.map((subtitle) => ({ value: subtitle.index, label: trackLabel(subtitle, locale) }))]}
                  onChange={(value) => choose({ subtitle: value === '' ? null : Number(value) })}
                />
              ) : null}
              {chosen ? <span className="basis-full text-xs text-zinc-500 dark:text-zinc-400" data-testid="media-choice-hint">{t('player.choice.hint')}</span> : null}
              <div className="ml-auto flex items-center gap-1">
                <Button
                  size="sm"
                  variant={danmaku.enabled ? 'secondary' : 'outline'}
                  aria-pressed={danmaku.enabled}
                  data-testid="danmaku-toggle"
                  onClick={() => updateDanmaku({ enabled: !danmaku.enabled })}
                >
                  <MessageSquareText className="h-3.5 w-3.5" aria-hidden />
                  {danmaku.enabled ? t('player.danmaku.on') : t('player.danmaku.off')}
                </Button>
                <Button size="sm" variant="ghost" aria-expanded={danmakuOpen} aria-controls="danmaku-settings" aria-label={t('player.danmaku.settings')} title={t('player.danmaku.settings')} data-testid="danmaku-settings-toggle" onClick={() => setDanmakuOpen((open) => !open)}>
                  <Settings2 className="h-4 w-4" aria-hidden />
                </Button>
              </div>
            </div>
          ) : null}
          <Suspense fallback={null}>
            {movie && danmakuOpen ? <DanmakuSettingsForm settings={danmaku} onChange={updateDanmaku} /> : null}
            {movie && problem?.kind === 'noRange' ? <ProblemNotice problem={problem} /> : null}
            {movie && problem ? <ProblemRemedies movie={movie} problem={problem} onContinue={sync.continueAt} /> : null}
          </Suspense>
          {movie && subtitleProblem ? (
            <p data-testid="player-subtitle-problem" className="text-xs text-amber-700 dark:text-amber-400">
              {subtitleProblem}
            </p>
          ) : null}
          {movie && !liveOrControl ? <WatchOnlyReason /> : null}

          {sync.autoplay === 'muted' ? (
            <Notice tone="warning" testId="autoplay-muted-notice">
              <div className="flex flex-wrap items-center gap-2">
                <span className="flex-1">{t('cinema.autoplay.muted')}</span>
                <Button size="sm" variant="secondary" data-testid="autoplay-unmute" onClick={sync.unmute}>
                  <Volume2 className="h-3.5 w-3.5" aria-hidden />
                  {t('cinema.autoplay.unmute')}
                </Button>
              </div>
            </Notice>
          ) : null}
          {signedIn ? null : (
            <Suspense fallback={null}>
              <GuestBanner roomId={roomId} />
            </Suspense>
          )}
        </section>
      </Card>
    </>
  );
}

interface BarSelectProps {
  label: string;
  testId: string;
  /** A hint shown on hover. */
  title?: string;
  value: string | number;
  options: { value: string | number; label: string }[];
  onChange: (value: string) => void;
}

/** A labelled choice of the info bar (the source, an Emby movie's audio track and bitrate). */
function BarSelect({ label, testId, title, value, options, onChange }: BarSelectProps) {
  return (
    <label className="flex items-center gap-2 text-sm" title={title}>
      <span className="text-zinc-600 dark:text-zinc-300">{label}</span>
      <select
        data-testid={testId}
        className="h-9 max-w-[12rem] rounded-lg border border-zinc-300 bg-white px-2 text-sm dark:border-zinc-700 dark:bg-zinc-900"
        value={value}
        onChange={(event) => onChange(event.target.value)}
      >
        {options.map((option) => (
          <option key={`${option.value}:${option.label}`} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </label>
  );
}

/** A dark stage of the video's size, for what shows where the picture would be. */
const STAGE_CLASSES = 'mx-auto flex aspect-video max-h-[var(--hall-video-max-h)] w-full max-w-[calc(var(--hall-video-max-h)*16/9)] flex-col items-center justify-center gap-3 bg-zinc-900 px-4 text-center text-zinc-100 sm:rounded-lg';

interface EmptyStageProps {
  roomId: string;
  onAddMovie: () => void;
  hasMovies: boolean;
}

/**
 * Nothing plays: a dark stage of the video's size that says what to do: add a movie (which plays at
 * once), pick one from the list, or, for someone who may do neither, who can.
 */
function EmptyStage({ roomId, onAddMovie, hasMovies }: EmptyStageProps) {
  const t = useT();
  const abilities = useAtomValue(roomAbilitiesAtom);
  const canPick = abilities.canSetCurrentMovie && abilities.canListMovies && hasMovies;
  return (
    <div className={STAGE_CLASSES}>
      <Film className="h-10 w-10 text-zinc-400" aria-hidden />
      <p data-testid="cinema-empty" className="text-base font-medium">
        {abilities.canAddMovie ? t('cinema.player.emptyAdd') : canPick ? t('cinema.player.emptyPick') : t('cinema.player.emptyWait')}
      </p>
      <div className="flex flex-wrap justify-center gap-2">
        {abilities.canAddMovie ? (
          <Button data-testid="empty-add-movie" onClick={onAddMovie}>
            <Plus className="h-4 w-4" aria-hidden />
            {t('cinema.push.title')}
          </Button>
        ) : null}
        {canPick ? (
          <Button variant="secondary" data-testid="empty-pick-movie" onClick={showMovieList}>
            <ListVideo className="h-4 w-4" aria-hidden />
            {t('cinema.player.pick')}
          </Button>
        ) : null}
      </div>
      {!abilities.canAddMovie && !canPick ? <Denied roomId={roomId} what="add" onDark /> : null}
    </div>
  );
}
