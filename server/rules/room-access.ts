/**
 * The room middleware of docs/contract.md §3.4 (`AuthRoomMiddleware` and the stricter levels),
 * as a plain function: it decides who may use a room, creating memberships for rooms without a
 * password. The companion server answers 401 to a logged-in non-member of a password room (§11 c).
 */
import type { RoomSettings } from '@/lib/contract/types';
import { MemberRole, MemberStatus, Role, RoomStatus } from '@/lib/contract/roles';
import type { MemberRecord, RoomRecord, Store, UserRecord } from '../db';
import { forbidden, unauthorized } from '../errors';
import { userVersion } from '../passwords';
import type { PermissionSubject } from './permissions';
import { GUEST_USER_ID, GUEST_USERNAME } from './users';

/** Middleware levels of §3.4 that sit on top of `room`. */
export type RoomLevel = 'room' | 'room-noguest' | 'room-admin' | 'room-creator';

/** What a request may do in a room once the middleware passed. */
export interface RoomAccess {
  room: RoomRecord;
  settings: RoomSettings;
  /** The caller; the built-in guest user for requests without a token. */
  user: UserRecord;
  isGuest: boolean;
  member: MemberRecord;
}

export const GUESTS_NOT_ALLOWED = 'guests are not allowed to perform this action';
/** The 401 of a non-member where joining needs a password or is closed (§3.4 step 6, §11 c). */
export const MEMBER_NOT_FOUND = 'get room member failed: room or member not found';

/** The guest user record (falls back to a synthetic one if the row was removed by hand). */
export async function guestUser(store: Store): Promise<UserRecord> {
  return (
    await store.users.findById(GUEST_USER_ID) ?? {
      id: GUEST_USER_ID,
      username: GUEST_USERNAME,
      hashedPassword: '',
      email: '',
      role: Role.User,
      createdAt: 0,
    }
  );
}

/** The 401s of a room whose creator is banned or waits for approval; `role` null: the creator's row is gone. */
function checkCreator(role: number | null): void {
  if (role === Role.Banned) throw unauthorized('room creator is banned');
  if (role === Role.Pending) {
    throw unauthorized('room creator is pending approval, please wait for admin to review');
  }
}

/**
 * `AuthRoomMiddleware` (§3.4) for an authenticated `user`, or a guest when `user` is null.
 * Throws 401 with the contract's texts: `invalid room ID`, `guests are not allowed to perform this
 * action`, `room not found`, `room has been banned`, `room is pending approval`, the member-not-found
 * text (password room non-member, or `disable_join_new_user`), `user has been banned from this room`,
 * `user account is pending approval`. Then the level's check (403).
 */
export async function resolveRoomAccess(
  store: Store,
  user: UserRecord | null,
  roomId: string,
  level: RoomLevel = 'room',
): Promise<RoomAccess> {
  if (roomId.length !== 32) throw unauthorized('invalid room ID');
  const isGuest = user === null;
  if (isGuest && !(await store.settings.get()).enable_guest) throw unauthorized(GUESTS_NOT_ALLOWED);
  // The room, its creator's role, its settings and the caller's membership in one query.
  const found = await store.rooms.findWithMember(roomId, user?.id ?? GUEST_USER_ID);
  if (!found) throw unauthorized('room not found');
  checkCreator(found.creatorRole);
  const { room, settings } = found;
  if (isGuest && (settings.disable_guest || room.hashedPassword)) throw unauthorized(GUESTS_NOT_ALLOWED);
  if (room.status === RoomStatus.Banned) throw unauthorized('room has been banned');
  if (room.status === RoomStatus.Pending) throw unauthorized('room is pending approval');

  const caller = user ?? await guestUser(store);
  let member = found.member;
  if (!member) {
    if (caller.id === room.creatorId) {
      member = await store.members.insertIfMissing(creatorMember(room.id, caller.id, Date.now()));
    } else {
      if (room.hashedPassword || settings.disable_join_new_user) throw unauthorized(MEMBER_NOT_FOUND);
      member = await store.members.insertIfMissing({
        roomId: room.id,
        userId: caller.id,
        status: settings.join_need_review ? MemberStatus.Pending : MemberStatus.Active,
        role: MemberRole.Member,
        permissions: isGuest ? settings.guest_permissions : settings.user_default_permissions,
        adminPermissions: 0,
        joinAt: Date.now(),
      });
    }
  }
  if (member.status === MemberStatus.Banned) throw unauthorized('user has been banned from this room');
  if (member.status === MemberStatus.Pending) throw unauthorized('user account is pending approval');

  const access: RoomAccess = { room, settings, user: caller, isGuest, member };
  if (level === 'room-noguest' && isGuest) throw forbidden(GUESTS_NOT_ALLOWED);
  if (level === 'room-admin' && member.role < MemberRole.Admin) throw forbidden('user is not a room administrator');
  if (level === 'room-creator' && room.creatorId !== caller.id) throw forbidden('user is not the room creator');
  return access;
}

/** The creator's membership: Active, role Creator, every permission bit (§5.3). */
export function creatorMember(roomId: string, userId: string, joinAt: number): MemberRecord {
  return {
    roomId,
    userId,
    status: MemberStatus.Active,
    role: MemberRole.Creator,
    permissions: 0xffffffff,
    adminPermissions: 0xffffffff,
    joinAt,
  };
}

/** The permission subject of an access (§5.4); the guest's bits are the room's `guest_permissions`. */
export function subjectOf(access: RoomAccess): PermissionSubject {
  return {
    userRole: access.user.role,
    isGuest: access.isGuest,
    isCreator: access.room.creatorId === access.user.id,
    memberRole: access.member.role,
    memberStatus: access.member.status,
    permissions: access.isGuest ? access.settings.guest_permissions : access.member.permissions,
    adminPermissions: access.member.adminPermissions,
  };
}

/**
 * Whether an open room socket of `userId` (`GUEST_USER_ID` for a guest) may stay in `roomId`,
 * read from the database alone: what the room middleware checked when it opened, without creating
 * anything. `version` is the user version (../auth.ts `userVersion`) of the token it opened with,
 * null for a guest. False when the room is gone, banned or waiting for approval, its creator is
 * banned or waiting, the user is gone, banned or waiting, changed their password, or is no longer
 * an active member (kicked, banned from the room); for a guest, also when guests are no longer let
 * in. Used to re-check sockets after the instances could not tell each other (../hub/registry.ts).
 * Rejects when the database does not answer.
 */
export async function mayStay(store: Store, roomId: string, userId: string, version: number | null): Promise<boolean> {
  const found = await store.rooms.findWithMember(roomId, userId);
  if (!found) return false;
  const { room, settings, member, creatorRole } = found;
  if (room.status !== RoomStatus.Active || creatorRole === Role.Banned || creatorRole === Role.Pending) return false;
  if (userId === GUEST_USER_ID) {
    if (!(await store.settings.get()).enable_guest || settings.disable_guest || room.hashedPassword) return false;
    return member === null || member.status === MemberStatus.Active;
  }
  const user = await store.users.findById(userId);
  if (!user || user.role === Role.Banned || user.role === Role.Pending) return false;
  if (version !== null && userVersion(user.hashedPassword) !== version) return false;
  if (!member) return userId === room.creatorId;
  return member.status === MemberStatus.Active;
}
