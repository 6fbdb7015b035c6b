'use client';
/**
 * The media player: the page's own <video> inside media-chrome's controller (components/player/
 * chrome.ts: play/pause, seek bar with buffered ranges, volume, speed, quality, audio track,
 * subtitles, picture-in-picture, fullscreen, keyboard shortcuts). The controls' code is downloaded
 * after the movie's first frame or when the viewer reaches for them (./use-chrome.ts), so the picture
 * and the first sync come first; until then the controller is an inert wrapper (./player-controls.tsx
 * once they are there). The layers over the picture stay in one box (docs/player.md "Overlays").
 *
 * Engines: one adapter per kind of source (./engines: the element itself, hls.js, mpegts.js,
 * dash.js; docs/player.md), each library downloaded only for a movie that needs it, run by
 * ./use-source.ts. An adapter plays
 * the source on the one <video>, tells why it cannot (the player then says it in words, probing the
 * URL), and hands its qualities and audio tracks to the menus (components/player/chrome.ts).
 *
 * The parent keys this component by movie. A new URL for the same movie (an EXPIRED refresh, another
 * of its sources, the proxy turned on) swaps the source on the same element; the sync engine, bound
 * to the element through `onVideo`, brings it back to where the room is (never the player itself: a
 * seek of its own would be taken for the viewer's). The controls act on the element itself, so local
 * actions still publish STATUS and remote ones still apply without echo.
 */
import { lazy, Suspense, useCallback, useEffect, useId, useRef, useState } from 'react';
import { clsx } from 'clsx';
import { useLocale, useT } from '@/lib/i18n';
import type { MovieSubtitle, SubtitleProblem } from '@/components/player/subtitles';
import type { SourceProblem } from '@/components/player/source-problems';
import { DEFAULT_VIEW, videoStyle, type PlayerView } from '@/components/player/view';
import { controllerHotkeys, PlayerControls } from './player-controls';
import { useChrome } from './use-chrome';
import { useElement } from './use-element';
import { guardSeekable } from './seekable-guard';
import { useMovieSubtitles } from './use-movie-subtitles';
import { useSource } from './use-source';
import { useTrackMenus } from './use-track-menus';
import '@/lib/i18n/messages/player';

export interface PlayerProps {
  /** Absolute URL to play (server-relative URLs already prefixed with the API origin). */
  url: string;
  /** The movie's `base.type` (e.g. `m3u8`, `mp4`; "" = guess from the URL). */
  type?: string;
  /** Headers to send with HLS, FLV and MPEG-TS requests (`base.headers`, non-proxied movies). */
  headers?: Record<string, string>;
  /** A live stream (`base.live`): no seek bar, and mpegts.js keeps latency low instead of buffering. */
  live?: boolean;
  /** The movie's subtitles (absolute URLs), offered in the captions menu. */
  subtitles?: MovieSubtitle[];
  /** Receives the <video> element on mount and null on unmount (the sync engine binds to it). */
  onVideo: (video: HTMLVideoElement | null) => void;
  /**
   * Whether this viewer may play, pause and seek (SetCurrentStatus, docs/contract.md §5.4). Without
   * it the play button and the seek bar are disabled with the reason, the keys and clicks that would
   * play, pause or seek do nothing, and volume, quality, subtitles and fullscreen stay theirs.
   */
  canControl?: boolean;
  /** Reports why the source cannot play (null once it plays again), for the panel's remedies. */
  onProblem?: (problem: SourceProblem | null) => void;
  /**
   * The movie is a broadcast pushed into the room (`base.rtmpSource`, docs/live.md): before the push
   * starts and after it ends the player says so, not an error, and tries again every
   * BROADCAST_RETRY_MS until the picture comes.
   */
  broadcast?: boolean;
  /** `c` in the player: the hall moves focus to the chat input. */
  onChatShortcut?: () => void;
  /** Layers over the picture (the danmaku overlay); they stay over it in fullscreen. */
  overlay?: React.ReactNode;
  /**
   * A notice with its own buttons in the middle of the control layer, over the layer that takes a
   * press on the picture for play or pause, and kept while the controls hide (the autoplay
   * refusal's "Join the room"); the controls load at once to hold it.
   */
  centerNotice?: React.ReactNode;
  /** Reports a subtitle that could not be loaded, in words (null when there is none). */
  onSubtitleProblem?: (text: string | null) => void;
  /** Switches the hall's theater mode (`t`); absent outside the viewing hall. */
  onToggleTheater?: () => void;
  /** Sends a line typed in the control bar as chat (it then flies as danmaku); absent for a viewer who may not chat. */
  onSendDanmaku?: (text: string) => boolean;
  /**
   * Where the room will be (s) once the media can play, read when the engine starts: hls.js loads
   * that fragment first instead of the first one, which the sync engine would seek away from (on a
   * phone's 1.6 Mbit/s, one 2 s fragment less before the first frame). Absent or negative: the start.
   */
  startPosition?: () => number;
}

/** The words for a source that cannot play, downloaded only when one cannot. */
const ProblemNotice = lazy(() => import('@/components/player/problem-notice'));

