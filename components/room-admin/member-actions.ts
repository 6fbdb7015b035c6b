/**
 * Which actions a room admin sees on a member's row, and why one is unavailable
 * (docs/contract.md §4.4, §5.4; docs/reference-client.md §1.5 "User list drawer"). Pure, so that the
 * panel and the tests share it. An action that cannot apply to the row (approve an active member)
 * is left out; one that the viewer may not use is kept with the reason, so they learn who can.
 */
import { GUEST_USER_ID, MemberRole, MemberStatus } from '@/lib/contract/roles';
import type { RoomMember } from '@/lib/contract/types';
import type { MessageKey } from '@/lib/i18n';
import type { RoomAbilities } from '@/lib/room/abilities';
import '@/lib/i18n/messages/room-admin';

export type MemberActionId = 'approve' | 'ban' | 'unban' | 'remove' | 'makeAdmin' | 'makeMember' | 'permissions' | 'guestPermissions';

export interface AvailableAction {
  id: MemberActionId;
  /** Why the viewer may not use it (a message key), or undefined when they may. */
  disabledReason?: MessageKey;
}

type Viewer = Pick<RoomAbilities, 'isCreator' | 'isRoomAdmin' | 'canApproveMembers' | 'canBanMembers' | 'canSetMemberPermissions'>;

/**
 * The actions for `row` as seen by `viewerId` with `viewer`'s abilities. Nothing for a viewer who is
 * not a room admin, for the creator's row and for the viewer's own row.
 */
export function memberActions(row: RoomMember, viewerId: string, viewer: Viewer): AvailableAction[] {
  if (!viewer.isRoomAdmin || row.role === MemberRole.Creator || row.userId === viewerId) return [];
  const permissionsReason: MessageKey | undefined =
    viewer.isCreator && viewer.canSetMemberPermissions ? undefined : 'roomAdmin.why.permissions';
  if (row.userId === GUEST_USER_ID) return [{ id: 'guestPermissions', disabledReason: permissionsReason }];

  const approve = viewer.canApproveMembers ? undefined : 'roomAdmin.why.approve';
  const ban = viewer.canBanMembers ? undefined : 'roomAdmin.why.ban';
  // Only the creator may ban or remove an admin.
  const onAdmin = (reason: MessageKey | undefined): MessageKey | undefined =>
    reason ?? (row.role === MemberRole.Admin && !viewer.isCreator ? 'roomAdmin.why.adminByCreator' : undefined);
  const creatorOnly = viewer.isCreator ? undefined : 'roomAdmin.why.creatorOnly';

  if (row.status === MemberStatus.Pending) {
    return [
      { id: 'approve', disabledReason: approve },
      { id: 'ban', disabledReason: ban },
      { id: 'remove', disabledReason: approve },
    ];
  }
  if (row.status === MemberStatus.Banned) {
    return [
      { id: 'unban', disabledReason: ban },
      { id: 'remove', disabledReason: onAdmin(approve) },
    ];
  }
  const admin = row.role === MemberRole.Admin;
  return [
    { id: 'permissions', disabledReason: admin ? creatorOnly : permissionsReason },
    { id: admin ? 'makeMember' : 'makeAdmin', disabledReason: creatorOnly },
    { id: 'ban', disabledReason: onAdmin(ban) },
    { id: 'remove', disabledReason: onAdmin(approve) },
  ];
}
