/**
 * The room link's early start: an inline script in the hall's document (app/(user)/cinema/[roomId]/page.tsx)
 * that asks for the room and its current movie while the hall's JavaScript is still coming down,
 * and starts downloading the current movie's player engine as soon as it knows the movie. On a slow
 * phone the hall's script takes seconds to arrive and run; without this, nothing of the room or the
 * media starts before it has (docs/benchmarks.md "First-frame benchmark").
 *
 * When the browser parses the document, the script (`earlyStartScript`) sends the app's start-up reads
 * (`GET /api/user/me` with a stored token, `/api/public/settings`: hooks/data/session.ts) and the
 * three the room session opens with (`GET /api/room/me`, `/api/room/info`, `/api/room/movie/current`,
 * with the room in `X-Room-Id`), the stored token in `Authorization`, as the API client sends them
 * (docs/contract.md §3.2–§3.3), and keeps each answer (status, text, local times of request and
 * answer) in `window.__synctvEarlyStart`. Once the current movie is in, it starts downloading each
 * chunk of the engine the movie needs (hls.js light, mpegts.js, dash.js), the files webpack loads
 * when the player asks for it; `scripts/engine-chunks.mjs` writes their URLs into the exported
 * document after the build. Behind a server that compresses (the document came compressed), a
 * `<link rel="preload" as="script">` per chunk. Behind one that does not (a SyncTV server's `/web`:
 * docs/contract.md §1.4), the chunk's gzip copy that the build keeps beside it (`….js.gz`,
 * scripts/precompress.mjs), unpacked with the browser's DecompressionStream and run as an inline
 * script that the document's policy allows by its hash (scripts/csp.mjs): hls.js light is 360 KB as
 * it is and 115 KB gzipped, 1.2 s of a phone's 1.6 Mbit/s (docs/benchmarks.md "First-frame
 * benchmark"). Webpack takes a chunk that ran before it asked as loaded, so the player waits for
 * `earlyEngine()` (./early-engine.ts) before it imports the engine; when the copy is missing or
 * does not unpack, the script falls back to the preload. For an HLS movie without headers of
 * its own (not live) it also fetches the playlist and, when the room is paused, the segment at the
 * room's position, the two requests hls.js would otherwise send only once the hall's code has run;
 * the player's loaders take them (`takeEarlyMedia`, components/player/early-media-loader.ts). A
 * multivariant playlist or one with keys, byte ranges or init segments gets only the playlist.
 *
 * The start-up and the room session take each answer at most once (`takeEarlyAnswer`), and none of
 * the room's once its membership answer was not a success. A 2xx envelope is used as the
 * API client would have returned it; anything else (a 401 or 500, a network failure, an answer for
 * another room or another token, or one older than EARLY_ANSWER_MAX_AGE_MS) is null, and the session
 * asks through the API client, which applies the 401 rules and the error texts as always. The early
 * script decides nothing: it only saves the round trips. It is not the API client (lib/api/client.ts)
 * because it runs before any of the app's code has arrived; everything it gets goes through the same
 * checks there.
 *
 * Not on a soft navigation: React does not run an inline script it renders, so a hall opened from
 * another screen asks through the API client as before (its script is already loaded by then).
 */
import { EXTENSION_KINDS, TYPE_KINDS, type SourceKind } from '@/lib/media/source-kind';
import { STORAGE_KEYS } from '@/lib/storage';

/** How old (ms since its request) an early answer may be and still be used. */
export const EARLY_ANSWER_MAX_AGE_MS = 30_000;

/** The room's reads the script sends (with `X-Room-Id`), by the name the session takes them with. */
export const EARLY_ROOM_READS = { me: '/api/room/me', info: '/api/room/info', current: '/api/room/movie/current' } as const;
/** The start-up's reads (hooks/data/session.ts); `user` only with a stored token. */
export const EARLY_STARTUP_READS = { user: '/api/user/me', settings: '/api/public/settings' } as const;
export type EarlyRead = keyof typeof EARLY_ROOM_READS | keyof typeof EARLY_STARTUP_READS;

