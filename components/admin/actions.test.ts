/**
 * Which row actions the admin console offers, and the reason for each one it keeps disabled: the same
 * hierarchy the server enforces (server/admin.test.ts), seen from each kind of viewer.
 */
import { Role, RoomStatus } from '@/lib/contract/roles';
import { roomActions, userActions } from './actions';

const root = { id: 'r'.repeat(32), role: Role.Root };
const admin = { id: 'a'.repeat(32), role: Role.Admin };
const user = (role: number, id = 'u'.repeat(32)) => ({ id, role });
const summary = (actions: { id: string; disabledReason?: string }[]) => actions.map((action) => (action.disabledReason ? `${action.id}(${action.disabledReason})` : action.id));

describe('userActions', () => {
  it('offers approve and reject for a pending user, unban for a banned one', () => {
    expect(summary(userActions(user(Role.Pending), admin))).toEqual(['approve', 'reject', 'rooms', 'rename', 'password', 'delete']);
    expect(summary(userActions(user(Role.Banned), admin))).toEqual(['unban', 'rooms', 'rename', 'password', 'delete']);
  });

  it('lets only root appoint or remove admins, and only root act on an admin', () => {
    expect(summary(userActions(user(Role.User), admin))).toEqual(['makeAdmin(admin.why.rootOnly)', 'ban', 'rooms', 'rename', 'password', 'delete']);
    expect(summary(userActions(user(Role.User), root))).toEqual(['makeAdmin', 'ban', 'rooms', 'rename', 'password', 'delete']);
    expect(summary(userActions(user(Role.Admin), admin))).toEqual([
      'removeAdmin(admin.why.rootOnly)',
      'ban(admin.why.adminByRoot)',
      'rooms',
      'rename(admin.why.adminByRoot)',
      'password(admin.why.adminByRoot)',
      'delete(admin.why.adminByRoot)',
    ]);
    expect(summary(userActions(user(Role.Admin), root))).toEqual(['removeAdmin', 'ban', 'rooms', 'rename', 'password', 'delete']);
  });

  it('keeps root untouchable and nobody acts against themselves', () => {
    expect(summary(userActions(root, admin))).toEqual(['ban(admin.why.root)', 'rooms', 'rename(admin.why.root)', 'password(admin.why.root)', 'delete(admin.why.root)']);
    expect(summary(userActions(root, root))).toEqual(['ban(admin.why.self)', 'rooms', 'rename', 'password', 'delete(admin.why.self)']);
    expect(summary(userActions(admin, admin))).toEqual(['removeAdmin(admin.why.rootOnly)', 'ban(admin.why.self)', 'rooms', 'rename', 'password', 'delete(admin.why.self)']);
  });
});

describe('roomActions', () => {
  const room = (status: number, creatorId = 'c'.repeat(32)) => ({ status, creatorId });
  it('offers approve on a pending room and unban on a banned one', () => {
    expect(summary(roomActions(room(RoomStatus.Pending), admin, Role.User))).toEqual(['open', 'approve', 'ban', 'password', 'delete']);
    expect(summary(roomActions(room(RoomStatus.Banned), admin, Role.User))).toEqual(['open', 'unban', 'password', 'delete']);
  });

  it("keeps root's rooms from everyone and admins' rooms from other admins", () => {
    expect(summary(roomActions(room(RoomStatus.Active), admin, Role.Root))).toEqual(['open', 'ban(admin.why.roomOfRoot)', 'password', 'delete(admin.why.roomOfRoot)']);
    expect(summary(roomActions(room(RoomStatus.Active), admin, Role.Admin))).toEqual(['open', 'ban(admin.why.roomOfAdmin)', 'password', 'delete(admin.why.roomOfAdmin)']);
    expect(summary(roomActions(room(RoomStatus.Active), root, Role.Admin))).toEqual(['open', 'ban', 'password', 'delete']);
    expect(summary(roomActions(room(RoomStatus.Active, admin.id), admin, Role.Admin))).toEqual(['open', 'ban', 'password', 'delete']);
  });
});
