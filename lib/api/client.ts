/**
 * The one HTTP client of the web client, on the platform `fetch`. It speaks the SyncTV envelope
 * (server-contract.md §2): sends the raw token in `Authorization` (§3.2), never times out (like the
 * reference client: a slow server is not an error by itself), never retries, unwraps `data`, throws `ApiError` with the server's `error` text,
 * and applies the 401 rules of `./unauthorized`.
 */
import { ApiError } from './error';
import { classifyUnauthorized, SIGN_OUT_REDIRECT_DELAY_MS, type UnauthorizedAction } from './unauthorized';

/** localStorage key of the raw JWT, as in the reference client. */
export const TOKEN_STORAGE_KEY = 'userToken';

/** The exported client's basePath. */
export const BASE_PATH = '/web';

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

/** Reads the stored token, or null (also during prerender, where there is no localStorage). */
export function readToken(): string | null {
  if (typeof window === 'undefined') return null;
  try {
    return window.localStorage.getItem(TOKEN_STORAGE_KEY) || null;
  } catch {
    return null;
  }
}

/**
 * What the client does on a 401, set by the app shell (it owns the router and the session atom).
 * The default performs the reference behaviour with full page loads.
 */
let onUnauthorized: (action: UnauthorizedAction) => void = (action) => {
  if (typeof window === 'undefined') return;
  if (action.kind === 'joinRoom') {
    window.location.assign(`${BASE_PATH}/joinRoom/${action.roomId}/`);
    return;
  }
  window.localStorage.clear();
  window.setTimeout(() => window.location.assign(`${BASE_PATH}/`), SIGN_OUT_REDIRECT_DELAY_MS);
};

/** Replaces the 401 handler (called once by the app shell). */
export function setUnauthorizedHandler(handler: (action: UnauthorizedAction) => void): void {
  onUnauthorized = handler;
}

/**
 * Returns `data` when the body is an envelope carrying it, else the body itself (204 gives undefined).
 * The reference client takes `data` only when truthy; we take it whenever the key is present, so a
 * legitimate `0`, `false` or `""` is not mistaken for the envelope.
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

/**
 * How long (ms) an error response's body may take to arrive before the client gives up on it and
 * reports the status instead, so a stalled error body cannot hang the caller even though requests
 * themselves have no timeout.
 */
export const ERROR_BODY_TIMEOUT_MS = 10_000;

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

function buildUrl(path: string, searchParams: RequestOptions['searchParams']): string {
  const url = new URL(`${apiOrigin()}${path}`);
  for (const [key, value] of Object.entries(searchParams ?? {})) {
    if (value !== undefined) url.searchParams.append(key, String(value));
  }
  return url.toString();
}

/** Resolves to the text of `response`, or undefined when it does not arrive within `timeoutMs`. */
async function readTextWithin(response: Response, timeoutMs: number, controller: AbortController): Promise<string | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => {
      controller.abort();
      resolve(undefined);
    }, timeoutMs);
  });
  try {
    return await Promise.race([response.text().catch(() => undefined), timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

/** The server's `error` text from an error body (§2.1), or undefined when the body is not an envelope. */
function serverErrorText(body: string | undefined): string | undefined {
  if (!body) return undefined;
  try {
    const parsed: unknown = JSON.parse(body);
    if (parsed !== null && typeof parsed === 'object' && typeof (parsed as { error?: unknown }).error === 'string') {
      return (parsed as { error: string }).error;
    }
  } catch {
    /* not JSON (e.g. gin's text 404 or an HTML error page): the status describes the failure */
  }
  return undefined;
}

/**
 * Sends one request to `path` (origin-absolute, e.g. `/api/user/me`) and returns the unwrapped `data`
 * (undefined for 204 or an empty body). Throws `ApiError` for any non-2xx status (message: the
 * server's `error` text, else the status text, else "Request failed with status code N: METHOD url"),
 * for a 2xx body that is not JSON, and with status 0 for a network failure or an abort.
 * A 401 also runs the 401 rules before the error reaches the caller.
 */
export async function request<T>(method: 'get' | 'post', path: string, options: RequestOptions = {}): Promise<T> {
  const verb = method.toUpperCase();
  const url = buildUrl(path, options.searchParams);
  const apiPath = pathOf(url);
  const headers = new Headers();
  const token = readToken();
  if (token) headers.set('Authorization', token);
  if (options.roomId) headers.set('X-Room-Id', options.roomId);
  let body: string | undefined;
  if (options.json !== undefined) {
    body = JSON.stringify(options.json);
    headers.set('Content-Type', 'application/json');
  }

  // One controller carries the caller's signal and the error-body limit.
  const controller = new AbortController();
  const callerSignal = options.signal;
  const forwardAbort = () => controller.abort(callerSignal?.reason);
  if (callerSignal?.aborted) forwardAbort();
  else callerSignal?.addEventListener('abort', forwardAbort, { once: true });
  const transportError = (error: unknown): ApiError => {
    if (callerSignal?.aborted) {
      const reason: unknown = callerSignal.reason;
      return new ApiError(0, reason instanceof Error ? reason.message : 'This operation was aborted', apiPath, { cause: reason });
    }
    return new ApiError(0, `Request failed due to a network error: ${verb} ${url}`, apiPath, { cause: error });
  };

  try {
    let response: Response;
    try {
      response = await fetch(new Request(url, { method: verb, headers, body, signal: controller.signal }));
    } catch (error) {
      throw transportError(error);
    }

    if (response.status === 401) onUnauthorized(classifyUnauthorized(apiPath, options.roomId || null));

    if (!response.ok) {
      const errorBody = await readTextWithin(response, ERROR_BODY_TIMEOUT_MS, controller);
      if (callerSignal?.aborted) throw transportError(undefined);
      const statusText = response.statusText;
      const fallback = `Request failed with status code ${`${response.status} ${statusText}`.trim()}: ${verb} ${url}`;
      throw new ApiError(response.status, serverErrorText(errorBody) ?? (statusText || fallback), apiPath);
    }

    if (response.status === 204) return undefined as T;
    let text: string;
    try {
      text = await response.text();
    } catch (error) {
      throw transportError(error);
    }
    if (!text) return undefined as T;
    try {
      return unwrapEnvelope<T>(JSON.parse(text));
    } catch (error) {
      throw new ApiError(response.status, `The server's answer is not JSON: ${verb} ${url}`, apiPath, { cause: error });
    }
  } finally {
    callerSignal?.removeEventListener('abort', forwardAbort);
  }
}

/** Shorthands of `request`. */
export const get = <T>(path: string, options?: RequestOptions) => request<T>('get', path, options);
export const post = <T>(path: string, options?: RequestOptions) => request<T>('post', path, options);
