/**
 * Permission evaluation of docs/contract.md §5.4, with the room-wide `can_*` switches of §5.5.
 */
import type { RoomSettings } from '@/lib/contract/types';
import { switchesAllow } from '@/lib/contract/room-settings';
import { AllAdminPermissions, AllPermissions, MemberRole, MemberStatus, Role } from '@/lib/contract/roles';

/** The caller as the evaluation needs it. */
export interface PermissionSubject {
  /** Site role (§5.1). */
  userRole: number;
  isGuest: boolean;
  isCreator: boolean;
  /** Member role in the room (§5.3). */
  memberRole: number;
  memberStatus: number;
  /** The member's own bits; for the guest, the room's `guest_permissions`. */
  permissions: number;
  adminPermissions: number;
}


/**
 * Member permission (§5.4): a site admin, the room creator and room admins pass; anyone else needs
 * every requested bit both switched on for the room and set in their own mask.
 */
export function hasMemberPermission(subject: PermissionSubject, settings: RoomSettings, permission: number): boolean {
  if (subject.userRole >= Role.Admin) return true;
  if (subject.isCreator) return true;
  if (subject.memberRole === MemberRole.Admin) return true;
  if (!switchesAllow(settings, permission)) return false;
  return ((subject.permissions & permission) >>> 0) === permission >>> 0;
}

/**
 * Admin permission (§5.4): a site admin passes, a guest fails, the creator passes; otherwise an
 * Active room admin with the bit set.
 */
export function hasAdminPermission(subject: PermissionSubject, permission: number): boolean {
  if (subject.userRole >= Role.Admin) return true;
  if (subject.isGuest) return false;
  if (subject.isCreator) return true;
  return (
    subject.memberRole === MemberRole.Admin &&
    subject.memberStatus === MemberStatus.Active &&
    ((subject.adminPermissions & permission) >>> 0) === permission >>> 0
  );
}

/**
 * The permissions a member row reports (§5.3, §4.3): room admins and the creator have every bit;
 * the guest has the room's `guest_permissions`; anyone else their stored mask.
 */
export function effectivePermissions(
  member: { role: number; permissions: number; adminPermissions: number },
  isGuest: boolean,
  settings: RoomSettings,
): { permissions: number; adminPermissions: number } {
  if (member.role === MemberRole.Creator) return { permissions: AllPermissions, adminPermissions: AllAdminPermissions };
  if (member.role === MemberRole.Admin) return { permissions: AllPermissions, adminPermissions: member.adminPermissions >>> 0 };
  if (isGuest) return { permissions: settings.guest_permissions >>> 0, adminPermissions: 0 };
  return { permissions: member.permissions >>> 0, adminPermissions: member.adminPermissions >>> 0 };
}