/** The engines' names in the build's list of their chunks (next.config.mjs ENGINE_MODULES, scripts/engine-chunks.mjs). */
export const ENGINE_CHUNK_NAMES: Partial<Record<SourceKind, string>> = {
  hls: 'engine-hls-light',
  flv: 'engine-mpegts',
  mpegts: 'engine-mpegts',
  dash: 'engine-dash',
};

/** The text in the prerendered script that `scripts/engine-chunks.mjs` replaces with the chunk's URL. */
export function engineChunkPlaceholder(name: string): string {
  return `__ENGINE_CHUNK__${name}__`;
}

/** What the script knows at build time. */
export interface EarlyStartConfig {
  /** The export's basePath, `/web`. */
  base: string;
  /** The API's origin, "" for the page's own (NEXT_PUBLIC_API_ORIGIN, lib/api/client.ts `apiOrigin`). */
  apiOrigin: string;
  /** The storage key of the token (localStorage, else sessionStorage: lib/storage.ts `readToken`). */
  tokenKey: string;
  /** The placeholder room id of the export (`_`): the bare document is no room. */
  placeholder: string;
  roomReads: Record<keyof typeof EARLY_ROOM_READS, string>;
  startupReads: Record<keyof typeof EARLY_STARTUP_READS, string>;
  typeKinds: Record<string, SourceKind>;
  extensionKinds: [string, SourceKind][];
  /** Each engine's chunk URLs, space-separated, or its placeholder until scripts/engine-chunks.mjs has run (then it is skipped). */
  engineChunks: Partial<Record<SourceKind, string>>;
}

/** One early answer: the HTTP status (0: the request failed), the body's text, local Unix ms of request and answer. */
export interface EarlyAnswer {
  status: number;
  text: string;
  requestedAtMs: number;
  receivedAtMs: number;
}

/**
 * A media file the script fetched: its body (text for a playlist, bytes for a segment) and when it
 * was asked for, began to arrive and ended, in `performance.now()` ms (hls.js's loader statistics,
 * from which it estimates the bandwidth). Null: the request failed or was not a 2xx.
 */
export interface EarlyMedia {
  /** Where the body came from (after redirects). */
  url: string;
  data: string | ArrayBuffer;
  requestedAt: number;
  firstByteAt: number;
  receivedAt: number;
}

/** One fetched media file: whether its body is bytes (a segment) or text (a playlist), and the fetch. */
export interface EarlyMediaEntry {
  binary: boolean;
  promise: Promise<EarlyMedia | null>;
}

/** What the script leaves in `window.__synctvEarlyStart`. */
export interface EarlyStart {
  roomId: string;
  /** The token the reads were sent with ("" for none). */
  token: string;
  startedAtMs: number;
  answers: Partial<Record<EarlyRead, Promise<EarlyAnswer>>>;
  /** The current movie's HLS playlist and first segment, by absolute URL (`takeEarlyMedia`). */
  media?: Record<string, EarlyMediaEntry>;
  /**
   * Settles once the current movie's engine chunks have run from their gzip copies, are preloading,
   * or are not needed (./early-engine.ts `earlyEngine`). Never rejects.
   */
  engine?: Promise<void>;
}

/** A script element as the early start uses it: an inline script's text. */
interface EarlyScriptElement {
  text: string;
}

/** A preload link as the early start fills it. */
interface EarlyLinkElement {
  rel: string;
  as: string;
  href: string;
  fetchPriority: string;
}

/** The browser parts the script uses (the real `window` in the page; a fake in the unit tests). */
export interface EarlyStartHost {
  location: { pathname: string; origin: string };
  localStorage: { getItem(key: string): string | null };
  sessionStorage: { getItem(key: string): string | null };
  fetch(
    url: string,
    init: { headers: Record<string, string>; credentials: 'same-origin'; priority?: 'low' },
  ): Promise<{ status: number; url?: string; body?: ReadableStream<Uint8Array> | null; text(): Promise<string>; arrayBuffer(): Promise<ArrayBuffer> }>;
  /** `getEntriesByType('navigation')`: the document's body size on the wire and unpacked, in bytes (0 until it has arrived). */
  performance: { now(): number; getEntriesByType?(type: 'navigation'): { encodedBodySize: number; decodedBodySize: number }[] };
  URL: new (url: string, base: string) => { href: string };
  /** Absent in browsers without Compression Streams: the engine is preloaded as it is. */
  DecompressionStream?: new (format: 'gzip') => ReadableWritablePair<Uint8Array, Uint8Array>;
  Response?: new (body: ReadableStream<Uint8Array>) => { text(): Promise<string> };
  document: {
    createElement(tag: 'link'): EarlyLinkElement;
    createElement(tag: 'script'): EarlyScriptElement;
    head: { appendChild(node: unknown): unknown; removeChild(node: unknown): unknown };
  };
  __synctvEarlyStart?: EarlyStart;
}

