/**
 * HLS through hls.js: first its light build (`hls.js/light`), switched to the full build on the same
 * element before the first segment when a playlist needs it (alternate audio, subtitles, DRM,
 * EXT-X-DEFINE, interstitials, HEVC/AC-3: ../hls-build.ts); Safari's own HLS where Media Source
 * Extensions are missing. Segments whose first bytes are a PNG header (a real SyncTV server may add
 * one) are handed on from their first MPEG-TS packet (../ts-prefix.ts). The playlist and first
 * segment the room link's early start fetched are taken from there (../early-media-loader.ts).
 *
 * Failures (docs/player.md "Why a source does not play"): hls.js retries a request by itself (its
 * load policies); once it gives up on the playlist (unreachable, blocked by CORS, an HTTP error, not
 * a playlist) the source has failed and the player says why at once, and the adapter tries the whole
 * source again after SOURCE_RETRY_MS, then less and less often (a host that comes back, CORS turned
 * on). A segment that fails later is loaded again up to MAX_RECOVERIES times, a decoding error
 * recovered as many times, before the source counts as failed. A broadcast's playlist is 404 while
 * nobody pushes: off the air, not a failure.
 */
import type Hls from 'hls.js';
import type { FragmentLoaderConstructor, FragmentLoaderContext, LoaderCallbacks, LoaderConfiguration, PlaylistLoaderConstructor } from 'hls.js';
import { earlyEngine } from '@/lib/room/early-engine';
import { earlyMediaLoader } from '../early-media-loader';
import { needsFullHlsBuild, type HlsPlaylistFacts } from '../hls-build';
import { stripTsPrefix } from '../ts-prefix';
import { attachNative } from './native';
import { loadThen, type AttachEngine, type EngineAdapter, type EngineHooks, type EngineSource } from './engine';

/** hls.js's light build, imported once the room link's early start has it in (./engine.ts). */
export const importHlsLight = () => earlyEngine().then(() => import('hls.js/light'));

/** Whether `url` is a movie this server converts (`/api/room/movie/convert/<movie>/index.m3u8`, docs/transcode.md). */
function isConversion(url: string): boolean {
  return /\/api\/room\/movie\/convert\/[^/]+\/index\.m3u8/.test(url);
}

/** Reloads of a segment, and recoveries of a decoding error, before the source counts as failed. */
const MAX_RECOVERIES = 3;
/** The first retry of a failed source (ms); each next one waits twice as long, up to SOURCE_RETRY_MAX_MS. */
export const SOURCE_RETRY_MS = 5000;
const SOURCE_RETRY_MAX_MS = 30_000;

/** hls.js's own loader for segments, handing an unencrypted segment on from its first MPEG-TS packet. */
function tsPrefixStrippingLoader(Base: FragmentLoaderConstructor): FragmentLoaderConstructor {
  return class extends Base {
    load(context: FragmentLoaderContext, config: LoaderConfiguration, callbacks: LoaderCallbacks<FragmentLoaderContext>) {
      const encrypted = context.frag.encrypted;
      super.load(context, config, {
        ...callbacks,
        onSuccess: (response, stats, loaded, details) => {
          if (!encrypted && response.data instanceof ArrayBuffer) response.data = stripTsPrefix(response.data);
          callbacks.onSuccess(response, stats, loaded, details);
        },
      });
    }
  };
}

export const attachHls: AttachEngine = (source, hooks) =>
  loadThen(importHlsLight(), hooks, ({ default: LightHls }) => {
    if (LightHls.isSupported()) return playWithHlsJs(LightHls, source, hooks);
    if (source.video.canPlayType('application/vnd.apple.mpegurl')) return attachNative(source, hooks);
    hooks.report({ kind: 'unsupportedFormat', detail: 'HLS (m3u8)' });
  });

