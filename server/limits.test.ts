/** @jest-environment node */
/**
 * Bounded inputs: body limits per route, the room check before a large body is read, the
 * bounds of every MovieBase field, bulk push and room movie counts, rate limits with 429 and
 * Retry-After, and the per-socket limits on chat and STATUS. Each test fails without its limit.
 */
import net from 'node:net';
import { MessageType } from '@/lib/contract/message';
import { SOCKET_LIMITS } from './hub/token-bucket';
import {
  call,
  createRoom,
  get,
  launch,
  post,
  signUpUser,
  TEST_ROOT_PASSWORD,
  TestSocket,
  type TestServer,
  type TestUser,
} from './test-support/harness';

jest.setTimeout(60_000);

let server: TestServer;
let limited: TestServer;

beforeAll(async () => {
  [server, limited] = await Promise.all([launch(), launch({ rateLimitScale: 1 })]);
});

afterAll(async () => {
  await Promise.all([server?.stop(), limited?.stop()]);
});

/** The bounds of ./http/limits.ts, as a client meets them. */
const AUTH_BODY_LIMIT = 8 * 1024;
const DEFAULT_BODY_LIMIT = 64 * 1024;
const MOVIE_BODY_LIMIT = 1024 * 1024;

const movie = (extra: Record<string, unknown> = {}) => ({ url: 'https://media.test/a.mp4', name: 'A', ...extra });
const repeat = (bytes: number) => 'x'.repeat(bytes);

/** `promise`, or a rejection after `ms`. */
function within<T>(ms: number, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`not within ${ms} ms`)), ms)));
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

async function ownerAndRoom(target = server): Promise<{ owner: TestUser; roomId: string }> {
  const owner = await signUpUser(target, 'limits');
  const { roomId } = await createRoom(target, owner);
  return { owner, roomId };
}

describe('body limits', () => {
  it('refuses a sign-in body over 8 KiB with 413 before checking anything', async () => {
    const big = await post(server, '/api/user/login', { username: 'root', password: repeat(AUTH_BODY_LIMIT) });
    expect(big.status).toBe(413);
    expect(big.body.error).toBe('request body is too large');
    const small = await post(server, '/api/user/login', { username: 'root', password: TEST_ROOT_PASSWORD });
    expect(small.status).toBe(200);
  });

  it('refuses other bodies over 64 KiB (room settings) and movie bodies over 1 MiB', async () => {
    const { owner, roomId } = await ownerAndRoom();
    const settings = await post(server, '/api/room/admin/settings', { hidden: false, pad: repeat(DEFAULT_BODY_LIMIT) }, { token: owner.token, roomId });
    expect(settings.status).toBe(413);
    const push = await post(server, '/api/room/movie/push', movie({ pad: repeat(MOVIE_BODY_LIMIT) }), { token: owner.token, roomId });
    expect(push.status).toBe(413);
  });

  it('answers 401 to a large push without a usable token, before reading the body', async () => {
    const { roomId } = await ownerAndRoom();
    const anonymous = await post(server, '/api/room/movie/pushs', Array.from({ length: 400 }, () => movie({ pad: repeat(2000) })), {
      token: 'not-a-token',
      roomId,
    });
    expect(anonymous.status).toBe(401);
  });
});

