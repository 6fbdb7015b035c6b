/** @jest-environment node */
/**
 * The room WebSocket (docs/contract.md §6): handshake, fan-out rules, playback time math,
 * and that bad frames close only the offending socket.
 */
import zlib from 'node:zlib';
import { MessageType, type Message } from '@/lib/contract/message';
import {
  createRoom,
  get,
  launch,
  post,
  signUpUser,
  TestSocket,
  type TestServer,
  type TestUser,
} from './test-support/harness';
import type { PlaybackState } from '@/lib/contract/playback';

jest.setTimeout(30_000);

let server: TestServer;
const sockets: TestSocket[] = [];

/** Opens a socket that is closed after the test. */
async function open(roomId: string, user?: TestUser, via?: 'subprotocol' | 'query' | 'header'): Promise<TestSocket> {
  const socket = await TestSocket.open(server, roomId, user?.token, via);
  sockets.push(socket);
  await socket.next(MessageType.VIEWER_COUNT);
  return socket;
}

/** A room with its creator (all permissions) and one default member (no STATUS/push rights). */
async function roomWithMember(options: { password?: string } = {}) {
  const owner = await signUpUser(server, 'wsowner');
  const member = await signUpUser(server, 'wsmember');
  const { roomId, roomName } = await createRoom(server, owner, options);
  await post(server, '/api/room/login', { roomId, password: options.password ?? '' }, { token: member.token });
  return { owner, member, roomId, roomName };
}

beforeAll(async () => {
  server = await launch({ hubTickMs: 200 });
});

afterEach(() => {
  for (const socket of sockets.splice(0)) socket.close();
});

afterAll(async () => {
  await server?.stop();
});

describe('handshake', () => {
  it('echoes the token subprotocol and greets with VIEWER_COUNT', async () => {
    const { owner, roomId } = await roomWithMember();
    const socket = await TestSocket.open(server, roomId, owner.token);
    sockets.push(socket);
    expect(socket.protocol).toBe(owner.token);
    const count = await socket.next(MessageType.VIEWER_COUNT);
    expect(count.payload).toEqual({ case: 'viewerCount', value: BigInt(1) });
  });

  it('accepts the token from ?token= and Authorization, and guests without one', async () => {
    const { owner, member, roomId } = await roomWithMember();
    const viaQuery = await open(roomId, owner, 'query');
    expect(viaQuery.protocol).toBe('');
    const viaHeader = await open(roomId, member, 'header');
    expect(viaHeader.isOpen()).toBe(true);
    const guest = await open(roomId);
    expect(guest.protocol).toBe('');
  });

  it('refuses with an HTTP 401 envelope before the upgrade', async () => {
    const { owner, roomId } = await roomWithMember({ password: 'ws-secret' });
    const outsider = await signUpUser(server, 'outsider');
    await expect(TestSocket.open(server, roomId, outsider.token)).rejects.toMatchObject({
      status: 401,
      body: { error: 'get room member failed: room or member not found', time: expect.any(Number) },
    });
    await expect(TestSocket.open(server, roomId)).rejects.toMatchObject({
      status: 401,
      body: { error: 'guests are not allowed to perform this action' },
    });
    await expect(TestSocket.open(server, roomId, 'garbage-token')).rejects.toMatchObject({
      status: 401,
      body: { error: 'authentication failed' },
    });
    await expect(TestSocket.open(server, 'not-a-room-id', owner.token)).rejects.toMatchObject({
      status: 401,
      body: { error: 'invalid room ID' },
    });
    // After joining with the password the same user gets in.
    await post(server, '/api/room/login', { roomId, password: 'ws-secret' }, { token: outsider.token });
    expect((await open(roomId, outsider)).isOpen()).toBe(true);
  });
});

