/**
 * What a failed call tells: the server's `error` text (docs/contract.md §2.1), only a status (a
 * body that is not an envelope: gin's text 404, a proxy's HTML page), no answer at all (network
 * failure, abort), or an answer that is not JSON.
 */
export type ApiErrorSource = 'server' | 'status' | 'network' | 'not-json';

/**
 * The one error type thrown by the API layer. `status` is the HTTP status (0 when no response arrived:
 * network failure or abort), `message` the server's `error` text or the transport's message, `path`
 * the request path without origin (e.g. `/api/room/me`), `source` where the message came from.
 * `cause` keeps the underlying failure (e.g. the TypeError of a failed fetch) for debugging.
 * lib/i18n/error-text.ts turns it into words for people.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly path: string;
  readonly source: ApiErrorSource;
  /** A 429's `Retry-After` in seconds (whole, > 0), when the server sent one. */
  readonly retryAfterSec?: number;

  constructor(
    status: number,
    message: string,
    path: string,
    options?: { cause?: unknown; source?: ApiErrorSource; retryAfterSec?: number },
  ) {
    super(message, options);
    this.name = 'ApiError';
    this.status = status;
    this.path = path;
    this.source = options?.source ?? 'server';
    if (options?.retryAfterSec) this.retryAfterSec = options.retryAfterSec;
  }
}
