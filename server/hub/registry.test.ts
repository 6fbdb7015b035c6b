/** @jest-environment node */
/**
 * The registry's fan-out across instances (./registry.ts) over an in-memory bus that behaves as Redis
 * pub/sub does: one order for everyone, delivered later, the publisher included. The end-to-end
 * version with real processes and a real Redis is ../cluster.test.ts.
 */
import { WebSocket } from 'ws';
import { decodeMessage, encodeMessage, MessageType } from '@/lib/contract/message';
import { parseEnvelope, redisAddress, SequenceWatch, type BusTrouble, type ClusterBus, type ClusterEvent } from '../cluster/bus';
import { HubRegistry } from './registry';
import type { Connection } from './room-hub';
import { socketBuckets } from './token-bucket';

const TICK_MS = 1000;

/** Redis as the registries see it: every event goes into one queue that `flush` delivers to all. */
class FakeRedis {
  up = true;
  private readonly queue: Array<{ from: string; event: ClusterEvent }> = [];
  private readonly handlers: Array<(from: string, event: ClusterEvent) => void> = [];
  private readonly troubleHandlers: Array<(trouble: BusTrouble) => void> = [];

  /** Tells every bus of `trouble`, as the Redis bus does when its connections drop or come back. */
  trouble(trouble: BusTrouble): void {
    this.up = trouble !== 'down';
    for (const handler of this.troubleHandlers) handler(trouble);
  }

  bus(instanceId: string): ClusterBus {
    return {
      instanceId,
      publish: (event) => {
        if (this.up) this.queue.push({ from: instanceId, event: JSON.parse(JSON.stringify(event)) as ClusterEvent });
      },
      onEvent: (handler) => void this.handlers.push(handler),
      onTrouble: (handler) => void this.troubleHandlers.push(handler),
      ready: () => this.up,
      ping: async () => {
        if (!this.up) throw new Error('down');
      },
      close: async () => undefined,
    };
  }

  flush(): void {
    for (const { from, event } of this.queue.splice(0)) for (const handler of this.handlers) handler(from, event);
  }
}

/** A connection whose socket records the frames written to it. */
function connection(userId: string, id = `${userId}-${Math.random().toString(36).slice(2)}`) {
  const frames: number[] = [];
  let closed: number | null = null;
  const socket = {
    readyState: WebSocket.OPEN,
    bufferedAmount: 0,
    send: (frame: Uint8Array) => frames.push(decodeMessage(frame).type),
    close: (code: number) => (closed = code),
    terminate: () => (closed = 1006),
    ping: () => undefined,
  } as unknown as WebSocket;
  const value: Connection = { id, userId, userVersion: null, socket, rtcJoined: false, buckets: socketBuckets(0) };
  return { connection: value, frames, closedWith: () => closed };
}

const chat = encodeMessage({ type: MessageType.CHAT, payload: { case: 'chatContent', value: 'hi' } });

let redis: FakeRedis;
let a: HubRegistry;
let b: HubRegistry;

beforeEach(() => {
  jest.useFakeTimers({ now: 1_000_000 });
  redis = new FakeRedis();
  a = new HubRegistry(TICK_MS, redis.bus('a'));
  b = new HubRegistry(TICK_MS, redis.bus('b'));
  redis.flush();
});

afterEach(() => {
  a.closeAll();
  b.closeAll();
  jest.useRealTimers();
});

/** Lets the presence debounce run and delivers what was published. */
function settle(): void {
  jest.advanceTimersByTime(60);
  redis.flush();
}

it('delivers a broadcast only once it comes back from the bus, to every instance, except the sender', () => {
  const one = connection('u1');
  const two = connection('u2');
  a.getOrCreate('room').register(one.connection);
  b.getOrCreate('room').register(two.connection);
  one.frames.length = two.frames.length = 0;

  a.getOrCreate('room').broadcast(chat, one.connection);
  expect([one.frames, two.frames]).toEqual([[], []]);
  redis.flush();
  expect([one.frames, two.frames]).toEqual([[], [MessageType.CHAT]]);
});

