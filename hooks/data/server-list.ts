'use client';
/**
 * State of a list the server pages, filters and sorts (the admin console's users and rooms, the user
 * center's rooms): its query (filter, keyword, scope, sort, order, page) and the page of rows (SWR,
 * keeping the previous page while the next loads). A new filter, keyword, scope or sort goes back to
 * page 1; the keyword is sent once typing pauses (deferred value).
 */
import { useDeferredValue, useState } from 'react';
import useSWR from 'swr';
import type { ListResponse } from '@/lib/contract/types';

export interface ListQuery<Filter extends string, Scope extends string> {
  filter: Filter;
  keyword: string;
  scope: Scope;
  sort: 'name' | 'createdAt';
  order: 'asc' | 'desc';
  /** From 1. */
  page: number;
}

/**
 * A list starting at `initial`, each page read by `load` under the SWR key `keyOf(query)` (./keys.ts).
 * Returns the query, `update` (a partial change; anything but the page goes back to page 1), the
 * SWR state, and the page's `rows` and the `total`.
 */
export function useServerList<Row, Filter extends string, Scope extends string>(
  keyOf: (query: ListQuery<Filter, Scope>) => readonly unknown[],
  initial: Omit<ListQuery<Filter, Scope>, 'page' | 'keyword'>,
  load: (query: ListQuery<Filter, Scope>) => Promise<ListResponse<Row>>,
) {
  const [query, setQuery] = useState<ListQuery<Filter, Scope>>({ ...initial, keyword: '', page: 1 });
  const keyword = useDeferredValue(query.keyword.trim());
  const sent = { ...query, keyword };
  const swr = useSWR(keyOf(sent), () => load(sent), { keepPreviousData: true });
  const update = (change: Partial<ListQuery<Filter, Scope>>) => setQuery((current) => ({ ...current, page: 1, ...change }));
  return { query, update, ...swr, rows: swr.data?.list ?? [], total: swr.data?.total ?? 0 };
}
