/** Row actions of the members panel (docs/contract.md §4.4): shown, hidden, or disabled with the reason. */
import { GUEST_USER_ID, MemberRole, MemberStatus } from '@/lib/contract/roles';
import type { RoomMember } from '@/lib/contract/types';
import { memberActions } from './member-actions';

const row = (overrides: Partial<RoomMember> = {}): RoomMember => ({
  userId: 'b'.repeat(32),
  username: 'bob',
  roomId: 'r'.repeat(32),
  joinAt: 0,
  onlineCount: 0,
  permissions: 193,
  adminPermissions: 0,
  role: MemberRole.Member,
  status: MemberStatus.Active,
  ...overrides,
});
const creator = { isCreator: true, isRoomAdmin: true, canApproveMembers: true, canBanMembers: true, canSetMemberPermissions: true };
const banOnlyAdmin = { isCreator: false, isRoomAdmin: true, canApproveMembers: false, canBanMembers: true, canSetMemberPermissions: false };
const member = { isCreator: false, isRoomAdmin: false, canApproveMembers: false, canBanMembers: false, canSetMemberPermissions: false };
const ME = 'a'.repeat(32);

describe('memberActions', () => {
  it('offers the creator everything that applies to an active member', () => {
    expect(memberActions(row(), ME, creator)).toEqual([
      { id: 'permissions', disabledReason: undefined },
      { id: 'makeAdmin', disabledReason: undefined },
      { id: 'ban', disabledReason: undefined },
      { id: 'remove', disabledReason: undefined },
    ]);
    expect(memberActions(row({ role: MemberRole.Admin }), ME, creator).map((action) => action.id)).toContain('makeMember');
  });

  it('offers approve, ban and remove on a pending row and unban on a banned one', () => {
    expect(memberActions(row({ status: MemberStatus.Pending }), ME, creator).map((action) => action.id)).toEqual(['approve', 'ban', 'remove']);
    expect(memberActions(row({ status: MemberStatus.Banned }), ME, creator).map((action) => action.id)).toEqual(['unban', 'remove']);
  });

  it('keeps what an admin may not do, with the reason', () => {
    const actions = Object.fromEntries(memberActions(row(), ME, banOnlyAdmin).map((action) => [action.id, action.disabledReason]));
    expect(actions).toEqual({
      permissions: 'roomAdmin.why.permissions',
      makeAdmin: 'roomAdmin.why.creatorOnly',
      ban: undefined,
      remove: 'roomAdmin.why.approve',
    });
    const onAdmin = Object.fromEntries(memberActions(row({ role: MemberRole.Admin }), ME, banOnlyAdmin).map((action) => [action.id, action.disabledReason]));
    expect(onAdmin.ban).toBe('roomAdmin.why.adminByCreator');
  });

  it('offers nothing to plain members, on the creator row or on my own row; the guest row edits guest permissions', () => {
    expect(memberActions(row(), ME, member)).toEqual([]);
    expect(memberActions(row({ role: MemberRole.Creator }), ME, creator)).toEqual([]);
    expect(memberActions(row({ userId: ME }), ME, creator)).toEqual([]);
    expect(memberActions(row({ userId: GUEST_USER_ID }), ME, creator)).toEqual([{ id: 'guestPermissions', disabledReason: undefined }]);
    expect(memberActions(row({ userId: GUEST_USER_ID }), ME, banOnlyAdmin)).toEqual([{ id: 'guestPermissions', disabledReason: 'roomAdmin.why.permissions' }]);
  });
});
