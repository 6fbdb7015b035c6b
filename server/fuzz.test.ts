/** @jest-environment node */
/**
 * A short, seeded fuzz of the companion server: a few thousand JSON bodies (valid JSON of
 * any shape, objects with the contract's keys holding the wrong kinds of values, and text that is not
 * JSON) against every POST route, with and without a session and a room; then random protobuf and raw
 * frames on room sockets. Nothing may answer 5xx, the process stays up, the stored playback status
 * stays valid, and a well-behaved socket keeps working.
 *
 * The seed is fixed so that a failure can be replayed; FUZZ_SEED and FUZZ_RUNS override it.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import WebSocket from 'ws';
import { encodeMessage, MessageType } from '@/lib/contract/message';
import { MAX_PLAYBACK_RATE, MIN_PLAYBACK_RATE } from '@/lib/contract/validation';
import { sendWithRange } from '../e2e/support/range-source';
import { call, createRoom, get, launch, post, signUpUser, TEST_ROOT_PASSWORD, TestSocket, type TestServer, type TestUser } from './test-support/harness';

jest.setTimeout(240_000);

const SEED = Number(process.env.FUZZ_SEED ?? 20261124);
const RUNS = Number(process.env.FUZZ_RUNS ?? 3000);
const FRAME_RUNS = Math.round(RUNS * 0.7);

/**
 * Every POST route except those that would end the fuzz's own identities (delete the account, change
 * its password, delete the room) or reach the network (the e-mail test).
 */
const POST_ROUTES = [
  '/api/user/signup',
  '/api/user/login',
  '/api/user/username',
  '/api/user/signup/email/captcha',
  '/api/user/signup/email',
  '/api/user/retrieve/email/captcha',
  '/api/user/retrieve/email',
  '/api/user/bind/email/captcha',
  '/api/user/bind/email',
  '/api/user/unbind/email',
  '/api/user/room/exit',
  '/api/room/create',
  '/api/room/login',
  '/api/room/pwd/check',
  '/api/room/movie/push',
  '/api/room/movie/pushs',
  '/api/room/movie/edit',
  '/api/room/movie/delete',
  '/api/room/movie/clear',
  '/api/room/movie/swap',
  '/api/room/movie/current',
  '/api/room/admin/settings',
  '/api/room/admin/members/approve',
  '/api/room/admin/members/ban',
  '/api/room/admin/members/unban',
  '/api/room/admin/members/delete',
  '/api/room/admin/members/admin',
  '/api/room/admin/members/member',
  '/api/room/admin/members/admin/permissions',
  '/api/room/admin/members/member/permissions',
  '/api/admin/settings',
  '/api/admin/user/add',
  '/api/admin/user/approve',
  '/api/admin/user/ban',
  '/api/admin/user/unban',
  '/api/admin/user/username',
  '/api/admin/room/approve',
  '/api/admin/room/ban',
  '/api/admin/room/unban',
  '/api/admin/room/password',
  '/api/admin/admin/add',
  '/oauth2/login/github',
  '/oauth2/login/nowhere',
  '/oauth2/bind/github',
  '/oauth2/unbind/github',
  '/oauth2/callback/github',
];

/** Keys that the contract's bodies use, plus prototype names. */
const KEYS = [
  'id', 'ids', 'username', 'password', 'email', 'captcha', 'captchaID', 'captchaId', 'roomName', 'roomId', 'name', 'url',
  'type', 'live', 'proxy', 'rtmpSource', 'headers', 'subtitles', 'moreSources', 'danmu', 'streamDanmu', 'settings',
  'permissions', 'userId', 'page', 'max', 'code', 'state', 'redirect', 'hidden', 'isFolder', 'parentId', 'id1', 'id2',
  'user_max_room_count', 'signup_need_review', '__proto__', 'constructor',
];

