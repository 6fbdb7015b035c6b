/**
 * Room administration (docs/contract.md §3.6, §4.4, §5.3–§5.5): room settings, the room password,
 * deleting the room, and the member actions (approve, delete, ban, unban, make member / admin, the
 * permission masks). Each function takes the caller's `RoomAccess` after the route's middleware level
 * (`room-admin` or `room-creator`) passed, checks the admin permission bit (§5.4), changes the store
 * and returns what the route must tell the room's sockets (`effects`).
 *
 * v0.9.11 answers every failure of the member actions with 500 (§4.4). The companion server keeps the
 * error texts but answers 400 (bad request), 403 (no permission, hierarchy) or 404 (no such member);
 * docs/compatibility.md names each case.
 */
import type { RoomSettings } from '@/lib/contract/types';
import { AdminPermission, AllPermissions, MemberRole, MemberStatus, Role } from '@/lib/contract/roles';
import { isId, validateRoomPassword } from '@/lib/contract/validation';
import type { MemberRecord, Store } from '../db';
import { DEFAULT_ROOM_SETTINGS, SETTING_KEYS } from '../db/rooms';
import { badRequest, forbidden, notFound } from '../errors';
import { roomSettingsPatchRequest } from '@/lib/contract/requests';
import { decodeValue } from '../decode';
import { hashPassword, verifyPassword } from '../passwords';
import { hasAdminPermission } from './permissions';
import { subjectOf, type RoomAccess } from './room-access';
import { GUEST_USER_ID } from './users';

/** Error texts of the room administration routes (§4.4, §8), one place for the server and the catalogue test. */
export const RoomAdminError = {
  noPermission: 'no permission',
  settingsNoPermission: 'set room setting failed: no permission',
  idRequired: 'id is required',
  memberNotFound: 'room or member not found',
  banSelf: 'cannot ban yourself',
  banAdmin: 'cannot ban admin',
  banCreator: 'creator cannot be banned',
  banGuest: 'please set whether to disable guest users in the room settings',
  deleteSelf: 'cannot delete yourself',
  deleteAdmin: 'cannot delete admin',
  deleteCreator: 'creator cannot be deleted',
  notPending: 'member is not pending',
  notBanned: 'member is not banned',
  changeCreator: 'creator cannot be changed',
  guestAdmin: 'guest cannot be admin',
  notAdmin: 'not admin',
  samePassword: 'password is the same',
  mustNeedPassword: 'room must need password',
  mustNoNeedPassword: 'room must no need password',
} as const;

/**
 * What the sockets of the room must learn after an action (§6.5): MY_STATUS to one user or to
 * everyone, sockets to close (a user's, or every guest's), or the whole room closed.
 */
export interface AdminEffects {
  /** Send MY_STATUS to this user's connections; `'*'` means every connection in the room. */
  myStatus?: string;
  /** Close every socket of this user in the room. */
  kickUser?: string;
  /** Disconnect everyone and drop the hub (room deleted). */
  closeRoom?: boolean;
}

/** Throws 403 `no permission` (or `message`) unless the caller holds the admin bit (§5.4). */
function requireAdminBit(access: RoomAccess, permission: number, message: string = RoomAdminError.noPermission): void {
  if (!hasAdminPermission(subjectOf(access), permission)) throw forbidden(message);
}

/**
 * Parses a settings patch (`POST /api/room/admin/settings`, §4.4): a partial map of the snake_case
 * keys of §5.5. Booleans must be JSON booleans and the two permission masks uint32 numbers.
 * Throws 400 `no such column: <key>` for an unknown key (v0.9.11's database error) and 400
 * `json: cannot unmarshal …` for a value of the wrong type.
 */
export function parseSettingsPatch(body: Readonly<Record<string, unknown>>): Partial<RoomSettings> {
  const keys = Object.keys(body);
  for (const key of keys) if (!(SETTING_KEYS as string[]).includes(key)) throw badRequest(`no such column: ${key}`);
  return decodeValue(roomSettingsPatchRequest(keys, DEFAULT_ROOM_SETTINGS), body) as Partial<RoomSettings>;
}

/**
 * `POST /api/room/admin/settings` (room-admin + SetRoomSettings, §4.4): writes the patch. Throws 403
 * `set room setting failed: no permission`. Effects: guests are disconnected when `disable_guest`
 * becomes true, and every connection gets MY_STATUS so that clients re-read what they may do (the
 * `can_*` switches and `guest_permissions` change it; a companion-server extension, since v0.9.11
 * sends nothing here, and harmless for its client, which only re-GETs `/api/room/me`).
 */
export async function setRoomSettings(store: Store, access: RoomAccess, patch: Partial<RoomSettings>): Promise<AdminEffects[]> {
  requireAdminBit(access, AdminPermission.SetRoomSettings, RoomAdminError.settingsNoPermission);
  await store.rooms.updateSettings(access.room.id, patch);
  const effects: AdminEffects[] = [{ myStatus: '*' }];
  if (patch.disable_guest === true) effects.push({ kickUser: GUEST_USER_ID });
  return effects;
}

