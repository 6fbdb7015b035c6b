/**
 * The one HTTP client (ky) of the web client. It speaks the SyncTV envelope (server-contract.md §2):
 * sends the raw token in `Authorization` (§3.2), never times out, unwraps `data`, throws `ApiError`
 * with the server's `error` text, and applies the 401 rules of `./unauthorized`.
 */
import ky, { isHTTPError, type KyInstance, type Options } from 'ky';
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

function createClient(): KyInstance {
  return ky.create({
    timeout: false,
    retry: 0,
    hooks: {
      beforeRequest: [
        ({ request }) => {
          const token = readToken();
          if (token && !request.headers.has('Authorization')) request.headers.set('Authorization', token);
        },
      ],
      afterResponse: [
        ({ request, response }) => {
          if (response.status === 401) {
            onUnauthorized(classifyUnauthorized(pathOf(request.url), request.headers.get('X-Room-Id')));
          }
        },
      ],
      beforeError: [
        ({ error, request }) => {
          const path = pathOf(request.url);
          if (isHTTPError(error)) {
            const data = error.data as { error?: unknown } | undefined;
            const message = data && typeof data.error === 'string' ? data.error : error.response.statusText || error.message;
            return new ApiError(error.response.status, message, path);
          }
          return new ApiError(0, error.message, path);
        },
      ],
    },
  });
}

const client = createClient();

/** Per-call options: query, JSON body and the room the call is about (sent as `X-Room-Id`, §3.3). */
export interface RequestOptions {
  searchParams?: Record<string, string | number | boolean | undefined>;
  json?: unknown;
  roomId?: string;
  signal?: AbortSignal;
}

/**
 * Sends one request to `path` (origin-absolute, e.g. `/api/user/me`) and returns the unwrapped `data`
 * (undefined for 204). Throws `ApiError` for any non-2xx status or network failure; a 401 also runs
 * the 401 rules before the error reaches the caller.
 */
export async function request<T>(method: 'get' | 'post', path: string, options: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = {};
  if (options.roomId) headers['X-Room-Id'] = options.roomId;
  const searchParams = options.searchParams
    ? Object.fromEntries(Object.entries(options.searchParams).filter(([, v]) => v !== undefined).map(([k, v]) => [k, String(v)]))
    : undefined;
  const kyOptions: Options = { method, headers, searchParams, json: options.json, signal: options.signal };
  const response = await client(`${apiOrigin()}${path}`, kyOptions);
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  if (!text) return undefined as T;
  return unwrapEnvelope<T>(JSON.parse(text));
}

/** Shorthands of `request`. */
export const get = <T>(path: string, options?: RequestOptions) => request<T>('get', path, options);
export const post = <T>(path: string, options?: RequestOptions) => request<T>('post', path, options);
