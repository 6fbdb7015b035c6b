/**
 * Site administration rules (docs/contract.md §4.6, §5.1, §5.2, §5.6): site settings by group,
 * users, rooms and administrators. Transport (guards, bodies, sockets) stays in ../routes/admin.ts;
 * each action returns the sockets it affects as `SiteEffects`.
 *
 * Who may act on whom: an admin (role 4) manages users and their rooms; only root (role 5) manages
 * admins and their rooms; nobody deletes, bans, demotes or renames a root user through these routes
 * but themselves (name and password), so the last root can never be lost.
 */
import fs from 'node:fs';
import path from 'node:path';
import { GUEST_USER_ID, Role, RoomStatus } from '@/lib/contract/roles';
import {
  coerceSetting,
  EXCLUSIVE_SETTINGS,
  OAUTH2_GROUP_PREFIX,
  settingProblemText,
  settingSpec,
  type SettingValue,
} from '@/lib/contract/site-settings';
import type { ListResponse, RoomListItem, UserInfo } from '@/lib/contract/types';
import { isId, normalizeName, validateEmail, validateRoomPassword, validateUsername, validateNewUserPassword } from '@/lib/contract/validation';
import { DEFAULT_SITE_SETTINGS } from '../db/settings';
import { SCHEMA_VERSION } from '../db/migrations';
import { isUniqueViolation } from '../db/users';
import type { RoomRecord, SiteSettings, Store, UserRecord } from '../db';
import { badRequest, forbidden, notFound } from '../errors';
import { hashPassword } from '../passwords';
import { listFilter, roomListItem, type ViewerCount } from './rooms';
import { newId, userInfo } from './users';

/** Error texts of the admin routes (§4.6, §8). */
export const SiteAdminError = {
  idRequired: 'id is required',
  userNotFound: 'user not found',
  roomNotFound: 'room not found',
  groupNotFound: 'group not found',
  roleEmpty: 'role cannot be empty',
  roleInvalid: 'invalid role',
  addRoot: 'you cannot add root user',
  userExists: 'user already exists',
  deleteSelf: 'cannot delete yourself',
  deleteRoot: 'cannot delete root',
  deleteAdmin: 'cannot delete admin',
  banSelf: 'cannot ban self',
  banRoot: 'cannot ban root',
  banAdmin: 'cannot ban admin',
  changeRoot: "cannot change root's name or password here",
  changeAdmin: "cannot change admin's name or password",
  notPending: 'user is not pending',
  notBanned: 'user is not banned',
  roomNotPending: 'room is not pending',
  roomNotBanned: 'room is not banned',
  roomBanned: 'room is already banned',
  deleteRootRoom: "cannot delete root's room",
  deleteAdminRoom: "cannot delete admin's room",
  roomPasswordEmpty: 'room password empty',
  addSelf: 'cannot add yourself',
  alreadyAdmin: 'user is already admin',
  addInactive: 'only an active user can become admin',
  removeSelf: 'cannot remove yourself',
  removeRoot: 'cannot remove root',
  notAdmin: 'user is not admin',
  emailUnbound: 'email unbound',
  exclusive: 'room_must_need_pwd and room_must_no_need_pwd cannot both be on',
} as const;

/** What the room sockets must learn after an action. */
export interface SiteEffects {
  /** Rooms whose hubs close (everyone disconnected, §4.6 ban/delete). */
  closeRooms?: string[];
  /** Users whose sockets close everywhere (banned, deleted). */
  kickUsers?: string[];
}

// ---------------------------------------------------------------------------------------------
// Settings (§4.6, §5.6)