/**
 * `POST /api/room/admin/pwd {password}` (room-admin + SetRoomPassword, §3.6): sets, changes or ("")
 * removes the room password. Throws 403 `no permission`; 400 with the validation texts of §8,
 * `password is the same`, and (for callers below site admin) `room must need password` /
 * `room must no need password`. Setting a password disconnects the room's guests, who may not use a
 * password room (§3.5). Members stay members.
 */
export async function setRoomPassword(store: Store, access: RoomAccess, password: string): Promise<AdminEffects[]> {
  requireAdminBit(access, AdminPermission.SetRoomPassword);
  const invalid = validateRoomPassword(password);
  if (invalid) throw badRequest(invalid);
  if (access.user.role < Role.Admin) {
    const site = await store.settings.get();
    if (site.room_must_need_pwd && !password) throw badRequest(RoomAdminError.mustNeedPassword);
    if (site.room_must_no_need_pwd && password) throw badRequest(RoomAdminError.mustNoNeedPassword);
  }
  const current = access.room.hashedPassword;
  const same = current ? Boolean(password) && (await verifyPassword(password, current)) : !password;
  if (same) throw badRequest(RoomAdminError.samePassword);
  await store.rooms.updatePassword(access.room.id, password ? await hashPassword(password) : '');
  return password ? [{ kickUser: GUEST_USER_ID }] : [];
}

/** `POST /api/room/admin/delete` (room-admin + DeleteRoom, §4.4). Throws 403 `no permission`. */
export async function deleteRoom(store: Store, access: RoomAccess): Promise<AdminEffects[]> {
  requireAdminBit(access, AdminPermission.DeleteRoom);
  await store.rooms.delete(access.room.id);
  return [{ closeRoom: true }];
}

/**
 * `POST /api/room/admin/chat/clear` (a companion-server extension): forgets the room's kept chat
 * (../db/chat.ts), so that sockets joining later get none. Lines already on screen stay there. Needs
 * SetRoomSettings (§5.4) after the `room-admin` level; throws 403 `no permission` otherwise.
 */
export async function clearChatHistory(store: Store, access: RoomAccess): Promise<void> {
  requireAdminBit(access, AdminPermission.SetRoomSettings);
  await store.chat.clear(access.room.id);
}

/** The target member of a member action: 400 `id is required` for a malformed id, 404 when not a member. */
async function targetMember(store: Store, access: RoomAccess, id: string): Promise<MemberRecord> {
  if (!isId(id)) throw badRequest(RoomAdminError.idRequired);
  const member = await store.members.find(access.room.id, id);
  if (!member) throw notFound(RoomAdminError.memberNotFound);
  return member;
}

const isCaller = (access: RoomAccess, member: MemberRecord) => member.userId === access.user.id;
const callerIsCreator = (access: RoomAccess) => access.room.creatorId === access.user.id;

/**
 * `POST /api/room/admin/members/approve {id}` (room-admin + ApprovePendingMember): a Pending member
 * becomes Active (they enter on their next try; they have no socket yet). Throws 403 `no permission`,
 * 400 `id is required`, 404 `room or member not found`, 400 `member is not pending`.
 */
export async function approveMember(store: Store, access: RoomAccess, id: string): Promise<AdminEffects[]> {
  requireAdminBit(access, AdminPermission.ApprovePendingMember);
  const member = await targetMember(store, access, id);
  if (member.status !== MemberStatus.Pending) throw badRequest(RoomAdminError.notPending);
  await store.members.update(access.room.id, id, { status: MemberStatus.Active });
  return [];
}

/**
 * `POST /api/room/admin/members/delete {id}` (room-admin + ApprovePendingMember, as coded in v0.9.11):
 * removes the membership and closes the user's sockets. Throws 403 `no permission`, 400
 * `id is required`, 404, 400 `creator cannot be deleted` / `cannot delete yourself`, 403
 * `cannot delete admin` (an admin removing another admin; the creator may).
 */
export async function deleteMember(store: Store, access: RoomAccess, id: string): Promise<AdminEffects[]> {
  requireAdminBit(access, AdminPermission.ApprovePendingMember);
  const member = await targetMember(store, access, id);
  if (member.role === MemberRole.Creator) throw badRequest(RoomAdminError.deleteCreator);
  if (isCaller(access, member)) throw badRequest(RoomAdminError.deleteSelf);
  if (member.role === MemberRole.Admin && !callerIsCreator(access)) throw forbidden(RoomAdminError.deleteAdmin);
  await store.members.delete(access.room.id, id);
  return [{ kickUser: id }];
}

