/**
 * Which actions the admin console offers on a user's or a room's row, and why one is unavailable
 * (docs/contract.md §4.6, §5.1, §5.2). Pure, so that the tables and the tests share it. An action
 * that cannot apply to the row (approve an active user) is left out; one that the viewer may not use
 * is kept, disabled, with the reason, so nobody is offered something the server then refuses.
 *
 * The rules mirror the server's: admins manage users and their rooms, only root manages admins and
 * their rooms, nobody acts on a root user here, and nobody bans or deletes themselves.
 */
import { Role, RoomStatus } from '@/lib/contract/roles';
import type { UserInfo } from '@/lib/contract/types';
import type { MessageKey } from '@/lib/i18n';
import '@/lib/i18n/messages/admin';

export type UserActionId = 'approve' | 'reject' | 'unban' | 'ban' | 'rename' | 'password' | 'makeAdmin' | 'removeAdmin' | 'rooms' | 'delete';
export type RoomActionId = 'open' | 'approve' | 'ban' | 'unban' | 'password' | 'delete';

export interface Available<Id extends string> {
  id: Id;
  /** Why the viewer may not use it (a message key), or undefined when they may. */
  disabledReason?: MessageKey;
}

/** The viewer: their id and site role. */
export interface Viewer {
  id: string;
  role: number;
}

/** Why `viewer` may not change `target` (its name, password, ban, delete), or undefined. */
function outrankReason(viewer: Viewer, target: { id: string; role: number }): MessageKey | undefined {
  if (target.id === viewer.id) return 'admin.why.self';
  if (target.role === Role.Root) return 'admin.why.root';
  if (target.role === Role.Admin && viewer.role !== Role.Root) return 'admin.why.adminByRoot';
  return undefined;
}

/** The actions on a user's row for `viewer`. */
export function userActions(user: Pick<UserInfo, 'id' | 'role'>, viewer: Viewer): Available<UserActionId>[] {
  const change = outrankReason(viewer, user);
  // One's own name and password may be changed here too (as in the user center).
  const edit = change === 'admin.why.self' ? undefined : change;
  const appoint: MessageKey | undefined = viewer.role !== Role.Root ? 'admin.why.rootOnly' : user.id === viewer.id ? 'admin.why.self' : undefined;
  const actions: Available<UserActionId>[] = [];
  if (user.role === Role.Pending) {
    actions.push({ id: 'approve' }, { id: 'reject', disabledReason: change });
  } else if (user.role === Role.Banned) {
    actions.push({ id: 'unban' });
  } else {
    if (user.role === Role.User) actions.push({ id: 'makeAdmin', disabledReason: appoint });
    if (user.role === Role.Admin) actions.push({ id: 'removeAdmin', disabledReason: appoint });
    actions.push({ id: 'ban', disabledReason: change });
  }
  actions.push({ id: 'rooms' }, { id: 'rename', disabledReason: edit }, { id: 'password', disabledReason: edit }, { id: 'delete', disabledReason: change });
  return actions;
}

/**
 * The actions on a room's row for `viewer`; `creatorRole` is the creator's site role when known
 * (undefined: the server decides).
 */
export function roomActions(room: { status: number; creatorId: string }, viewer: Viewer, creatorRole?: number): Available<RoomActionId>[] {
  let guard: MessageKey | undefined;
  if (room.creatorId !== viewer.id && creatorRole === Role.Root) guard = 'admin.why.roomOfRoot';
  else if (room.creatorId !== viewer.id && creatorRole === Role.Admin && viewer.role !== Role.Root) guard = 'admin.why.roomOfAdmin';
  const actions: Available<RoomActionId>[] = [{ id: 'open' }];
  if (room.status === RoomStatus.Pending) actions.push({ id: 'approve' });
  if (room.status === RoomStatus.Banned) actions.push({ id: 'unban' });
  else actions.push({ id: 'ban', disabledReason: guard });
  actions.push({ id: 'password' }, { id: 'delete', disabledReason: guard });
  return actions;
}
