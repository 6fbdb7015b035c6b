'use client';
/**
 * The media player: a real <video> with native controls. HLS (m3u8) goes through hls.js, loaded on
 * demand so only the viewing hall pays for it: first the light build (`hls.js/light`), and the full
 * build only when a playlist the light instance loaded needs it (alternate audio, subtitles/captions,
 * DRM, EXT-X-DEFINE, interstitials, HEVC/AC-3; see ./hls-build.ts). Playlists are checked as they
 * arrive, so the switch comes before the first segment is appended (unless a later live reload
 * brings, say, DRM keys): the light instance is destroyed and the full one plays on the same
 * <video>, with the same headers and recoveries. Safari's native HLS is the fallback where Media
 * Source Extensions are missing. FLV and MPEG-TS (live or not) go through mpegts.js and DASH through
 * dash.js, each downloaded only for a movie that needs it; mp4, WebM and anything else play
 * natively. The parent keys this component
 * by movie, so a new movie gets a fresh element and the old hls.js instance is destroyed; an unmount
 * or URL change also cancels a pending switch to the full build.
 */
import { useEffect, useRef, useState } from 'react';
import { Maximize, Pause, Play, Volume2, VolumeX } from 'lucide-react';
import type Hls from 'hls.js';
import { useT } from '@/lib/i18n';
import { needsFullHlsBuild, type HlsPlaylistFacts } from './hls-build';
import '@/lib/i18n/messages/cinema';

export interface PlayerProps {
  /** Absolute URL to play (server-relative URLs already prefixed with the API origin). */
  url: string;
  /** The movie's `base.type` (e.g. `m3u8`, `mp4`; "" = guess from the URL). */
  type?: string;
  /** Headers to send with HLS, FLV and MPEG-TS requests (`base.headers`, non-proxied movies). */
  headers?: Record<string, string>;
  /** A live stream (`base.live`): mpegts.js then keeps latency low instead of buffering ahead. */
  live?: boolean;
  /** Receives the <video> element on mount and null on unmount (the sync engine binds to it). */
  onVideo: (video: HTMLVideoElement | null) => void;
  /**
   * Whether this viewer may play, pause and seek (SetCurrentStatus, server-contract.md §5.4). Without
   * it the native controls are replaced by a bar whose play button is disabled with the reason, and
   * which keeps volume and fullscreen.
   */
  canControl?: boolean;
}

/** Which engine plays a source: hls.js, mpegts.js (FLV or MPEG-TS), dash.js, or the element itself. */
export type SourceKind = 'hls' | 'flv' | 'mpegts' | 'dash' | 'native';

const TYPE_KINDS: Record<string, SourceKind> = { m3u8: 'hls', m3u: 'hls', hls: 'hls', flv: 'flv', mpegts: 'mpegts', ts: 'mpegts', m2ts: 'mpegts', mpd: 'dash', dash: 'dash' };
const EXTENSION_KINDS: [string, SourceKind][] = [
  ['.m3u8', 'hls'],
  ['.m3u', 'hls'],
  ['.flv', 'flv'],
  ['.ts', 'mpegts'],
  ['.m2ts', 'mpegts'],
  ['.mpd', 'dash'],
];

/**
 * The engine for a movie: its `type` when set (m3u8, flv, mpegts/ts, mpd…; anything else plays
 * natively), else the URL path's extension, ignoring the query.
 */