it('counts viewers over instances, and forgets an instance that has been silent for three ticks', () => {
  a.getOrCreate('room').register(connection('u1').connection);
  b.getOrCreate('room').register(connection('u2').connection);
  b.getOrCreate('room').register(connection('u1').connection);
  settle();
  expect([a.viewerCount('room'), b.viewerCount('room')]).toEqual([2, 2]);
  expect([a.onlineCount('room', 'u1'), b.liveRoomIds()]).toEqual([2, ['room']]);

  // B's heartbeats stop reaching A (a crashed process): after three ticks only A's viewer counts.
  const silentB = b;
  redis.up = false;
  jest.advanceTimersByTime(3 * TICK_MS + 10);
  expect(a.viewerCount('room')).toBe(1);
  redis.up = true;
  jest.advanceTimersByTime(TICK_MS);
  redis.flush();
  expect(a.viewerCount('room')).toBe(2);
  silentB.closeAll();
  redis.flush();
  expect(a.viewerCount('room')).toBe(1);
});

it('routes MY_STATUS to one user and a kick to that user only, on the instance that holds them', () => {
  const viewer = connection('viewer');
  const other = connection('other');
  b.getOrCreate('room').register(viewer.connection);
  b.getOrCreate('room').register(other.connection);
  viewer.frames.length = other.frames.length = 0;

  a.notifyMyStatus('room', 'viewer', { userId: 'admin', username: 'admin' });
  a.kickUser('room', 'viewer');
  redis.flush();
  expect([viewer.frames, other.frames]).toEqual([[MessageType.MY_STATUS], []]);
  expect([viewer.closedWith(), other.closedWith()]).toEqual([1000, null]);
});

it('fans out in process while the bus is down, and through it again once it is back', () => {
  const one = connection('u1');
  const two = connection('u2');
  a.getOrCreate('room').register(one.connection);
  a.getOrCreate('room').register(two.connection);
  two.frames.length = 0;
  redis.up = false;
  a.getOrCreate('room').broadcast(chat);
  expect(two.frames).toEqual([MessageType.CHAT]);
  redis.up = true;
  a.getOrCreate('room').broadcast(chat);
  expect(two.frames).toEqual([MessageType.CHAT]);
  redis.flush();
  expect(two.frames).toEqual([MessageType.CHAT, MessageType.CHAT]);
});

it('converts each movie on one instance that every instance agrees on, and moves only the movies of one that went away', () => {
  const stopped: string[] = [];
  a.shareConversions('http://a', (roomId, movieId) => stopped.push(`a ${roomId} ${movieId}`));
  b.shareConversions('http://b', (roomId, movieId) => stopped.push(`b ${roomId} ${movieId}`));
  redis.flush();
  const keys = Array.from({ length: 40 }, (_, index) => `room movie${index}`);
  // Each registry names the other's URL, or null for itself: they agree when each `null` is the other's name.
  const ownerSeenBy = (registry: HubRegistry, self: string) => keys.map((key) => registry.conversionOwner(key) ?? self);
  const owners = ownerSeenBy(a, 'http://a');
  expect(ownerSeenBy(b, 'http://b')).toEqual(owners);
  // Both convert some movies.
  expect(new Set(owners)).toEqual(new Set(['http://a', 'http://b']));
  // B goes quiet (crashed): after three ticks A converts everything.
  redis.up = false;
  jest.advanceTimersByTime(3 * TICK_MS + 10);
  expect(keys.map((key) => a.conversionOwner(key))).toEqual(keys.map(() => null));
  redis.up = true;
  jest.advanceTimersByTime(TICK_MS);
  redis.flush();
  expect(ownerSeenBy(a, 'http://a')).toEqual(owners);
  // A change of the current movie stops the room's other conversions on every instance.
  a.keepConversions('room', 'movie3');
  redis.flush();
  expect(stopped.sort()).toEqual(['a room movie3', 'b room movie3']);
});

