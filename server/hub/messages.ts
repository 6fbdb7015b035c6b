/**
 * Inbound WebSocket messages and the server's reactions (docs/contract.md §6.4, §6.5):
 * CHAT, STATUS, SYNC, CHECK_STATUS, EXPIRED, the WebRTC signalling messages, and ERROR for
 * anything else. Permissions are re-read from the database for every message, so a change made
 * over HTTP applies to open sockets at once.
 */
import { MemberStatus, Permission } from '@/lib/contract/roles';
import { applyClientStatus, isOutOfSync, latencySec } from '@/lib/contract/playback';
import type { PlaybackState } from '@/lib/contract/playback';
import { validateChat, validatePlaybackStatus } from '@/lib/contract/validation';
import { encodeMessage, MessageType, timestampMs, type Message } from '@/lib/contract/message';
import type { ChatRecord, Store } from '../db';
import { expireIdOf, roomStatusAt } from '../rules/movies';
import { hasMemberPermission, type PermissionSubject } from '../rules/permissions';
import { GUEST_USER_ID } from '../rules/users';
import { EVERYONE, sendFrame, type Connection, type RoomHub } from './room-hub';
import { SOCKET_LIMITS } from './token-bucket';

/** What handling one message needs. `nowMs` is the server clock (Unix ms) at arrival. */
export interface MessageContext {
  store: Store;
  hub: RoomHub;
  connection: Connection;
  nowMs: number;
}

/** The sender as the database knows it now: name, permissions, room settings. Null once removed. */
async function loadSender(store: Store, roomId: string, userId: string) {
  // Two queries side by side: one round trip on PostgreSQL for every message a socket sends.
  const [found, user] = await Promise.all([store.rooms.findWithMember(roomId, userId), store.users.findById(userId)]);
  const member = found?.member;
  if (!found || !user || !member || member.status !== MemberStatus.Active) return null;
  const { room, settings } = found;
  const isGuest = userId === GUEST_USER_ID;
  const subject: PermissionSubject = {
    userRole: user.role,
    isGuest,
    isCreator: room.creatorId === userId,
    memberRole: member.role,
    memberStatus: member.status,
    permissions: isGuest ? settings.guest_permissions : member.permissions,
    adminPermissions: member.adminPermissions,
  };
  return {
    sender: { userId, username: user.username },
    can: (permission: number) => hasMemberPermission(subject, settings, permission),
  };
}

function reply(context: MessageContext, frame: Uint8Array): void {
  sendFrame(context.connection, frame);
}

/** An ERROR frame with `text` (§6.4). */
export function errorFrame(text: string): Uint8Array {
  return encodeMessage({ type: MessageType.ERROR, payload: { case: 'errorMessage', value: text } });
}

function statusPayload(status: PlaybackState) {
  return {
    case: 'playbackStatus' as const,
    value: { isPlaying: status.isPlaying, currentTime: status.currentTime, playbackRate: status.playbackRate },
  };
}

/** A CHAT frame of one line (§6.4): `timestamp` is when the server received it, in Unix ms. */
export function chatFrame(line: ChatRecord): Uint8Array {
  return encodeMessage({
    type: MessageType.CHAT,
    timestamp: BigInt(line.createdAt),
    sender: { userId: line.userId, username: line.username },
    payload: { case: 'chatContent', value: line.content },
  });
}

/** Name of a message type for `unknown message type: <NAME>` (the number when it has no name). */
function typeName(type: number): string {
  return MessageType[type] ?? String(type);
}

/** ERROR text of a message refused by the socket's limits (./token-bucket.ts; a companion-server extension). */
export const TOO_MANY_MESSAGES = 'too many messages';

/** Close code of a socket that keeps flooding after its ERROR (RFC 6455 policy violation). */
export const CLOSE_POLICY_VIOLATION = 1008;

/**
 * A refused message (./token-bucket.ts): one ERROR `too many messages` a second at most, and the
 * socket stays open, unless more than `SOCKET_LIMITS.closeAfterRefused` are refused within that
 * second: then it is closed with 1008 `too many messages`.
 */
function refuse(connection: Connection, nowMs: number): false {
  const { buckets } = connection;
  if (nowMs - buckets.lastRefusalMs >= 1000) {
    buckets.lastRefusalMs = nowMs;
    buckets.refused = 1;
    sendFrame(connection, errorFrame(TOO_MANY_MESSAGES));
  } else if (++buckets.refused > SOCKET_LIMITS.closeAfterRefused) {
    connection.socket.close(CLOSE_POLICY_VIOLATION, TOO_MANY_MESSAGES);
    buckets.onFlood?.();
  }
  return false;
}

/**
 * Whether the person's budget of messages of any kind lets one more frame of `connection` in at
 * `nowMs` (ms). Asked as a frame arrives, before it is decoded or queued, so that a flood costs
 * little more than reading it; a refused frame is dropped (`refuse`).
 */
export function admitFrame(connection: Connection, nowMs: number): boolean {
  return connection.buckets.any.take(nowMs) || refuse(connection, nowMs);
}

/** Whether the person's CHAT and STATUS budgets let `message` through (`admitFrame` took the rest). */
function withinLimits(context: MessageContext, message: Message): boolean {
  const { buckets } = context.connection;
  const bucket = message.type === MessageType.CHAT ? buckets.chat : message.type === MessageType.STATUS ? buckets.status : null;
  return !bucket || bucket.take(context.nowMs) || refuse(context.connection, context.nowMs);
}

/**
 * Handles one decoded inbound message (§6.4), which `admitFrame` let in. Never throws for bad
 * input: the sender gets an ERROR. Beyond the person's CHAT and STATUS budgets (a companion-server
 * extension) the message is dropped with ERROR `too many messages`.
 */