/**
 * Starts the reads for the room in `host.location` and keeps them in `host.__synctvEarlyStart`;
 * does nothing outside a room. Runs inline in the browser through `Function.prototype.toString`, so
 * it is self-contained ES5 with no imports and no helpers. Never throws.
 */
/* eslint-disable no-var -- ES5 on purpose (see above) */
export function earlyStart(cfg: EarlyStartConfig, host: EarlyStartHost): void {
  try {
    var match = /^\/cinema\/([^/]+)\/?$/.exec(host.location.pathname.slice(cfg.base.length));
    if (!match || match[1] === cfg.placeholder) return;
    var roomId = decodeURIComponent(match[1]);
    var token = host.localStorage.getItem(cfg.tokenKey) || host.sessionStorage.getItem(cfg.tokenKey) || '';
    var origin = cfg.apiOrigin || host.location.origin;
    var early: EarlyStart = { roomId: roomId, token: token, startedAtMs: Date.now(), answers: {} };
    var read = function (path: string, inRoom: boolean): Promise<EarlyAnswer> {
      var requestedAtMs = Date.now();
      var headers: Record<string, string> = {};
      if (token) headers.Authorization = token;
      if (inRoom) headers['X-Room-Id'] = roomId;
      return host.fetch(origin + path, { headers: headers, credentials: 'same-origin' }).then(
        function (response) {
          var receivedAtMs = Date.now();
          return response.text().then(function (text) {
            return { status: response.status, text: text, requestedAtMs: requestedAtMs, receivedAtMs: receivedAtMs };
          });
        },
        function () {
          return { status: 0, text: '', requestedAtMs: requestedAtMs, receivedAtMs: Date.now() };
        },
      );
    };
    if (token) early.answers.user = read(cfg.startupReads.user, false);
    early.answers.settings = read(cfg.startupReads.settings, false);
    early.answers.me = read(cfg.roomReads.me, true);
    early.answers.info = read(cfg.roomReads.info, true);
    early.answers.current = read(cfg.roomReads.current, true);
    early.engine = early.answers.current.then(function (answer): Promise<void> | void {
      try {
        var data = JSON.parse(answer.text).data;
        var base = data.movie.base;
        var url = String(base.url || '');
        var kind = kindOf(url, String(base.type || ''));
        if (kind === 'hls' && !base.live && !base.rtmpSource && !hasKeys(base.headers)) {
          // lib/api/movie.ts `playableUrl`: a server-relative URL is the API's.
          var status = data.status || {};
          preloadHls(url.charAt(0) === '/' && url.charAt(1) !== '/' ? origin + url : url, status.isPlaying ? -1 : Number(status.currentTime) || 0);
        }
        var chunks = cfg.engineChunks[kind];
        if (!chunks || chunks.indexOf('__') === 0) return;
        var urls = chunks.split(' ');
        var packed = servedUncompressed();
        var loads: Promise<void>[] = [];
        for (var i = 0; i < urls.length; i++) {
          if (packed) loads.push(runPacked(urls[i]));
          else preload(urls[i]);
        }
        return Promise.all(loads).then(function () {});
      } catch (e) {
        /* no current movie, or not an envelope: nothing to preload */
      }
    });
    host.__synctvEarlyStart = early;
  } catch (e) {
    /* no storage, no fetch: the session asks through the API client */
  }

  // The movie's playlist and, for a paused room, the segment at its position (see EarlyMedia).
  function preloadHls(playlistUrl: string, position: number): void {
    var media: Record<string, EarlyMediaEntry> = (early.media = {});
    var get = function (url: string, binary: boolean): Promise<EarlyMedia | null> {
      var requestedAt = host.performance.now();
      var promise = host.fetch(url, { headers: {}, credentials: 'same-origin' }).then(
        function (response) {
          var firstByteAt = host.performance.now();
          if (response.status < 200 || response.status >= 300) return null;
          return (binary ? response.arrayBuffer() : response.text()).then(function (body: string | ArrayBuffer) {
            return { url: response.url || url, data: body, requestedAt: requestedAt, firstByteAt: firstByteAt, receivedAt: host.performance.now() };
          });
        },
        function () {
          return null;
        },
      );
      media[url] = { binary: binary, promise: promise };
      return promise;
    };
    get(playlistUrl, false).then(function (playlist) {
      if (!playlist || position < 0) return;
      var text = String(playlist.data);
      // A multivariant playlist (hls.js picks the variant), byte ranges, keys, init segments or a
      // live playlist (hls.js starts at its edge): hls.js asks for the rest itself.
      if (/#EXT-X-STREAM-INF|#EXT-X-BYTERANGE|#EXT-X-MAP|#EXT-X-KEY:(?!METHOD=NONE)/.test(text) || !/#EXT-X-ENDLIST/.test(text)) return;
      var lines = text.split(/\r?\n/);
      var start = 0;
      var duration = -1;
      for (var i = 0; i < lines.length; i++) {
        var line = lines[i].replace(/^\s+|\s+$/g, '');
        var extinf = /^#EXTINF:([\d.]+)/.exec(line);
        if (extinf) duration = parseFloat(extinf[1]);
        else if (line && line.charAt(0) !== '#' && duration >= 0) {
          if (position < start + duration) {
            // Relative to where the playlist came from after any redirect, as hls.js resolves it.
            get(new host.URL(line, playlist.url).href, true);
            return;
          }
          start += duration;
          duration = -1;
        }
      }
    });
  }

  // Whether the document came as it is on disk: then the server compresses nothing (see above).
  function servedUncompressed(): boolean {
    if (typeof host.DecompressionStream !== 'function' || typeof host.Response !== 'function' || !host.performance.getEntriesByType) return false;
    var navigation = host.performance.getEntriesByType('navigation')[0];
    return !!navigation && navigation.decodedBodySize > 0 && navigation.encodedBodySize === navigation.decodedBodySize;
  }

  function preload(url: string): void {
    var link = host.document.createElement('link');
    link.rel = 'preload';
    link.as = 'script';
    // Low, as the hall's own async scripts: the engine comes down beside them, not before them.
    link.fetchPriority = 'low';
    link.href = url;
    host.document.head.appendChild(link);
  }

  // The chunk's gzip copy, unpacked and run; the chunk itself when that fails. Never rejects.
  function runPacked(url: string): Promise<void> {
    return host
      .fetch(url + '.gz', { headers: {}, credentials: 'same-origin', priority: 'low' })
      .then(function (response) {
        // Not there (a 404; SyncTV answers an unknown path with the home page and 200, which does
        // not unpack below).
        if (response.status !== 200 || !response.body) throw new Error('no gzip copy');
        return new host.Response!(response.body.pipeThrough(new host.DecompressionStream!('gzip'))).text();
      })
      .then(function (code) {
        var script = host.document.createElement('script');
        script.text = code;
        host.document.head.appendChild(script);
        host.document.head.removeChild(script);
      })
      .catch(function () {
        preload(url);
      });
  }

  function hasKeys(object: unknown): boolean {
    if (!object || typeof object !== 'object') return false;
    for (var key in object) if (Object.prototype.hasOwnProperty.call(object, key)) return true;
    return false;
  }

  // lib/media/source-kind.ts `sourceKind`, from the same tables.
  function kindOf(url: string, type: string): SourceKind {
    var kind = type.replace(/^\s+|\s+$/g, '').toLowerCase();
    if (kind) return cfg.typeKinds[kind] || 'native';
    var path = url.split(/[?#]/)[0].toLowerCase();
    for (var i = 0; i < cfg.extensionKinds.length; i++) {
      var extension = cfg.extensionKinds[i][0];
      if (path.slice(-extension.length) === extension) return cfg.extensionKinds[i][1];
    }
    return 'native';
  }
}
/* eslint-enable no-var */

/** The build-time facts: `base` and `apiOrigin` as the export is built, the engines as placeholders. */
export function earlyStartConfig(base: string, apiOrigin: string): EarlyStartConfig {
  const engineChunks: Partial<Record<SourceKind, string>> = {};
  for (const [kind, name] of Object.entries(ENGINE_CHUNK_NAMES)) engineChunks[kind as SourceKind] = engineChunkPlaceholder(name);
  return {
    base,
    apiOrigin: apiOrigin.replace(/\/$/, ''),
    tokenKey: STORAGE_KEYS.token,
    placeholder: '_',
    roomReads: { ...EARLY_ROOM_READS },
    startupReads: { ...EARLY_STARTUP_READS },
    typeKinds: TYPE_KINDS,
    extensionKinds: EXTENSION_KINDS,
    engineChunks,
  };
}

/** The inline script for the hall's document. */
export function earlyStartScript(config: EarlyStartConfig): string {
  const json = JSON.stringify(config).replace(/</g, '\\u003c');
  return `(${earlyStart.toString()})(${json},window);`;
}

/**
 * Takes the early answer to `read`, once: its `data` (the envelope unwrapped as the API client does,
 * lib/api/client.ts `unwrapEnvelope`) with the local times of the request and the answer, or null
 * when there is none to use (see the module comment). `roomId`: the room the caller opens (null for
 * the start-up's reads); `token`: the stored token now ("" for none). Never rejects.
 */
export async function takeEarlyAnswer<T>(read: EarlyRead, roomId: string | null, token: string, now: () => number = Date.now): Promise<{ data: T; requestedAtMs: number; receivedAtMs: number } | null> {
  if (typeof window === 'undefined') return null;
  const early = (window as unknown as { __synctvEarlyStart?: EarlyStart }).__synctvEarlyStart;
  const pending = early?.answers[read];
  if (!early || !pending) return null;
  delete early.answers[read];
  if ((roomId !== null && early.roomId !== roomId) || early.token !== token || now() - early.startedAtMs > EARLY_ANSWER_MAX_AGE_MS) return null;
  const taken = usable<T>(await pending);
  // Not a member (yet): the room's other answers were given to someone outside it, and the hall
  // that opens after a join must not take them.
  if (read === 'me' && !taken) {
    delete early.answers.info;
    delete early.answers.current;
  }
  return taken;
}

/**
 * Takes the early fetch of the media file at `url` (absolute, as the player asks for it), once: its
 * pending result when the script fetched that URL with a body of the same kind (`binary`: bytes, else
 * text) less than EARLY_ANSWER_MAX_AGE_MS ago, else null (and the caller fetches it itself). The
 * promise resolves to null when the fetch failed; it never rejects.
 */
export function takeEarlyMedia(url: string, binary: boolean, now: () => number = Date.now): Promise<EarlyMedia | null> | null {
  if (typeof window === 'undefined') return null;
  const early = (window as unknown as { __synctvEarlyStart?: EarlyStart }).__synctvEarlyStart;
  const entry = early?.media?.[url];
  if (!early?.media || !entry) return null;
  delete early.media[url];
  if (entry.binary !== binary || now() - early.startedAtMs > EARLY_ANSWER_MAX_AGE_MS) return null;
  return entry.promise;
}

/** An answer's `data` with its times when it is a 2xx envelope, else null. */
function usable<T>(answer: EarlyAnswer): { data: T; requestedAtMs: number; receivedAtMs: number } | null {
  if (answer.status < 200 || answer.status >= 300) return null;
  try {
    const body: unknown = JSON.parse(answer.text);
    if (body === null || typeof body !== 'object' || !('data' in body)) return null;
    return { data: (body as { data: T }).data, requestedAtMs: answer.requestedAtMs, receivedAtMs: answer.receivedAtMs };
  } catch {
    return null;
  }
}
