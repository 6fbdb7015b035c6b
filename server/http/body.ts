/**
 * JSON request bodies (docs/contract.md §2.1). Like gin's ShouldBindJSON, any content type is
 * decoded as JSON; unknown fields are ignored; invalid JSON is 400 with the decoder's message; a
 * missing or empty body is 400 `EOF`; a field of the wrong JSON type is 400.
 */
import type { FastifyInstance } from 'fastify';
import { badRequest } from '../errors';

/**
 * Installs the JSON parser for every content type. An empty body parses to `undefined` so that
 * only routes that decode a body answer `EOF` (routes without a body ignore it).
 */
export function installJsonParser(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') {
      done(null, undefined);
      return;
    }
    try {
      done(null, JSON.parse(text));
    } catch (error) {
      done(badRequest(error instanceof Error ? error.message : 'invalid JSON'), undefined);
    }
  });
}

