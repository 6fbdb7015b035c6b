/** @jest-environment node */
import { MemberRole, MemberStatus, Permission, Role } from '@/lib/contract/roles';
import { DEFAULT_ROOM_SETTINGS } from '../db/rooms';
import { effectivePermissions, hasAdminPermission, hasMemberPermission, type PermissionSubject } from './permissions';

const member: PermissionSubject = {
  userRole: Role.User,
  isGuest: false,
  isCreator: false,
  memberRole: MemberRole.Member,
  memberStatus: MemberStatus.Active,
  permissions: 193,
  adminPermissions: 0,
};

describe('member permissions (docs/contract.md §5.4)', () => {
  it('gives default members list, chat and WebRTC, but not push or playback control', () => {
    expect(hasMemberPermission(member, DEFAULT_ROOM_SETTINGS, Permission.GetMovieList)).toBe(true);
    expect(hasMemberPermission(member, DEFAULT_ROOM_SETTINGS, Permission.SendChatMessage)).toBe(true);
    expect(hasMemberPermission(member, DEFAULT_ROOM_SETTINGS, Permission.WebRTC)).toBe(true);
    expect(hasMemberPermission(member, DEFAULT_ROOM_SETTINGS, Permission.AddMovie)).toBe(false);
    expect(hasMemberPermission(member, DEFAULT_ROOM_SETTINGS, Permission.SetCurrentStatus)).toBe(false);
  });

  it('needs the room-wide switch as well as the member bit', () => {
    const chatOff = { ...DEFAULT_ROOM_SETTINGS, can_send_chat_message: false };
    expect(hasMemberPermission(member, chatOff, Permission.SendChatMessage)).toBe(false);
    expect(hasMemberPermission(member, chatOff, Permission.GetMovieList)).toBe(true);
  });

  it('lets site admins, the creator and room admins through switched-off permissions', () => {
    const allOff = { ...DEFAULT_ROOM_SETTINGS, can_add_movie: false };
    const none = { ...member, permissions: 0 };
    expect(hasMemberPermission({ ...none, userRole: Role.Admin }, allOff, Permission.AddMovie)).toBe(true);
    expect(hasMemberPermission({ ...none, isCreator: true }, allOff, Permission.AddMovie)).toBe(true);
    expect(hasMemberPermission({ ...none, memberRole: MemberRole.Admin }, allOff, Permission.AddMovie)).toBe(true);
  });

  it('evaluates admin permissions: guests never, room admins only when active with the bit', () => {
    const admin = { ...member, memberRole: MemberRole.Admin, adminPermissions: 1 };
    expect(hasAdminPermission(admin, 1)).toBe(true);
    expect(hasAdminPermission(admin, 2)).toBe(false);
    expect(hasAdminPermission({ ...admin, memberStatus: MemberStatus.Pending }, 1)).toBe(false);
    expect(hasAdminPermission({ ...member, isGuest: true, isCreator: true }, 1)).toBe(false);
    expect(hasAdminPermission({ ...member, isCreator: true }, 32)).toBe(true);
  });

  it('reports all bits for the creator and room admins, and the room guest permissions for the guest', () => {
    const settings = { ...DEFAULT_ROOM_SETTINGS, guest_permissions: 1 };
    expect(effectivePermissions({ role: MemberRole.Creator, permissions: 0, adminPermissions: 0 }, false, settings))
      .toEqual({ permissions: 4294967295, adminPermissions: 4294967295 });
    expect(effectivePermissions({ role: MemberRole.Admin, permissions: 0, adminPermissions: 3 }, false, settings))
      .toEqual({ permissions: 4294967295, adminPermissions: 3 });
    expect(effectivePermissions({ role: MemberRole.Member, permissions: 193, adminPermissions: 0 }, true, settings))
      .toEqual({ permissions: 1, adminPermissions: 0 });
  });
});