export function Player({ url, type, headers, live = false, broadcast = false, subtitles, onVideo, canControl = true, onProblem, onChatShortcut, overlay, centerNotice, onSubtitleProblem, onToggleTheater, onSendDanmaku, startPosition }: PlayerProps) {
  const t = useT();
  const [locale] = useLocale();
  const video = useElement<HTMLVideoElement>();
  const controller = useElement<HTMLElement>();
  const videoRef = video.ref;
  const attachVideo = video.attach;
  // Before React hands the element to anything that might read its seekable ranges (./seekable-guard.ts).
  const refVideo = useCallback(
    (node: HTMLVideoElement | null) => {
      if (node) guardSeekable(node);
      attachVideo(node);
    },
    [attachVideo],
  );
  const [view, setView] = useState<PlayerView>(DEFAULT_VIEW);
  const changeView = useCallback((patch: Partial<PlayerView>) => setView((current) => ({ ...current, ...patch })), []);
  const menuId = `player-settings-${useId().replace(/[^a-zA-Z0-9_-]/g, '')}`;
  const chrome = useChrome(videoRef, controller.ref);
  const { problem, offAir, engine } = useSource(videoRef, {
    url,
    type,
    headersKey: JSON.stringify(headers ?? {}),
    live,
    broadcast,
    startPosition: () => startPosition?.() ?? -1,
    onProblem,
  });
  const menuCounts = useTrackMenus(videoRef, engine, chrome.ready);
  // Switching the language must not reload the subtitles, so the words are read when a file fails.
  const tRef = useRef(t);
  useEffect(() => {
    tRef.current = t;
  });
  const subtitleProblem = useCallback(
    (failed: SubtitleProblem | null) => onSubtitleProblem?.(failed && tRef.current('player.subtitles.failed', { name: failed.name, detail: failed.detail })),
    [onSubtitleProblem],
  );
  useMovieSubtitles(videoRef, JSON.stringify(subtitles ?? []), view.subtitleOffsetSec, subtitleProblem);

  useEffect(() => {
    onVideo(videoRef.current);
    return () => onVideo(null);
  }, [onVideo, videoRef]);
  // A broadcast off the air shows its notice in the control layer's centre, and a problem in its top
  // layer: load it now. Until media-chrome defines the controller, its slots do not exist and the
  // notice would lie below the picture, out of sight.
  const loadChrome = chrome.load;
  const hasProblem = Boolean(problem);
  const hasCenterNotice = Boolean(centerNotice);
  useEffect(() => {
    if (offAir || hasProblem || hasCenterNotice) loadChrome();
  }, [offAir, hasProblem, hasCenterNotice, loadChrome]);
  // Web fullscreen ends with Escape, like fullscreen.
  useEffect(() => {
    if (!view.webFullscreen) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') changeView({ webFullscreen: false });
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [view.webFullscreen, changeView]);

  // `c` moves to the chat (media-chrome's own `c`, captions, is turned off: the captions menu stays);
  // `t` switches theater mode.
  const onKeyDown = (event: React.KeyboardEvent) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const action = event.key === 'c' ? onChatShortcut : event.key === 't' ? onToggleTheater : undefined;
    if (!action || (event.target as HTMLElement).closest('input, textarea, [contenteditable="true"]')) return;
    event.preventDefault();
    action();
  };

  // A host without HTTP Range cannot seek: the seek bar is disabled with the panel's words for it.
  const cannotSeek = problem?.kind === 'noRange';
  // Locked (touch screens): the bar goes and taps do nothing until the lock button is pressed again.
  const locked = view.locked;
  const reach = chrome.ready ? undefined : chrome.reach;
  return (
    // The controller is plain markup until components/player/chrome.ts defines its elements. It is a
    // size container, so that a forced aspect ratio can size the picture in its units (./view.ts).
    <media-controller
      ref={controller.attach}
      class={clsx(
        'relative mx-auto block aspect-video w-full max-w-[calc(var(--hall-video-max-h,100dvh)*16/9)] max-h-[var(--hall-video-max-h,100dvh)] overflow-hidden bg-black [container-type:size] sm:rounded-lg',
        view.webFullscreen && 'player-web-fullscreen',
      )}
      data-testid="player"
      lang={locale === 'zh' ? 'zh-CN' : 'en'}
      hotkeys={controllerHotkeys(canControl && !locked, cannotSeek)}
      gesturesdisabled={!canControl || locked || undefined}
      defaultstreamtype={live ? 'live' : 'on-demand'}
      onPointerEnter={reach}
      onPointerDown={reach}
      onFocus={reach}
      onKeyDown={onKeyDown}
    >
      <video ref={refVideo} slot="media" data-testid="player-video" className="h-full w-full" style={videoStyle(view)} playsInline preload="auto" tabIndex={-1} />
      {/*
        The layers over the picture, under the controls (media-chrome's media layer), in a box that
        stays as long as the player: media-chrome takes the removal of any `slot="media"` element
        that follows the <video> for the removal of the video itself and lets go of it, after which
        its controls show 0:00 and act on nothing (docs/player.md "Overlays").
      */}
      <div slot="media" data-testid="player-overlay" className="pointer-events-none absolute inset-0 overflow-hidden">
        {overlay}
      </div>
      {chrome.ready ? (
        <PlayerControls
          {...{ menuId, canControl, live, cannotSeek, menuCounts, view, onSendDanmaku }}
          onView={changeView}
          hasSubtitles={(subtitles?.length ?? 0) > 0}
          video={video.element}
          controller={controller.element}
        />
      ) : null}
      {broadcast && offAir && !problem ? (
        <p role="status" slot="centered-chrome" {...{ noautohide: '' }} data-testid="broadcast-off-air" data-state={offAir} className="pointer-events-none rounded-lg bg-black/60 px-4 py-2 text-center text-sm font-medium text-white">
          {t(offAir === 'waiting' ? 'player.broadcastWaiting' : 'player.broadcastEnded')}
        </p>
      ) : null}
      {centerNotice && !(broadcast && offAir) ? (
        <div slot="centered-chrome" {...{ noautohide: '' }} className="flex justify-center">
          {centerNotice}
        </div>
      ) : null}
      {problem && problem.kind !== 'noRange' ? (
        <Suspense fallback={null}>
          <ProblemNotice problem={problem} />
        </Suspense>
      ) : null}
    </media-controller>
  );
}