/**
 * `POST /api/room/admin/members/ban {id}` (room-admin + BanRoomMember): status Banned, sockets closed.
 * Throws 403 `no permission`, 400 `id is required`, 404, 400 `cannot ban yourself`,
 * `creator cannot be banned`, `please set whether to disable guest users in the room settings` (the
 * guest), 403 `cannot ban admin` (unless the caller is the creator).
 */
export async function banMember(store: Store, access: RoomAccess, id: string): Promise<AdminEffects[]> {
  requireAdminBit(access, AdminPermission.BanRoomMember);
  const member = await targetMember(store, access, id);
  if (isCaller(access, member)) throw badRequest(RoomAdminError.banSelf);
  if (member.role === MemberRole.Creator) throw badRequest(RoomAdminError.banCreator);
  if (member.userId === GUEST_USER_ID) throw badRequest(RoomAdminError.banGuest);
  if (member.role === MemberRole.Admin && !callerIsCreator(access)) throw forbidden(RoomAdminError.banAdmin);
  await store.members.update(access.room.id, id, { status: MemberStatus.Banned });
  return [{ kickUser: id }];
}

/**
 * `POST /api/room/admin/members/unban {id}` (room-admin + BanRoomMember): a Banned member becomes
 * Active. Throws 403 `no permission`, 400 `id is required`, 404, 400 `member is not banned`.
 */
export async function unbanMember(store: Store, access: RoomAccess, id: string): Promise<AdminEffects[]> {
  requireAdminBit(access, AdminPermission.BanRoomMember);
  const member = await targetMember(store, access, id);
  if (member.status !== MemberStatus.Banned) throw badRequest(RoomAdminError.notBanned);
  await store.members.update(access.room.id, id, { status: MemberStatus.Active });
  return [];
}

/**
 * `POST /api/room/admin/members/member {id, permissions}` (room-creator): the user becomes a plain
 * Member with `permissions` (uint32; the reference client sends none, so 0) and no admin bits.
 * Throws 400 `id is required`, 404, 400 `creator cannot be changed`. MY_STATUS to the user.
 */
export async function setMemberRole(store: Store, access: RoomAccess, id: string, permissions: number): Promise<AdminEffects[]> {
  const member = await targetMember(store, access, id);
  if (member.role === MemberRole.Creator) throw badRequest(RoomAdminError.changeCreator);
  await store.members.update(access.room.id, id, { role: MemberRole.Member, permissions, adminPermissions: 0 });
  return [{ myStatus: id }];
}

/**
 * `POST /api/room/admin/members/member/permissions {id, permissions}` (room-creator +
 * SetUserPermission): the member's permission mask; for the guest id, the room's `guest_permissions`.
 * Throws 403 `no permission`, 400 `id is required`, 404, 400 `creator cannot be changed`.
 * MY_STATUS to the user (every guest for the guest id).
 */
export async function setMemberPermissions(store: Store, access: RoomAccess, id: string, permissions: number): Promise<AdminEffects[]> {
  requireAdminBit(access, AdminPermission.SetUserPermission);
  if (id === GUEST_USER_ID) {
    await store.rooms.updateSettings(access.room.id, { guest_permissions: permissions });
    return [{ myStatus: id }];
  }
  const member = await targetMember(store, access, id);
  if (member.role === MemberRole.Creator) throw badRequest(RoomAdminError.changeCreator);
  await store.members.update(access.room.id, id, { permissions });
  return [{ myStatus: id }];
}

/**
 * `POST /api/room/admin/members/admin {id, adminPermissions}` (room-creator): the user becomes a room
 * Admin with every member permission and `adminPermissions` (0 when absent, as the reference client
 * sends). Throws 400 `id is required`, 404, 400 `creator cannot be changed`, `guest cannot be admin`.
 * MY_STATUS to the user.
 */
export async function setAdminRole(store: Store, access: RoomAccess, id: string, adminPermissions: number): Promise<AdminEffects[]> {
  const member = await targetMember(store, access, id);
  if (member.role === MemberRole.Creator) throw badRequest(RoomAdminError.changeCreator);
  if (id === GUEST_USER_ID) throw badRequest(RoomAdminError.guestAdmin);
  await store.members.update(access.room.id, id, { role: MemberRole.Admin, permissions: AllPermissions, adminPermissions });
  return [{ myStatus: id }];
}

/**
 * `POST /api/room/admin/members/admin/permissions {id, adminPermissions}` (room-creator): an admin's
 * admin mask. Throws 400 `id is required`, 404, 400 `not admin`. MY_STATUS to the user.
 */
export async function setAdminPermissions(store: Store, access: RoomAccess, id: string, adminPermissions: number): Promise<AdminEffects[]> {
  const member = await targetMember(store, access, id);
  if (member.role !== MemberRole.Admin) throw badRequest(RoomAdminError.notAdmin);
  await store.members.update(access.room.id, id, { adminPermissions });
  return [{ myStatus: id }];
}
