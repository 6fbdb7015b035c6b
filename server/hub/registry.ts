/**
 * All live room hubs. A hub is created lazily by the first socket of a room and dropped when its
 * last socket closes, so `/api/room/hot` lists only rooms someone is watching (§4.3, §6.5).
 */
import { encodeMessage, MessageType } from '@/lib/contract/message';
import { HUB_TICK_MS, RoomHub } from './room-hub';

export class HubRegistry {
  private readonly hubs = new Map<string, RoomHub>();
  private readonly tickMs: number;

  constructor(tickMs = HUB_TICK_MS) {
    this.tickMs = tickMs;
  }

  /** The room's hub, created on first use. */
  getOrCreate(roomId: string): RoomHub {
    let hub = this.hubs.get(roomId);
    if (!hub) {
      hub = new RoomHub(roomId, this.tickMs, (empty) => {
        empty.dispose();
        if (this.hubs.get(roomId) === empty) this.hubs.delete(roomId);
      });
      this.hubs.set(roomId, hub);
    }
    return hub;
  }

  get(roomId: string): RoomHub | undefined {
    return this.hubs.get(roomId);
  }

  /** Viewer count of a room; 0 without a hub. */
  viewerCount = (roomId: string): number => this.hubs.get(roomId)?.viewerCount() ?? 0;

  /** Ids of rooms with a live hub. */
  liveRoomIds(): string[] {
    return [...this.hubs.keys()];
  }

  /**
   * Tells a room that something changed (CURRENT after a new current movie, MOVIES after a list
   * change; §6.5): `sender` only, to everyone including the actor.
   */
  notify(roomId: string, type: MessageType.CURRENT | MessageType.MOVIES, sender: { userId: string; username: string }): void {
    this.hubs.get(roomId)?.broadcast(encodeMessage({ type, sender }));
  }

  /**
   * MY_STATUS (§6.5): tells every connection of `userId` (or of everyone in the room when `userId` is
   * null) that their role or permissions changed, so that they re-GET `/api/room/me`. `sender` is
   * the room admin who made the change.
   */
  notifyMyStatus(roomId: string, userId: string | null, sender: { userId: string; username: string }): void {
    this.hubs
      .get(roomId)
      ?.broadcast(encodeMessage({ type: MessageType.MY_STATUS, sender }), undefined, (connection) => userId === null || connection.userId === userId);
  }

  /** Closes a user's sockets in one room. */
  kickUser(roomId: string, userId: string): void {
    this.hubs.get(roomId)?.kickUser(userId);
  }

  /** Closes a user's sockets in every room (account deleted). */
  kickUserEverywhere(userId: string): void {
    for (const hub of this.hubs.values()) hub.kickUser(userId);
  }

  /** Disconnects everyone from a room (room deleted). */
  closeRoom(roomId: string): void {
    const hub = this.hubs.get(roomId);
    if (!hub) return;
    this.hubs.delete(roomId);
    hub.close();
  }

  /** Disconnects everyone (server shutdown), with `frame` as the close frame when given (./room-hub.ts `close`). */
  closeAll(frame?: { code: number; reason: string }): void {
    for (const hub of this.hubs.values()) hub.close(frame);
    this.hubs.clear();
  }
}