export async function handleClientMessage(context: MessageContext, message: Message): Promise<void> {
  const { store, hub, connection, nowMs } = context;
  if (!withinLimits(context, message)) return;
  const roomId = hub.roomId;
  const sender = await loadSender(store, roomId, connection.userId);
  if (!sender) {
    connection.socket.close(1000, 'not a member');
    return;
  }
  const payload = message.payload;

  switch (message.type) {
    case MessageType.CHAT: {
      const content = payload.case === 'chatContent' ? payload.value : '';
      const invalid = validateChat(content);
      if (invalid) return reply(context, errorFrame(invalid));
      if (!sender.can(Permission.SendChatMessage)) return reply(context, errorFrame('send chat message error: no permission'));
      const line = { ...sender.sender, content, createdAt: nowMs };
      await store.chat.append(roomId, line);
      hub.broadcast(chatFrame(line));
      return;
    }

    case MessageType.STATUS: {
      if (payload.case !== 'playbackStatus') return reply(context, errorFrame('playback status is nil'));
      if (!sender.can(Permission.SetCurrentStatus)) return reply(context, errorFrame('set status error: no permission'));
      const state = await roomStatusAt(store, roomId, nowMs);
      if (!state) return;
      const seek = payload.value;
      const invalid = validatePlaybackStatus(seek);
      if (invalid) return reply(context, errorFrame(invalid));
      const next = applyClientStatus(
        { isPlaying: seek.isPlaying, currentTime: seek.currentTime, playbackRate: seek.playbackRate },
        timestampMs(message),
        nowMs,
        Boolean(state.movie?.base.live),
      );
      await store.rooms.saveCurrent(roomId, { ...state.current, ...next });
      hub.broadcast(
        encodeMessage({ type: MessageType.STATUS, sender: sender.sender, payload: statusPayload(next) }),
        connection,
      );
      return;
    }

    case MessageType.SYNC: {
      const state = await roomStatusAt(store, roomId, nowMs);
      if (!state) return;
      reply(context, encodeMessage({ type: MessageType.SYNC, timestamp: BigInt(nowMs), payload: statusPayload(state.status) }));
      return;
    }

    case MessageType.CHECK_STATUS: {
      if (payload.case !== 'playbackStatus') return reply(context, errorFrame('playback status is nil'));
      const state = await roomStatusAt(store, roomId, nowMs);
      if (!state) return;
      const latency = latencySec(timestampMs(message), nowMs);
      if (isOutOfSync(state.status, payload.value, latency)) {
        reply(context, encodeMessage({ type: MessageType.CHECK_STATUS, payload: statusPayload(state.status) }));
      }
      return;
    }

    case MessageType.EXPIRED: {
      if (payload.case !== 'expirationId' || payload.value === BigInt(0)) return;
      const state = await roomStatusAt(store, roomId, nowMs);
      if (!state?.movie) return;
      if (BigInt(expireIdOf(state.movie.id)) !== payload.value) reply(context, encodeMessage({ type: MessageType.EXPIRED }));
      return;
    }

    case MessageType.WEBRTC_JOIN:
    case MessageType.WEBRTC_LEAVE: {
      if (!sender.can(Permission.WebRTC)) return refuseWebRtc(context, sender.sender);
      const joining = message.type === MessageType.WEBRTC_JOIN;
      connection.rtcJoined = joining;
      hub.broadcast(
        encodeMessage({
          type: message.type,
          sender: sender.sender,
          payload: { case: 'webrtcData', value: { from: `${connection.userId}:${connection.id}` } },
        }),
        connection,
        { kind: 'rtc' },
      );
      return;
    }

    case MessageType.WEBRTC_OFFER:
    case MessageType.WEBRTC_ANSWER:
    case MessageType.WEBRTC_ICE_CANDIDATE: {
      if (!sender.can(Permission.WebRTC)) return refuseWebRtc(context, sender.sender);
      const data = payload.case === 'webrtcData' ? payload.value : undefined;
      const [userId, connectionId, extra] = (data?.to ?? '').split(':');
      const reachable = Boolean(userId && connectionId && extra === undefined && hub.reaches(userId, connectionId));
      if (!data || !reachable) return reply(context, errorFrame('target user id is invalid'));
      hub.broadcast(
        encodeMessage({
          type: message.type,
          sender: sender.sender,
          payload: { case: 'webrtcData', value: { data: data.data, to: data.to, from: `${connection.userId}:${connection.id}` } },
        }),
        undefined,
        { kind: 'connection', userId, connectionId },
      );
      return;
    }

    default:
      reply(context, errorFrame(`unknown message type: ${typeName(message.type)}`));
  }
}

/** A WebRTC message without the permission: leave the mesh (telling the others) and report (§6.4). */
function refuseWebRtc(context: MessageContext, sender: { userId: string; username: string }): void {
  if (context.connection.rtcJoined) leaveWebRtc(context.hub, context.connection, sender);
  reply(context, errorFrame('no permission to use webrtc'));
}

/**
 * Takes a connection out of the WebRTC mesh and broadcasts WEBRTC_LEAVE. On disconnect the leave
 * goes to every connection of the room (§6.4).
 */
export function leaveWebRtc(
  hub: RoomHub,
  connection: Connection,
  sender: { userId: string; username: string },
  toEveryone = false,
): void {
  connection.rtcJoined = false;
  hub.broadcast(
    encodeMessage({
      type: MessageType.WEBRTC_LEAVE,
      sender,
      payload: { case: 'webrtcData', value: { from: `${connection.userId}:${connection.id}` } },
    }),
    connection,
    toEveryone ? EVERYONE : { kind: 'rtc' },
  );
}
