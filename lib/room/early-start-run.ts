/**
 * What the room link's early start does in the browser (./early-start.ts explains what and why):
 * compiled on its own by scripts/inline-scripts.mjs from ./early-start.inline.ts into
 * ./early-start.generated.ts, which the prerender puts inline in the hall's document. It imports
 * only types and the movie-kind tables (lib/contract/source-kind.ts, the player's own), so the compiled
 * script holds only this file and those.
 */
import { sourceKind } from '@/lib/contract/source-kind';
import type { EarlyAnswer, EarlyMedia, EarlyMediaEntry, EarlyStart, EarlyStartConfig, EarlyStartHost } from './early-start';

/**
 * Starts the reads for the room in `host.location` and keeps them in `host.__synctvEarlyStart`;
 * does nothing outside a room. Never throws: without storage or fetch, the session asks through the
 * API client.
 */
export function earlyStart(cfg: EarlyStartConfig, host: EarlyStartHost): void {
  try {
    const match = /^\/cinema\/([^/]+)\/?$/.exec(host.location.pathname.slice(cfg.base.length));
    if (!match || match[1] === cfg.placeholder) return;
    const roomId = decodeURIComponent(match[1]);
    const token = host.localStorage.getItem(cfg.tokenKey) || host.sessionStorage.getItem(cfg.tokenKey) || '';
    const origin = cfg.apiOrigin || host.location.origin;
    const early: EarlyStart = { roomId, token, startedAtMs: Date.now(), answers: {} };
    const read = (path: string, inRoom: boolean): Promise<EarlyAnswer> => {
      const requestedAtMs = Date.now();
      const headers: Record<string, string> = {};
      if (token) headers.Authorization = token;
      if (inRoom) headers['X-Room-Id'] = roomId;
      return host.fetch(origin + path, { headers, credentials: 'same-origin' }).then(
        (response) => {
          const receivedAtMs = Date.now();
          return response.text().then((text) => ({ status: response.status, text, requestedAtMs, receivedAtMs }));
        },
        () => ({ status: 0, text: '', requestedAtMs, receivedAtMs: Date.now() }),
      );
    };
    if (token) early.answers.user = read(cfg.startupReads.user, false);
    early.answers.settings = read(cfg.startupReads.settings, false);
    early.answers.me = read(cfg.roomReads.me, true);
    early.answers.info = read(cfg.roomReads.info, true);
    early.answers.current = read(cfg.roomReads.current, true);
    early.engine = early.answers.current.then((answer) => preloadMovie(cfg, host, early, origin, answer));
    host.__synctvEarlyStart = early;
  } catch {
    /* no storage, no fetch: the session asks through the API client */
  }
}

/** Once the current movie is known: its engine's chunks and, for HLS, its playlist (and segment). Never rejects. */
function preloadMovie(cfg: EarlyStartConfig, host: EarlyStartHost, early: EarlyStart, origin: string, answer: EarlyAnswer): Promise<void> | void {
  try {
    const data = JSON.parse(answer.text).data;
    const base = data.movie.base;
    const url = String(base.url || '');
    const kind = sourceKind(url, String(base.type || ''));
    if (kind === 'hls' && !base.live && !base.rtmpSource && !hasKeys(base.headers)) {
      // lib/api/movie.ts `playableUrl`: a server-relative URL is the API's.
      const status = data.status || {};
      preloadHls(host, early, url.startsWith('/') && !url.startsWith('//') ? origin + url : url, status.isPlaying ? -1 : Number(status.currentTime) || 0);
    }
    const chunks = cfg.engineChunks[kind];
    if (!chunks || chunks.startsWith('__')) return;
    const urls = chunks.split(' ');
    if (!servedUncompressed(host)) {
      for (const chunk of urls) preload(host, chunk);
      return;
    }
    return Promise.all(urls.map((chunk) => runPacked(host, chunk))).then(() => undefined);
  } catch {
    /* no current movie, or not an envelope: nothing to preload */
  }
}

