/**
 * The one HTTP client of the web client: a ky instance whose hooks speak the SyncTV envelope
 * (docs/contract.md §2). Every call to the API goes through it (the room WebSocket aside).
 *
 * - No timeout (a slow server is not an error by itself, as in the reference client) and no retries:
 *   a write is never sent twice, and a failed read is the caller's (SWR's) to repeat.
 * - `beforeRequest`: the stored token, raw, in `Authorization` (§3.2); the call's room in `X-Room-Id` (§3.3).
 * - `afterResponse`: a 401 runs the 401 rules (./unauthorized.ts, the only place they live); any
 *   other non-2xx answer becomes one `ApiError` with the server's `error` text and the status; a
 *   2xx envelope is unwrapped to its `data` (§2.1).
 */
import ky, { type KyInstance } from 'ky';
import { readToken } from '@/lib/storage';
import { ApiError } from './error';
import { handleUnauthorized } from './unauthorized';

/**
 * Origin of the API and WebSocket. Empty means the page's own origin; a preview build sets
 * NEXT_PUBLIC_API_ORIGIN (e.g. `https://synctv.example.com`) at build time.
 */
export function apiOrigin(): string {
  const configured = process.env.NEXT_PUBLIC_API_ORIGIN;
  if (configured) return configured.replace(/\/$/, '');
  if (typeof window !== 'undefined') return window.location.origin;
  return 'http://localhost';
}

/** What a call tells the hooks (ky's `context`). */
interface CallContext {
  /** The room the call is about, sent as `X-Room-Id`. */
  roomId?: string;
}

/**
 * Returns `data` when the body is an envelope carrying it, else the body itself. The reference
 * client takes `data` only when truthy; we take it whenever the key is present, so a legitimate
 * `0`, `false` or `""` is not mistaken for the envelope. Bodies without an envelope (`/oauth2/enabled`,
 * `/api/user/providers`, §2.1) come back as they are.
 */
export function unwrapEnvelope<T>(body: unknown): T {
  if (body !== null && typeof body === 'object' && !Array.isArray(body) && 'data' in body) {
    return (body as { data: T }).data;
  }
  return body as T;
}

function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return url.split('?')[0];
  }
}

/** The server's `error` text from an error body (§2.1), or undefined when the body is not an envelope. */
function serverErrorText(body: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(body);
    if (parsed !== null && typeof parsed === 'object' && typeof (parsed as { error?: unknown }).error === 'string') {
      return (parsed as { error: string }).error;
    }
  } catch {
    /* not JSON (gin's text 404, a proxy's HTML error page): the status describes the failure */
  }
  return undefined;
}

/**
 * The ApiError of a non-2xx answer: the server's `error` text, else the status text, else
 * "Request failed with status code N: METHOD url".
 */
async function errorOf(request: Request, response: Response): Promise<ApiError> {
  const body = await response.text().catch(() => '');
  const fallback = `Request failed with status code ${response.status}: ${request.method} ${request.url}`;
  const text = serverErrorText(body);
  const retryAfterSec = retryAfterOf(response);
  return text === undefined
    ? new ApiError(response.status, response.statusText || fallback, pathOf(request.url), { source: 'status', retryAfterSec })
    : new ApiError(response.status, text, pathOf(request.url), { retryAfterSec });
}

/** A 429's `Retry-After` as whole seconds (delta-seconds or an HTTP date), or undefined. */
export function retryAfterOf(response: Response): number | undefined {
  const value = response.status === 429 ? response.headers.get('retry-after')?.trim() : undefined;
  if (!value) return undefined;
  const seconds = /^\d+$/.test(value) ? Number(value) : Math.ceil((Date.parse(value) - Date.now()) / 1000);
  return Number.isFinite(seconds) && seconds > 0 ? seconds : undefined;
}