describe('after the bus was interrupted', () => {
  /** Lets pending promises (the access checks) settle under fake timers. */
  const drain = async () => {
    for (let i = 0; i < 10; i++) await Promise.resolve();
  };

  it('re-checks its sockets against the database every tick while the bus is down, closing those that lost access', async () => {
    const banned = connection('banned');
    const kept = connection('kept');
    const unsure = connection('unsure');
    for (const viewer of [banned, kept, unsure]) b.getOrCreate('room').register(viewer.connection);
    const checked: string[] = [];
    b.setAccessCheck(async (roomId, userId) => {
      checked.push(`${roomId}/${userId}`);
      if (userId === 'unsure') throw new Error('database did not answer');
      return userId !== 'banned';
    });
    // Nothing is re-checked while the bus works: kicks arrive through it.
    jest.advanceTimersByTime(TICK_MS);
    await drain();
    expect(checked).toEqual([]);
    redis.trouble('down');
    await drain();
    expect([banned.closedWith(), kept.closedWith(), unsure.closedWith()]).toEqual([1000, null, null]);
    checked.length = 0;
    jest.advanceTimersByTime(TICK_MS);
    await drain();
    expect(checked.sort()).toEqual(['room/banned', 'room/kept', 'room/unsure']);
  });

  it('tells every socket to resync once the bus is back, or when events were lost, spread over a second', async () => {
    const viewer = connection('viewer');
    a.getOrCreate('room').register(viewer.connection);
    a.setAccessCheck(async () => true);
    viewer.frames.length = 0;
    redis.trouble('down');
    redis.trouble('up');
    const resyncs = () => viewer.frames.filter((type) => type !== MessageType.VIEWER_COUNT);
    jest.advanceTimersByTime(1000);
    expect(resyncs()).toEqual([MessageType.CURRENT, MessageType.MOVIES, MessageType.MY_STATUS]);
    viewer.frames.length = 0;
    redis.trouble('missed');
    jest.advanceTimersByTime(1000);
    expect(resyncs()).toEqual([MessageType.CURRENT, MessageType.MOVIES, MessageType.MY_STATUS]);
    // Back to normal: the ticks re-check nothing.
    let checks = 0;
    a.setAccessCheck(async () => (checks++, true));
    jest.advanceTimersByTime(3 * TICK_MS);
    await drain();
    expect(checks).toBe(0);
  });

  it('notices a gap in an instance’s sequence of events', () => {
    const watch = new SequenceWatch();
    expect([watch.see('a', 7), watch.see('a', 8), watch.see('b', 1), watch.see('a', 10), watch.see('a', 11)]).toEqual([false, false, false, true, false]);
    watch.forget('a');
    expect(watch.see('a', 1)).toBe(false);
  });
});

describe('the channel', () => {
  it('drops a message that is not an envelope of ours', () => {
    expect(parseEnvelope('not json')).toBeNull();
    expect(parseEnvelope('{"from":"a","event":{"kind":"reboot"}}')).toBeNull();
    expect(parseEnvelope('{"event":{"kind":"bye"}}')).toBeNull();
    expect(parseEnvelope('{"from":"a","event":{"kind":"bye"}}')).toEqual({ from: 'a', event: { kind: 'bye' } });
    expect(parseEnvelope('{"from":"a","seq":3,"event":{"kind":"bye"}}')).toEqual({ from: 'a', seq: 3, event: { kind: 'bye' } });
    expect(parseEnvelope('{"from":"a","seq":"x","event":{"kind":"bye"}}')).toEqual({ from: 'a', event: { kind: 'bye' } });
  });

  it('never names the password of a Redis URL', () => {
    expect(redisAddress('redis://:s3cret@cache:6380/2')).toBe('redis://cache:6380/2');
    expect(redisAddress('nonsense')).toBe('(not a URL)');
  });
});