describe('chat', () => {
  it('sends CHAT to everyone including the sender, as plain text with sender and time', async () => {
    const { owner, member, roomId } = await roomWithMember();
    const a = await open(roomId, owner);
    const b = await open(roomId, member);
    const text = '<img src=x onerror=alert(1)> hello';
    b.send({ type: MessageType.CHAT, payload: { case: 'chatContent', value: text } });
    for (const socket of [a, b]) {
      const chat = await socket.next(MessageType.CHAT);
      expect(chat.payload).toEqual({ case: 'chatContent', value: text });
      expect(chat.sender).toMatchObject({ userId: member.id, username: member.username });
      expect(Math.abs(Number(chat.timestamp) - Date.now())).toBeLessThan(5000);
    }
  });

  it('reports empty, too long and unpermitted chat only to the sender', async () => {
    const { owner, roomId } = await roomWithMember();
    const a = await open(roomId, owner);
    const guest = await open(roomId);
    a.send({ type: MessageType.CHAT, payload: { case: 'chatContent', value: 'x'.repeat(4097) } });
    expect((await a.next(MessageType.ERROR)).payload).toEqual({ case: 'errorMessage', value: 'message too long' });
    a.send({ type: MessageType.CHAT, payload: { case: 'chatContent', value: '' } });
    expect((await a.next(MessageType.ERROR)).payload.value).toBe('message is empty');
    guest.send({ type: MessageType.CHAT, payload: { case: 'chatContent', value: 'hi' } });
    expect((await guest.next(MessageType.ERROR)).payload.value).toBe('send chat message error: no permission');
    expect(await a.none(MessageType.CHAT)).toBe(true);
    const exactlyMax = '汉'.repeat(1365);
    a.send({ type: MessageType.CHAT, payload: { case: 'chatContent', value: exactlyMax } });
    expect((await guest.next(MessageType.CHAT)).payload.value).toBe(exactlyMax);
  });
});

describe('chat history (a companion-server extension)', () => {
  /**
   * Sends `count` lines `<prefix> <n>`, 10 lines (a person's burst) from each of `speakers` in turn,
   * each seen by `observer` before the next.
   */
  async function say(roomId: string, speakers: TestUser[], observer: TestSocket, count: number, prefix: string): Promise<void> {
    let speaker: TestSocket | null = null;
    for (let index = 0; index < count; index += 1) {
      if (index % 10 === 0) speaker = await open(roomId, speakers[(index / 10) % speakers.length]);
      speaker!.send({ type: MessageType.CHAT, payload: { case: 'chatContent', value: `${prefix} ${index}` } });
      await observer.next(MessageType.CHAT, (message) => message.payload.value === `${prefix} ${index}`);
    }
  }

  /** `n` more members of `roomId`. */
  async function members(roomId: string, n: number): Promise<TestUser[]> {
    const joined: TestUser[] = [];
    for (let i = 0; i < n; i += 1) {
      const user = await signUpUser(server, 'wsspeaker');
      await post(server, '/api/room/login', { roomId, password: '' }, { token: user.token });
      joined.push(user);
    }
    return joined;
  }

  /** Opens a socket and returns the frames it got before its first VIEWER_COUNT: the replayed history. */
  async function joinAndReadHistory(roomId: string, user?: TestUser): Promise<Message[]> {
    const socket = await TestSocket.open(server, roomId, user?.token);
    sockets.push(socket);
    let before: Message[] = [];
    await socket.next(MessageType.VIEWER_COUNT, (count) => {
      before = socket.received.slice(0, socket.received.indexOf(count));
      return true;
    });
    return before;
  }

  it('replays the newest 100 lines, oldest first, to every socket that joins, before its VIEWER_COUNT', async () => {
    const { owner, member, roomId } = await roomWithMember();
    const observer = await open(roomId, member);
    const speakers = [owner, ...(await members(roomId, 10))];
    const sentFrom = Date.now();
    await say(roomId, speakers, observer, 105, 'line');
    const history = await joinAndReadHistory(roomId, member);
    expect(history.every((message) => message.type === MessageType.CHAT)).toBe(true);
    expect(history.map((message) => message.payload.value)).toEqual(Array.from({ length: 100 }, (_, index) => `line ${index + 5}`));
    for (const [index, line] of history.entries()) {
      const speaker = speakers[Math.floor((index + 5) / 10)];
      expect(line.sender).toMatchObject({ userId: speaker.id, username: speaker.username });
      expect(Number(line.timestamp)).toBeGreaterThanOrEqual(sentFrom);
      expect(Number(line.timestamp)).toBeLessThanOrEqual(Date.now());
    }
    // In order of sending, and each line stamped when the server received it.
    const stamps = history.map((line) => Number(line.timestamp));
    expect(stamps).toEqual([...stamps].sort((a, b) => a - b));
    // A guest of the room gets the same replay; another room gets none.
    expect(await joinAndReadHistory(roomId)).toHaveLength(100);
    const other = await roomWithMember();
    expect(await joinAndReadHistory(other.roomId, other.owner)).toEqual([]);
  });

  it('is cleared by a room admin with SetRoomSettings: later sockets get no replay', async () => {
    const { owner, member, roomId } = await roomWithMember();
    const observer = await open(roomId, member);
    await say(roomId, [owner], observer, 3, 'before');
    const refused = await post(server, '/api/room/admin/chat/clear', {}, { token: member.token, roomId });
    expect([refused.status, refused.body.error]).toEqual([403, 'user is not a room administrator']);
    expect(await joinAndReadHistory(roomId, member)).toHaveLength(3);
    expect((await post(server, '/api/room/admin/chat/clear', {}, { token: owner.token, roomId })).status).toBe(204);
    expect(await joinAndReadHistory(roomId, member)).toEqual([]);
    await say(roomId, [owner], observer, 1, 'after');
    expect((await joinAndReadHistory(roomId, member)).map((message) => message.payload.value)).toEqual(['after 0']);
  });
});

