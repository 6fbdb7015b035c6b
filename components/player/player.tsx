'use client';
/**
 * The media player: the page's own <video> inside media-chrome's controller (components/player/
 * chrome.ts: play/pause, seek bar with buffered ranges, volume, speed, quality, audio track,
 * subtitles, picture-in-picture, fullscreen, keyboard shortcuts). The controls' code is downloaded
 * 1.5 s after the movie's first frame (or as soon as the viewer points at, taps or focuses the
 * player, and then shown), so the picture and the first sync come first; until then the controller
 * is an inert wrapper. The layers over the picture stay in one box (docs/player.md "Overlays").
 *
 * Engines: one adapter per kind of source (./engines: the element itself, hls.js, mpegts.js,
 * dash.js; docs/player.md), each library downloaded only for a movie that needs it. An adapter plays
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
import type { MovieSubtitle } from '@/components/player/subtitles';
import type { SourceProblem } from '@/components/player/source-problems';
import { DEFAULT_VIEW, PLAYBACK_RATES, videoStyle, type PlayerView } from '@/components/player/view';
import type { AssRenderer, AttachedSubtitles } from '@/components/player/subtitles';
import { attachEngine, preloadLibrary, type TrackEngine } from './engines';
import { NO_RANGE_REASON_ID } from './ids';
import { sourceKind, type SourceKind } from '@/lib/media/source-kind';
import '@/lib/i18n/messages/cinema';
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

/** The id of the words that say why play and seek are disabled (WatchOnlyReason), which the play button points to. */
export const WATCH_ONLY_REASON_ID = 'watch-only-reason';

/** Why a viewer without playback control cannot play, pause or seek; the player's play button is described by it. */
export function WatchOnlyReason() {
  const t = useT();
  return (
    <p id={WATCH_ONLY_REASON_ID} data-testid="watch-only-reason" className="text-xs text-zinc-600 dark:text-zinc-300">
      {t('cinema.player.watchOnly')}
    </p>
  );
}

/**
 * Starts downloading the engine a source needs (hls.js light, mpegts.js, dash.js) before the player
 * mounts: the hall calls it as soon as the current movie is known, so the engine's code comes down
 * while the hall renders instead of after (bench/first-frame.ts). The browser fetches a chunk once,
 * so calling it again costs nothing; a failed download is reported by the player when it mounts.
 */
export function preloadEngine(url: string, type = ''): void {
  preloadLibrary(sourceKind(url, type));
}

/** What failed, for `explainProblem`. */
interface Failure {
  url: string;
  kind: SourceKind;
  headers: Record<string, string>;
  /** The engine's own words. */
  detail: string;
  /** A MediaError code for a decoding failure. */
  mediaErrorCode?: number;
}

/**
 * Says why a source failed, in words: at once in the engine's words, then, once a probe of the URL
 * has answered (components/player/source-problems.ts, downloaded only when something failed), as
 * unreachable, an HTTP status, CORS, mixed content, not media or codec. `stale()` is true once the
 * source is no longer the player's.
 */
function explainProblem(failure: Failure, report: (problem: SourceProblem) => void, stale: () => boolean): void {
  const { url, kind, headers, detail, mediaErrorCode } = failure;
  report({ kind: 'unknown', detail });
  void import('@/components/player/source-problems')
    .then(async ({ describeSourceProblem, diagnoseSource }) => {
      const diagnosis = await diagnoseSource(url, headers);
      if (!stale()) report(describeSourceProblem(diagnosis, { url, engine: kind, mediaErrorCode, detail, pageProtocol: window.location.protocol }));
    })
    .catch(() => undefined);
}