export function sourceKind(url: string, type = ''): SourceKind {
  const kind = type.trim().toLowerCase();
  if (kind) return TYPE_KINDS[kind] ?? 'native';
  const path = url.split(/[?#]/)[0].toLowerCase();
  return EXTENSION_KINDS.find(([extension]) => path.endsWith(extension))?.[1] ?? 'native';
}

/** True when the movie is HLS: type m3u8/m3u, or a URL path ending in .m3u8/.m3u. */
export function isHlsSource(url: string, type = ''): boolean {
  return sourceKind(url, type) === 'hls';
}

/** hls.js recoveries tried before a fatal error is shown. */
const MAX_HLS_RECOVERIES = 3;

export function Player({ url, type, headers, live = false, onVideo, canControl = true }: PlayerProps) {
  const t = useT();
  const videoRef = useRef<HTMLVideoElement>(null);
  const [error, setError] = useState<string | null>(null);
  const headersKey = JSON.stringify(headers ?? {});
  // Switching the language must not reload the media, so the source effect reads `t` through a ref.
  const tRef = useRef(t);
  useEffect(() => {
    tRef.current = t;
  });

  useEffect(() => {
    onVideo(videoRef.current);
    return () => onVideo(null);
  }, [onVideo]);

  useEffect(() => {
    const video = videoRef.current;
    if (!video) return;
    let hls: Hls | null = null;
    let cancelled = false;
    const requestHeaders = JSON.parse(headersKey) as Record<string, string>;
    setError(null);

    const showImportError = (importError: unknown) => {
      if (!cancelled) setError(tRef.current('cinema.player.loadFailed', { detail: String(importError) }));
    };

    /** Plays the URL with one hls.js build; the light one hands over to the full one when needed. */
    const startHls = (HlsClass: typeof Hls, build: 'light' | 'full') => {
      let recoveries = 0;
      const instance = new HlsClass({
        startLevel: -1,
        xhrSetup: (xhr) => {
          for (const [name, value] of Object.entries(requestHeaders)) xhr.setRequestHeader(name, value);
        },
      });
      instance.on(HlsClass.Events.ERROR, (_event, data) => {
        // A light instance being replaced by the full build has nothing more to say.
        if (!data.fatal || hls !== instance) return;
        if (recoveries < MAX_HLS_RECOVERIES && data.type === HlsClass.ErrorTypes.NETWORK_ERROR) {
          recoveries += 1;
          instance.startLoad();
        } else if (recoveries < MAX_HLS_RECOVERIES && data.type === HlsClass.ErrorTypes.MEDIA_ERROR) {
          recoveries += 1;
          instance.recoverMediaError();
        } else {
          setError(tRef.current('cinema.player.loadFailed', { detail: data.details }));
          instance.destroy();
          hls = null;
        }
      });
      if (build === 'light') {
        // The multivariant (or single media) playlist, then each media playlist: both can ask for more.
        const check = (facts: HlsPlaylistFacts) => {
          if (hls === instance && needsFullHlsBuild(facts)) switchToFullBuild(instance);
        };
        instance.on(HlsClass.Events.MANIFEST_LOADED, (_event, data) => check(data));
        instance.on(HlsClass.Events.LEVEL_LOADED, (_event, data) => check(data));
      }
      hls = instance;
      instance.loadSource(url);
      instance.attachMedia(video);
    };

    const switchToFullBuild = (light: Hls) => {
      hls = null;
      // Destroyed after the event that asked for the switch has run through hls.js's own handlers.
      queueMicrotask(() => {
        light.destroy();
        if (cancelled) return;
        import('hls.js')
          .then(({ default: FullHls }) => {
            if (!cancelled) startHls(FullHls, 'full');
          })
          .catch(showImportError);
      });
    };

    /** Stops whichever of mpegts.js or dash.js plays (set once one is started). */
    let stopOther: (() => void) | null = null;
    const kind = sourceKind(url, type);

    if (kind === 'flv' || kind === 'mpegts') {
      // FLV and MPEG-TS, live or not: mpegts.js, downloaded only for such a movie.
      import('mpegts.js')
        .then(({ default: mpegts }) => {
          if (cancelled) return;
          if (!mpegts.isSupported()) {
            setError(tRef.current('cinema.player.formatUnsupported', { format: kind.toUpperCase() }));
            return;
          }
          const player = mpegts.createPlayer({ type: kind, url, isLive: live }, { headers: requestHeaders, enableStashBuffer: !live, liveBufferLatencyChasing: live });
          player.on(mpegts.Events.ERROR, (_type: string, detail: string) => setError(tRef.current('cinema.player.loadFailed', { detail })));
          player.attachMediaElement(video);
          player.load();
          stopOther = () => {
            player.unload();
            player.detachMediaElement();
            player.destroy();
          };
        })
        .catch(showImportError);
    } else if (kind === 'dash') {
      // DASH: dash.js, downloaded only for such a movie. It picks representations by bandwidth.
      import('dashjs')
        .then((dashjs) => {
          if (cancelled) return;
          const player = dashjs.MediaPlayer().create();
          player.on(dashjs.MediaPlayer.events.ERROR, (event: { error?: { message?: string } }) =>
            setError(tRef.current('cinema.player.loadFailed', { detail: event.error?.message ?? 'DASH' })),
          );
          // Not autoplay: the sync engine starts playback when the room plays.
          player.initialize(video, url, false);
          stopOther = () => player.destroy();
        })
        .catch(showImportError);
    } else if (kind === 'hls') {
      import('hls.js/light')
        .then(({ default: LightHls }) => {
          if (cancelled) return;
          if (LightHls.isSupported()) {
            startHls(LightHls, 'light');
          } else if (video.canPlayType('application/vnd.apple.mpegurl')) {
            video.src = url;
          } else {
            setError(tRef.current('cinema.player.hlsUnsupported'));
          }
        })
        .catch(showImportError);
    } else {
      video.src = url;
    }

    return () => {
      cancelled = true;
      hls?.destroy();
      hls = null;
      stopOther?.();
      video.removeAttribute('src');
      video.load();
    };
  }, [url, type, headersKey, live]);

  return (
    <div className="space-y-2">
      <div className="relative aspect-video w-full overflow-hidden rounded-lg bg-black">
        <video
          ref={videoRef}
          data-testid="player-video"
          className="h-full w-full"
          controls={canControl}
          playsInline
          preload="auto"
          onError={() => setError((previous) => previous ?? t('cinema.player.mediaError'))}
        />
        {error ? (
          <div role="alert" className="absolute inset-x-0 top-0 bg-red-600/90 px-3 py-2 text-sm text-white">
            {error}
          </div>
        ) : null}
      </div>
      {canControl ? null : <WatchOnlyBar videoRef={videoRef} />}
    </div>
  );
}

/**
 * The controls of a viewer who follows the room's playback: play/pause shown but disabled with the
 * reason, mute and fullscreen still theirs.
 */
function WatchOnlyBar({ videoRef }: { videoRef: React.RefObject<HTMLVideoElement | null> }) {
  const t = useT();
  const [paused, setPaused] = useState(true);
  const [muted, setMuted] = useState(false);
  useEffect(() => {
    const video = videoRef.current;
    if (!video) return;
    const update = () => {
      setPaused(video.paused);
      setMuted(video.muted);
    };
    update();
    const events = ['play', 'pause', 'volumechange', 'loadedmetadata'] as const;
    for (const name of events) video.addEventListener(name, update);
    return () => {
      for (const name of events) video.removeEventListener(name, update);
    };
  }, [videoRef]);

  const button =
    'inline-flex h-10 w-10 shrink-0 items-center justify-center rounded-lg text-zinc-700 hover:bg-zinc-100 disabled:cursor-not-allowed disabled:opacity-50 dark:text-zinc-200 dark:hover:bg-zinc-800';
  return (
    <div data-testid="watch-only-controls" className="flex items-center gap-1 rounded-lg bg-zinc-50 px-1 py-1 dark:bg-zinc-800/60">
      <button type="button" className={button} disabled aria-describedby="watch-only-reason" data-testid="watch-only-play" aria-label={t(paused ? 'cinema.player.play' : 'cinema.player.pause')}>
        {paused ? <Play className="h-5 w-5" aria-hidden /> : <Pause className="h-5 w-5" aria-hidden />}
      </button>
      <p id="watch-only-reason" data-testid="watch-only-reason" className="min-w-0 flex-1 text-xs text-zinc-600 dark:text-zinc-300">
        {t('cinema.player.watchOnly')}
      </p>
      <button
        type="button"
        className={button}
        aria-label={t(muted ? 'cinema.player.unmute' : 'cinema.player.mute')}
        aria-pressed={muted}
        onClick={() => {
          const video = videoRef.current;
          if (video) video.muted = !video.muted;
        }}
      >
        {muted ? <VolumeX className="h-5 w-5" aria-hidden /> : <Volume2 className="h-5 w-5" aria-hidden />}
      </button>
      <button
        type="button"
        className={button}
        aria-label={t('cinema.player.fullscreen')}
        onClick={() => void videoRef.current?.parentElement?.requestFullscreen?.().catch(() => undefined)}
      >
        <Maximize className="h-5 w-5" aria-hidden />
      </button>
    </div>
  );
}
