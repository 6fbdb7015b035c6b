/**
 * The message bus between instances of the companion server (docs/deployment.md "Running more than
 * one instance"): Redis pub/sub on one channel, through ioredis. Every instance publishes what its
 * rooms broadcast and hears everything, its own events included, so each room's frames reach the
 * sockets of every instance in the one order Redis gave them. Without `REDIS_URL` there is no bus
 * and the rooms fan out in process (./../hub/registry.ts).
 */
import crypto from 'node:crypto';
import { Redis } from 'ioredis';
import type { Audience } from '../hub/room-hub';

/** One room connection as other instances see it: `[connectionId, userId]`. */
export type PresenceEntry = [connectionId: string, userId: string];

/**
 * What instances tell each other. Frames travel as base64 (`frame`); `except` is the id of the
 * connection that must not get it (the sender of a STATUS, §6.5).
 * - `frame`: deliver to the room's sockets in `audience`;
 * - `kick`: close the user's sockets in `roomId` (null: in every room);
 * - `close-room`: drop every socket of the room (room deleted or banned);
 * - `presence`: the sender's open connections in every room it serves (a heartbeat every hub tick);
 * - `room-presence`: the sender's connections in one room, after one opened or closed;
 * - `live`: the movies whose RTMP push the sender holds, and the URL at which the other instances
 *   reach it (they forward their viewers' requests for those streams there);
 * - `hello`: a new instance asks the others for their presence; `bye`: an instance is leaving.
 */
export type ClusterEvent =
  | { kind: 'frame'; roomId: string; frame: string; audience: Audience; except?: string }
  | { kind: 'kick'; roomId: string | null; userId: string }
  | { kind: 'close-room'; roomId: string }
  | { kind: 'presence'; rooms: Record<string, PresenceEntry[]> }
  | { kind: 'room-presence'; roomId: string; connections: PresenceEntry[] }
  | { kind: 'live'; url: string; movies: string[] }
  | { kind: 'converter'; url: string }
  | { kind: 'keep-conversions'; roomId: string; movieId: string }
  | { kind: 'hello' }
  | { kind: 'bye' };

/**
 * What went wrong on the bus, or right again (../hub/registry.ts re-checks its sockets and tells its
 * clients to resync):
 * - `down`: a connection to Redis closed, or a publish failed (this instance's events may not
 *   have reached the others, and theirs may not reach it);
 * - `up`: both connections are back after being down;
 * - `missed`: an instance's events arrived with a gap in their sequence (lost on the way).
 */
export type BusTrouble = 'down' | 'up' | 'missed';

/** A bus between instances. `from` is the publishing instance's `instanceId`. */
export interface ClusterBus {
  /** This instance's id (a random UUID per process). */
  readonly instanceId: string;
  /** Sends `event` to every instance, this one included; dropped while Redis is unreachable (see `ready`). */
  publish(event: ClusterEvent): void;
  /** Sets the one handler of incoming events (each instance's own events come back too). */
  onEvent(handler: (from: string, event: ClusterEvent) => void): void;
  /** Sets the one handler of BusTrouble. */
  onTrouble(handler: (trouble: BusTrouble) => void): void;
  /** Whether both Redis connections are up (/readyz). */
  ready(): boolean;
  /** Resolves when Redis answers a PING (within REDIS_COMMAND_TIMEOUT_MS for Redis; at once in process), rejects otherwise (/readyz). */
  ping(): Promise<void>;
  /** Unsubscribes and closes both connections. */
  close(): Promise<void>;
}

/** The bus over Redis, with its command connection for the other shared state (secrets, rate limits). */
export interface RedisBus extends ClusterBus {
  /** The connection that publishes; also for ordinary commands (it never subscribes). */
  readonly client: Redis;
  /** The key prefix (`REDIS_PREFIX`, default `synctv`). */
  readonly prefix: string;
}

/** Channel name under `prefix`. */
const channelOf = (prefix: string) => `${prefix}:room-events`;

/** How long (ms) a Redis command may wait for its answer before it fails. */
export const REDIS_COMMAND_TIMEOUT_MS = 2000;

/** What one message on the channel carries: the publisher, its sequence number (1, 2, 3, … per process), the event. */
interface Envelope {
  from: string;
  seq?: number;
  event: ClusterEvent;
}

/**
 * The last sequence number heard from each instance, to notice lost events: one that does not
 * follow the last one heard from its instance means something in between was lost (a publish that
 * failed, a subscriber that was reconnecting). The first event heard from an instance starts it.
 */
export class SequenceWatch {
  private readonly last = new Map<string, number>();

  /** Records `seq` from `from`; true when events of `from` were missed before it. */
  see(from: string, seq: number): boolean {
    const last = this.last.get(from);
    this.last.set(from, seq);
    return last !== undefined && seq !== last + 1;
  }

  /** Forgets an instance that left. */
  forget(from: string): void {
    this.last.delete(from);
  }
}

