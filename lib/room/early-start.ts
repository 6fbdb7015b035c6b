/**
 * The room link's early start: an inline script in the hall's document (app/(user)/cinema/[roomId]/page.tsx)
 * that asks for the room and its current movie while the hall's JavaScript is still coming down,
 * and starts downloading the current movie's player engine as soon as it knows the movie. On a slow
 * phone the hall's script takes seconds to arrive and run; without this, nothing of the room or the
 * media starts before it has (docs/benchmarks.md "First-frame benchmark").
 *
 * When the browser parses the document, the script (`earlyStartScript`, its code in
 * ./early-start-run.ts, compiled by scripts/inline-scripts.mjs) sends the app's start-up reads
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
import type { SourceKind } from '@/lib/contract/source-kind';
import { STORAGE_KEYS } from '@/lib/storage';
import { EARLY_START_CODE } from './early-start.generated';

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
    engineChunks,
  };
}

/**
 * The inline script for the hall's document: ./early-start-run.ts as compiled by
 * scripts/inline-scripts.mjs, given `config`.
 */
export function earlyStartScript(config: EarlyStartConfig): string {
  const json = JSON.stringify(config).replace(/</g, '\\u003c');
  return `(function(__synctvEarlyStartConfig){${EARLY_START_CODE}})(${json});`;
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