/** The movie's playlist and, for a paused room, the segment at its `position` (s; negative: the room plays). See EarlyMedia. */
function preloadHls(host: EarlyStartHost, early: EarlyStart, playlistUrl: string, position: number): void {
  const media: Record<string, EarlyMediaEntry> = (early.media = {});
  const get = (url: string, binary: boolean): Promise<EarlyMedia | null> => {
    const requestedAt = host.performance.now();
    const promise = host.fetch(url, { headers: {}, credentials: 'same-origin' }).then(
      (response) => {
        const firstByteAt = host.performance.now();
        if (response.status < 200 || response.status >= 300) return null;
        return (binary ? response.arrayBuffer() : response.text()).then((body: string | ArrayBuffer) => ({
          url: response.url || url,
          data: body,
          requestedAt,
          firstByteAt,
          receivedAt: host.performance.now(),
        }));
      },
      () => null,
    );
    media[url] = { binary, promise };
    return promise;
  };
  void get(playlistUrl, false).then((playlist) => {
    if (!playlist || position < 0) return;
    const text = String(playlist.data);
    // A multivariant playlist (hls.js picks the variant), byte ranges, keys, init segments or a
    // live playlist (hls.js starts at its edge): hls.js asks for the rest itself.
    if (/#EXT-X-STREAM-INF|#EXT-X-BYTERANGE|#EXT-X-MAP|#EXT-X-KEY:(?!METHOD=NONE)/.test(text) || !/#EXT-X-ENDLIST/.test(text)) return;
    let start = 0;
    let duration = -1;
    for (const raw of text.split(/\r?\n/)) {
      const line = raw.trim();
      const extinf = /^#EXTINF:([\d.]+)/.exec(line);
      if (extinf) duration = parseFloat(extinf[1]);
      else if (line && !line.startsWith('#') && duration >= 0) {
        if (position < start + duration) {
          // Relative to where the playlist came from after any redirect, as hls.js resolves it.
          void get(new host.URL(line, playlist.url).href, true);
          return;
        }
        start += duration;
        duration = -1;
      }
    }
  });
}

/** Whether the document came as it is on disk: then the server compresses nothing (./early-start.ts). */
function servedUncompressed(host: EarlyStartHost): boolean {
  if (typeof host.DecompressionStream !== 'function' || typeof host.Response !== 'function' || !host.performance.getEntriesByType) return false;
  const navigation = host.performance.getEntriesByType('navigation')[0];
  return !!navigation && navigation.decodedBodySize > 0 && navigation.encodedBodySize === navigation.decodedBodySize;
}

/** A `<link rel="preload" as="script">` for the chunk at `url`. */
function preload(host: EarlyStartHost, url: string): void {
  const link = host.document.createElement('link');
  link.rel = 'preload';
  link.as = 'script';
  // Low, as the hall's own async scripts: the engine comes down beside them, not before them.
  link.fetchPriority = 'low';
  link.href = url;
  host.document.head.appendChild(link);
}

/** The chunk's gzip copy, unpacked and run; the chunk itself when that fails. Never rejects. */
function runPacked(host: EarlyStartHost, url: string): Promise<void> {
  const { DecompressionStream, Response } = host;
  return host
    .fetch(url + '.gz', { headers: {}, credentials: 'same-origin', priority: 'low' })
    .then((response) => {
      // Not there (a 404; SyncTV answers an unknown path with the home page and 200, which does
      // not unpack below).
      if (response.status !== 200 || !response.body || !DecompressionStream || !Response) throw new Error('no gzip copy');
      return new Response(response.body.pipeThrough(new DecompressionStream('gzip'))).text();
    })
    .then((code) => {
      const script = host.document.createElement('script');
      script.text = code;
      host.document.head.appendChild(script);
      host.document.head.removeChild(script);
    })
    .catch(() => preload(host, url));
}

function hasKeys(object: unknown): boolean {
  return !!object && typeof object === 'object' && Object.keys(object).length > 0;
}
