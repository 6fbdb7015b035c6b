/**
 * Room rules (docs/contract.md §3.6, §4.2, §4.3): create, check, join (login), joined, lists,
 * the hot list, member views, delete and exit. `viewers(roomId)` is the hub's live viewer count
 * (0 for a room without a hub).
 */
import type {
  CreateRoomResponse,
  JoinedRoomListItem,
  ListResponse,
  RoomCheck,
  RoomInfo,
  RoomJoined,
  RoomListItem,
  RoomLoginResponse,
  RoomMe,
  RoomMember,
  RoomSettings,
} from '@/lib/contract/types';
import { MemberRole, MemberStatus, Role, RoomStatus } from '@/lib/contract/roles';
import { normalizeName, validateRoomName, validateRoomPassword } from '@/lib/contract/validation';
import type { RoomListRow, RoomRecord, Store, UserRecord } from '../db';
import { emptyCurrent, DEFAULT_ROOM_SETTINGS } from '../db/rooms';
import { isUniqueViolation } from '../db/users';
import { badRequest, forbidden, notFound, unauthorized } from '../errors';
import { hashPassword, verifyPassword } from '../passwords';
import { effectivePermissions } from './permissions';
import { creatorMember, type RoomAccess } from './room-access';
import { GUEST_USER_ID, newId } from './users';

/** Live viewer count of a room (distinct user ids with an open socket, §6.5). */
export type ViewerCount = (roomId: string) => number;

/** `enabledGuest` (§3.5): guests allowed site-wide and by the room, and no password. */
async function enabledGuest(store: Store, room: RoomRecord, settings: RoomSettings): Promise<boolean> {
  return !settings.disable_guest && (await store.settings.get()).enable_guest && !room.hashedPassword;
}

/** The `{name, creatorId, creator, viewerCount, status, needPassword, enabledGuest}` view (§4.3). */
export async function roomCheckView(store: Store, room: RoomRecord, viewers: ViewerCount): Promise<RoomCheck> {
  return {
    name: room.name,
    creatorId: room.creatorId,
    creator: room.creator,
    viewerCount: viewers(room.id),
    status: room.status as RoomCheck['status'],
    needPassword: Boolean(room.hashedPassword),
    enabledGuest: await enabledGuest(store, room, await store.rooms.settings(room.id)),
  };
}

/** RoomListItem (§4.3). */
export function roomListItem(room: RoomRecord, viewers: ViewerCount): RoomListItem {
  return {
    roomId: room.id,
    roomName: room.name,
    creatorId: room.creatorId,
    creator: room.creator,
    viewerCount: viewers(room.id),
    createdAt: room.createdAt,
    needPassword: Boolean(room.hashedPassword),
    status: room.status as RoomListItem['status'],
  };
}

/** `GET /api/room/check` (public). Throws 400 `invalid room ID`, 404 `room not found`. */
export async function checkRoom(store: Store, roomId: string, viewers: ViewerCount): Promise<RoomCheck> {
  if (roomId.length !== 32) throw badRequest('invalid room ID');
  const room = await store.rooms.findById(roomId);
  if (!room) throw notFound('room not found');
  return await roomCheckView(store, room, viewers);
}

/**
 * `GET /api/room/joined` and `GET /api/user/room/joined` (user auth). The creator is always Active;
 * a user without a membership is NotJoined. Throws 401 `invalid room ID`, 404 `room not found`.
 */
export async function joinedRoom(store: Store, user: UserRecord, roomId: string, viewers: ViewerCount): Promise<RoomJoined> {
  if (roomId.length !== 32) throw unauthorized('invalid room ID');
  const room = await store.rooms.findById(roomId);
  if (!room) throw notFound('room not found');
  const status =
    room.creatorId === user.id
      ? MemberStatus.Active
      : (((await store.members.find(room.id, user.id))?.status ?? MemberStatus.NotJoined) as RoomJoined['status']);
  return { joined: status !== MemberStatus.NotJoined, status, room: await roomCheckView(store, room, viewers) };
}

