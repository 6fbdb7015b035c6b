'use client';
/**
 * State of a console list: its query (filter, keyword, scope, sort, order, page) and the page of
 * rows from the server (SWR, keeping the previous page while the next loads). A new filter, keyword,
 * scope or sort goes back to page 1; the keyword is sent once typing pauses (deferred value).
 */
import { useDeferredValue, useState } from 'react';
import useSWR from 'swr';
import type { ListResponse } from '@/lib/contract/types';
import { listUsers } from '@/lib/api/admin';
import { Role } from '@/lib/contract/roles';

/** Rows per page of the console's lists. */
export const PAGE_SIZE = 20;

export interface ListQuery<Filter extends string, Scope extends string> {
  filter: Filter;
  keyword: string;
  scope: Scope;
  sort: 'name' | 'createdAt';
  order: 'asc' | 'desc';
  page: number;
}

export function useAdminList<Row, Filter extends string, Scope extends string>(
  key: string,
  initial: Omit<ListQuery<Filter, Scope>, 'page' | 'keyword'>,
  load: (query: ListQuery<Filter, Scope>) => Promise<ListResponse<Row>>,
) {
  const [query, setQuery] = useState<ListQuery<Filter, Scope>>({ ...initial, keyword: '', page: 1 });
  const keyword = useDeferredValue(query.keyword.trim());
  const sent = { ...query, keyword };
  const swr = useSWR([key, JSON.stringify(sent)], () => load(sent), { keepPreviousData: true });
  /** Changes part of the query; anything but the page goes back to page 1. */
  const update = (change: Partial<ListQuery<Filter, Scope>>) => setQuery((current) => ({ ...current, page: 1, ...change }));
  return { query, update, ...swr, rows: swr.data?.list ?? [], total: swr.data?.total ?? 0 };
}

/**
 * Site roles of the admins and roots (by user id), to tell which rows the viewer may act on before
 * the server would refuse. Other users are plain users for this purpose.
 */
export function useStaffRoles(): Map<string, number> {
  const { data } = useSWR('admin-staff', async () => {
    const query = { page: 1, max: 100, keyword: '', search: 'all', sort: 'name', order: 'asc' } as const;
    const [admins, roots] = await Promise.all([listUsers({ ...query, role: 'admin' }), listUsers({ ...query, role: 'root' })]);
    return [...(admins.list ?? []), ...(roots.list ?? [])];
  });
  return new Map((data ?? []).map((user) => [user.id, user.role]));
}

/** The role a room's creator has, as far as the console knows. */
export function creatorRole(staff: Map<string, number>, creatorId: string): number {
  return staff.get(creatorId) ?? Role.User;
}