/** The controls load at the latest this long (ms) after mount, even if no frame ever comes. */
const CHROME_FALLBACK_MS = 6000;
/** How long (ms) after the first frame the controls wait, unless the viewer reaches for them. */
const CHROME_DELAY_MS = 1500;
/** Longest wait (ms) for an idle moment after the first frame before the controls load anyway. */
const CHROME_IDLE_TIMEOUT_MS = 1000;
/** Keys media-chrome must ignore for a viewer without playback control (play, pause, seek). */
const WATCH_ONLY_HOTKEYS = 'nospace nok noarrowleft noarrowright noj nol no< no> noc';
/** `c` is the hall's chat shortcut here, not captions. */
const HOTKEYS = 'noc';

/** The words for a source that cannot play, downloaded only when one cannot. */
const ProblemNotice = lazy(() => import('@/components/player/problem-notice'));
/** The view's menus and buttons (aspect ratio, flip, subtitle offset, web fullscreen, touch), with the controls. */
const ViewMenus = lazy(() => import('@/components/player/view-controls').then((module) => ({ default: module.ViewMenus })));
const ViewBarButtons = lazy(() => import('@/components/player/view-controls').then((module) => ({ default: module.ViewBarButtons })));
const TouchControls = lazy(() => import('@/components/player/view-controls').then((module) => ({ default: module.TouchControls })));
const DanmakuInput = lazy(() => import('@/components/player/view-controls').then((module) => ({ default: module.DanmakuInput })));
const MiniProgress = lazy(() => import('@/components/player/view-controls').then((module) => ({ default: module.MiniProgress })));

let chromeModule: Promise<typeof import('@/components/player/chrome')> | null = null;
/** Downloads (once) and defines the control layer's custom elements. */
function loadChrome() {
  chromeModule ??= import('@/components/player/chrome');
  return chromeModule;
}

/** Keys media-chrome must ignore where the source cannot seek. */
const NO_SEEK_HOTKEYS = 'noarrowleft noarrowright noj nol';

/** How often a player waiting for a broadcast tries again, ms. */
export const BROADCAST_RETRY_MS = 2000;