describe('playback', () => {
  it('fans STATUS out to everyone but the sending socket, crediting the latency', async () => {
    const { owner, member, roomId } = await roomWithMember();
    const movie = await post(server, '/api/room/movie/push', { url: 'https://x/film.mp4', name: 'film' }, { token: owner.token, roomId });
    await post(server, '/api/room/movie/current', { id: movie.body.data.id }, { token: owner.token, roomId });
    const a = await open(roomId, owner);
    const aOtherTab = await open(roomId, owner);
    const b = await open(roomId, member);
    a.send({
      type: MessageType.STATUS,
      timestamp: BigInt(Date.now() - 1000),
      payload: { case: 'playbackStatus', value: { isPlaying: true, currentTime: 10, playbackRate: 1 } },
    });
    for (const socket of [b, aOtherTab]) {
      const status = await socket.next(MessageType.STATUS);
      expect(status.sender).toMatchObject({ userId: owner.id, username: owner.username });
      expect(status.timestamp).toBe(BigInt(0));
      expect(status.payload.case).toBe('playbackStatus');
      const value = status.payload.value as PlaybackState;
      expect(value.isPlaying).toBe(true);
      expect(value.playbackRate).toBe(1);
      expect(value.currentTime).toBeGreaterThanOrEqual(11);
      expect(value.currentTime).toBeLessThanOrEqual(11.5);
    }
    expect(await a.none(MessageType.STATUS)).toBe(true);

    // Latency is capped at 1.5 s and scaled by the rate.
    a.send({
      type: MessageType.STATUS,
      timestamp: BigInt(Date.now() - 60_000),
      payload: { case: 'playbackStatus', value: { isPlaying: true, currentTime: 20, playbackRate: 2 } },
    });
    const capped = (await b.next(MessageType.STATUS)).payload.value as { currentTime: number };
    expect(capped.currentTime).toBe(23);

    // Paused: the position is stored as sent.
    a.send({
      type: MessageType.STATUS,
      timestamp: BigInt(Date.now() - 1000),
      payload: { case: 'playbackStatus', value: { isPlaying: false, currentTime: 42.5, playbackRate: 1 } },
    });
    expect(((await b.next(MessageType.STATUS)).payload.value as { currentTime: number }).currentTime).toBe(42.5);
    const current = await get(server, '/api/room/movie/current', { token: member.token, roomId });
    expect(current.body.data.status).toMatchObject({ currentTime: 42.5, playbackRate: 1 });
    expect(current.body.data.status.isPlaying).toBeUndefined();

    b.send({ type: MessageType.STATUS, payload: { case: 'playbackStatus', value: { isPlaying: true, currentTime: 1, playbackRate: 1 } } });
    expect((await b.next(MessageType.ERROR)).payload.value).toBe('set status error: no permission');
    a.send({ type: MessageType.STATUS });
    expect((await a.next(MessageType.ERROR)).payload.value).toBe('playback status is nil');
  });

  it('answers SYNC with the extrapolated status and CHECK_STATUS only when out of sync', async () => {
    const { owner, member, roomId } = await roomWithMember();
    const a = await open(roomId, owner);
    const b = await open(roomId, member);
    a.send({ type: MessageType.STATUS, payload: { case: 'playbackStatus', value: { isPlaying: true, currentTime: 100, playbackRate: 1 } } });
    await b.next(MessageType.STATUS);
    await new Promise((resolve) => setTimeout(resolve, 300));

    const sentAt = Date.now();
    b.send({ type: MessageType.SYNC });
    const sync = await b.next(MessageType.SYNC);
    expect(Math.abs(Number(sync.timestamp) - sentAt)).toBeLessThan(2000);
    const synced = sync.payload.value as PlaybackState;
    expect(synced.isPlaying).toBe(true);
    expect(synced.currentTime).toBeGreaterThan(100.25);
    expect(synced.currentTime).toBeLessThan(102);
    expect(await a.none(MessageType.SYNC, 100)).toBe(true);

    b.send({
      type: MessageType.CHECK_STATUS,
      timestamp: BigInt(Date.now()),
      payload: { case: 'playbackStatus', value: { isPlaying: true, currentTime: 101, playbackRate: 1 } },
    });
    expect(await b.none(MessageType.CHECK_STATUS)).toBe(true);
    b.send({
      type: MessageType.CHECK_STATUS,
      timestamp: BigInt(Date.now()),
      payload: { case: 'playbackStatus', value: { isPlaying: true, currentTime: 150, playbackRate: 1 } },
    });
    const check = await b.next(MessageType.CHECK_STATUS);
    expect((check.payload.value as { currentTime: number }).currentTime).toBeLessThan(102);
    b.send({
      type: MessageType.CHECK_STATUS,
      payload: { case: 'playbackStatus', value: { isPlaying: false, currentTime: 101, playbackRate: 1 } },
    });
    expect((await b.next(MessageType.CHECK_STATUS)).payload.case).toBe('playbackStatus');
  });

  it('refuses a STATUS with impossible values: ERROR to the sender, nothing stored, nothing relayed', async () => {
    const { owner, member, roomId } = await roomWithMember();
    const push = await post(server, '/api/room/movie/push', { url: 'https://x/v.mp4', name: 'v' }, { token: owner.token, roomId });
    await post(server, '/api/room/movie/current', { id: push.body.data.id }, { token: owner.token, roomId });
    const a = await open(roomId, owner);
    const b = await open(roomId, member);
    const before = (await get(server, '/api/room/movie/current', { token: owner.token, roomId })).body.data.status;
    const cases: Array<[Partial<PlaybackState>, string]> = [
      [{ currentTime: Number.NaN }, 'invalid current time'],
      [{ currentTime: Number.POSITIVE_INFINITY }, 'invalid current time'],
      [{ currentTime: -1 }, 'invalid current time'],
      // Finite, but no movie is that long: it would move everyone to nowhere.
      [{ currentTime: 1e308 }, 'invalid current time'],
      [{ currentTime: 1e15 }, 'invalid current time'],
      [{ currentTime: 10_000_001 }, 'invalid current time'],
      [{ playbackRate: 0 }, 'invalid playback rate'],
      [{ playbackRate: -1 }, 'invalid playback rate'],
      [{ playbackRate: Number.NaN }, 'invalid playback rate'],
      [{ playbackRate: 100 }, 'invalid playback rate'],
    ];
    for (const [values, error] of cases) {
      a.send({
        type: MessageType.STATUS,
        timestamp: BigInt(Date.now()),
        payload: { case: 'playbackStatus', value: { isPlaying: false, currentTime: 10, playbackRate: 1, ...values } },
      });
      expect((await a.next(MessageType.ERROR)).payload).toEqual({ case: 'errorMessage', value: error });
    }
    expect(await b.none(MessageType.STATUS)).toBe(true);
    const after = (await get(server, '/api/room/movie/current', { token: owner.token, roomId })).body.data.status;
    expect(after.isPlaying).toBe(before.isPlaying);
    expect(after.playbackRate).toBe(before.playbackRate);
    // The edges browsers accept are taken.
    a.send({ type: MessageType.STATUS, timestamp: BigInt(Date.now()), payload: { case: 'playbackStatus', value: { isPlaying: false, currentTime: 0, playbackRate: 16 } } });
    expect((await b.next(MessageType.STATUS)).payload.value).toMatchObject({ currentTime: 0, playbackRate: 16 });
  });

  it('answers EXPIRED when the id does not match the current movie', async () => {
    const { owner, roomId } = await roomWithMember();
    const a = await open(roomId, owner);
    const push = await post(server, '/api/room/movie/push', { url: 'https://x/v.mp4', name: 'v' }, { token: owner.token, roomId });
    await post(server, '/api/room/movie/current', { id: push.body.data.id }, { token: owner.token, roomId });
    a.send({ type: MessageType.EXPIRED, payload: { case: 'expirationId', value: BigInt(zlib.crc32(push.body.data.id) >>> 0) } });
    expect(await a.none(MessageType.EXPIRED)).toBe(true);
    a.send({ type: MessageType.EXPIRED, payload: { case: 'expirationId', value: BigInt(12345) } });
    await a.next(MessageType.EXPIRED);
  });

  it('broadcasts CURRENT and MOVIES to everyone including the actor', async () => {
    const { owner, member, roomId } = await roomWithMember();
    const a = await open(roomId, owner);
    const b = await open(roomId, member);
    const push = await post(server, '/api/room/movie/push', { url: 'https://x/v.mp4', name: 'v' }, { token: owner.token, roomId });
    for (const socket of [a, b]) expect((await socket.next(MessageType.MOVIES)).sender?.userId).toBe(owner.id);
    await post(server, '/api/room/movie/current', { id: push.body.data.id }, { token: owner.token, roomId });
    for (const socket of [a, b]) expect((await socket.next(MessageType.CURRENT)).sender?.username).toBe(owner.username);
    const current = await get(server, '/api/room/movie/current', { token: member.token, roomId });
    expect(current.body.data.status).toMatchObject({ isPlaying: true });
  });
});

