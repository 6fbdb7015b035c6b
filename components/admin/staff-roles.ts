'use client';
/**
 * Who may act on whom in the console: the site roles of the staff, and of a room's creator.
 */
import { useStaff } from '@/hooks/data/admin';
import { Role } from '@/lib/contract/roles';

/**
 * Site roles of the admins and roots (by user id), to tell which rows the viewer may act on before
 * the server would refuse. Other users are plain users for this purpose.
 */
export function useStaffRoles(): Map<string, number> {
  const { data } = useStaff();
  return new Map((data ?? []).map((user) => [user.id, user.role]));
}

/** The role a room's creator has, as far as the console knows. */
export function creatorRole(staff: Map<string, number>, creatorId: string): number {
  return staff.get(creatorId) ?? Role.User;
}