const awkwardString = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.constantFrom('', ' ', '\u0000', '../../etc/passwd', 'javascript:alert(1)', '<script>alert(1)</script>', 'NaN', '-1', '1e309'),
  fc.nat({ max: 20_000 }).map((length) => 'x'.repeat(length)),
);
const value: fc.Arbitrary<unknown> = fc.oneof(
  { depthSize: 'small' },
  awkwardString,
  fc.jsonValue({ maxDepth: 3 }),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(0, -1, 2 ** 53, 1e308, true, false, null),
  fc.array(awkwardString, { maxLength: 5 }),
);
const shapedObject = fc.dictionary(fc.constantFrom(...KEYS), value, { maxKeys: 8 });

/** A body: JSON of any shape, an object with contract keys, or text that may not be JSON at all. */
const body = fc.oneof(
  fc.jsonValue({ maxDepth: 4 }).map((json) => ({ raw: JSON.stringify(json), contentType: 'application/json' })),
  shapedObject.map((object) => ({ raw: JSON.stringify(object), contentType: 'application/json' })),
  fc.array(shapedObject, { maxLength: 4 }).map((list) => ({ raw: JSON.stringify(list), contentType: 'application/json' })),
  fc.tuple(fc.string(), fc.constantFrom('application/json', 'text/plain', 'application/x-www-form-urlencoded', 'application/octet-stream', ''))
    .map(([raw, contentType]) => ({ raw, contentType })),
);

let server: TestServer;
let owner: TestUser;
let member: TestUser;
/**
 * Members with every permission who send the random frames in turn: a person's sockets share one
 * message budget (server/hub/fair-use.ts), and eight people's budgets together read every frame.
 */
let fuzzers: TestUser[];
const FUZZERS = 8;
let rootToken: string;
let roomId: string;

beforeAll(async () => {
  server = await launch({ proxyAllowAddresses: ['127.0.0.2'] });
  [owner, member] = await Promise.all([signUpUser(server, 'fuzzowner'), signUpUser(server, 'fuzzmember')]);
  rootToken = (await post(server, '/api/user/login', { username: 'root', password: TEST_ROOT_PASSWORD })).body.data.token;
  ({ roomId } = await createRoom(server, owner));
  await post(server, '/api/room/login', { roomId, password: '' }, { token: member.token });
  fuzzers = await Promise.all(Array.from({ length: FUZZERS }, () => signUpUser(server, 'fuzzer')));
  for (const fuzzer of fuzzers) {
    await post(server, '/api/room/login', { roomId, password: '' }, { token: fuzzer.token });
    const granted = await post(server, '/api/room/admin/members/member/permissions', { id: fuzzer.id, permissions: 0xffffffff }, { token: owner.token, roomId });
    expect(granted.status).toBe(204);
  }
});

/** Gives the room a current movie (the body fuzz may have cleared the list), so that STATUS has something to change. */
async function playSomething(): Promise<void> {
  const pushed = await post(server, '/api/room/movie/push', { url: 'https://media.test/a.mp4', name: 'a' }, { token: owner.token, roomId });
  expect((await post(server, '/api/room/movie/current', { id: pushed.body.data.id }, { token: owner.token, roomId })).status).toBe(204);
}

afterAll(async () => {
  await server?.stop();
});

it(`answers ${RUNS} random bodies on ${POST_ROUTES.length} POST routes without a 5xx`, async () => {
  const tokens = () => [undefined, 'not-a-token', owner.token, member.token, rootToken];
  const rooms = () => [undefined, roomId, 'no-such-room', '../x'];
  const serverErrors: string[] = [];
  const statuses = new Map<number, number>();
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom(...POST_ROUTES),
      fc.nat({ max: 4 }),
      fc.nat({ max: 3 }),
      body,
      async (route, tokenIndex, roomIndex, { raw, contentType }) => {
        const response = await call(server, 'POST', route, {
          token: tokens()[tokenIndex],
          roomId: rooms()[roomIndex],
          rawBody: raw,
          contentType: contentType || undefined,
        });
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        if (response.status >= 500) serverErrors.push(`${route} ${response.status} ${response.text.slice(0, 200)} <- ${raw.slice(0, 200)}`);
        return response.status < 500;
      },
    ),
    { seed: SEED, numRuns: RUNS },
  );
  expect(serverErrors).toEqual([]);
  // The inputs got past the guards into the handlers: some were accepted, most refused as bad input.
  expect([...statuses.keys()].filter((status) => status < 300).length).toBeGreaterThan(0);
  expect(statuses.get(400) ?? 0).toBeGreaterThan(RUNS / 4);
  expect(server.alive()).toBe(true);
  expect((await get(server, '/api/public/settings')).status).toBe(200);
});

