/**
 * Decoding of JSON request bodies with gin's error texts (docs/contract.md §2.1): unknown fields
 * are ignored, a missing body is 400 `EOF`, a field of the wrong JSON type is 400. Pure functions,
 * used by the routes and by the rules; the parser that produces the bodies is ./http/body.ts.
 */
import { badRequest } from './errors';

/** A decoded JSON object body. */
export type JsonObject = Record<string, unknown>;

function jsonKind(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value === 'object' ? 'object' : typeof value;
}

/** The body as an object. Throws 400 `EOF` when absent and 400 when it is not an object (`null` reads as `{}`). */
export function objectBody(body: unknown): JsonObject {
  if (body === undefined) throw badRequest('EOF');
  if (body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body)) {
    throw badRequest(`json: cannot unmarshal ${jsonKind(body)} into an object`);
  }
  return body as JsonObject;
}

/** The body as an array. Throws 400 `EOF` when absent and 400 when it is not an array (`null` reads as `[]`). */
export function arrayBody(body: unknown): unknown[] {
  if (body === undefined) throw badRequest('EOF');
  if (body === null) return [];
  if (!Array.isArray(body)) throw badRequest(`json: cannot unmarshal ${jsonKind(body)} into an array`);
  return body;
}

function mismatch(key: string, value: unknown, expected: string): never {
  throw badRequest(`json: cannot unmarshal ${jsonKind(value)} into field ${key} of type ${expected}`);
}

/** A string field; "" when missing or null. */
export function stringField(body: JsonObject, key: string): string {
  const value = body[key];
  if (value === undefined || value === null) return '';
  if (typeof value !== 'string') mismatch(key, value, 'string');
  return value;
}

/** A boolean field; false when missing or null. */
export function boolField(body: JsonObject, key: string): boolean {
  const value = body[key];
  if (value === undefined || value === null) return false;
  if (typeof value !== 'boolean') mismatch(key, value, 'bool');
  return value;
}

/** An unsigned 32-bit integer field (a permission mask, §5.4); 0 when missing or null. */
export function uint32Field(body: JsonObject, key: string): number {
  const value = body[key];
  if (value === undefined || value === null) return 0;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > 0xffffffff) mismatch(key, value, 'uint32');
  return value;
}

/** An object field; undefined when missing or null. */
export function objectField(body: JsonObject, key: string): JsonObject | undefined {
  const value = body[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) mismatch(key, value, 'object');
  return value as JsonObject;
}

/** An array-of-strings field; [] when missing or null. */
export function stringArrayField(body: JsonObject, key: string): string[] {
  const value = body[key];
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) mismatch(key, value, '[]string');
  for (const item of value) if (typeof item !== 'string') mismatch(key, item, 'string');
  return value as string[];
}