/** Every kind of event, each named once (a kind added to ClusterEvent and not here fails to compile). */
const KINDS: Record<ClusterEvent['kind'], true> = {
  frame: true,
  kick: true,
  'close-room': true,
  presence: true,
  'room-presence': true,
  live: true,
  converter: true,
  'keep-conversions': true,
  hello: true,
  bye: true,
};
const EVENT_KINDS = new Set(Object.keys(KINDS));

/** Parses one channel message; null for anything that is not an envelope of ours (dropped). */
export function parseEnvelope(text: string): Envelope | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (!value || typeof value !== 'object') return null;
  const { from, seq, event } = value as Partial<Envelope>;
  if (typeof from !== 'string' || !event || typeof event !== 'object' || !EVENT_KINDS.has((event as { kind?: string }).kind ?? '')) return null;
  return Number.isSafeInteger(seq) ? { from, seq, event } : { from, event };
}

/** `url` without its credentials, for messages (`redis://:secret@h:6379/0` → `redis://h:6379/0`). */
export function redisAddress(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    return parsed.toString();
  } catch {
    return '(not a URL)';
  }
}

/**
 * Connects to Redis at `url` (`redis://[:password@]host:port[/db]`, or `rediss://` for TLS) and
 * subscribes to `<prefix>:room-events`. Resolves once subscribed, so the instance hears its own first
 * event; rejects when Redis cannot be reached within ioredis's first connection attempt.
 */
export async function connectRedisBus(url: string, prefix = 'synctv'): Promise<RedisBus> {
  const channel = channelOf(prefix);
  // No offline queue: while Redis is down the registry fans out in process (../hub/registry.ts), and
  // a queue would grow without bound, then replay stale frames.
  // A command that Redis (frozen, overloaded) does not answer fails after REDIS_COMMAND_TIMEOUT_MS
  // (docs/deployment.md "Deadlines"): the rate limits then count here, a request answers 503.
  const options = { lazyConnect: true, enableOfflineQueue: false, connectionName: 'synctv-web', commandTimeout: REDIS_COMMAND_TIMEOUT_MS } as const;
  const publisher = new Redis(url, options);
  const subscriber = new Redis(url, options);
  // ioredis reconnects on its own; an error event without a listener would be thrown.
  publisher.on('error', () => undefined);
  subscriber.on('error', () => undefined);
  try {
    await publisher.connect();
    await subscriber.connect();
    await subscriber.subscribe(channel);
  } catch (error) {
    publisher.disconnect();
    subscriber.disconnect();
    throw error;
  }
  const instanceId = crypto.randomUUID();
  let handler: (from: string, event: ClusterEvent) => void = () => undefined;
  let troubleHandler: (trouble: BusTrouble) => void = () => undefined;
  const sequences = new SequenceWatch();
  let seq = 0;
  const ready = () => publisher.status === 'ready' && subscriber.status === 'ready';
  let wasReady = true;
  const troubled = (trouble: BusTrouble) => {
    if (trouble === 'down') wasReady = false;
    try {
      troubleHandler(trouble);
    } catch {
      // the registry's own failure: the bus goes on
    }
  };
  for (const connection of [publisher, subscriber]) {
    connection.on('close', () => {
      if (wasReady) troubled('down');
    });
    connection.on('ready', () => {
      if (!wasReady && ready()) {
        wasReady = true;
        troubled('up');
      }
    });
  }
  subscriber.on('message', (name: string, text: string) => {
    if (name !== channel) return;
    const envelope = parseEnvelope(text);
    if (!envelope) return;
    if (envelope.event.kind === 'bye') sequences.forget(envelope.from);
    else if (envelope.seq !== undefined && sequences.see(envelope.from, envelope.seq)) troubled('missed');
    try {
      handler(envelope.from, envelope.event);
    } catch {
      // An event of ours that does not have the fields its kind needs: dropped, like one that is not ours.
    }
  });
  return {
    instanceId,
    client: publisher,
    prefix,
    publish(event) {
      const envelope: Envelope = { from: instanceId, seq: ++seq, event };
      // A publish that fails (Redis frozen or gone) leaves a gap every instance notices: `missed`.
      publisher.publish(channel, JSON.stringify(envelope)).then(
        () => {
          // Redis answers again after a publish failed while the connections stayed up (it was frozen).
          if (!wasReady && ready()) {
            wasReady = true;
            troubled('up');
          }
        },
        () => troubled('down'),
      );
    },
    onEvent(next) {
      handler = next;
    },
    onTrouble(next) {
      troubleHandler = next;
    },
    ready,
    async ping() {
      await publisher.ping();
    },
    async close() {
      await subscriber.unsubscribe(channel).catch(() => undefined);
      await Promise.all([publisher.quit().catch(() => undefined), subscriber.quit().catch(() => undefined)]);
    },
  };
}