/** The companion server's version (package.json), read once. */
let packageVersion: string | undefined;
function serverVersion(): string {
  packageVersion ??= (JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../package.json'), 'utf8')) as { version: string }).version;
  return packageVersion;
}

/**
 * What this machine converts with (docs/transcode.md "Settings"): the version of the ffmpeg found
 * ("" when none) and the hardware encoders that work here (`vaapi`, `nvenc`, `qsv`).
 */
export interface ConvertTools {
  ffmpeg: string;
  hardware: readonly string[];
}

/**
 * Settings the server shows but never takes: `version`, `database_version`, the ffmpeg that
 * converts films (`convert_ffmpeg`, "" when none) and the hardware encoders that work here
 * (`convert_hardware`, comma-separated, "" when none).
 */
function readOnlySettings(tools: ConvertTools): Record<string, string> {
  return { version: `v0.9.11-compatible companion ${serverVersion()}`, database_version: String(SCHEMA_VERSION), convert_ffmpeg: tools.ffmpeg, convert_hardware: tools.hardware.join(', ') };
}

/** 400 when the admin picks a hardware encoder that does not work on this machine (companion text). */
export const ENCODER_NOT_HERE = 'this hardware encoder does not work on this server';

/** The group of a setting the companion server has (§5.6), by its description. */
function groupOf(name: string): string {
  return settingSpec(name)?.group ?? 'server';
}

/**
 * `GET /api/admin/settings[/:group]` (§4.6): `{<group>: {<name>: value}}` of every setting the
 * companion server has; `group` narrows to one group, `oauth2` to every `oauth2_<p>` group.
 * `tools` gives the read-only `convert_ffmpeg` and `convert_hardware`. Throws 400 `group not found`.
 */
export async function settingsByGroup(store: Store, tools: ConvertTools, group?: string): Promise<Record<string, Record<string, SettingValue>>> {
  const values: Record<string, SettingValue> = { ...(await store.settings.get()), ...readOnlySettings(tools) };
  const groups: Record<string, Record<string, SettingValue>> = {};
  for (const [name, value] of Object.entries(values)) {
    const owner = groupOf(name);
    (groups[owner] ??= {})[name] = value;
  }
  if (group === undefined) return groups;
  if (group === 'oauth2') {
    const oauth2 = Object.entries(groups).filter(([name]) => name.startsWith(OAUTH2_GROUP_PREFIX));
    if (oauth2.length === 0) throw badRequest(SiteAdminError.groupNotFound);
    return Object.fromEntries(oauth2);
  }
  if (!groups[group]) throw badRequest(SiteAdminError.groupNotFound);
  return { [group]: groups[group] };
}

/**
 * `POST /api/admin/settings` (§4.6): a partial map `{<name>: value}`, coerced to each setting's type
 * and checked against its limits; nothing is written unless every entry is valid. Takes effect at
 * once (every route reads the settings per request). `hardware` lists the hardware encoders that
 * work here: `convert_encoder` takes `software` or one of them. Throws 400 `setting <name> not found`
 * (unknown or read-only), `setting <name> must …`, ENCODER_NOT_HERE, or the exclusive-pair text.
 */
export async function updateSettings(store: Store, patch: Record<string, unknown>, hardware: readonly string[] = []): Promise<void> {
  const changes: Partial<Record<keyof SiteSettings, SettingValue>> = {};
  for (const [name, raw] of Object.entries(patch)) {
    const spec = settingSpec(name);
    if (!spec || spec.readOnly || !(name in DEFAULT_SITE_SETTINGS)) throw badRequest(`setting ${name} not found`);
    const result = coerceSetting(spec, raw);
    if ('problem' in result) throw badRequest(settingProblemText(name, result.problem));
    if (name === 'convert_encoder' && result.value !== 'software' && !hardware.includes(String(result.value))) throw badRequest(ENCODER_NOT_HERE);
    changes[name as keyof SiteSettings] = result.value;
  }
  const merged = { ...(await store.settings.get()), ...changes } as Record<string, SettingValue>;
  for (const pair of EXCLUSIVE_SETTINGS) {
    if (pair.every((name) => merged[name] === true)) throw badRequest(SiteAdminError.exclusive);
  }
  await store.settings.setMany(changes as Partial<SiteSettings>);
}

// ---------------------------------------------------------------------------------------------
// Users (§4.6)

/** Values of `role` in the user list query. */
const ROLE_FILTER: Record<string, number> = {
  banned: Role.Banned,
  pending: Role.Pending,
  user: Role.User,
  admin: Role.Admin,
  root: Role.Root,
};

/** Parsed query of `GET /api/admin/user/list`. */
export interface UserListQuery {
  max: number;
  offset: number;
  /** `banned|pending|user|admin|root`; anything else lists every role. */
  role: string;
  keyword: string;
  search: 'all' | 'name' | 'id' | null;
  sort: 'name' | 'createdAt';
  desc: boolean;
}

/** `GET /api/admin/user/list` (§4.6): every user but the built-in guest, with their bound email. */
export async function listUsers(store: Store, query: UserListQuery): Promise<ListResponse<UserInfo>> {
  const { total, rows } = await store.users.list({ ...listFilter(query), role: ROLE_FILTER[query.role], excludeId: GUEST_USER_ID });
  return { total, list: rows.map(userInfo) };
}

/** The target user of an action: 400 `id is required` for a malformed id, 404 `user not found`. */
async function targetUser(store: Store, id: string): Promise<UserRecord> {
  if (!isId(id)) throw badRequest(SiteAdminError.idRequired);
  const user = id === GUEST_USER_ID ? null : await store.users.findById(id);
  if (!user) throw notFound(SiteAdminError.userNotFound);
  return user;
}

/** 403 unless `caller` outranks `target` for a change: root targets are refused, admins need root. */
function assertOutranks(caller: UserRecord, target: UserRecord, onRoot: string, onAdmin: string): void {
  if (target.role === Role.Root) throw forbidden(onRoot);
  if (target.role === Role.Admin && caller.role !== Role.Root) throw forbidden(onAdmin);
}

/** Rooms created by a user (ids), for closing their hubs. */
async function roomIdsOf(store: Store, userId: string): Promise<string[]> {
  return (await store.rooms.list({ creatorId: userId, sort: 'name', desc: false, limit: -1, offset: 0 })).rows.map((room) => room.id);
}

/**
 * `POST /api/admin/user/add {username, password, role}` (§4.6). Throws 400 on validation,
 * `role cannot be empty`, `invalid role`, `user already exists`; 403 `you cannot add root user` (and
 * for an admin, an admin user) unless the caller is root.
 */
export async function addUser(store: Store, caller: UserRecord, rawUsername: string, password: string, role: number): Promise<UserRecord> {
  const username = normalizeName(rawUsername);
  const invalid = validateUsername(username) ?? validateNewUserPassword(password);
  if (invalid) throw badRequest(invalid);
  if (!role) throw badRequest(SiteAdminError.roleEmpty);
  if (!Number.isInteger(role) || role < Role.Banned || role > Role.Root) throw badRequest(SiteAdminError.roleInvalid);
  if (role === Role.Root && caller.role !== Role.Root) throw forbidden(SiteAdminError.addRoot);
  if (role === Role.Admin && caller.role !== Role.Root) throw forbidden('user is not a root user');
  if (await store.users.findByUsername(username)) throw badRequest(SiteAdminError.userExists);
  const user: UserRecord = { id: newId(), username, hashedPassword: await hashPassword(password), role, createdAt: Date.now(), email: '' };
  try {
    await store.users.insert(user);
  } catch (error) {
    if (isUniqueViolation(error)) throw badRequest(SiteAdminError.userExists);
    throw error;
  }
  return user;
}

/**
 * `POST /api/admin/user/delete {id}` (§4.6): the user, their rooms and memberships. Throws 400
 * `cannot delete yourself`, 403 `cannot delete root`, `cannot delete admin` (non-root caller).
 */
export async function deleteUser(store: Store, caller: UserRecord, id: string): Promise<SiteEffects> {
  const target = await targetUser(store, id);
  if (target.id === caller.id) throw badRequest(SiteAdminError.deleteSelf);
  assertOutranks(caller, target, SiteAdminError.deleteRoot, SiteAdminError.deleteAdmin);
  const rooms = await roomIdsOf(store, target.id);
  await store.users.delete(target.id);
  return { closeRooms: rooms, kickUsers: [target.id] };
}

/**
 * `POST /api/admin/user/ban {id}` (§4.6): role Banned; their sockets close and so do their rooms
 * (a banned creator's room refuses everyone, §3.4). Throws 400 `cannot ban self`, 403 `cannot ban
 * root`, `cannot ban admin` (non-root caller).
 */
export async function banUser(store: Store, caller: UserRecord, id: string): Promise<SiteEffects> {
  const target = await targetUser(store, id);
  if (target.id === caller.id) throw badRequest(SiteAdminError.banSelf);
  assertOutranks(caller, target, SiteAdminError.banRoot, SiteAdminError.banAdmin);
  await store.users.updateRole(target.id, Role.Banned);
  return { closeRooms: await roomIdsOf(store, target.id), kickUsers: [target.id] };
}

/** `POST /api/admin/user/unban {id}` (§4.6): Banned → User. Throws 400 `user is not banned`. */
export async function unbanUser(store: Store, id: string): Promise<void> {
  const target = await targetUser(store, id);
  if (target.role !== Role.Banned) throw badRequest(SiteAdminError.notBanned);
  await store.users.updateRole(target.id, Role.User);
}

/** `POST /api/admin/user/approve {id}` (§4.6): Pending → User. Throws 400 `user is not pending`. */
export async function approveUser(store: Store, id: string): Promise<void> {
  const target = await targetUser(store, id);
  if (target.role !== Role.Pending) throw badRequest(SiteAdminError.notPending);
  await store.users.updateRole(target.id, Role.User);
}

/**
 * `POST /api/admin/user/password {id, password}` (§4.6). The new hash revokes the user's tokens
 * (§3.1), so their sockets close too. Throws 400 on validation, 403 for someone else who is root or
 * (non-root caller) an admin.
 */
export async function setUserPassword(store: Store, caller: UserRecord, id: string, password: string): Promise<SiteEffects> {
  const target = await targetUser(store, id);
  if (target.id !== caller.id) assertOutranks(caller, target, SiteAdminError.changeRoot, SiteAdminError.changeAdmin);
  const invalid = validateNewUserPassword(password);
  if (invalid) throw badRequest(invalid);
  await store.users.updatePassword(target.id, await hashPassword(password));
  return { kickUsers: [target.id] };
}

/**
 * `POST /api/admin/user/username {id, username}` (§4.6). Throws 400 on validation or a taken name,
 * 403 for someone else who is root or (non-root caller) an admin.
 */
export async function setUsername(store: Store, caller: UserRecord, id: string, rawUsername: string): Promise<void> {
  const username = normalizeName(rawUsername);
  const target = await targetUser(store, id);
  if (target.id !== caller.id) assertOutranks(caller, target, SiteAdminError.changeRoot, SiteAdminError.changeAdmin);
  const invalid = validateUsername(username);
  if (invalid) throw badRequest(invalid);
  if (username === target.username) return;
  try {
    await store.users.updateUsername(target.id, username);
  } catch (error) {
    if (isUniqueViolation(error)) throw badRequest(SiteAdminError.userExists);
    throw error;
  }
}

/** `POST /api/admin/admin/add {id}` (root, §4.6): User → Admin. */
export async function makeAdmin(store: Store, caller: UserRecord, id: string): Promise<void> {
  const target = await targetUser(store, id);
  if (target.id === caller.id) throw badRequest(SiteAdminError.addSelf);
  if (target.role >= Role.Admin) throw badRequest(SiteAdminError.alreadyAdmin);
  if (target.role !== Role.User) throw badRequest(SiteAdminError.addInactive);
  await store.users.updateRole(target.id, Role.Admin);
}

/** `POST /api/admin/admin/delete {id}` (root, §4.6): Admin → User. Root cannot be removed. */
export async function removeAdmin(store: Store, caller: UserRecord, id: string): Promise<void> {
  const target = await targetUser(store, id);
  if (target.id === caller.id) throw badRequest(SiteAdminError.removeSelf);
  if (target.role === Role.Root) throw forbidden(SiteAdminError.removeRoot);
  if (target.role !== Role.Admin) throw badRequest(SiteAdminError.notAdmin);
  await store.users.updateRole(target.id, Role.User);
}

// ---------------------------------------------------------------------------------------------
// Rooms (§4.6)

/** Values of `status` in the admin room list queries. */
export const ROOM_STATUS_FILTER: Record<string, number> = {
  active: RoomStatus.Active,
  pending: RoomStatus.Pending,
  banned: RoomStatus.Banned,
};

/** Parsed query of `GET /api/admin/room/list` and `/api/admin/user/rooms`. */
export interface AdminRoomListQuery {
  max: number;
  offset: number;
  status: string;
  keyword: string;
  search: 'all' | 'name' | 'creator' | 'creatorId' | 'id' | null;
  sort: 'name' | 'createdAt';
  desc: boolean;
  /** Only rooms created by this user (`/api/admin/user/rooms`). */
  creatorId?: string;
}

/** `GET /api/admin/room/list` and `/api/admin/user/rooms` (§4.6): any room, hidden or not. */
export async function listAllRooms(store: Store, query: AdminRoomListQuery, viewers: ViewerCount): Promise<ListResponse<RoomListItem>> {
  if (query.creatorId !== undefined) await targetUser(store, query.creatorId);
  const { total, rows } = await store.rooms.list({ ...listFilter(query), status: ROOM_STATUS_FILTER[query.status], creatorId: query.creatorId });
  return { total, list: rows.map((row) => roomListItem(row, viewers)) };
}

/** The target room of an action: 400 `id is required` for a malformed id, 404 `room not found`. */
async function targetRoom(store: Store, id: string): Promise<RoomRecord> {
  if (!isId(id)) throw badRequest(SiteAdminError.idRequired);
  const room = await store.rooms.findById(id);
  if (!room) throw notFound(SiteAdminError.roomNotFound);
  return room;
}

/** 403 when the room's creator outranks `caller` (root's rooms: nobody; admins' rooms: root only). */
async function assertRoomOutranked(store: Store, caller: UserRecord, room: RoomRecord, onRoot: string, onAdmin: string): Promise<void> {
  const creator = await store.users.findById(room.creatorId);
  if (!creator || creator.id === caller.id) return;
  assertOutranks(caller, creator, onRoot, onAdmin);
}

/** `POST /api/admin/room/approve {id}` (§4.6): Pending → Active. Throws 400 `room is not pending`. */
export async function approveRoom(store: Store, id: string): Promise<void> {
  const room = await targetRoom(store, id);
  if (room.status !== RoomStatus.Pending) throw badRequest(SiteAdminError.roomNotPending);
  await store.rooms.updateStatus(room.id, RoomStatus.Active);
}

/**
 * `POST /api/admin/room/ban {id}` (§4.6): Banned; the room's hub closes, which disconnects everyone.
 * Throws 400 `room is already banned`, 403 `cannot ban root`, `cannot ban admin` (the creator's rank).
 */
export async function banRoom(store: Store, caller: UserRecord, id: string): Promise<SiteEffects> {
  const room = await targetRoom(store, id);
  if (room.status === RoomStatus.Banned) throw badRequest(SiteAdminError.roomBanned);
  await assertRoomOutranked(store, caller, room, SiteAdminError.banRoot, SiteAdminError.banAdmin);
  await store.rooms.updateStatus(room.id, RoomStatus.Banned);
  return { closeRooms: [room.id] };
}

/** `POST /api/admin/room/unban {id}` (§4.6): Banned → Active. Throws 400 `room is not banned`. */
export async function unbanRoom(store: Store, id: string): Promise<void> {
  const room = await targetRoom(store, id);
  if (room.status !== RoomStatus.Banned) throw badRequest(SiteAdminError.roomNotBanned);
  await store.rooms.updateStatus(room.id, RoomStatus.Active);
}

/** `POST /api/admin/room/delete {id}` (§4.6). Throws 403 `cannot delete root's room` / `cannot delete admin's room`. */
export async function deleteAnyRoom(store: Store, caller: UserRecord, id: string): Promise<SiteEffects> {
  const room = await targetRoom(store, id);
  await assertRoomOutranked(store, caller, room, SiteAdminError.deleteRootRoom, SiteAdminError.deleteAdminRoom);
  await store.rooms.delete(room.id);
  return { closeRooms: [room.id] };
}

/**
 * `POST /api/admin/room/password {id, password}` (§4.6): a new, non-empty room password. The room's
 * sockets close so that everyone joins again with it. Throws 400 `room password empty` or the
 * validation texts.
 */
export async function setAnyRoomPassword(store: Store, id: string, password: string): Promise<SiteEffects> {
  const room = await targetRoom(store, id);
  if (!password) throw badRequest(SiteAdminError.roomPasswordEmpty);
  const invalid = validateRoomPassword(password);
  if (invalid) throw badRequest(invalid);
  await store.rooms.updatePassword(room.id, await hashPassword(password));
  return { closeRooms: [room.id] };
}

// ---------------------------------------------------------------------------------------------
// Email test (§4.6)

/**
 * The address of `POST /api/admin/email/test {email?}`: the given one (validated), else the caller's
 * bound email. Throws 400 `invalid email` …, `email unbound`.
 */
export function testMailAddress(caller: UserRecord, email: string): string {
  if (email) {
    const invalid = validateEmail(email);
    if (invalid) throw badRequest(invalid);
    return email;
  }
  if (!caller.email) throw badRequest(SiteAdminError.emailUnbound);
  return caller.email;
}