/** The answer with its envelope removed: a response whose JSON body is `data` (empty answers stay empty). */
async function unwrapped(request: Request, response: Response): Promise<Response> {
  if (response.status === 204) return response;
  const text = await response.text();
  // The new body is neither the length nor the encoding the server sent.
  const headers = new Headers(response.headers);
  headers.delete('Content-Length');
  headers.delete('Content-Encoding');
  if (!text) return new Response(null, { status: response.status, headers });
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    throw new ApiError(response.status, `The server's answer is not JSON: ${request.method} ${request.url}`, pathOf(request.url), { cause: error, source: 'not-json' });
  }
  return new Response(JSON.stringify(unwrapEnvelope(body) ?? null), { status: response.status, headers });
}

function createApi(): KyInstance {
  return ky.create({
    prefixUrl: apiOrigin(),
    timeout: false,
    retry: 0,
    throwHttpErrors: false,
    hooks: {
      beforeRequest: [
        (request, options) => {
          const token = readToken();
          if (token) request.headers.set('Authorization', token);
          const { roomId } = options.context as CallContext;
          if (roomId) request.headers.set('X-Room-Id', roomId);
        },
      ],
      afterResponse: [
        async (request, _options, response) => {
          if (response.status === 401) handleUnauthorized(pathOf(request.url), request.headers.get('X-Room-Id'));
          if (!response.ok) throw await errorOf(request, response);
          return unwrapped(request, response);
        },
      ],
    },
  });
}

/** The ky instance, prefixed with the API origin (paths without the leading slash: `api/user/me`). */
export const api = createApi();

/** Per-call options: query, JSON body and the room the call is about (sent as `X-Room-Id`, §3.3). */
export interface RequestOptions {
  /** Query parameters; `undefined` values are left out. */
  searchParams?: Record<string, string | number | boolean | undefined>;
  /** Sent as the JSON body (`Content-Type: application/json`) when not undefined. */
  json?: unknown;
  roomId?: string;
  /** Aborting it rejects the call with `ApiError` status 0. */
  signal?: AbortSignal;
}

function definedParams(params: RequestOptions['searchParams']): Record<string, string | number | boolean> | undefined {
  if (!params) return undefined;
  const defined: Record<string, string | number | boolean> = {};
  for (const [key, value] of Object.entries(params)) if (value !== undefined) defined[key] = value;
  return defined;
}

/** Any failure of a call as an ApiError: status 0 when no answer arrived (network failure, abort). */
function asApiError(error: unknown, method: string, path: string, signal: AbortSignal | undefined): ApiError {
  if (error instanceof ApiError) return error;
  if (signal?.aborted) {
    const reason: unknown = signal.reason;
    return new ApiError(0, reason instanceof Error ? reason.message : 'This operation was aborted', path, { cause: reason, source: 'network' });
  }
  return new ApiError(0, `Request failed due to a network error: ${method.toUpperCase()} ${apiOrigin()}${path}`, path, { cause: error, source: 'network' });
}

/**
 * Sends one request to `path` (origin-absolute, e.g. `/api/user/me`) through the ky instance and
 * returns the unwrapped `data` (undefined for 204 or an empty body). Throws `ApiError`: the status and
 * the server's text for a non-2xx answer (a 401 has run the 401 rules first), the status for a 2xx
 * body that is not JSON, status 0 for a network failure or an abort.
 */
export async function request<T>(method: 'get' | 'post' | 'head', path: string, options: RequestOptions = {}): Promise<T> {
  const context: CallContext = { roomId: options.roomId };
  try {
    const response = await api(path.replace(/^\//, ''), {
      method,
      searchParams: definedParams(options.searchParams),
      json: options.json,
      signal: options.signal,
      context: context as Record<string, unknown>,
    });
    const text = await response.text();
    return (text ? JSON.parse(text) : undefined) as T;
  } catch (error) {
    throw asApiError(error, method, path, options.signal);
  }
}

/** Shorthands of `request`. */
export const get = <T>(path: string, options?: RequestOptions) => request<T>('get', path, options);
export const post = <T>(path: string, options?: RequestOptions) => request<T>('post', path, options);
