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

/** The connections of one room and what the server sends to them. */
export class RoomHub {
  readonly roomId: string;
  private readonly connections = new Set<Connection>();
  private lastBroadcastCount = 0;
  private readonly ticker: NodeJS.Timeout;
  private readonly onEmpty: (hub: RoomHub) => void;

  /** `onEmpty` runs when the last socket leaves (the registry then drops the hub). */
  constructor(roomId: string, tickMs: number, onEmpty: (hub: RoomHub) => void) {
    this.roomId = roomId;
    this.onEmpty = onEmpty;
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
    for (const frame of history) sendFrame(connection, frame);
    sendFrame(connection, viewerCountFrame(this.viewerCount()));
  }

  /** Removes a socket; the hub is dropped when it was the last one. */
  unregister(connection: Connection): void {
    if (!this.connections.delete(connection)) return;
    if (this.connections.size === 0) this.onEmpty(this);
  }

  /** Distinct user ids with an open socket: tabs of one user, and all guests, count once (§6.5). */
  viewerCount(): number {
    return new Set([...this.connections].map((connection) => connection.userId)).size;
  }

  /** Number of open sockets of `userId` (members list `onlineCount`). */
  onlineCount(userId: string): number {
    let count = 0;
    for (const connection of this.connections) if (connection.userId === userId) count++;
    return count;
  }

  /** Sends `frame` to every socket, except `except` (the sending connection of a STATUS). */
  broadcast(frame: Uint8Array, except?: Connection, filter?: (connection: Connection) => boolean): void {
    for (const connection of this.connections) {
      if (connection === except) continue;
      if (filter && !filter(connection)) continue;
      sendFrame(connection, frame);
    }
  }

  /** The socket `<userId>:<connId>` addresses (WebRTC signalling), or undefined. */
  find(userId: string, connectionId: string): Connection | undefined {
    for (const connection of this.connections) {
      if (connection.userId === userId && connection.id === connectionId) return connection;
    }
    return undefined;
  }

  /** Closes every socket of `userId` (member deleted, exited or banned; §6.5). */
  kickUser(userId: string): void {
    for (const connection of this.connections) {
      if (connection.userId === userId) connection.socket.close(1000, 'removed from room');
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

  /** §6.6: VIEWER_COUNT to all when the count changed since the last broadcast, else a ping to every socket. */
  tick(): void {
    const count = this.viewerCount();
    if (count !== this.lastBroadcastCount) {
      this.lastBroadcastCount = count;
      this.broadcast(viewerCountFrame(count));
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
