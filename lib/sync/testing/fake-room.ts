/**
 * A room server stand-in for sync tests: it keeps the authoritative status with the contract's math
 * (docs/contract.md §6.4, §6.7, through lib/contract/playback.ts) on its own clock (`Date.now`, which jest's
 * fake timers drive) and relays like the real hub: STATUS to every other connection, SYNC replies
 * with `timestamp` = server now to the sender. Every message travels with the client's one-way
 * delays (`upMs` client → server, `downMs` server → client) as a queued task.
 */
import type { PlaybackState } from '@/lib/contract/playback';
import type { ServerClock } from '../clock';
import type { SyncEngine, SyncTransport } from '../engine';
import { applyClientStatus, extrapolate, type RoomPlayback } from '@/lib/contract/playback';

export interface FakeConnection {
  /** The client's server clock: its STATUS timestamps are `clock.serverNow()`, like RoomSocket's. Default: the true server time. */
  clock?: ServerClock;
  upMs?: number;
  downMs?: number;
  /** Extra delay (ms) before this client handles a STATUS broadcast: a busy page's event loop. */
  statusLagMs?: number;
}

export class FakeRoom {
  status: RoomPlayback = { isPlaying: false, currentTime: 0, playbackRate: 1, lastUpdateMs: Date.now() };
  /** Every STATUS received, with the index of its sender. */
  readonly statusLog: Array<{ from: number; status: PlaybackState }> = [];
  syncCount = 0;
  private readonly engines: SyncEngine[] = [];
  private readonly connections: Required<Omit<FakeConnection, 'clock'>>[] = [];

  /** A transport for the next client; `attach` its engine afterwards. */
  transport(connection: FakeConnection = {}): SyncTransport {
    const index = this.connections.length;
    const { clock } = connection;
    const link = { upMs: connection.upMs ?? 0, downMs: connection.downMs ?? 0, statusLagMs: connection.statusLagMs ?? 0 };
    this.connections.push(link);
    return {
      sendStatus: (status) => {
        const timestampMs = clock ? clock.serverNow() : Date.now();
        setTimeout(() => this.receiveStatus(index, status, timestampMs), link.upMs);
        return true;
      },
      sendSync: () => {
        setTimeout(() => {
          this.syncCount += 1;
          const serverNow = Date.now();
          const now = extrapolate(this.status, serverNow);
          const reply = { isPlaying: now.isPlaying, currentTime: now.currentTime, playbackRate: now.playbackRate };
          setTimeout(() => this.engines[index]?.onSyncReply(reply, serverNow), link.downMs);
        }, link.upMs);
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

  private receiveStatus(from: number, status: PlaybackState, timestampMs: number): void {
    this.statusLog.push({ from, status });
    this.status = applyClientStatus(status, timestampMs, Date.now());
    const relayed = { isPlaying: this.status.isPlaying, currentTime: this.status.currentTime, playbackRate: this.status.playbackRate };
    this.engines.forEach((engine, other) => {
      const link = this.connections[other];
      if (other !== from) setTimeout(() => engine.onRemoteStatus(relayed), link.downMs + link.statusLagMs);
    });
  }
}
