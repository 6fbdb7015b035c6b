/**
 * A bilibili live room's danmaku, read once per instance however many viewers watch it
 * (docs/vendors.md "bilibili live rooms"): the room's danmaku server (from getDanmuInfo) is joined
 * with bilibili-live-ws's KeepLiveWS, the maintained client of bilibili's live WebSocket protocol,
 * which reconnects by itself; each `DANMU_MSG` comment's text goes to every subscriber. The
 * connection closes when the last subscriber leaves.
 */
import { KeepLiveWS } from 'bilibili-live-ws';
import type { BilibiliClient, BilibiliCookies } from './bilibili';

/** Receives a comment's text. */
export type DanmakuListener = (text: string) => void;

interface Room {
  connection: Promise<KeepLiveWS>;
  listeners: Set<DanmakuListener>;
}

/** The text of a `DANMU_MSG` message (`info[1]`), or "". */
export function danmakuText(message: unknown): string {
  const info = (message as { info?: unknown[] } | null)?.info;
  return Array.isArray(info) && typeof info[1] === 'string' ? info[1] : '';
}

/** The live rooms' danmaku on this instance. */
export class BilibiliDanmaku {
  private readonly rooms = new Map<number, Room>();

  constructor(private readonly client: BilibiliClient) {}

  /**
   * Calls `listener` with each comment of live room `roomId` until the returned function is called.
   * Rejects when bilibili does not say where the room's danmaku are (400/502 as the client's calls).
   */
  async subscribe(roomId: number, cookies: BilibiliCookies, listener: DanmakuListener): Promise<() => void> {
    let room = this.rooms.get(roomId);
    if (!room) {
      room = { connection: this.connect(roomId, cookies), listeners: new Set() };
      this.rooms.set(roomId, room);
      room.connection.catch(() => this.rooms.delete(roomId));
    }
    room.listeners.add(listener);
    const joined = room;
    try {
      await joined.connection;
    } catch (error) {
      joined.listeners.delete(listener);
      throw error;
    }
    return () => {
      joined.listeners.delete(listener);
      if (joined.listeners.size > 0 || this.rooms.get(roomId) !== joined) return;
      this.rooms.delete(roomId);
      void joined.connection.then((connection) => connection.close());
    };
  }

  private async connect(roomId: number, cookies: BilibiliCookies): Promise<KeepLiveWS> {
    const { address, key } = await this.client.liveDanmakuHost(roomId, cookies);
    const connection = new KeepLiveWS(roomId, { address, key, protover: 3, uid: Number(cookies.DedeUserID) || 0, buvid: cookies.buvid3 });
    connection.on('DANMU_MSG', (message: unknown) => {
      const text = danmakuText(message);
      if (text) for (const listener of this.rooms.get(roomId)?.listeners ?? []) listener(text);
    });
    // Errors are followed by a reconnection (KeepLive); they must not reach the process.
    connection.on('e', () => undefined);
    return connection;
  }

  /** Closes every connection (the server is closing). */
  close(): void {
    for (const room of this.rooms.values()) void room.connection.then((connection) => connection.close()).catch(() => undefined);
    this.rooms.clear();
  }
}
