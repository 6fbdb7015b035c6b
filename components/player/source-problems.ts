/**
 * Why a source does not play, in terms a viewer can act on: the URL is unreachable or answers an HTTP
 * error, the browser blocks it (CORS, an http URL on an https page), it is not a media file, or its
 * codec is not supported here. The player probes the URL once (a one-byte Range request) after an
 * engine or the <video> reports a failure; the same probe tells whether the source honours HTTP
 * Range, without which seeking cannot work on a progressive file.
 */
import type { SourceKind } from '@/lib/contract/source-kind';

/** What a probe of the URL found. `status` 0 = no readable answer; `rangeSupported` null = unknown. */
export interface SourceDiagnosis {
  /** A readable HTTP answer came (CORS allowed it). */
  reachable: boolean;
  /** An opaque answer came when CORS was not asked for: the server is up but does not allow CORS. */
  reachableWithoutCors: boolean;
  status: number;
  contentType: string;
  rangeSupported: boolean | null;
  /** The `error` of a JSON envelope answered with an error status (this server's own routes: the proxy, a conversion); "" otherwise. */
  serverError: string;
}

/**
 * A problem of the source. `detail`: the HTTP status (`httpStatus`), the server's error text
 * (`serverError`: a SyncTV route such as the proxy or a conversion refused, in the contract's words), the content type (`notMedia`),
 * mpegts.js's words naming the FLV codec it cannot play (`broadcastCodec`, a push into the room),
 * the format name (`unsupportedFormat`), or the engine's own words (`unknown`).
 */
export interface SourceProblem {
  kind: 'unreachable' | 'httpStatus' | 'serverError' | 'cors' | 'mixedContent' | 'notMedia' | 'codec' | 'broadcastCodec' | 'unplayable' | 'unsupportedFormat' | 'noRange' | 'unknown';
  detail: string;
}

/** Longest wait (ms) for each probe request. */
const PROBE_TIMEOUT_MS = 8000;

/**
 * Probes `url` with `Range: bytes=0-0` (and the movie's headers): CORS first, then, when that fails,
 * a no-cors request that can only tell whether the server answered at all. Never throws.
 */
export async function diagnoseSource(url: string, headers: Record<string, string> = {}): Promise<SourceDiagnosis> {
  const result: SourceDiagnosis = { reachable: false, reachableWithoutCors: false, status: 0, contentType: '', rangeSupported: null, serverError: '' };
  try {
    const response = await fetch(url, { headers: { ...headers, Range: 'bytes=0-0' }, signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
    result.reachable = true;
    result.status = response.status;
    result.contentType = (response.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase();
    if (response.ok) result.rangeSupported = response.status === 206 || response.headers.get('accept-ranges') === 'bytes';
    if (!response.ok && result.contentType === 'application/json') {
      const body = (await response.json().catch(() => null)) as { error?: unknown } | null;
      if (typeof body?.error === 'string') result.serverError = body.error;
    }
    void response.body?.cancel().catch(() => undefined);
    return result;
  } catch {
    try {
      await fetch(url, { mode: 'no-cors', signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
      result.reachableWithoutCors = true;
    } catch {
      /* unreachable: DNS, refused connection, TLS, timeout, or blocked mixed content */
    }
    return result;
  }
}

/** Content types that are certainly not media (an HTML error page, a JSON answer…). */
const NOT_MEDIA = /^(text\/html|application\/json|text\/plain|application\/xml|text\/xml)$/;
/** Content types a playlist or manifest may carry (text is fine for those). */
const MANIFEST_TYPES = /mpegurl|dash\+xml|octet-stream|text\/plain|application\/xml|text\/xml/;

export interface ProblemContext {
  /** The source URL that failed. */
  url: string;
  /** The engine that failed. hls.js, mpegts.js and dash.js fetch with CORS; the <video> does not. */
  engine: SourceKind;
  /** `MediaError.code` when the element reported one (3 = decode, 4 = source not supported). */
  mediaErrorCode?: number;
  /** The engine's own words. */
  detail: string;
  /** `location.protocol` of the page ("https:" blocks http media). */
  pageProtocol: string;
}

/** Turns a probe's findings and the failure into one SourceProblem. Pure. */
export function describeSourceProblem(diagnosis: SourceDiagnosis, context: ProblemContext): SourceProblem {
  if (context.pageProtocol === 'https:' && /^http:/i.test(context.url)) return { kind: 'mixedContent', detail: '' };
  if (!diagnosis.reachable) {
    // The server answered, but without CORS: fatal for the engines that read the bytes themselves.
    if (diagnosis.reachableWithoutCors && context.engine !== 'native') return { kind: 'cors', detail: '' };
    if (!diagnosis.reachableWithoutCors) return { kind: 'unreachable', detail: '' };
    // The <video> got an answer we cannot read: not media, or a format this browser lacks.
    if (context.mediaErrorCode === 3 || context.mediaErrorCode === 4) return { kind: 'unplayable', detail: context.detail };
  }
  if (diagnosis.reachable && diagnosis.status >= 400 && diagnosis.serverError) return { kind: 'serverError', detail: diagnosis.serverError };
  if (diagnosis.reachable && diagnosis.status >= 400) return { kind: 'httpStatus', detail: String(diagnosis.status) };
  const manifestEngine = context.engine === 'hls' || context.engine === 'dash';
  if (diagnosis.reachable && NOT_MEDIA.test(diagnosis.contentType) && !(manifestEngine && MANIFEST_TYPES.test(diagnosis.contentType))) {
    return { kind: 'notMedia', detail: diagnosis.contentType };
  }
  if (context.mediaErrorCode === 3 || context.mediaErrorCode === 4) return { kind: 'codec', detail: context.detail };
  return { kind: 'unknown', detail: context.detail };
}