it('answers random tokens in the media routes\' paths and random Range headers without a 5xx', async () => {
  const source = http.createServer((request, response) => sendWithRange(request, response, Buffer.alloc(5000, 7)));
  await new Promise<void>((resolve) => source.listen(0, '127.0.0.2', resolve));
  try {
    const sourceUrl = `http://127.0.0.2:${(source.address() as AddressInfo).port}/film.mp4`;
    const pushed = await post(server, '/api/room/movie/push', { url: sourceUrl, name: 'proxied', proxy: true }, { token: owner.token, roomId });
    const movie = pushed.body.data.id as string;
    const piece = fc.oneof(awkwardString, fc.string({ unit: fc.constantFrom(...'abcXYZ019-_.~%'), minLength: 1, maxLength: 300 }), fc.constantFrom('eyJhbGciOiJIUzI1NiJ9.e30.x', 'a.b', '..', '%2e%2e', 'x.ts', 'x.m3u8'));
    const range = fc.oneof(
      fc.constant(undefined),
      fc.tuple(fc.bigInt({ min: 0n, max: 10n ** 40n }), fc.option(fc.bigInt({ min: 0n, max: 10n ** 40n }))).map(([start, end]) => `bytes=${start}-${end ?? ''}`),
      fc.string().map((text) => `bytes=${text}`),
      awkwardString,
    );
    const paths = (token: string) => [
      `/api/room/movie/proxy/${movie}`,
      `/api/room/movie/proxy/${movie}/m3u8/${token}`,
      `/api/room/movie/proxy/${movie}/dash/${token}/${token}`,
      `/api/room/movie/proxy/${movie}/input/${token}`,
      `/api/room/movie/live/hls/data/${roomId}/${movie}/${token}`,
      `/api/room/movie/live/hls/list/${token}`,
      `/api/room/movie/convert/${movie}/${token}`,
      `/api/room/movie/convert/${movie}/subtitle/${token}`,
    ];
    const serverErrors: string[] = [];
    await fc.assert(
      fc.asyncProperty(fc.nat({ max: 7 }), piece, range, fc.boolean(), async (which, token, rangeHeader, signedIn) => {
        const headers: Record<string, string> = { 'x-synctv-input': token.slice(0, 100).replace(/[^\x21-\x7e]/g, '') };
        if (rangeHeader !== undefined) headers.Range = rangeHeader.replace(/[^\x20-\x7e]/g, '');
        const path = `${paths(encodeURIComponent(token))[which]}?roomId=${roomId}${signedIn ? `&token=${member.token}` : ''}`;
        const response = await call(server, 'GET', path, { headers });
        if (response.status >= 500) serverErrors.push(`${path.slice(0, 200)} ${rangeHeader ?? ''} ${response.status} ${response.text.slice(0, 200)}`);
        return response.status < 500;
      }),
      { seed: SEED, numRuns: Math.round(RUNS / 5) },
    );
    expect(serverErrors).toEqual([]);
    expect(server.alive()).toBe(true);
  } finally {
    source.closeAllConnections();
    await new Promise((resolve) => source.close(resolve));
  }
});

