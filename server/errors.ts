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
