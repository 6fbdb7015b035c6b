/**
 * The join flow (docs/reference-client.md §1.4 "Join"): check the room, let guests (visitors) and the
 * creator straight in, reuse an existing membership, ask for a password only when the room has one, else log in to the
 * room. Kept free of React so that the join screen and the tests share it.
 */
import * as rooms from '@/hooks/data/rooms';
import type { RoomCheck, UserInfo } from '@/lib/contract/types';
import type { MessageKey } from '@/lib/i18n';
import { MemberStatus, RoomStatus } from '@/lib/contract/roles';
import '@/lib/i18n/messages/rooms';

/** What the join screen does next. */
export type JoinOutcome =
  /** Open the cinema. */
  | { kind: 'enter' }
  /** The room has a password and none was given: focus the password field. */
  | { kind: 'needPassword' }
  /** A visitor, and the room is not open to guests. */
  | { kind: 'needLogin' }
  /** A member waiting for a room admin's approval (join review): wait, then enter. */
  | { kind: 'waiting' }
  /** The room or the membership does not allow entry now. */
  | { kind: 'refused'; message: MessageKey; tone: 'warning' | 'error' };

export interface JoinResult {
  outcome: JoinOutcome;
  /** `GET /api/room/check` answer, for showing the room's name. */
  room: RoomCheck;
}

export interface JoinInput {
  roomId: string;
  /** Room password as typed ("" for none). */
  password: string;
  /** Signed-in user, or null for a visitor. */
  user: UserInfo | null;
}

/** The API calls the flow makes; tests pass stubs. */
export type JoinApi = Pick<typeof rooms, 'checkRoom' | 'getRoomJoined' | 'loginRoom'>;

function roomRefusal(status: number): JoinOutcome | null {
  if (status === RoomStatus.Active) return null;
  if (status === RoomStatus.Pending) return { kind: 'refused', message: 'joinRoom.roomPending', tone: 'warning' };
  if (status === RoomStatus.Banned) return { kind: 'refused', message: 'joinRoom.roomBanned', tone: 'error' };
  return { kind: 'refused', message: 'joinRoom.unknown', tone: 'error' };
}

/** What a membership status (§5.3) means for the join screen. */
export function memberOutcome(status: number): JoinOutcome {
  if (status === MemberStatus.Active) return { kind: 'enter' };
  if (status === MemberStatus.Pending) return { kind: 'waiting' };
  if (status === MemberStatus.Banned) return { kind: 'refused', message: 'joinRoom.memberBanned', tone: 'error' };
  return { kind: 'refused', message: 'joinRoom.unknown', tone: 'error' };
}

/**
 * Runs the flow for `roomId`. Calls, in order and only as far as needed: `GET /api/room/check`,
 * `GET /api/room/joined`, `POST /api/room/login`. Throws the API's `ApiError` (e.g. 404
 * `room not found`, 403 `password error`).
 */
export async function runJoinFlow({ roomId, password, user }: JoinInput, api: JoinApi = rooms): Promise<JoinResult> {
  const room = await api.checkRoom(roomId);
  const refused = roomRefusal(room.status);
  if (refused) return { outcome: refused, room };
  // A visitor enters a guest room as the guest. A signed-in user is checked as themselves even there
  // (the reference client lets them straight in), because the hall uses their token: a banned member
  // would otherwise bounce between the hall's 401 and this screen.
  if (!user) return { outcome: room.enabledGuest ? { kind: 'enter' } : { kind: 'needLogin' }, room };
  if (room.creatorId === user.id) return { outcome: { kind: 'enter' }, room };

  const joined = await api.getRoomJoined(roomId);
  if (joined.joined) return { outcome: memberOutcome(joined.status), room };
  if (room.needPassword && !password) return { outcome: { kind: 'needPassword' }, room };

  const member = await api.loginRoom(roomId, password);
  return { outcome: memberOutcome(member.status), room };
}
