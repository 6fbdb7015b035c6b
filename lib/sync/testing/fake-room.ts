/**
 * A room server stand-in for sync tests: it keeps the authoritative status with the contract's math
 * (server-contract.md §6.4, §6.7, through ./playback-time) and relays like the real hub: STATUS to every
 * other connection, SYNC replies to the sender. Delivery is a queued task, as over a socket.
 */
import type { PlaybackState } from '@/lib/ws/room-socket';
import type { SyncEngine, SyncTransport } from '../engine';
import { applyClientStatus, extrapolate, type RoomPlayback } from '../playback-time';

export class FakeRoom {
  status: RoomPlayback = { isPlaying: false, currentTime: 0, playbackRate: 1, lastUpdateMs: Date.now() };
  /** Every STATUS received, with the index of its sender. */
  readonly statusLog: Array<{ from: number; status: PlaybackState }> = [];
  syncCount = 0;
  private readonly engines: SyncEngine[] = [];

  /** A transport for the next client; `attach` its engine afterwards. */
  transport(): SyncTransport {
    const index = this.engines.length;
    return {
      sendStatus: (status) => {
        this.statusLog.push({ from: index, status });
        this.status = applyClientStatus(status, Date.now(), Date.now());
        const relayed = { isPlaying: this.status.isPlaying, currentTime: this.status.currentTime, playbackRate: this.status.playbackRate };
        this.engines.forEach((engine, other) => {
          if (other !== index) setTimeout(() => engine.onRemoteStatus(relayed), 0);
        });
        return true;
      },
      sendSync: () => {
        this.syncCount += 1;
        const now = extrapolate(this.status, Date.now());
        const reply = { isPlaying: now.isPlaying, currentTime: now.currentTime, playbackRate: now.playbackRate };
        setTimeout(() => this.engines[index]?.onSyncReply(reply), 0);
        return true;
      },
    };
  }

  attach(engine: SyncEngine): void {
    this.engines.push(engine);
  }

  /** The room position now (s). */
  position(): number {
    return extrapolate(this.status, Date.now()).currentTime;
  }
}
