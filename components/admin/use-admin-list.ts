'use client';
/**
 * The console's lists: their page size and the staff's roles (who may act on whom).
 */
import useSWR from 'swr';
import { listUsers } from '@/lib/api/admin';
import { Role } from '@/lib/contract/roles';

/** Rows per page of the console's lists. */
export const PAGE_SIZE = 20;

export type { ListQuery } from '@/hooks/use-server-list';
/** The console's lists are server lists (hooks/use-server-list.ts). */
export { useServerList as useAdminList } from '@/hooks/use-server-list';

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
