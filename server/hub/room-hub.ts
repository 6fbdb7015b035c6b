/**
 * The realtime hub of one room (docs/contract.md §6.5, §6.6): its open sockets, fan-out, the
 * viewer count (distinct user ids) and the 5 s ticker that broadcasts VIEWER_COUNT when it changed
 * and otherwise pings every socket.
 */
import { WebSocket } from 'ws';
import { encodeMessage, MessageType } from '@/lib/contract/message';
import type { SocketBuckets } from './token-bucket';

/** One open room socket. `id` is a per-connection UUID (36 characters with dashes, §6.3). */
export interface Connection {
  id: string;
  userId: string;
  /** The user version (../auth.ts `userVersion`) of the token the socket opened with; null for a guest. */
  userVersion: number | null;
  socket: WebSocket;
  /** Joined the WebRTC mesh (WEBRTC_JOIN). */
  rtcJoined: boolean;
  /** Inbound message limits (./token-bucket.ts). */
  buckets: SocketBuckets;
}

/** Hub ticker period (ms), §6.6. */
export const HUB_TICK_MS = 5000;

/**
 * Bytes queued for one socket beyond which it is dropped: a client that stopped reading must not
 * make the server buffer without bound (v0.9.11 caps its per-connection queue at 128 messages).
 */
const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;

/** Writes one binary frame if the socket is still open; a failed write closes that socket only. */
export function sendFrame(connection: Connection, frame: Uint8Array): void {
  if (connection.socket.readyState !== WebSocket.OPEN) return;
  if (connection.socket.bufferedAmount > MAX_BUFFERED_BYTES) {
    connection.socket.terminate();
    return;
  }
  connection.socket.send(frame, { binary: true }, (error) => {
    if (error) connection.socket.terminate();
  });
}

/**
 * Who in a room a frame is for. Plain data, so that another instance can apply it
 * (../cluster/bus.ts): everyone, the connections in the WebRTC mesh, one user's connections, or one
 * connection (`<userId>:<connectionId>`, WebRTC signalling).
 */
export type Audience =
  | { kind: 'all' }
  | { kind: 'rtc' }
  | { kind: 'user'; userId: string }
  | { kind: 'connection'; userId: string; connectionId: string };

/** Everyone in the room. */
export const EVERYONE: Audience = { kind: 'all' };

function inAudience(connection: Connection, audience: Audience): boolean {
  switch (audience.kind) {
    case 'all':
      return true;
    case 'rtc':
      return connection.rtcJoined;
    case 'user':
      return connection.userId === audience.userId;
    case 'connection':
      return connection.userId === audience.userId && connection.id === audience.connectionId;
  }
}

/**
 * What a hub needs from the registry (./registry.ts): where its broadcasts go (this process, or
 * every instance through the cluster bus), the room's viewer count and connections across
 * instances, and a call when its last local socket leaves.
 */
export interface HubRouting {
  /** Sends `frame` to the room's sockets in `audience`, on every instance, except connection `exceptId`. */
  send(roomId: string, frame: Uint8Array, audience: Audience, exceptId?: string): void;
  /** Distinct user ids with an open socket in the room, on every instance (§6.5). */
  viewerCount(roomId: string): number;
  /** Whether connection `<userId>:<connectionId>` is open in the room, on any instance. */
  reaches(roomId: string, userId: string, connectionId: string): boolean;
  /** The room's local connections changed (a socket opened or closed). */
  changed(hub: RoomHub): void;
  /** The last local socket left (the registry then drops the hub). */
  empty(hub: RoomHub): void;
}

/** The connections of one room on this instance, and what the server sends to them. */
export class RoomHub {
  readonly roomId: string;
  private readonly connections = new Set<Connection>();
  private lastBroadcastCount = 0;
  private readonly ticker: NodeJS.Timeout;
  private readonly routing: HubRouting;
  /** The room's chat history as frames, and the newest line's id they were made at. */
  private historyCache: { version: number; frames: Uint8Array[] } | null = null;

  constructor(roomId: string, tickMs: number, routing: HubRouting) {
    this.roomId = roomId;
    this.routing = routing;
    this.ticker = setInterval(() => this.tick(), tickMs);
    this.ticker.unref();
  }

  /**
   * Adds a socket and sends it `history` (the room's recent CHAT frames, a companion-server
   * extension), then the current VIEWER_COUNT (§6.5). Both go out before any other frame, so a
   * client can tell replayed chat from live chat: what arrives before the first VIEWER_COUNT.
   */
  register(connection: Connection, history: readonly Uint8Array[] = []): void {
    this.connections.add(connection);
    this.routing.changed(this);
    for (const frame of history) sendFrame(connection, frame);
    sendFrame(connection, viewerCountFrame(this.viewerCount()));
  }

  /**
   * The room's chat history as CHAT frames, made by `build` only when `version` (the newest kept
   * line's id, ../db/chat.ts `latestId`) differs from the last call's: the sockets of a rolling
   * restart reconnect by the hundred, and each would otherwise read and encode the same lines.
   */
  history(version: number, build: () => Uint8Array[]): Uint8Array[] {
    if (this.historyCache?.version !== version) this.historyCache = { version, frames: build() };
    return this.historyCache.frames;
  }

