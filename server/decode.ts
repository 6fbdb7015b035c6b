/**
 * Request bodies decoded with the contract's schemas (lib/contract/requests.ts), gin's way
 * (docs/contract.md §2.1): a missing body is 400 `EOF`, a body or field of the wrong JSON type is 400
 * `json: cannot unmarshal …`. Pure functions below the rules, used by the routes and by the rules that
 * read a dynamic body (settings patches); the parser that produces the bodies is ./http/body.ts.
 */
import { z } from 'zod/mini';
import { jsonKind, requestErrorText } from '@/lib/contract/requests';
import { badRequest } from './errors';

/**
 * Decodes a JSON object body with one of the contract's request schemas (lib/contract/requests.ts).
 * Throws 400 `EOF` when absent, 400 `json: cannot unmarshal <kind> into an object` when it is not
 * an object (`null` reads as `{}`), and 400 with gin's text for the first field of the wrong type.
 */
export function decodeBody<Schema extends z.ZodMiniType>(schema: Schema, body: unknown): z.output<Schema> {
  if (body === undefined) throw badRequest('EOF');
  const object = body === null ? {} : body;
  if (typeof object !== 'object' || Array.isArray(object)) throw badRequest(`json: cannot unmarshal ${jsonKind(object)} into an object`);
  return decodeValue(schema, object);
}

/** Decodes `value` (an object already) with `schema`; throws 400 with gin's text for the first refused field. */
export function decodeValue<Schema extends z.ZodMiniType>(schema: Schema, value: unknown): z.output<Schema> {
  const result = z.safeParse(schema, value);
  if (!result.success) throw badRequest(requestErrorText(result.error.issues));
  return result.data;
}

/**
 * A JSON array body, its items not yet decoded (`POST /api/room/movie/pushs` checks the count
 * first). Throws 400 `EOF` when absent and 400 when it is not an array (`null` reads as `[]`).
 */
export function decodeArrayBody(body: unknown): unknown[] {
  if (body === undefined) throw badRequest('EOF');
  if (body === null) return [];
  if (!Array.isArray(body)) throw badRequest(`json: cannot unmarshal ${jsonKind(body)} into an array`);
  return body;
}