describe('movie fields', () => {
  const cases: Array<[string, Record<string, unknown>, string]> = [
    ['name', { name: repeat(4097) }, 'name too long'],
    ['danmu', { danmu: `https://d.test/${repeat(8192)}` }, 'danmu too long'],
    ['streamDanmu', { streamDanmu: `https://d.test/${repeat(8192)}` }, 'streamDanmu too long'],
    ['headers count', { headers: Object.fromEntries(Array.from({ length: 33 }, (_, i) => [`h${i}`, 'v'])) }, 'too many headers'],
    ['header name', { headers: { [repeat(257)]: 'v' } }, 'header name too long'],
    ['header value', { headers: { Referer: repeat(4097) } }, 'header value too long'],
    ['subtitles count', { subtitles: Object.fromEntries(Array.from({ length: 33 }, (_, i) => [`s${i}`, { url: 'https://s.test/a.vtt', type: 'vtt' }])) }, 'too many subtitles'],
    ['subtitle name', { subtitles: { [repeat(257)]: { url: 'https://s.test/a.vtt', type: 'vtt' } } }, 'subtitle name too long'],
    ['subtitle url', { subtitles: { en: { url: `https://s.test/${repeat(8192)}`, type: 'vtt' } } }, 'subtitle url too long'],
    ['subtitle type', { subtitles: { en: { url: 'https://s.test/a.vtt', type: repeat(33) } } }, 'subtitle type too long'],
    ['moreSources count', { moreSources: Array.from({ length: 33 }, (_, i) => ({ name: `q${i}`, url: 'https://m.test/b.mp4', type: 'mp4' })) }, 'too many moreSources'],
    ['source name', { moreSources: [{ name: repeat(257), url: 'https://m.test/b.mp4', type: 'mp4' }] }, 'source name too long'],
    ['source url', { moreSources: [{ name: 'hd', url: `https://m.test/${repeat(8192)}`, type: 'mp4' }] }, 'source url too long'],
    ['source type', { moreSources: [{ name: 'hd', url: 'https://m.test/b.mp4', type: repeat(33) }] }, 'source type too long'],
    ['all together', { headers: Object.fromEntries(Array.from({ length: 32 }, (_, i) => [`h${i}`, repeat(4000)])) }, 'movie too large'],
  ];

  it.each(cases)('refuses an oversized %s with 400 naming it, on push and on edit', async (_label, extra, text) => {
    const { owner, roomId } = await ownerAndRoom();
    const push = await post(server, '/api/room/movie/push', movie(extra), { token: owner.token, roomId });
    expect([push.status, push.body.error]).toEqual([400, text]);
    const stored = await post(server, '/api/room/movie/push', movie(), { token: owner.token, roomId });
    const edit = await post(server, '/api/room/movie/edit', { id: stored.body.data.id, ...movie(extra) }, { token: owner.token, roomId });
    expect([edit.status, edit.body.error]).toEqual([400, text]);
    const list = await get(server, '/api/room/movie/movies', { token: owner.token, roomId });
    expect(list.body.data.total).toBe(1);
  });

  it('still takes a movie with every field at its bound', async () => {
    const { owner, roomId } = await ownerAndRoom();
    const full = movie({
      danmu: `https://d.test/${repeat(8000)}`,
      headers: Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`h${i}`, repeat(4096)])),
      subtitles: { en: { url: `https://s.test/${repeat(8000)}`, type: repeat(32) } },
    });
    const push = await post(server, '/api/room/movie/push', full, { token: owner.token, roomId });
    expect(push.status).toBe(200);
  });
});

describe('movie counts', () => {
  it('refuses a bulk push of more than 500 movies and stores none', async () => {
    const { owner, roomId } = await ownerAndRoom();
    const many = await post(server, '/api/room/movie/pushs', Array.from({ length: 501 }, (_, i) => movie({ name: `m${i}` })), { token: owner.token, roomId });
    expect([many.status, many.body.error]).toEqual([400, 'too many movies']);
    const list = await get(server, '/api/room/movie/movies', { token: owner.token, roomId });
    expect(list.body.data.total).toBe(0);
    const allowed = await post(server, '/api/room/movie/pushs', Array.from({ length: 500 }, (_, i) => movie({ name: `m${i}` })), { token: owner.token, roomId });
    expect(allowed.status).toBe(200);
  });

  it('keeps a room within room_max_movie_count (folders count), set by the site admin', async () => {
    const root = await post(server, '/api/user/login', { username: 'root', password: TEST_ROOT_PASSWORD });
    const rootToken = root.body.data.token as string;
    expect((await post(server, '/api/admin/settings', { room_max_movie_count: 3 }, { token: rootToken })).status).toBe(204);
    try {
      const { owner, roomId } = await ownerAndRoom();
      expect((await post(server, '/api/room/movie/push', { name: 'folder', isFolder: true }, { token: owner.token, roomId })).status).toBe(200);
      expect((await post(server, '/api/room/movie/pushs', [movie(), movie()], { token: owner.token, roomId })).status).toBe(200);
      const fourth = await post(server, '/api/room/movie/push', movie(), { token: owner.token, roomId });
      expect([fourth.status, fourth.body.error]).toEqual([400, 'too many movies in the room']);
      const settings = await get(server, '/api/admin/settings/room', { token: rootToken });
      expect(settings.body.data.room.room_max_movie_count).toBe(3);
    } finally {
      await post(server, '/api/admin/settings', { room_max_movie_count: 1000 }, { token: rootToken });
    }
  });

  it('refuses deleting more than 1000 ids at once', async () => {
    const { owner, roomId } = await ownerAndRoom();
    const ids = Array.from({ length: 1001 }, (_, i) => i.toString(16).padStart(32, '0'));
    const response = await post(server, '/api/room/movie/delete', { ids }, { token: owner.token, roomId });
    expect([response.status, response.body.error]).toEqual([400, 'too many ids']);
  });
});