/** Plays `source` with hls.js (light, then full when needed), trying the source again after a failure. */
function playWithHlsJs(LightHls: typeof Hls, source: EngineSource, hooks: EngineHooks): EngineAdapter {
  const { video, url, live, broadcast, headers } = source;
  let stopped = false;
  let hls: Hls | null = null;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let retryMs = SOURCE_RETRY_MS;
  let full: Promise<typeof Hls> | null = null;

  const destroy = () => {
    hls?.destroy();
    hls = null;
    hooks.tracks(null);
  };

  /** The source failed: the player says why, and it is tried again a while later. */
  const failed = (detail: string, mediaErrorCode?: number, failedUrl?: string) => {
    destroy();
    hooks.fail(detail, mediaErrorCode, failedUrl);
    clearTimeout(retry);
    retry = setTimeout(() => {
      if (!stopped) start(LightHls, 'light');
    }, retryMs);
    retryMs = Math.min(SOURCE_RETRY_MAX_MS, retryMs * 2);
  };

  const start = (HlsClass: typeof Hls, build: 'light' | 'full') => {
    let recoveries = 0;
    // The default loader loads playlists and fragments too (hls.js uses it when `pLoader` and
    // `fLoader` are unset); its declared type is the generic loader's.
    const DefaultLoader = HlsClass.DefaultConfig.loader;
    const fragDefaults = HlsClass.DefaultConfig.fragLoadPolicy?.default;
    const instance = new HlsClass({
      startLevel: -1,
      startPosition: live ? -1 : Math.max(-1, source.startPosition()),
      // Ask for the first segment once the playlist is in, not after the MediaSource has opened.
      startFragPrefetch: true,
      xhrSetup: (xhr) => {
        for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
      },
      pLoader: earlyMediaLoader(DefaultLoader as unknown as PlaylistLoaderConstructor),
      fLoader: tsPrefixStrippingLoader(earlyMediaLoader(DefaultLoader as unknown as FragmentLoaderConstructor)),
      // A segment this server failed to convert (docs/transcode.md) is asked for once more, not six
      // times over half a minute: the viewer hears why sooner.
      ...(isConversion(url) && fragDefaults?.errorRetry ? { fragLoadPolicy: { default: { ...fragDefaults, errorRetry: { ...fragDefaults.errorRetry, maxNumRetry: 1 } } } } : {}),
      // Live: behind the edge after a stall, catch up by playing up to 1.2× rather than jumping (docs/live.md).
      maxLiveSyncPlaybackRate: live ? 1.2 : 1,
    });
    const { ErrorTypes, ErrorDetails, Events } = HlsClass;
    instance.on(Events.ERROR, (_event, data) => {
      // A light instance being replaced by the full build has nothing more to say.
      if (!data.fatal || hls !== instance) return;
      const playlistFailed = data.type === ErrorTypes.NETWORK_ERROR && !/^frag/i.test(data.details);
      if (broadcast && (data.details === ErrorDetails.MANIFEST_LOAD_ERROR || data.details === ErrorDetails.LEVEL_LOAD_ERROR)) {
        // Nobody pushes (yet, or any more): the playlist is 404.
        destroy();
        hooks.offAir();
      } else if (!playlistFailed && recoveries < MAX_RECOVERIES && data.type === ErrorTypes.NETWORK_ERROR) {
        recoveries += 1;
        instance.startLoad();
      } else if (recoveries < MAX_RECOVERIES && data.type === ErrorTypes.MEDIA_ERROR) {
        recoveries += 1;
        instance.recoverMediaError();
      } else {
        // A segment that would not load is what the player asks about (the playlist itself answers).
        failed(data.details, data.type === ErrorTypes.MEDIA_ERROR ? 3 : undefined, /^frag/i.test(data.details) ? data.frag?.url : undefined);
      }
    });
    // Played: the next failure is tried again soon.
    instance.on(Events.FRAG_BUFFERED, () => {
      retryMs = SOURCE_RETRY_MS;
    });
    if (build === 'light') {
      // The multivariant (or single media) playlist, then each media playlist: both can ask for more.
      const check = (facts: HlsPlaylistFacts) => {
        if (hls === instance && needsFullHlsBuild(facts)) switchToFull(instance);
      };
      instance.on(Events.MANIFEST_LOADED, (_event, data) => check(data));
      instance.on(Events.LEVEL_LOADED, (_event, data) => check(data));
    }
    hls = instance;
    instance.loadSource(url);
    instance.attachMedia(video);
    hooks.tracks({ kind: 'hls', hls: instance, events: Events });
  };

  const switchToFull = (light: Hls) => {
    hls = null;
    // Destroyed after the event that asked for the switch has run through hls.js's own handlers.
    queueMicrotask(() => {
      light.destroy();
      if (stopped) return;
      full ??= import('hls.js').then((module) => module.default);
      full.then(
        (FullHls) => {
          if (!stopped) start(FullHls, 'full');
        },
        (error: unknown) => hooks.report({ kind: 'unknown', detail: String(error) }),
      );
    });
  };

  start(LightHls, 'light');
  return {
    stop() {
      stopped = true;
      clearTimeout(retry);
      hls?.destroy();
      hls = null;
    },
  };
}