describe('robustness and viewers', () => {
  it('closes only the socket that sent a malformed or text frame', async () => {
    const { owner, member, roomId } = await roomWithMember();
    const a = await open(roomId, owner);
    const b = await open(roomId, member);
    const c = await open(roomId, member);
    b.ws.send(Buffer.from([0x0a, 0xff, 0xff, 0xff, 0xff]), { binary: true });
    expect((await b.closed).code).toBe(1007);
    c.ws.send('{"type":2}');
    expect((await c.closed).code).toBe(1003);
    expect(a.isOpen()).toBe(true);
    a.send({ type: MessageType.CHAT, payload: { case: 'chatContent', value: 'still here' } });
    expect((await a.next(MessageType.CHAT)).payload.value).toBe('still here');
    expect(server.alive()).toBe(true);
  });

  it('answers unknown message types with ERROR', async () => {
    const { owner, roomId } = await roomWithMember();
    const a = await open(roomId, owner);
    a.send({ type: MessageType.CURRENT });
    expect((await a.next(MessageType.ERROR)).payload.value).toBe('unknown message type: CURRENT');
    a.send({ type: 99 as MessageType });
    expect((await a.next(MessageType.ERROR)).payload.value).toBe('unknown message type: 99');
  });

  it('counts distinct users, ticks VIEWER_COUNT on change, and lists the room as hot', async () => {
    const { owner, member, roomId, roomName } = await roomWithMember();
    const a = await open(roomId, owner);
    await open(roomId, owner);
    const check = await get(server, `/api/room/check?roomId=${roomId}`);
    expect(check.body.data.viewerCount).toBe(1);
    await open(roomId, member);
    const count = await a.next(MessageType.VIEWER_COUNT, (message) => message.payload.value === BigInt(2), 2000);
    expect(count.payload.value).toBe(BigInt(2));
    const hot = await get(server, '/api/room/hot?max=100');
    expect(hot.body.data.list).toEqual(
      expect.arrayContaining([expect.objectContaining({ roomId, roomName, viewerCount: 2, status: 0 })]),
    );
    const hidden = await createRoom(server, member, { hidden: true });
    await open(hidden.roomId, member);
    const hotAgain = await get(server, '/api/room/hot?max=100');
    expect(hotAgain.body.data.list.map((room: { roomId: string }) => room.roomId)).not.toContain(hidden.roomId);
    for (const socket of sockets.splice(0)) socket.close();
    await new Promise((resolve) => setTimeout(resolve, 200));
    const cold = await get(server, '/api/room/hot?max=100');
    expect(cold.body.data.list.map((room: { roomId: string }) => room.roomId)).not.toContain(roomId);
  });

  it("closes a user's sockets when they change their password; the new token connects", async () => {
    const { member, roomId } = await roomWithMember();
    const socket = await open(roomId, member);
    const changed = await post(server, '/api/user/password', { password: 'a-new-pass-1' }, { token: member.token });
    expect(changed.status).toBe(200);
    await socket.closed;
    await expect(TestSocket.open(server, roomId, member.token)).rejects.toMatchObject({ status: 401 });
    const again = await open(roomId, { ...member, token: changed.body.data.token });
    expect(again.isOpen()).toBe(true);
  });

  it('keeps tokens out of the log', async () => {
    const logged = await launch({ logLevel: 'info' });
    try {
      const user = await signUpUser(logged, 'logged');
      const { roomId } = await createRoom(logged, user);
      const socket = await TestSocket.open(logged, roomId, user.token, 'query');
      socket.close();
      await get(logged, `/api/user/me?token=${encodeURIComponent(user.token)}`);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(logged.output()).toContain('GET /api/user/me?token=[redacted] 200');
      expect(logged.output()).not.toContain(user.token);
    } finally {
      await logged.stop();
    }
  });

  it('closes the sockets of a member who exits the room', async () => {
    const { owner, member, roomId } = await roomWithMember();
    const a = await open(roomId, owner);
    const b = await open(roomId, member);
    expect((await post(server, '/api/user/room/exit', { id: roomId }, { token: member.token })).status).toBe(204);
    await b.closed;
    expect(a.isOpen()).toBe(true);
  });
});