describe('rate limits', () => {
  /** Calls until the first 429 (at most `limit + 5` calls); returns how many passed and the 429. */
  async function until429(send: (attempt: number) => ReturnType<typeof call>, limit: number) {
    for (let attempt = 0; attempt < limit + 5; attempt++) {
      const response = await send(attempt);
      if (response.status === 429) return { passed: attempt, response };
    }
    throw new Error(`no 429 after ${limit + 5} calls`);
  }

  function expectRefusal(response: Awaited<ReturnType<typeof call>>, maxRetryAfterSec: number) {
    expect(response.body.error).toBe('too many requests');
    const retryAfter = Number(response.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(maxRetryAfterSec);
  }

  it('stops guessing one account’s password after 10 tries a minute, whoever asks', async () => {
    const user = await signUpUser(limited, 'guessed');
    const { passed, response } = await until429(
      (attempt) => post(limited, '/api/user/login', { username: user.username, password: `wrong-${attempt}` }),
      10,
    );
    expect(passed).toBe(10);
    expectRefusal(response, 60);
    // The right password is refused too until the window ends: the account, not the guess, is limited.
    expect((await post(limited, '/api/user/login', { username: user.username, password: user.password })).status).toBe(429);
    // Another account from the same address still signs in.
    expect((await post(limited, '/api/user/login', { username: 'root', password: TEST_ROOT_PASSWORD })).status).toBe(200);
  });

  it('limits sign-ins from one address to 20 a minute across accounts', async () => {
    // The address already spent some sign-ins above; what is left runs out at 20 in all.
    const { response } = await until429((attempt) => post(limited, '/api/user/login', { username: `nobody${attempt}`, password: 'x' }), 20);
    expectRefusal(response, 60);
  });

  it('limits sign-ups from one address to 10 in 10 minutes', async () => {
    // signUpUser above made 1 sign-up from this address.
    const { passed, response } = await until429((attempt) => post(limited, '/api/user/signup', { username: `flood${attempt}`, password: 'flood-password' }), 10);
    expect(passed).toBe(9);
    expectRefusal(response, 600);
  });

  it('limits the captcha images to 30 a minute per address', async () => {
    const { passed, response } = await until429(() => get(limited, '/api/user/signup/email/captcha'), 30);
    expect(passed).toBe(30);
    expectRefusal(response, 60);
  });

  it('limits mails to 5 a minute per address', async () => {
    const { passed, response } = await until429(
      (attempt) => post(limited, '/api/user/retrieve/email/captcha', { email: `a${attempt}@example.com`, captchaID: 'x', answer: 'y' }),
      5,
    );
    expect(passed).toBe(5);
    expectRefusal(response, 60);
  });
});

describe('room sign-in limits', () => {
  it('limits room password attempts to 30 a minute per address and 60 per room (X-Forwarded-For trusted)', async () => {
    const roomServer = await launch({ rateLimitScale: 1, trustProxy: '127.0.0.1' });
    try {
      const owner = await signUpUser(roomServer, 'rowner');
      const guesser = await signUpUser(roomServer, 'rguess');
      const { roomId } = await createRoom(roomServer, owner, { password: 'secret' });
      const attempt = (ip: string, n: number) =>
        post(roomServer, '/api/room/login', { roomId, password: `guess${n}` }, { token: guesser.token, headers: { 'X-Forwarded-For': ip } });
      const fromOne = [];
      for (let n = 0; n < 31; n++) fromOne.push((await attempt('203.0.113.1', n)).status);
      expect(fromOne).toEqual([...Array(30).fill(403), 429]);
      // From other addresses the room takes 30 more (60 in all), then refuses everyone.
      const fromMany = [];
      for (let n = 0; n < 31; n++) fromMany.push((await attempt(`198.51.100.${n + 1}`, n)).status);
      expect(fromMany).toEqual([...Array(30).fill(403), 429]);
      const right = await post(roomServer, '/api/room/login', { roomId, password: 'secret' }, { token: guesser.token, headers: { 'X-Forwarded-For': '192.0.2.9' } });
      expect([right.status, right.body.error]).toEqual([429, 'too many requests']);
      // Another room is not affected.
      const other = await createRoom(roomServer, owner, { password: 'other' });
      const elsewhere = await post(roomServer, '/api/room/login', { roomId: other.roomId, password: 'other' }, { token: guesser.token, headers: { 'X-Forwarded-For': '192.0.2.9' } });
      expect(elsewhere.status).toBe(200);
    } finally {
      await roomServer.stop();
    }
  });
});

describe('X-Forwarded-For', () => {
  it('is believed only from the proxies named in TRUST_PROXY: a client that reaches the port directly is limited under its own address whatever it claims', async () => {
    // The proxy is 127.0.0.2; this test's requests come from 127.0.0.1, as a client beside the proxy would.
    const direct = await launch({ rateLimitScale: 1, trustProxy: '127.0.0.2' });
    try {
      const statuses: number[] = [];
      for (let n = 0; n < 21; n++) {
        const response = await post(direct, '/api/user/login', { username: `spoof${n}`, password: 'x' }, { headers: { 'X-Forwarded-For': `203.0.113.${n + 1}` } });
        statuses.push(response.status);
      }
      expect(statuses.slice(0, 20).every((status) => status !== 429)).toBe(true);
      expect(statuses[20]).toBe(429);
    } finally {
      await direct.stop();
    }
  });
});

describe('socket limits', () => {
  it('counts the chat of all of one person’s sockets together: more sockets do not mean more lines', async () => {
    const { owner, roomId } = await ownerAndRoom();
    const listener = await TestSocket.open(server, roomId);
    const flooders = await Promise.all(Array.from({ length: 4 }, () => TestSocket.open(server, roomId, owner.token)));
    try {
      await Promise.all([listener, ...flooders].map((socket) => socket.next(MessageType.VIEWER_COUNT)));
      for (const [n, flooder] of flooders.entries()) {
        for (let i = 0; i < 10; i++) flooder.send({ type: MessageType.CHAT, payload: { case: 'chatContent', value: `socket ${n} line ${i}` } });
      }
      await Promise.any(flooders.map((flooder) => flooder.next(MessageType.ERROR, (message) => message.payload.value === 'too many messages')));
      await new Promise((resolve) => setTimeout(resolve, 300));
      const delivered = listener.received.filter((message) => message.type === MessageType.CHAT).length;
      expect(delivered).toBeGreaterThanOrEqual(SOCKET_LIMITS.chat.capacity);
      expect(delivered).toBeLessThan(SOCKET_LIMITS.chat.capacity + 3);
      // Closing them all and opening new ones does not hand out a fresh burst.
      for (const flooder of flooders) flooder.close();
      const fresh = await TestSocket.open(server, roomId, owner.token);
      flooders.push(fresh);
      await fresh.next(MessageType.VIEWER_COUNT);
      for (let i = 0; i < 10; i++) fresh.send({ type: MessageType.CHAT, payload: { case: 'chatContent', value: `fresh ${i}` } });
      await fresh.next(MessageType.ERROR);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(listener.received.filter((message) => message.type === MessageType.CHAT).length - delivered).toBeLessThan(6);
    } finally {
      for (const socket of [listener, ...flooders]) socket.close();
    }
  });

  it('lets one person hold MAX_SOCKETS_PER_USER sockets and one address MAX_SOCKETS_PER_ADDRESS, tells the next one why, and frees a place when one closes', async () => {
    const capped = await launch({ rateLimitScale: 1, trustProxy: '127.0.0.1', socketCaps: { perUser: 3, perAddress: 5 } });
    const sockets: TestSocket[] = [];
    const from = (address: string) => ({ 'X-Forwarded-For': address });
    const openAs = async (roomId: string, token: string | undefined, address: string) => {
      const socket = await TestSocket.open(capped, roomId, token, 'subprotocol', from(address));
      sockets.push(socket);
      return socket;
    };
    try {
      const owner = await signUpUser(capped, 'capped');
      const other = await signUpUser(capped, 'capped');
      const { roomId } = await createRoom(capped, owner);
      await post(capped, '/api/room/login', { roomId, password: '' }, { token: other.token, headers: from('198.51.100.9') });
      const first = await Promise.all([1, 2, 3].map((n) => openAs(roomId, owner.token, `198.51.100.${n}`)));
      await Promise.all(first.map((socket) => socket.next(MessageType.VIEWER_COUNT)));
      // The owner's fourth socket, from yet another address: told why, then closed.
      const fourth = await openAs(roomId, owner.token, '198.51.100.4');
      expect((await fourth.next(MessageType.ERROR)).payload).toEqual({ case: 'errorMessage', value: 'too many connections' });
      expect(await within(3000, fourth.closed)).toEqual({ code: 1008, reason: 'too many connections' });
      expect(fourth.received.some((message) => message.type === MessageType.VIEWER_COUNT)).toBe(false);
      // Someone else is not affected; and once one of the owner's sockets closes, the owner may open one again.
      await (await openAs(roomId, other.token, '198.51.100.9')).next(MessageType.VIEWER_COUNT);
      first[0].close();
      await first[0].closed;
      await within(3000, (async () => {
        for (;;) {
          const again = await openAs(roomId, owner.token, '198.51.100.4');
          const first = await Promise.race([again.next(MessageType.VIEWER_COUNT).then(() => 'open'), again.closed.then(() => 'closed')]);
          if (first === 'open') return;
        }
      })());

      // Guests are counted per address (they share one user id): five from 203.0.113.7, not a sixth; another address still may.
      const guests = await Promise.all([1, 2, 3, 4, 5].map(() => openAs(roomId, undefined, '203.0.113.7')));
      await Promise.all(guests.map((socket) => socket.next(MessageType.VIEWER_COUNT)));
      const sixth = await openAs(roomId, undefined, '203.0.113.7');
      expect(await within(3000, sixth.closed)).toEqual({ code: 1008, reason: 'too many connections' });
      await (await openAs(roomId, undefined, '203.0.113.8')).next(MessageType.VIEWER_COUNT);
    } finally {
      for (const socket of sockets) socket.close();
      await capped.stop();
    }
  });

  it('drops a chat flood with one ERROR a second, keeps the socket open and lets the others chat', async () => {
    const { owner, roomId } = await ownerAndRoom();
    const flooder = await TestSocket.open(server, roomId, owner.token);
    const listener = await TestSocket.open(server, roomId);
    try {
      await flooder.next(MessageType.VIEWER_COUNT);
      for (let i = 0; i < 40; i++) flooder.send({ type: MessageType.CHAT, payload: { case: 'chatContent', value: `line ${i}` } });
      const error = await flooder.next(MessageType.ERROR);
      expect(error.payload).toEqual({ case: 'errorMessage', value: 'too many messages' });
      await new Promise((resolve) => setTimeout(resolve, 300));
      const delivered = listener.received.filter((message) => message.type === MessageType.CHAT).length;
      expect(delivered).toBeGreaterThanOrEqual(SOCKET_LIMITS.chat.capacity);
      expect(delivered).toBeLessThan(SOCKET_LIMITS.chat.capacity + 3);
      expect(flooder.received.filter((message) => message.type === MessageType.ERROR)).toHaveLength(0);
      // After a pause the flooder may chat again on the same socket.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      flooder.send({ type: MessageType.CHAT, payload: { case: 'chatContent', value: 'calm now' } });
      const calm = await listener.next(MessageType.CHAT, (message) => message.payload.case === 'chatContent' && message.payload.value === 'calm now');
      expect(calm.sender?.username).toBe(owner.username);
      expect(flooder.ws.readyState).toBe(flooder.ws.OPEN);
    } finally {
      flooder.close();
      listener.close();
    }
  });

  it('drops a STATUS flood beyond 30 at once with ERROR', async () => {
    const { owner, roomId } = await ownerAndRoom();
    await post(server, '/api/room/movie/push', movie(), { token: owner.token, roomId });
    const socket = await TestSocket.open(server, roomId, owner.token);
    try {
      for (let i = 0; i < 60; i++) {
        socket.send({ type: MessageType.STATUS, timestamp: BigInt(Date.now()), payload: { case: 'playbackStatus', value: { isPlaying: false, currentTime: i, playbackRate: 1 } } });
      }
      const error = await socket.next(MessageType.ERROR);
      expect(error.payload).toEqual({ case: 'errorMessage', value: 'too many messages' });
      expect(socket.ws.readyState).toBe(socket.ws.OPEN);
    } finally {
      socket.close();
    }
  });

  it('closes a socket that keeps flooding after its ERROR (1008 too many messages), and only that one', async () => {
    const { owner, roomId } = await ownerAndRoom();
    const member = await signUpUser(server, 'limits');
    await post(server, '/api/room/login', { roomId, password: '' }, { token: member.token });
    const flooder = await TestSocket.open(server, roomId, owner.token);
    const ownerTab = await TestSocket.open(server, roomId, owner.token);
    const other = await TestSocket.open(server, roomId, member.token);
    try {
      for (let i = 0; i < SOCKET_LIMITS.any.capacity + SOCKET_LIMITS.closeAfterRefused + 50; i++) flooder.send({ type: MessageType.SYNC });
      expect(await within(5000, flooder.closed)).toEqual({ code: 1008, reason: 'too many messages' });
      other.send({ type: MessageType.CHAT, payload: { case: 'chatContent', value: 'still fine' } });
      expect((await other.next(MessageType.CHAT)).payload.value).toBe('still fine');
      // The flooder's other tab shares its budget but stays open; a new socket of the flooder is refused for a while.
      expect(ownerTab.ws.readyState).toBe(ownerTab.ws.OPEN);
      const again = await TestSocket.open(server, roomId, owner.token);
      expect(await within(3000, again.closed)).toEqual({ code: 1008, reason: 'too many connections' });
    } finally {
      flooder.close();
      ownerTab.close();
      other.close();
    }
  });

  it('closes a socket that sends a frame over 64 KiB (1009), and only that one', async () => {
    const { owner, roomId } = await ownerAndRoom();
    const big = await TestSocket.open(server, roomId, owner.token);
    const other = await TestSocket.open(server, roomId, owner.token);
    try {
      big.ws.send(Buffer.alloc(65 * 1024));
      expect((await big.closed).code).toBe(1009);
      expect(other.ws.readyState).toBe(other.ws.OPEN);
    } finally {
      other.close();
    }
  });
});

describe('slow readers', () => {
  /** A raw connection to the server that records what it receives and when it is closed. */
  function rawConnection(target: TestServer) {
    const socket = net.connect(target.port, '127.0.0.1');
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    socket.on('error', () => undefined);
    const request = `GET /api/public/settings HTTP/1.1\r\nHost: 127.0.0.1:${target.port}\r\n\r\n`;
    return { socket, closed, request, received: () => received, answers: () => received.split('HTTP/1.1 200').length - 1 };
  }

  it('cuts a connection whose client sends requests without waiting for (or reading) the answers', async () => {
    const client = rawConnection(server);
    client.socket.write(client.request.repeat(20));
    await within(5000, client.closed).finally(() => client.socket.destroy());
    expect(client.answers()).toBeLessThanOrEqual(1);
    expect((await get(server, '/api/public/settings')).status).toBe(200);
  });

  it('keeps a connection that reads each answer before asking again (keep-alive)', async () => {
    const client = rawConnection(server);
    for (let n = 1; n <= 5; n++) {
      client.socket.write(client.request);
      const deadline = Date.now() + 3000;
      while (client.answers() < n && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(client.answers()).toBe(n);
    }
    expect(client.socket.destroyed).toBe(false);
    client.socket.destroy();
  });
});
