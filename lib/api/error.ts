/**
 * The one error type thrown by the API layer. `status` is the HTTP status (0 when no response arrived:
 * network failure, abort or timeout), `message` the server's `error` text (server-contract.md §2.1)
 * or the transport's message, `path` the request path without origin (e.g. `/api/room/me`). `cause`
 * keeps the underlying failure (e.g. the TypeError of a failed fetch) for debugging.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly path: string;

  constructor(status: number, message: string, path: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ApiError';
    this.status = status;
    this.path = path;
  }
}

/** The text to show for any thrown value: an ApiError's server message, an Error's message, or String(value). */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
