/**
 * Query-string parsing shared by the list routes (docs/contract.md §4 conventions):
 * `page` (default 1, ≤0 → 1), `max` (default 10, ≤0 → 10, capped at 100), `sort`, `order`.
 */
import { badRequest } from '../errors';

/** Fastify's parsed query: a repeated key arrives as an array. */
export type Query = Record<string, string | string[] | undefined>;

/** The first value of `key`, or undefined when absent (a repeated key uses its first value, as gin does). */
export function queryValue(query: unknown, key: string): string | undefined {
  if (!query || typeof query !== 'object') return undefined;
  const value = (query as Query)[key];
  return Array.isArray(value) ? value[0] : value;
}

/** The value of `key`, or `fallback` when absent (an empty value stays empty, as gin's DefaultQuery). */
export function queryOr(query: unknown, key: string, fallback: string): string {
  return queryValue(query, key) ?? fallback;
}

/** Go's strconv.Atoi: optional sign and decimal digits; null when not a number. */
function atoi(value: string): number | null {
  return /^[+-]?\d{1,18}$/.test(value) ? Number(value) : null;
}

/** Page size limits (§4 conventions). */
export const DEFAULT_MAX = 10;
export const MAX_MAX = 100;

/**
 * Paging of a list route. `max` is parsed first, as in v0.9.11.
 * Returns `{page, max, offset}`; throws 400 `max must be a number` / `page must be a number`.
 */
export function parsePaging(query: unknown): { page: number; max: number; offset: number } {
  let max = atoi(queryOr(query, 'max', String(DEFAULT_MAX)));
  if (max === null) throw badRequest('max must be a number');
  let page = atoi(queryOr(query, 'page', '1'));
  if (page === null) throw badRequest('page must be a number');
  if (page <= 0) page = 1;
  if (max <= 0) max = DEFAULT_MAX;
  else if (max > MAX_MAX) max = MAX_MAX;
  return { page, max, offset: (page - 1) * max };
}

/** `order`: `desc` (the default) or anything else, meaning ascending. Returns true for descending. */
export function parseDesc(query: unknown): boolean {
  return queryOr(query, 'order', 'desc') === 'desc';
}

/** `sort` among `allowed` (default `fallback`); anything else throws 400 `not support sort`. */
export function parseSort<T extends string>(query: unknown, allowed: readonly T[], fallback: T): T {
  const sort = queryOr(query, 'sort', fallback);
  if (!(allowed as readonly string[]).includes(sort)) throw badRequest('not support sort');
  return sort as T;
}

/** `search` among `allowed`; absent means `all`, an unknown value means no keyword filter (null). */
export function parseSearch<T extends string>(query: unknown, allowed: readonly T[]): T | 'all' | null {
  const search = queryOr(query, 'search', 'all');
  if (search === 'all') return 'all';
  return (allowed as readonly string[]).includes(search) ? (search as T) : null;
}
