/** Which controls a member sees (docs/contract.md §3.4, §5.4). */
import type { Movie, RoomMe } from '@/lib/contract/types';
import { AdminPermission, DefaultPermissions, MemberRole, MemberStatus, Permission, Role } from '@/lib/contract/roles';
import { DEFAULT_ROOM_SETTINGS } from '@/lib/contract/room-settings';
import { roomAbilities } from './abilities';

const me = (overrides: Partial<RoomMe> = {}): RoomMe => ({
  userId: 'u'.repeat(32),
  roomId: 'r'.repeat(32),
  joinAt: 0,
  role: MemberRole.Member,
  status: MemberStatus.Active,
  permissions: DefaultPermissions,
  adminPermissions: 0,
  ...overrides,
});
const movie = (creatorId: string): Movie => ({ id: 'm'.repeat(32), creator: 'x', creatorId, subPath: '', base: { url: '', name: 'x' }, createAt: 0 });

describe('roomAbilities', () => {
  it('gives a default member the list and chat only', () => {
    const can = roomAbilities(me(), Role.User);
    expect(can).toMatchObject({ canListMovies: true, canChat: true, canAddMovie: false, canDeleteMovie: false, canSetCurrentMovie: false, canSetStatus: false });
  });

  it('gives the creator, room admins and site admins everything', () => {
    for (const can of [
      roomAbilities(me({ role: MemberRole.Creator, permissions: 0 }), Role.User),
      roomAbilities(me({ role: MemberRole.Admin, permissions: 0 }), Role.User),
      roomAbilities(me({ permissions: 0 }), Role.Admin),
    ]) {
      expect(can).toMatchObject({ canListMovies: true, canAddMovie: true, canDeleteMovie: true, canSetCurrentMovie: true, canSetStatus: true, canChat: true });
    }
  });

  it('gives a guest with no permissions nothing', () => {
    expect(roomAbilities(me({ permissions: 0 }), Role.Visitor)).toMatchObject({ canListMovies: false, canChat: false, canSetStatus: false });
  });

  it('gives nothing before /api/room/me answered', () => {
    expect(roomAbilities(undefined, Role.Admin).canListMovies).toBe(false);
  });

  it('lets a member delete the movies they pushed', () => {
    const can = roomAbilities(me({ permissions: Permission.AddMovie }), Role.User);
    expect(can.canDelete(movie('u'.repeat(32)))).toBe(true);
    expect(can.canDelete(movie('o'.repeat(32)))).toBe(false);
  });

  it('gives nobody but room admins and the creator the admin abilities, a site admin included', () => {
    const adminAbilities = ['canApproveMembers', 'canBanMembers', 'canSetMemberPermissions', 'canSetRoomSettings', 'canSetRoomPassword', 'canDeleteRoom'] as const;
    const none = Object.fromEntries(adminAbilities.map((name) => [name, false]));
    const all = Object.fromEntries(adminAbilities.map((name) => [name, true]));
    expect(roomAbilities(me({ adminPermissions: 0xffffffff }), Role.User)).toMatchObject({ ...none, isRoomAdmin: false });
    expect(roomAbilities(me(), Role.Root)).toMatchObject({ ...none, isRoomAdmin: false, canSetStatus: true });
    expect(roomAbilities(me({ role: MemberRole.Creator, adminPermissions: 0 }), Role.User)).toMatchObject({ ...all, isCreator: true, isRoomAdmin: true });
    expect(roomAbilities(me({ role: MemberRole.Admin, adminPermissions: 0 }), Role.Admin)).toMatchObject(all);
  });

  it('gives a room admin exactly the admin bits it holds, and none while it is not active', () => {
    const admin = me({ role: MemberRole.Admin, adminPermissions: AdminPermission.BanRoomMember | AdminPermission.SetRoomSettings });
    expect(roomAbilities(admin, Role.User)).toMatchObject({
      isRoomAdmin: true,
      isCreator: false,
      canApproveMembers: false,
      canBanMembers: true,
      canSetMemberPermissions: false,
      canSetRoomSettings: true,
      canSetRoomPassword: false,
      canDeleteRoom: false,
    });
    expect(roomAbilities({ ...admin, status: MemberStatus.Pending }, Role.User)).toMatchObject({ canBanMembers: false, canSetRoomSettings: false });
  });

  it('applies the room-wide switches to plain members only, once the settings are known', () => {
    const settings = { ...DEFAULT_ROOM_SETTINGS, can_set_current_status: false, can_send_chat_message: false };
    const controller = me({ permissions: 0xff });
    expect(roomAbilities(controller, Role.User)).toMatchObject({ canSetStatus: true, canChat: true });
    expect(roomAbilities(controller, Role.User, settings)).toMatchObject({ canSetStatus: false, canChat: false, canAddMovie: true });
    expect(roomAbilities(me({ role: MemberRole.Admin, permissions: 0 }), Role.User, settings)).toMatchObject({ canSetStatus: true, canChat: true });
    expect(roomAbilities(me({ permissions: 0 }), Role.Admin, settings).canSetStatus).toBe(true);
  });
});