/** A frame: a random protobuf Message (any type, any payload, impossible numbers), random bytes or text. */
const frame = fc.oneof(
  fc
    .record({
      type: fc.integer({ min: 0, max: 20 }),
      timestamp: fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
      payload: fc.oneof(
        fc.record({ case: fc.constant('chatContent' as const), value: fc.oneof(fc.string(), fc.nat({ max: 10_000 }).map((n) => 'c'.repeat(n))) }),
        fc.record({ case: fc.constant('errorMessage' as const), value: fc.string() }),
        fc.record({
          case: fc.constant('playbackStatus' as const),
          value: fc.record({ isPlaying: fc.boolean(), currentTime: fc.double(), playbackRate: fc.double() }),
        }),
        fc.record({ case: fc.constant('expirationId' as const), value: fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }) }),
        fc.record({ case: fc.constant('viewerCount' as const), value: fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }) }),
        fc.record({ case: fc.constant('webrtcData' as const), value: fc.record({ data: fc.string(), to: fc.string(), from: fc.string() }) }),
        fc.constant({ case: undefined }),
      ),
    })
    .map((init) => ({ binary: true, bytes: encodeMessage(init as Parameters<typeof encodeMessage>[0]) })),
  fc.uint8Array({ maxLength: 300 }).map((bytes) => ({ binary: true, bytes })),
  fc.string().map((text) => ({ binary: false, bytes: new TextEncoder().encode(text) })),
);

/** Resolves when the server has answered a ping sent after everything before it (or the socket closed). */
function settled(socket: TestSocket): Promise<void> {
  return new Promise((resolve) => {
    if (socket.ws.readyState !== WebSocket.OPEN) return resolve();
    const done = () => {
      clearTimeout(timer);
      socket.ws.off('pong', done);
      socket.ws.off('close', done);
      resolve();
    };
    const timer = setTimeout(done, 2000);
    socket.ws.once('pong', done);
    socket.ws.once('close', done);
    socket.ws.ping();
  });
}

it(`survives ${FRAME_RUNS} random frames on room sockets: other sockets keep working and the stored status stays valid`, async () => {
  await playSomething();
  const watcher = await TestSocket.open(server, roomId, member.token);
  let turn = 0;
  let socket = await TestSocket.open(server, roomId, fuzzers[turn].token);
  let sentOnSocket = 0;
  await fc.assert(
    fc.asyncProperty(frame, async ({ binary, bytes }) => {
      // 60 frames from each fuzzer in turn: well under a person's budget (server/hub/token-bucket.ts), so every frame is read.
      if (!socket.isOpen() || sentOnSocket >= 60) {
        socket.close();
        turn = (turn + 1) % FUZZERS;
        socket = await TestSocket.open(server, roomId, fuzzers[turn].token);
        sentOnSocket = 0;
      }
      sentOnSocket++;
      socket.ws.send(binary ? bytes : new TextDecoder().decode(bytes), { binary });
      await settled(socket);
      return server.alive();
    }),
    { seed: SEED, numRuns: FRAME_RUNS },
  );
  socket.close();

  expect(server.alive()).toBe(true);
  expect(watcher.isOpen()).toBe(true);
  const speaker = await TestSocket.open(server, roomId, owner.token);
  speaker.send({ type: MessageType.CHAT, payload: { case: 'chatContent', value: 'after the fuzz' } });
  expect((await watcher.next(MessageType.CHAT, (message) => message.payload.value === 'after the fuzz')).payload.value).toBe('after the fuzz');
  const current = await get(server, '/api/room/movie/current', { token: owner.token, roomId });
  expect(current.body.data.movie.base.url).toBe('https://media.test/a.mp4');
  const { currentTime, playbackRate } = current.body.data.status;
  expect(Number.isFinite(currentTime) && currentTime >= 0).toBe(true);
  expect(playbackRate).toBeGreaterThanOrEqual(MIN_PLAYBACK_RATE);
  expect(playbackRate).toBeLessThanOrEqual(MAX_PLAYBACK_RATE);
  speaker.close();
  watcher.close();
});