  /** The cached history frames when they were made at `version`, else null (see `history`). */
  historyAt(version: number): Uint8Array[] | null {
    return this.historyCache?.version === version ? this.historyCache.frames : null;
  }

  /** Removes a socket; the hub is dropped when it was the last one. */
  unregister(connection: Connection): void {
    if (!this.connections.delete(connection)) return;
    this.routing.changed(this);
    if (this.connections.size === 0) this.routing.empty(this);
  }

  /** This instance's connections as `[connectionId, userId]` pairs (../cluster/bus.ts presence). */
  entries(): Array<[string, string]> {
    return [...this.connections].map((connection) => [connection.id, connection.userId]);
  }

  /** The room's viewers on every instance: distinct user ids; tabs of one user, and all guests, count once (§6.5). */
  viewerCount(): number {
    return this.routing.viewerCount(this.roomId);
  }

  /**
   * Sends `frame` to the room's sockets in `audience` (everyone by default) on every instance,
   * except `except` (the sending connection of a STATUS).
   */
  broadcast(frame: Uint8Array, except?: Connection, audience: Audience = EVERYONE): void {
    this.routing.send(this.roomId, frame, audience, except?.id);
  }

  /** Whether connection `<userId>:<connectionId>` is open in this room on any instance (WebRTC signalling). */
  reaches(userId: string, connectionId: string): boolean {
    return this.routing.reaches(this.roomId, userId, connectionId);
  }

  /** Whether the connection is open here. */
  hasLocal(userId: string, connectionId: string): boolean {
    for (const connection of this.connections) {
      if (connection.userId === userId && connection.id === connectionId) return true;
    }
    return false;
  }

  /** Writes `frame` to this instance's sockets in `audience`, except connection `exceptId`. */
  deliver(frame: Uint8Array, audience: Audience, exceptId?: string): void {
    for (const connection of this.connections) {
      if (connection.id === exceptId || !inAudience(connection, audience)) continue;
      sendFrame(connection, frame);
    }
  }

  /** Closes this instance's sockets of `userId` (member deleted, exited or banned; §6.5). */
  kickUser(userId: string): void {
    for (const connection of this.connections) {
      if (connection.userId === userId) connection.socket.close(1000, 'removed from room');
    }
  }

  /** The distinct `(userId, userVersion)` pairs of this instance's sockets (../rules/room-access.ts `mayStay`). */
  localUsers(): Array<{ userId: string; userVersion: number | null }> {
    const seen = new Map<string, { userId: string; userVersion: number | null }>();
    for (const { userId, userVersion } of this.connections) seen.set(`${userId}:${userVersion}`, { userId, userVersion });
    return [...seen.values()];
  }

  /** Closes this instance's sockets of `userId` that opened with `userVersion`, as `kickUser` does. */
  kickOpenedAs(userId: string, userVersion: number | null): void {
    for (const connection of this.connections) {
      if (connection.userId === userId && connection.userVersion === userVersion) connection.socket.close(1000, 'removed from room');
    }
  }

  /**
   * Sends `frames` to each of this instance's sockets after a random delay of up to `spreadMs`, so
   * that the requests they prompt (CURRENT, MOVIES and MY_STATUS each make a client re-read) do not
   * all arrive at once.
   */
  resync(frames: readonly Uint8Array[], spreadMs: number): void {
    for (const connection of this.connections) {
      const timer = setTimeout(() => {
        for (const frame of frames) sendFrame(connection, frame);
      }, Math.random() * spreadMs);
      timer.unref();
    }
  }

  /**
   * Closes every socket and stops the ticker: dropped at once when the room is deleted or banned;
   * with a close frame (`code`, `reason`) when the server shuts down, so that clients know to
   * reconnect (1012 Service Restart, RFC 6455 §7.4 and the IANA registry).
   */
  close(frame?: { code: number; reason: string }): void {
    clearInterval(this.ticker);
    for (const connection of this.connections) {
      if (frame) connection.socket.close(frame.code, frame.reason);
      else connection.socket.terminate();
    }
    this.connections.clear();
  }

  /** Stops the ticker of an empty hub. */
  dispose(): void {
    clearInterval(this.ticker);
  }

  /**
   * §6.6: VIEWER_COUNT to this instance's sockets when the room's count changed since the last one
   * they got, else a ping to every socket. Each instance ticks its own sockets.
   */
  tick(): void {
    const count = this.viewerCount();
    if (count !== this.lastBroadcastCount) {
      this.lastBroadcastCount = count;
      this.deliver(viewerCountFrame(count), EVERYONE);
      return;
    }
    for (const connection of this.connections) {
      if (connection.socket.readyState === WebSocket.OPEN) connection.socket.ping();
    }
  }
}

/** A VIEWER_COUNT frame. */
export function viewerCountFrame(count: number): Uint8Array {
  return encodeMessage({ type: MessageType.VIEWER_COUNT, payload: { case: 'viewerCount', value: BigInt(count) } });
}