/**
 * `POST /api/room/create` (§4.3). Throws 400 with the validation texts, `create room is disabled`,
 * `room must need password`, `room must no need password`, `room count exceeds limit`,
 * `room already exists`. Admins are exempt from the site restrictions and always get Active.
 */
export async function createRoom(
  store: Store,
  user: UserRecord,
  rawInput: { roomName: string; password: string; hidden: boolean },
): Promise<CreateRoomResponse> {
  const input = { ...rawInput, roomName: normalizeName(rawInput.roomName) };
  const invalid = validateRoomName(input.roomName) ?? validateRoomPassword(input.password);
  if (invalid) throw badRequest(invalid);
  const site = await store.settings.get();
  const isAdmin = user.role >= Role.Admin;
  if (!isAdmin) {
    if (site.disable_create_room) throw badRequest('create room is disabled');
    if (site.room_must_need_pwd && !input.password) throw badRequest('room must need password');
    if (site.room_must_no_need_pwd && input.password) throw badRequest('room must no need password');
    if (await store.rooms.countByCreator(user.id) >= site.user_max_room_count) throw badRequest('room count exceeds limit');
  }
  if (await store.rooms.findByName(input.roomName)) throw badRequest('room already exists');
  const status = !isAdmin && site.create_room_need_review ? RoomStatus.Pending : RoomStatus.Active;
  const now = Date.now();
  const id = newId();
  const hashedPassword = input.password ? await hashPassword(input.password) : '';
  try {
    await store.rooms.insert(
      { id, name: input.roomName, creatorId: user.id, hashedPassword, status, createdAt: now },
      { ...DEFAULT_ROOM_SETTINGS, hidden: input.hidden },
      emptyCurrent(now),
      creatorMember(id, user.id, now),
    );
  } catch (error) {
    if (isUniqueViolation(error)) throw badRequest('room already exists');
    throw error;
  }
  return { roomId: id, status };
}

/**
 * `POST /api/room/login` (§3.6, §4.3). Existing members get their member info without a password
 * check; otherwise the password is checked (skipped for site admins) and a membership is created.
 * Throws 400 `empty room name` / `invalid room id`, 404 `room not found`, 403 `room is banned`,
 * `room is pending, please wait for admin to approve`, `password error`,
 * `this room was disabled join new user`.
 */
export async function logInRoom(
  store: Store,
  user: UserRecord,
  roomId: string,
  password: string,
): Promise<RoomLoginResponse> {
  if (!roomId) throw badRequest('empty room name');
  if (roomId.length !== 32) throw badRequest('invalid room id');
  const room = await store.rooms.findById(roomId);
  if (!room) throw notFound('room not found');
  if (room.status === RoomStatus.Banned) throw forbidden('room is banned');
  if (room.status === RoomStatus.Pending) throw forbidden('room is pending, please wait for admin to approve');
  const settings = await store.rooms.settings(room.id);
  let member = await store.members.find(room.id, user.id);
  if (!member && room.creatorId === user.id) {
    member = await store.members.insertIfMissing(creatorMember(room.id, user.id, Date.now()));
  }
  if (!member) {
    if (room.hashedPassword && user.role < Role.Admin && !(await verifyPassword(password, room.hashedPassword))) {
      throw forbidden('password error');
    }
    if (settings.disable_join_new_user) throw forbidden('this room was disabled join new user');
    member = await store.members.insertIfMissing({
      roomId: room.id,
      userId: user.id,
      status: settings.join_need_review ? MemberStatus.Pending : MemberStatus.Active,
      role: MemberRole.Member,
      permissions: settings.user_default_permissions,
      adminPermissions: 0,
      joinAt: Date.now(),
    });
  }
  const bits = effectivePermissions(member, false, settings);
  return {
    status: member.status as RoomLoginResponse['status'],
    role: member.role as RoomLoginResponse['role'],
    ...bits,
  };
}

