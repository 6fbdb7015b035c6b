/** @jest-environment node */
import { HttpError } from '../errors';
import { parseDesc, parsePaging, parseSearch, parseSort } from './query';

function errorOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof HttpError) return `${error.status} ${error.message}`;
    throw error;
  }
  return 'no error';
}

describe('list query parsing (docs/contract.md §4 conventions)', () => {
  it('defaults to page 1 of 10 and clamps out-of-range values', () => {
    expect(parsePaging({})).toEqual({ page: 1, max: 10, offset: 0 });
    expect(parsePaging({ page: '3', max: '20' })).toEqual({ page: 3, max: 20, offset: 40 });
    expect(parsePaging({ page: '0', max: '-5' })).toEqual({ page: 1, max: 10, offset: 0 });
    expect(parsePaging({ page: '2', max: '500' })).toEqual({ page: 2, max: 100, offset: 100 });
    expect(parsePaging({ page: ['2', '9'] }).page).toBe(2);
  });

  it('rejects non-numbers with the contract texts, max first', () => {
    expect(errorOf(() => parsePaging({ page: 'x', max: 'y' }))).toBe('400 max must be a number');
    expect(errorOf(() => parsePaging({ page: '1e3' }))).toBe('400 page must be a number');
    expect(errorOf(() => parsePaging({ max: '' }))).toBe('400 max must be a number');
  });

  it('parses sort, order and search', () => {
    expect(parseSort({}, ['name', 'createdAt'], 'name')).toBe('name');
    expect(errorOf(() => parseSort({ sort: 'size' }, ['name', 'createdAt'], 'name'))).toBe('400 not support sort');
    expect(parseDesc({})).toBe(true);
    expect(parseDesc({ order: 'asc' })).toBe(false);
    expect(parseSearch({}, ['name', 'id'])).toBe('all');
    expect(parseSearch({ search: 'id' }, ['name', 'id'])).toBe('id');
    expect(parseSearch({ search: 'color' }, ['name', 'id'])).toBeNull();
  });
});