export function Player({
  url,
  type,
  headers,
  live = false,
  broadcast = false,
  subtitles,
  onVideo,
  canControl = true,
  onProblem,
  onChatShortcut,
  overlay,
  onSubtitleProblem,
  onToggleTheater,
  onSendDanmaku,
  startPosition,
}: PlayerProps) {
  const t = useT();
  const [locale] = useLocale();
  const videoRef = useRef<HTMLVideoElement>(null);
  // Read when an engine starts, without restarting it when the function changes.
  const startAt = useRef(startPosition);
  useEffect(() => {
    startAt.current = startPosition;
  });
  const controllerRef = useRef<HTMLElement>(null);
  const [problem, setProblem] = useState<SourceProblem | null>(null);
  // A broadcast not started yet or ended (then the engine starts again: `attempt` counts the tries).
  const [offAir, setOffAir] = useState<'waiting' | 'ended' | null>(null);
  const [attempt, setAttempt] = useState(0);
  const [engine, setEngine] = useState<TrackEngine | null>(null);
  /** This player has had the broadcast on the air: off the air from now on means it ended. */
  const aired = useRef(false);
  const [chromeReady, setChromeReady] = useState(false);
  const [view, setView] = useState<PlayerView>(DEFAULT_VIEW);
  const changeView = useCallback((patch: Partial<PlayerView>) => setView((current) => ({ ...current, ...patch })), []);
  const subtitlesRef = useRef<AttachedSubtitles | null>(null);
  const onSubtitleProblemRef = useRef(onSubtitleProblem);
  const menuId = `player-settings-${useId().replace(/[^a-zA-Z0-9_-]/g, '')}`;
  const headersKey = JSON.stringify(headers ?? {});
  const subtitlesKey = JSON.stringify(subtitles ?? []);
  // Switching the language must not reload the media, so the source effect reads these through refs.
  const tRef = useRef(t);
  const onProblemRef = useRef(onProblem);
  useEffect(() => {
    tRef.current = t;
    onProblemRef.current = onProblem;
    onSubtitleProblemRef.current = onSubtitleProblem;
  });

  const problemRef = useRef<SourceProblem | null>(null);
  const report = useCallback((next: SourceProblem | null) => {
    problemRef.current = next;
    setProblem(next);
    onProblemRef.current?.(next);
  }, []);

  useEffect(() => {
    onVideo(videoRef.current);
    return () => onVideo(null);
  }, [onVideo]);

  // The control layer: after the first frame, on the viewer's first reach for it, or after a while.
  const startChrome = useCallback(() => {
    void loadChrome().then(() => setChromeReady(true), () => undefined);
  }, []);
  // The viewer reached for the controls before they had loaded (a tap, a pointer, the keyboard):
  // the controller comes up hiding them, so once it is there they are shown as media-chrome shows
  // them on a pointer move (for its autohide time), not hidden under the viewer's finger.
  const reached = useRef(false);
  const reach = useCallback(() => {
    reached.current = true;
    startChrome();
  }, [startChrome]);
  useEffect(() => {
    if (!chromeReady || !reached.current || typeof PointerEvent !== 'function') return;
    controllerRef.current?.dispatchEvent(new PointerEvent('pointermove', { pointerType: 'mouse', bubbles: true }));
  }, [chromeReady]);
  useEffect(() => {
    const video = videoRef.current;
    if (!video) return;
    // A while after the first frame, when the page is idle: the picture's own requests, and the sync
    // engine's first seek to the room's position, go first (evaluating the controls is a long task
    // that would otherwise delay hls.js's appends right when a late joiner catches up).
    let idle: number | undefined;
    let delay: ReturnType<typeof setTimeout> | undefined;
    const whenIdle = () => {
      idle = typeof requestIdleCallback === 'function' ? requestIdleCallback(startChrome, { timeout: CHROME_IDLE_TIMEOUT_MS }) : window.setTimeout(startChrome, 0);
    };
    const afterFirstFrame = () => {
      delay = setTimeout(whenIdle, CHROME_DELAY_MS);
    };
    video.addEventListener('loadeddata', afterFirstFrame, { once: true });
    const fallback = setTimeout(startChrome, CHROME_FALLBACK_MS);
    return () => {
      video.removeEventListener('loadeddata', afterFirstFrame);
      clearTimeout(fallback);
      clearTimeout(delay);
      if (idle !== undefined && typeof cancelIdleCallback === 'function') cancelIdleCallback(idle);
    };
  }, [startChrome]);

  // A broadcast off the air shows its notice in the control layer's centre: load it now.
  useEffect(() => {
    if (offAir) startChrome();
  }, [offAir, startChrome]);

  // The source: one engine adapter per URL (./engines); the element stays.
  useEffect(() => {
    const video = videoRef.current;
    if (!video) return;
    let cancelled = false;
    const headers = JSON.parse(headersKey) as Record<string, string>;
    const kind = sourceKind(url, type);
    // A broadcast's problem (a codec) stays up across its retries, until the picture comes.
    if (!broadcast) report(null);
    /** A broadcast's next try while it is off the air. */
    let retry: ReturnType<typeof setTimeout> | undefined;
    const offAirNow = () => {
      if (cancelled) return;
      clearTimeout(retry);
      // Once on the air in this player, off the air is the end of the broadcast until it comes back.
      setOffAir((previous) => (previous === 'ended' || aired.current || video.readyState > 0 || video.currentTime > 0 ? 'ended' : 'waiting'));
      retry = setTimeout(() => setAttempt((count) => count + 1), BROADCAST_RETRY_MS);
    };
    const adapter = attachEngine(
      { video, url, kind, headers, live, broadcast, startPosition: () => startAt.current?.() ?? -1 },
      {
        fail: (detail, mediaErrorCode) => {
          if (!cancelled) explainProblem({ url, kind, headers, detail, mediaErrorCode }, report, () => cancelled);
        },
        report: (problem) => {
          if (!cancelled) report(problem);
        },
        offAir: offAirNow,
        tracks: (engine) => {
          if (!cancelled) setEngine(engine);
        },
      },
    );
    // Pictures again: whatever failed before works now (a host that came back; a host that cannot
    // seek is told after its metadata and stays told).
    const onData = () => report(problemRef.current?.kind === 'noRange' ? problemRef.current : null);
    video.addEventListener('loadeddata', onData);
    const onAir = () => {
      aired.current = true;
      setOffAir(null);
      report(null);
    };
    if (broadcast) {
      video.addEventListener('playing', onAir);
      // HLS: the playlist's end mark, once the last segment has played.
      video.addEventListener('ended', offAirNow);
    }
    return () => {
      cancelled = true;
      clearTimeout(retry);
      adapter.stop();
      video.removeEventListener('loadeddata', onData);
      video.removeEventListener('playing', onAir);
      video.removeEventListener('ended', offAirNow);
      setEngine(null);
      video.removeAttribute('src');
      video.load();
    };
  }, [url, type, headersKey, live, broadcast, attempt, report]);

  // Qualities and audio tracks in the menus, once both the engine and the controls are there (the
  // controls' module is not asked for before: the picture comes first).
  useEffect(() => {
    const video = videoRef.current;
    if (!video || !engine || !chromeReady) return;
    let stop: (() => void) | null = null;
    let cancelled = false;
    loadChrome()
      .then(({ bridgeTracks, hlsTrackSource, dashTrackSource }) => {
        if (cancelled) return;
        const source = engine.kind === 'hls' ? hlsTrackSource(engine.hls, engine.events) : dashTrackSource(engine.player as never, engine.streamInitialized);
        stop = bridgeTracks(video, source);
      })
      .catch(() => undefined);
    return () => {
      cancelled = true;
      stop?.();
    };
  }, [engine, chromeReady]);

  // The movie's subtitles as text tracks (ASS through libass), downloaded only when there are some.
  useEffect(() => {
    const video = videoRef.current;
    const list = JSON.parse(subtitlesKey) as MovieSubtitle[];
    if (!video || list.length === 0) return;
    let cancelled = false;
    onSubtitleProblemRef.current?.(null);
    const onProblem = ({ name, detail }: { name: string; detail: string }) => onSubtitleProblemRef.current?.(tRef.current('player.subtitles.failed', { name, detail }));
    void import('@/components/player/subtitles').then(({ attachSubtitles }) => {
      if (cancelled) return;
      subtitlesRef.current = attachSubtitles(
        video,
        list,
        (subtitle, offsetSec) => {
          let renderer: AssRenderer | null = null;
          let released = false;
          let offset = offsetSec;
          import('@/components/player/ass')
            .then(({ renderAss }) => renderAss(video, subtitle.url, offset))
            .then((started) => {
              if (released) started.stop();
              else renderer = started;
            })
            .catch((error: unknown) => onProblem({ name: subtitle.name, detail: error instanceof Error ? error.message : String(error) }));
          return {
            stop: () => {
              released = true;
              renderer?.stop();
            },
            setOffset: (next) => {
              offset = next;
              renderer?.setOffset(next);
            },
          };
        },
        onProblem,
      );
      subtitlesRef.current.setOffset(viewRef.current.subtitleOffsetSec);
    });
    return () => {
      cancelled = true;
      subtitlesRef.current?.stop();
      subtitlesRef.current = null;
    };
  }, [subtitlesKey]);

  // The subtitle offset follows the view (the tracks above read it when they are attached).
  const viewRef = useRef(view);
  viewRef.current = view;
  useEffect(() => subtitlesRef.current?.setOffset(view.subtitleOffsetSec), [view.subtitleOffsetSec]);

  // Web fullscreen ends with Escape, like fullscreen.
  useEffect(() => {
    if (!view.webFullscreen) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') changeView({ webFullscreen: false });
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [view.webFullscreen, changeView]);

  // Menus with nothing to choose are left out (as the reference client hides a control with ≤ 1 option).
  const [menuCounts, setMenuCounts] = useState({ qualities: 0, audio: 0, subtitles: 0 });
  useEffect(() => {
    const video = videoRef.current as (HTMLVideoElement & { videoRenditions?: EventTarget & { length: number }; audioTracks?: EventTarget & { length: number } }) | null;
    if (!video || !chromeReady) return;
    const count = () =>
      setMenuCounts({
        qualities: video.videoRenditions?.length ?? 0,
        audio: video.audioTracks?.length ?? 0,
        subtitles: Array.from(video.textTracks ?? []).filter((track) => track.kind === 'subtitles' || track.kind === 'captions').length,
      });
    count();
    const lists = [video.videoRenditions, video.audioTracks, video.textTracks as (TextTrackList & { length: number }) | undefined].filter((list): list is EventTarget & { length: number } => typeof list?.addEventListener === 'function');
    const events = ['addtrack', 'removetrack', 'addrendition', 'removerendition'];
    for (const list of lists) for (const name of events) list.addEventListener(name, count);
    return () => {
      for (const list of lists) for (const name of events) list.removeEventListener(name, count);
    };
  }, [chromeReady]);

  // `c` moves to the chat (media-chrome's own `c`, captions, is turned off: the captions menu stays);
  // `t` switches theater mode.
  const onKeyDown = (event: React.KeyboardEvent) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const action = event.key === 'c' ? onChatShortcut : event.key === 't' ? onToggleTheater : undefined;
    if (!action) return;
    const target = event.target as HTMLElement;
    if (target.closest('input, textarea, [contenteditable="true"]')) return;
    event.preventDefault();
    action();
  };

  const controlDisabled = !canControl;
  // A host without HTTP Range cannot seek: the seek bar is disabled with the panel's words for it.
  const cannotSeek = problem?.kind === 'noRange';
  const seekDisabled = controlDisabled || cannotSeek;
  const hasSubtitles = (subtitles?.length ?? 0) > 0;
  // Locked (touch screens): the bar goes and taps do nothing until the lock button is pressed again.
  const locked = view.locked;
  return (
    // The controller is plain markup until components/player/chrome.ts defines its elements. It is a
    // size container, so that a forced aspect ratio can size the picture in its units (./view.ts).
    <media-controller
      ref={controllerRef}
      class={clsx(
        'relative mx-auto block aspect-video w-full max-w-[calc(var(--hall-video-max-h,100dvh)*16/9)] max-h-[var(--hall-video-max-h,100dvh)] overflow-hidden bg-black [container-type:size] sm:rounded-lg',
        view.webFullscreen && 'player-web-fullscreen',
      )}
      data-testid="player"
      lang={locale === 'zh' ? 'zh-CN' : 'en'}
      hotkeys={canControl && !locked ? (cannotSeek ? `${HOTKEYS} ${NO_SEEK_HOTKEYS}` : HOTKEYS) : WATCH_ONLY_HOTKEYS}
      gesturesdisabled={controlDisabled || locked || undefined}
      defaultstreamtype={live ? 'live' : 'on-demand'}
      onPointerEnter={chromeReady ? undefined : reach}
      onPointerDown={chromeReady ? undefined : reach}
      onFocus={chromeReady ? undefined : reach}
      onKeyDown={onKeyDown}
    >
      <video ref={videoRef} slot="media" data-testid="player-video" className="h-full w-full" style={videoStyle(view)} playsInline preload="auto" tabIndex={-1} />
      {/*
        The layers over the picture, under the controls (media-chrome's media layer), in a box that
        stays as long as the player: media-chrome takes the removal of any `slot="media"` element
        that follows the <video> for the removal of the video itself and lets go of it, after which
        its controls show 0:00 and act on nothing (docs/player.md "Overlays").
      */}
      <div slot="media" data-testid="player-overlay" className="pointer-events-none absolute inset-0 overflow-hidden">
        {overlay}
      </div>
      {chromeReady ? (
        <>
          <media-loading-indicator slot="centered-chrome" noautohide>
            {/* Our own spinner: media-chrome's keeps the page redrawing while hidden (app/globals.css `.player-spinner`). */}
            <svg slot="icon" className="player-spinner" viewBox="0 0 24 24" aria-hidden>
              <path d="M21 12a9 9 0 1 1-6.219-8.56" />
            </svg>
          </media-loading-indicator>
          <media-settings-menu id={menuId} hidden anchor="auto">
            {canControl && !live ? (
              <media-settings-menu-item>
                {t('player.menu.speed')}
                <media-playback-rate-menu slot="submenu" hidden rates={PLAYBACK_RATES} data-testid="player-speed-menu">
                  <div slot="title">{t('player.menu.speed')}</div>
                </media-playback-rate-menu>
              </media-settings-menu-item>
            ) : null}
            {(
              [
                ['quality', 'media-rendition-menu', menuCounts.qualities > 1],
                ['audio', 'media-audio-track-menu', menuCounts.audio > 1],
                ['subtitles', 'media-captions-menu', menuCounts.subtitles > 0],
              ] as const
            ).map(([name, Menu, shown]) => (
              <media-settings-menu-item key={name} hidden={!shown || undefined}>
                {t(`player.menu.${name}`)}
                <Menu slot="submenu" hidden>
                  <div slot="title">{t(`player.menu.${name}`)}</div>
                </Menu>
              </media-settings-menu-item>
            ))}
            <Suspense fallback={null}>
              <ViewMenus view={view} onView={changeView} hasSubtitles={hasSubtitles} />
            </Suspense>
          </media-settings-menu>
          <media-control-bar class="w-full" data-testid="player-controls" hidden={locked || undefined}>
            <media-play-button data-testid={canControl ? 'player-play' : 'watch-only-play'} disabled={controlDisabled || undefined} aria-disabled={controlDisabled ? 'true' : undefined} aria-describedby={controlDisabled ? WATCH_ONLY_REASON_ID : undefined} />
            {live ? (
              <media-live-button disabled={controlDisabled || undefined} />
            ) : (
              <media-time-range
                class="min-w-0 flex-1"
                disabled={seekDisabled || undefined}
                aria-disabled={seekDisabled ? 'true' : undefined}
                aria-describedby={controlDisabled ? WATCH_ONLY_REASON_ID : cannotSeek ? NO_RANGE_REASON_ID : undefined}
                data-testid="player-seek"
              />
            )}
            {live ? <span className="flex-1" /> : <media-time-display showduration notoggle class="hidden sm:flex" />}
            {onSendDanmaku ? (
              <Suspense fallback={null}>
                <DanmakuInput onSend={onSendDanmaku} />
              </Suspense>
            ) : null}
            <media-mute-button data-testid="player-mute" />
            <media-volume-range class="hidden sm:flex" />
            <media-settings-menu-button invoketarget={menuId} data-testid="player-settings" />
            <Suspense fallback={null}>
              <ViewBarButtons view={view} onView={changeView} />
            </Suspense>
            <media-pip-button />
            <media-fullscreen-button data-testid="player-fullscreen" />
          </media-control-bar>
          <Suspense fallback={null}>
            <TouchControls view={view} onView={changeView} video={videoRef.current} controller={controllerRef.current} canFastForward={canControl && !live && !cannotSeek} />
            {live ? null : <MiniProgress video={videoRef.current} />}
          </Suspense>
        </>
      ) : null}
      {broadcast && offAir && !problem ? (
        <p
          role="status"
          slot="centered-chrome"
          {...{ noautohide: '' }}
          data-testid="broadcast-off-air"
          data-state={offAir}
          className="pointer-events-none rounded-lg bg-black/60 px-4 py-2 text-center text-sm font-medium text-white"
        >
          {t(offAir === 'waiting' ? 'player.broadcastWaiting' : 'player.broadcastEnded')}
        </p>
      ) : null}
      {problem && problem.kind !== 'noRange' ? (
        <Suspense fallback={null}>
          <ProblemNotice problem={problem} />
        </Suspense>
      ) : null}
    </media-controller>
  );
}
