/**
 * Roles, statuses and permission bits of the SyncTV v0.9.11 contract (docs/contract.md §5).
 * Shared by the client (guard, menus, UI gating) and the companion server (authorization).
 */

/** Site user role (§5.1). `Visitor` (-1) exists only on the client: no user info loaded. */
export const Role = {
  Visitor: -1,
  Unknown: 0,
  Banned: 1,
  Pending: 2,
  User: 3,
  Admin: 4,
  Root: 5,
} as const;
export type Role = (typeof Role)[keyof typeof Role];

/** Room status (§5.2). */
export const RoomStatus = { Unknown: 0, Banned: 1, Pending: 2, Active: 3 } as const;
export type RoomStatus = (typeof RoomStatus)[keyof typeof RoomStatus];

/** Room member status (§5.3). NotJoined is only reported, never stored. */
export const MemberStatus = { NotJoined: 0, Banned: 1, Pending: 2, Active: 3 } as const;
export type MemberStatus = (typeof MemberStatus)[keyof typeof MemberStatus];

/** Room member role (§5.3). */
export const MemberRole = { Unknown: 0, Member: 1, Admin: 2, Creator: 3 } as const;
export type MemberRole = (typeof MemberRole)[keyof typeof MemberRole];

/** Member permission bits, uint32 (§5.4). */
export const Permission = {
  GetMovieList: 1 << 0,
  AddMovie: 1 << 1,
  DeleteMovie: 1 << 2,
  EditMovie: 1 << 3,
  SetCurrentMovie: 1 << 4,
  SetCurrentStatus: 1 << 5,
  SendChatMessage: 1 << 6,
  WebRTC: 1 << 7,
} as const;
export type Permission = (typeof Permission)[keyof typeof Permission];

/** All member permission bits (0xFFFFFFFF as an unsigned 32-bit value). */
export const AllPermissions = 0xffffffff;
/** GetMovieList | SendChatMessage | WebRTC = 193: what new members get by default. */
export const DefaultPermissions = Permission.GetMovieList | Permission.SendChatMessage | Permission.WebRTC;

/** Room admin permission bits, uint32 (§5.4). */
export const AdminPermission = {
  ApprovePendingMember: 1 << 0,
  BanRoomMember: 1 << 1,
  SetUserPermission: 1 << 2,
  SetRoomSettings: 1 << 3,
  SetRoomPassword: 1 << 4,
  DeleteRoom: 1 << 5,
} as const;
export type AdminPermission = (typeof AdminPermission)[keyof typeof AdminPermission];
export const AllAdminPermissions = 0xffffffff;

/**
 * True when every bit of `permission` is set in `mask` (the reference client's rule: a zero or
 * missing mask means "no"). Masks are uint32, so the comparison is done unsigned.
 */
export function hasPermission(mask: number | undefined | null, permission: number): boolean {
  if (!mask) return false;
  return ((mask & permission) >>> 0) === permission >>> 0;
}

/** Site role from `/api/user/me`, or Visitor when no user info is loaded. */
export function roleOf(user: { role: number } | null | undefined): number {
  return user ? user.role : Role.Visitor;
}

/** The built-in guest user's id (§3.4): every visitor without a token is this one member of a room. */
export const GUEST_USER_ID = '00000000000000000000000000000001';