/** `POST /api/room/pwd/check` (§3.6): true when the room has no password or it matches. */
export async function checkRoomPassword(access: RoomAccess, password: string): Promise<{ valid: boolean }> {
  if (!access.room.hashedPassword) return { valid: true };
  return { valid: await verifyPassword(password, access.room.hashedPassword) };
}

/** `GET /api/room/me` (§4.3). */
export function roomMe(access: RoomAccess): RoomMe {
  const bits = effectivePermissions(access.member, access.isGuest, access.settings);
  return {
    userId: access.user.id,
    roomId: access.room.id,
    joinAt: access.member.joinAt,
    role: access.member.role as RoomMe['role'],
    status: access.member.status as RoomMe['status'],
    ...bits,
  };
}

/** `GET /api/room/info` (§4.3). */
export async function roomInfo(store: Store, access: RoomAccess): Promise<RoomInfo> {
  const { room, member } = access;
  const bits = effectivePermissions(member, access.isGuest, access.settings);
  return {
    id: room.id,
    name: room.name,
    needPassword: Boolean(room.hashedPassword),
    creator: room.creator,
    creatorId: room.creatorId,
    createdAt: room.createdAt,
    status: room.status as RoomInfo['status'],
    enabledGuest: await enabledGuest(store, room, access.settings),
    member: {
      id: access.user.id,
      username: access.user.username,
      joinAt: member.joinAt,
      status: member.status as RoomMe['status'],
      role: member.role as RoomMe['role'],
      ...bits,
    },
  };
}

/** Query of a room list (already parsed). */
export interface RoomListQuery {
  page: number;
  max: number;
  offset: number;
  keyword: string;
  search: 'all' | 'name' | 'creator' | 'id' | null;
  sort: 'name' | 'createdAt';
  desc: boolean;
}

/**
 * The repository filter of a parsed list query (rooms or members): no search scope means no keyword,
 * `max`/`offset` become `limit`/`offset`.
 */
export function listFilter<Sort extends string, Search extends string>(query: {
  keyword: string;
  search: Search | null;
  sort: Sort;
  desc: boolean;
  max: number;
  offset: number;
}) {
  return {
    keyword: query.search === null ? '' : query.keyword,
    search: query.search ?? 'all',
    sort: query.sort,
    desc: query.desc,
    limit: query.max,
    offset: query.offset,
  } as const;
}

/** `GET /api/room/list` (§4.3): active, non-hidden rooms. */
export async function listRooms(store: Store, query: RoomListQuery, viewers: ViewerCount): Promise<ListResponse<RoomListItem>> {
  const { total, rows } = await store.rooms.list({ ...listFilter(query), status: RoomStatus.Active, visibleOnly: true });
  return { total, list: rows.map((row) => roomListItem(row, viewers)) };
}

/** `GET /api/user/rooms` (§4.2): rooms created by `user`, filtered by `status` (undefined = any). */
export async function listCreatedRooms(
  store: Store,
  user: UserRecord,
  status: number | undefined,
  query: RoomListQuery,
  viewers: ViewerCount,
): Promise<ListResponse<RoomListItem>> {
  const { total, rows } = await store.rooms.list({ ...listFilter(query), status, creatorId: user.id });
  return { total, list: rows.map((row) => roomListItem(row, viewers)) };
}

/**
 * `GET /api/user/rooms/joined` (§4.2): rooms `user` is a member of but did not create, filtered by
 * the room's `status` (undefined = any; a companion-server extension: v0.9.11 takes no status here).
 */
export async function listJoinedRooms(
  store: Store,
  user: UserRecord,
  query: RoomListQuery,
  viewers: ViewerCount,
  status?: number,
): Promise<ListResponse<JoinedRoomListItem>> {
  const { total, rows } = await store.rooms.list({ ...listFilter(query), status, joinedBy: user.id });
  return {
    total,
    list: rows.map((row: RoomListRow) => ({
      ...roomListItem(row, viewers),
      memberStatus: (row.memberStatus ?? 0) as JoinedRoomListItem['memberStatus'],
      memberRole: (row.memberRole ?? 0) as JoinedRoomListItem['memberRole'],
    })),
  };
}

