/**
 * The errors that the companion server's rules throw: the contract's status code and error text
 * (docs/contract.md §2.2, §8). Defined below the rules, the data layer and the transport, so that
 * none of them imports upward; the HTTP error handler (./http/envelope.ts) turns one into an
 * envelope and the WebSocket handshake into a refusal.
 */

/** A failure with the contract's status code and error text (§2.2, §8). */
export class HttpError extends Error {
  readonly status: number;

  constructor(status: number, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.status = status;
    this.name = 'HttpError';
  }
}

/** 400 with the contract's text. */
export const badRequest = (message: string) => new HttpError(400, message);
/** 401 with the contract's text. */
export const unauthorized = (message: string) => new HttpError(401, message);
/** 403 with the contract's text. */
export const forbidden = (message: string) => new HttpError(403, message);
/** 404 with the contract's text. */
export const notFound = (message: string) => new HttpError(404, message);
/** 500 with the contract's text, where v0.9.11 answers 500 on purpose (e.g. `email is not enabled`). */
export const serverError = (message: string) => new HttpError(500, message);

/**
 * 503 `service unavailable`: a store the request needs (PostgreSQL, Redis) did not answer within its
 * deadline or is unreachable (docs/deployment.md "Deadlines"). A companion-server text: v0.9.11 would
 * wait, or answer 500.
 */
export const SERVICE_UNAVAILABLE = 'service unavailable';

/**
 * True when `error` says a store did not answer or cannot be reached, rather than that the request
 * was wrong: node-postgres's deadlines and lost connections, PostgreSQL's own cancellations and
 * connection states (SQLSTATE 57014 statement timeout, 57P01–57P03, class 08, 53300), and ioredis's
 * command timeout or a command refused while Redis is down.
 */
export function isStoreUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (/^(57014|57P0[1-3]|08...|53300)$/.test(code) || /^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|EHOSTUNREACH)$/.test(code))) return true;
  return /Query read timeout|timeout exceeded when trying to connect|Connection terminated|Command timed out|Stream isn't writeable|Connection is closed/i.test(error.message);
}

/** The HttpError for a store that is unavailable (`isStoreUnavailable`): 503 SERVICE_UNAVAILABLE, with the cause kept for the log. */
export const serviceUnavailable = (cause?: unknown) => new HttpError(503, SERVICE_UNAVAILABLE, { cause });