/**
 * `GET /api/room/hot` (§4.3): rooms with a live hub that are active and not hidden, by viewer
 * count (descending) then natural name order; `status` is always 0 here.
 */
export async function hotRooms(
  store: Store,
  liveRoomIds: string[],
  paging: { max: number; offset: number },
  viewers: ViewerCount,
): Promise<ListResponse<RoomListItem>> {
  const natural = new Intl.Collator(undefined, { numeric: true });
  const rooms = (await store.rooms.findManyWithVisibility(liveRoomIds))
    .filter((room) => room.status === RoomStatus.Active && !room.hidden)
    .map((room) => ({ ...roomListItem(room, viewers), status: 0 as RoomListItem['status'] }))
    .sort((a, b) => b.viewerCount - a.viewerCount || natural.compare(a.roomName, b.roomName));
  return { total: rooms.length, list: rooms.slice(paging.offset, paging.offset + paging.max) };
}

/** Parsed query of `GET /api/room/members`. */
export interface MemberListQuery {
  max: number;
  offset: number;
  role: '' | 'admin' | 'member' | 'creator';
  /** Member status (§5.3); undefined lists every status (the admin list's `status` filter, §4.4). */
  status?: number;
  keyword: string;
  search: 'all' | 'name' | 'id' | null;
  sort: 'join' | 'name';
  desc: boolean;
}

const ROLE_FILTER = { admin: MemberRole.Admin, member: MemberRole.Member, creator: MemberRole.Creator } as const;

/**
 * `GET /api/room/members` (§4.3): members of every status; `onlineCount` is the number of the
 * member's open sockets in the room; the guest row shows the room's `guest_permissions`.
 */
export async function listMembers(
  store: Store,
  access: RoomAccess,
  query: MemberListQuery,
  onlineCount: (userId: string) => number,
): Promise<ListResponse<RoomMember>> {
  const { total, rows } = await store.members.list({
    roomId: access.room.id,
    role: query.role ? ROLE_FILTER[query.role] : undefined,
    status: query.status,
    ...listFilter(query),
  });
  return {
    total,
    list: rows.map((row) => ({
      userId: row.userId,
      username: row.username,
      roomId: row.roomId,
      joinAt: row.joinAt,
      onlineCount: onlineCount(row.userId),
      ...effectivePermissions(row, row.userId === GUEST_USER_ID, access.settings),
      role: row.role as RoomMember['role'],
      status: row.status as RoomMember['status'],
    })),
  };
}

/**
 * `POST /api/user/room/delete` (§4.2): only the creator may delete. Throws 400 `empty room name`
 * (bad id, as coded), 404 `room not found`, 403 `not creator`.
 */
export async function deleteOwnRoom(store: Store, user: UserRecord, roomId: string): Promise<void> {
  if (roomId.length !== 32) throw badRequest('empty room name');
  const room = await store.rooms.findById(roomId);
  if (!room) throw notFound('room not found');
  if (room.creatorId !== user.id) throw forbidden('not creator');
  await store.rooms.delete(room.id);
}

/**
 * `POST /api/user/room/exit` (§4.2): removes the caller's membership. Throws 400 `empty room name`
 * (bad id), 404 `room not found`, 400 `creator cannot be deleted` (500 in v0.9.11).
 */
export async function exitRoom(store: Store, user: UserRecord, roomId: string): Promise<void> {
  if (roomId.length !== 32) throw badRequest('empty room name');
  const room = await store.rooms.findById(roomId);
  if (!room) throw notFound('room not found');
  if (room.creatorId === user.id) throw badRequest('creator cannot be deleted');
  await store.members.delete(room.id, user.id);
}
