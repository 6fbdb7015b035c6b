/** @jest-environment node */
/**
 * More than one instance (docs/deployment.md "Running more than one instance"): two companion
 * servers on one data directory and one real Redis (Debian's redis-server, started here). Accounts,
 * rooms and chat history are the database's; every room broadcast, kick and close crosses instances
 * through Redis, in one order, and viewer counts, online counts, the hot list and WebRTC targets
 * cover both instances.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { MessageType, type Message } from '@/lib/contract/message';
import { createRoom, get, launch, post, signUpUser, tempDir, TestSocket, type TestServer, type TestUser } from './test-support/harness';
import { codeIn, startMailSink, type MailSink } from './test-support/mail-sink';
import { startRedis, type TestRedis } from './test-support/redis';
import { makeConversionMedia } from '../e2e/support/conversion-media';
import { startPlainHost } from '../e2e/support/plain-host';

jest.setTimeout(60_000);

const TICK_MS = 200;
/** Where the films to convert are served from (outside loopback's 127.0.0.1, allowed to the proxy). */
const SOURCE_HOST = '127.0.0.2';
const CAPTCHA_ANSWER = '24680';

let redis: TestRedis;
let sink: MailSink;
let dataDir: string;
let a: TestServer;
let b: TestServer;
const sockets: TestSocket[] = [];

async function open(server: TestServer, roomId: string, user: TestUser): Promise<TestSocket> {
  const socket = await TestSocket.open(server, roomId, user.token);
  sockets.push(socket);
  await socket.next(MessageType.VIEWER_COUNT);
  return socket;
}

/** Waits until `read` returns `expected` (polled every 50 ms), or fails with the last value after `timeoutMs`. */
async function until<T>(read: () => Promise<T> | T, expected: T, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last: T = await read();
  while (JSON.stringify(last) !== JSON.stringify(expected)) {
    if (Date.now() > deadline) throw new Error(`expected ${JSON.stringify(expected)}, still ${JSON.stringify(last)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    last = await read();
  }
}

const chatText = (message: Message) => (message.payload.case === 'chatContent' ? message.payload.value : '');
const countOf = (message: Message) => (message.payload.case === 'viewerCount' ? Number(message.payload.value) : -1);

/** A room on `a` with its creator, and a member who joined it through `b`. */
async function sharedRoom() {
  const owner = await signUpUser(a, 'cl-owner');
  const member = await signUpUser(b, 'cl-member');
  const { roomId } = await createRoom(a, owner);
  expect((await post(b, '/api/room/login', { roomId, password: '' }, { token: member.token })).status).toBe(200);
  return { owner, member, roomId };
}

beforeAll(async () => {
  redis = await startRedis();
  sink = await startMailSink();
  dataDir = tempDir('synctv-cluster-');
  const options = { dataDir, redisUrl: redis.url, hubTickMs: TICK_MS, fixedCaptchaAnswer: CAPTCHA_ANSWER, proxyAllowAddresses: [SOURCE_HOST] };
  a = await launch({ ...options, initialSettings: sink.settings() });
  b = await launch(options);
});

afterEach(() => {
  for (const socket of sockets.splice(0)) socket.close();
});

afterAll(async () => {
  await a?.stop();
  await b?.stop();
  await redis?.stop();
  await sink?.close();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

it('signs a user up on one instance and in on the other', async () => {
  const user = await signUpUser(a, 'cl-login');
  const login = await post(b, '/api/user/login', { username: user.username, password: user.password });
  expect(login.status).toBe(200);
  const me = await get(b, '/api/user/me', { token: login.body.data.token });
  expect(me.body.data).toMatchObject({ id: user.id, username: user.username });
  // A token issued by one instance is accepted by the other.
  expect((await get(b, '/api/user/me', { token: user.token })).status).toBe(200);
});

it('checks on one instance the captcha and the mailed code that another issued, once, and counts wrong codes over both', async () => {
  const email = `cluster${process.pid % 1000}@example.com`;
  const captcha = await get(a, '/api/user/signup/email/captcha');
  const sent = await post(b, '/api/user/signup/email/captcha', { email, captchaId: captcha.body.data.captchaId, answer: CAPTCHA_ANSWER });
  expect(sent.status).toBe(204);
  // The captcha is spent everywhere.
  const again = await post(a, '/api/user/signup/email/captcha', { email, captchaId: captcha.body.data.captchaId, answer: CAPTCHA_ANSWER });
  expect([again.status, again.body.error]).toEqual([400, 'captcha verify failed']);

  // Five wrong tries, spread over both instances, spend the code everywhere.
  const spent = codeIn(await sink.next(email));
  for (const server of [a, b, a, b, a]) {
    const wrong = await post(server, '/api/user/signup/email', { email, captcha: 'WRONG9', password: 'cluster-pw' });
    expect([wrong.status, wrong.body.error]).toEqual([400, 'email captcha verify failed']);
  }
  const tooLate = await post(b, '/api/user/signup/email', { email, captcha: spent, password: 'cluster-pw' });
  expect([tooLate.status, tooLate.body.error]).toEqual([400, 'email captcha verify failed']);

  // A new code, drawn on B and used on A, works once.
  const second = await get(b, '/api/user/signup/email/captcha');
  expect((await post(a, '/api/user/signup/email/captcha', { email, captchaId: second.body.data.captchaId, answer: CAPTCHA_ANSWER })).status).toBe(204);
  const code = codeIn(await sink.next(email));
  const signup = await post(a, '/api/user/signup/email', { email, captcha: code, password: 'cluster-pw' });
  expect(signup.status).toBe(200);
  const reused = await post(b, '/api/user/signup/email', { email, captcha: code, password: 'cluster-pw' });
  expect([reused.status, reused.body.error]).toEqual([400, 'email captcha verify failed']);
});

it('counts a rate limit over every instance', async () => {
  const options = { dataDir, redisUrl: redis.url, hubTickMs: TICK_MS, rateLimitScale: 1 };
  const [c, d] = [await launch(options), await launch(options)];
  try {
    // Ten sign-in attempts per account and minute (server/http/limits.ts), five on each instance
    // (an unknown user is 403, as in v0.9.11).
    const attempt = (server: TestServer) => post(server, '/api/user/login', { username: 'cluster-victim', password: 'guess' });
    for (let i = 0; i < 5; i++) expect([(await attempt(c)).status, (await attempt(d)).status]).toEqual([403, 403]);
    const refused = await attempt(c);
    expect([refused.status, refused.body.error]).toEqual([429, 'too many requests']);
  } finally {
    await c.stop();
    await d.stop();
  }
});

it('still counts a rate limit while Redis is down, each instance on its own', async () => {
  const options = { dataDir, redisUrl: redis.url, hubTickMs: TICK_MS, rateLimitScale: 1 };
  const c = await launch(options);
  const port = redis.port;
  try {
    await redis.stop();
    await until(async () => (await get(c, '/readyz')).status, 503);
    // Ten sign-in attempts per account and minute (server/http/limits.ts), counted by the instance itself.
    const attempt = () => post(c, '/api/user/login', { username: 'outage-victim', password: 'guess' });
    for (let i = 0; i < 10; i++) expect((await attempt()).status).toBe(403);
    const refused = await attempt();
    expect([refused.status, refused.body.error]).toEqual([429, 'too many requests']);
  } finally {
    redis = await startRedis(port);
    await c.stop();
    // The shared instances find Redis, and each other, again before the next test.
    await until(async () => [(await get(a, '/readyz')).status, (await get(b, '/readyz')).status], [200, 200], 15_000);
  }
});

it('carries chat and STATUS across instances, in one order on both', async () => {
  const { owner, member, roomId } = await sharedRoom();
  const onA = await open(a, roomId, owner);
  const onB = await open(b, roomId, member);

  for (let i = 0; i < 5; i++) {
    onA.send({ type: MessageType.CHAT, payload: { case: 'chatContent', value: `a${i}` } });
    onB.send({ type: MessageType.CHAT, payload: { case: 'chatContent', value: `b${i}` } });
  }
  const seenOnA: string[] = [];
  const seenOnB: string[] = [];
  for (let i = 0; i < 10; i++) {
    seenOnA.push(chatText(await onA.next(MessageType.CHAT)));
    seenOnB.push(chatText(await onB.next(MessageType.CHAT)));
  }
  expect([...seenOnA].sort()).toEqual(['a0', 'a1', 'a2', 'a3', 'a4', 'b0', 'b1', 'b2', 'b3', 'b4']);
  expect(seenOnB).toEqual(seenOnA);

  // A movie pushed on A and made current on B: both sockets hear MOVIES and CURRENT.
  const movie = await post(a, '/api/room/movie/push', { url: 'https://x/film.mp4', name: 'film' }, { token: owner.token, roomId });
  expect(movie.status).toBe(200);
  expect((await post(b, '/api/room/movie/current', { id: movie.body.data.id }, { token: owner.token, roomId })).status).toBe(204);
  // Waited for by sender: a resync after the previous test's Redis outage (a senderless CURRENT,
  // MOVIES and MY_STATUS, server/hub/registry.ts `troubled`) may still reach these new sockets.
  const byOwner = (message: Message) => message.sender?.userId === owner.id;
  for (const socket of [onA, onB]) {
    await socket.next(MessageType.MOVIES, byOwner);
    await socket.next(MessageType.CURRENT, byOwner);
  }

  // The owner plays on A: B's socket hears it, A's own socket does not get its echo (§6.5).
  onA.send({ type: MessageType.STATUS, payload: { case: 'playbackStatus', value: { isPlaying: true, currentTime: 12, playbackRate: 1 } } });
  const status = await onB.next(MessageType.STATUS);
  expect(status.sender?.userId).toBe(owner.id);
  expect(status.payload.case === 'playbackStatus' && status.payload.value.isPlaying).toBe(true);
  expect(await onA.none(MessageType.STATUS, 300)).toBe(true);
  // One playback truth: the other instance answers with the status A stored.
  const current = await get(b, '/api/room/movie/current', { token: member.token, roomId });
  expect(current.body.data.status).toMatchObject({ isPlaying: true, playbackRate: 1 });
});

it('counts viewers, online members and hot rooms over both instances', async () => {
  const { owner, member, roomId } = await sharedRoom();
  const onA = await open(a, roomId, owner);
  await open(b, roomId, member);
  await onA.next(MessageType.VIEWER_COUNT, (message) => countOf(message) === 2);

  const members = await get(a, '/api/room/members?page=1&max=10', { token: owner.token, roomId });
  const online = Object.fromEntries(members.body.data.list.map((row: { userId: string; onlineCount: number }) => [row.userId, row.onlineCount]));
  expect(online).toEqual({ [owner.id]: 1, [member.id]: 1 });

  // A room watched on B only is hot on A too.
  const lonely = await createRoom(a, owner);
  await open(b, lonely.roomId, owner);
  await until(async () => {
    const hot = await get(a, '/api/room/hot?page=1&max=100');
    return hot.body.data.list.some((room: { roomId: string; viewerCount: number }) => room.roomId === lonely.roomId && room.viewerCount === 1);
  }, true);
});

it('closes a banned member’s socket on the other instance, and tells the member’s sockets of a role change', async () => {
  const { owner, member, roomId } = await sharedRoom();
  const onB = await open(b, roomId, member);
  const admin = await post(a, '/api/room/admin/members/admin', { id: member.id }, { token: owner.token, roomId });
  expect(admin.status).toBe(204);
  // By sender, like the CURRENT above: a late resync's MY_STATUS has none.
  await onB.next(MessageType.MY_STATUS, (message) => message.sender?.userId === owner.id);

  expect((await post(a, '/api/room/admin/members/ban', { id: member.id }, { token: owner.token, roomId })).status).toBe(204);
  expect(await onB.closed).toEqual({ code: 1000, reason: 'removed from room' });
});

it('drops every socket of a deleted room on both instances', async () => {
  const { owner, member, roomId } = await sharedRoom();
  const onA = await open(a, roomId, owner);
  const onB = await open(b, roomId, member);
  expect((await post(b, '/api/room/admin/delete', {}, { token: owner.token, roomId })).status).toBe(204);
  await Promise.all([onA.closed, onB.closed]);
  expect([onA.isOpen(), onB.isOpen()]).toEqual([false, false]);
});

it('passes WebRTC signalling to a connection on the other instance', async () => {
  const { owner, member, roomId } = await sharedRoom();
  const onA = await open(a, roomId, owner);
  const onB = await open(b, roomId, member);
  onA.send({ type: MessageType.WEBRTC_JOIN });
  // A socket's messages are handled in order: once A's SYNC is answered, A has joined, and B's join
  // (broadcast to the joined connections) reaches it.
  onA.send({ type: MessageType.SYNC });
  await onA.next(MessageType.SYNC);
  onB.send({ type: MessageType.WEBRTC_JOIN });
  const joined = await onA.next(MessageType.WEBRTC_JOIN);
  const address = joined.payload.case === 'webrtcData' ? joined.payload.value.from : '';
  expect(address).toMatch(new RegExp(`^${member.id}:`));
  // A learns of B's connections within a debounce (the members list reads the same presence).
  await until(async () => {
    const members = await get(a, '/api/room/members?page=1&max=10', { token: owner.token, roomId });
    return members.body.data.list.find((row: { userId: string }) => row.userId === member.id)?.onlineCount;
  }, 1);
  onA.send({ type: MessageType.WEBRTC_OFFER, payload: { case: 'webrtcData', value: { to: address, data: '{"type":"offer"}' } } });
  const offer = await onB.next(MessageType.WEBRTC_OFFER);
  expect(offer.payload.case === 'webrtcData' && offer.payload.value.from).toMatch(new RegExp(`^${owner.id}:`));
  expect(await onA.none(MessageType.ERROR, 200)).toBe(true);

  onA.send({ type: MessageType.WEBRTC_OFFER, payload: { case: 'webrtcData', value: { to: `${member.id}:not-a-connection`, data: '{}' } } });
  const refusal = await onA.next(MessageType.ERROR);
  expect(refusal.payload.case === 'errorMessage' && refusal.payload.value).toBe('target user id is invalid');
});

it('plays a live push that one instance takes from the other instance too', async () => {
  const owner = await signUpUser(a, 'cl-live');
  const { roomId } = await createRoom(a, owner);
  const pushed = await post(a, '/api/room/movie/push', { name: 'Live', url: '', live: true, rtmpSource: true, type: 'flv' }, { token: owner.token, roomId });
  const movieId = pushed.body.data.id as string;
  const key = await post(a, '/api/room/movie/live/publishKey', { id: movieId }, { token: owner.token, roomId });
  const { host, app, token } = key.body.data as { host: string; app: string; token: string };
  expect(host).toBe(`127.0.0.1:${a.port}`);
  const flvPath = `/api/room/movie/live/flv/${movieId}.flv?${new URLSearchParams({ token: owner.token, roomId })}`;
  const statusOn = async (server: TestServer) => (await fetch(`${server.url}${flvPath}`, { method: 'HEAD' })).status;
  expect([await statusOn(a), await statusOn(b)]).toEqual([404, 404]);

  const clip = path.resolve(__dirname, '..', 'e2e', 'media', 'flv', 'clip.flv');
  const encoder = spawn('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-re', '-stream_loop', '-1', '-i', clip, '-c', 'copy', '-f', 'flv', `rtmp://${host}/${app}/${token}`], { stdio: 'ignore' });
  const exited = new Promise((resolve) => encoder.on('exit', resolve));
  try {
    await until(async () => [await statusOn(a), await statusOn(b)], [200, 200], 15_000);
    // Through B: the stream A takes, from its FLV header on.
    const response = await fetch(`${b.url}${flvPath}`);
    expect([response.status, response.headers.get('content-type')]).toEqual([200, 'video/x-flv']);
    const reader = response.body!.getReader();
    let head = Buffer.alloc(0);
    while (head.length < 32 * 1024) {
      const { value, done } = await reader.read();
      if (done) break;
      head = Buffer.concat([head, Buffer.from(value)]);
    }
    await reader.cancel();
    expect(head.subarray(0, 3).toString()).toBe('FLV');
  } finally {
    encoder.kill('SIGKILL');
    await exited;
  }
  // The push ended: neither instance offers it any more.
  await until(async () => [await statusOn(a), await statusOn(b)], [404, 404], 15_000);
});

it('converts a movie on one instance for the viewers of both, and stops it there when the room moves on', async () => {
  const mediaDir = tempDir('cluster-media-');
  makeConversionMedia(mediaDir);
  const host = await startPlainHost(mediaDir, SOURCE_HOST);
  try {
    const { owner, member, roomId } = await sharedRoom();
    const push = async (base: Record<string, unknown>) => (await post(a, '/api/room/movie/push', base, { token: owner.token, roomId })).body.data.id as string;
    const movieId = await push({ url: `${host.url}/hevc-long.mkv`, name: 'HEVC', convert: true });
    expect((await post(b, '/api/room/movie/current', { id: movieId }, { token: owner.token, roomId })).status).toBe(204);
    /** The conversions each instance holds (their folders under the shared data directory). */
    const conversions = () =>
      [a, b].map((server) => {
        const dir = path.join(dataDir, 'conversions', String(server.pid));
        return fs.existsSync(dir) ? fs.readdirSync(dir, { withFileTypes: true }).filter((entry) => entry.isDirectory()).length : 0;
      });
    const segment = async (server: TestServer, user: TestUser, n: number) => {
      const response = await fetch(`${server.url}/api/room/movie/convert/${movieId}/${n}.ts?${new URLSearchParams({ token: user.token, roomId })}`);
      expect(response.status).toBe(200);
      return Buffer.from(await response.arrayBuffer());
    };
    const playlist = async (server: TestServer, user: TestUser) =>
      (await fetch(`${server.url}/api/room/movie/convert/${movieId}/index.m3u8?${new URLSearchParams({ token: user.token, roomId })}`)).text();
    // The same playlist through either instance (its segments' URLs carry each viewer's token).
    expect((await playlist(a, owner)).replaceAll(owner.token, 'T')).toBe((await playlist(b, member)).replaceAll(member.token, 'T'));
    // Segment 2 through A and through B: the same bytes, from the one conversion.
    expect((await segment(a, owner, 2)).equals(await segment(b, member, 2))).toBe(true);
    expect((await segment(b, owner, 0)).length).toBeGreaterThan(0);
    expect(conversions().sort()).toEqual([0, 1]);
    // The room moves on through the instance that does not convert: the one that does stops.
    const next = await push({ url: `${host.url}/h264-aac.mp4`, name: 'Plain' });
    const other = conversions()[0] === 1 ? b : a;
    expect((await post(other, '/api/room/movie/current', { id: next }, { token: owner.token, roomId })).status).toBe(204);
    await until(conversions, [0, 0]);
  } finally {
    await host.close();
  }
});

it('loses nothing when an instance is killed or stopped: the others count its viewers out and keep the chat', async () => {
  const { owner, member, roomId } = await sharedRoom();
  const c = await launch({ dataDir, redisUrl: redis.url, hubTickMs: TICK_MS });
  const d = await launch({ dataDir, redisUrl: redis.url, hubTickMs: TICK_MS });
  try {
    const onB = await open(b, roomId, member);
    const onC = await open(c, roomId, owner);
    await onB.next(MessageType.VIEWER_COUNT, (message) => countOf(message) === 2);
    onC.send({ type: MessageType.CHAT, payload: { case: 'chatContent', value: 'before the crash' } });
    expect(chatText(await onB.next(MessageType.CHAT))).toBe('before the crash');

    // A crash (SIGKILL): nobody says goodbye; B stops counting C's viewer after three ticks without a word.
    await c.kill();
    await onB.next(MessageType.VIEWER_COUNT, (message) => countOf(message) === 1, 5 * TICK_MS + 1000);

    // The viewer reconnects to D and finds the chat; B hears D's viewer.
    const onD = await TestSocket.open(d, roomId, owner.token);
    sockets.push(onD);
    expect(chatText(await onD.next(MessageType.CHAT))).toBe('before the crash');
    await onB.next(MessageType.VIEWER_COUNT, (message) => countOf(message) === 2);

    // A graceful stop: D's sockets get 1012 and B counts them out at once (no waiting for ticks).
    const stopped = d.stop();
    expect(await onD.closed).toEqual({ code: 1012, reason: 'server restarting' });
    await stopped;
    await onB.next(MessageType.VIEWER_COUNT, (message) => countOf(message) === 1, 2 * TICK_MS + 500);
  } finally {
    await c.stop();
    await d.stop();
  }
});

it('enforces a ban made while Redis is down on the other instance from the database, and has every client resync once it is back', async () => {
  const { owner, member, roomId } = await sharedRoom();
  const bystander = await signUpUser(b, 'cl-bystander');
  expect((await post(b, '/api/room/login', { roomId, password: '' }, { token: bystander.token })).status).toBe(200);
  const memberOnB = await open(b, roomId, member);
  const bystanderOnB = await open(b, roomId, bystander);
  const port = redis.port;
  await redis.stop();
  await until(async () => (await get(a, '/readyz')).status, 503);
  // A bans the member; B hears nothing of it, but finds it in the database within a few ticks.
  expect((await post(a, '/api/room/admin/members/ban', { id: member.id }, { token: owner.token, roomId })).status).toBe(204);
  const banned = Date.now();
  expect(await memberOnB.closed).toEqual({ code: 1000, reason: 'removed from room' });
  expect(Date.now() - banned).toBeLessThan(5000);
  expect(bystanderOnB.isOpen()).toBe(true);
  // A changes the movie meanwhile: B's clients learn of it once Redis is back (resync: CURRENT, MOVIES, MY_STATUS).
  const movie = await post(a, '/api/room/movie/push', { url: 'https://example.com/outage.mp4', name: 'outage' }, { token: owner.token, roomId });
  expect((await post(a, '/api/room/movie/current', { id: movie.body.data.id }, { token: owner.token, roomId })).status).toBe(204);
  expect(await bystanderOnB.none(MessageType.CURRENT, 300)).toBe(true);
  redis = await startRedis(port);
  const back = Date.now();
  for (const type of [MessageType.CURRENT, MessageType.MOVIES, MessageType.MY_STATUS]) await bystanderOnB.next(type, () => true, 10_000);
  expect(Date.now() - back).toBeLessThan(8000);
});

it('is not ready while Redis is unreachable, keeps each instance’s rooms going meanwhile, and rejoins when it is back', async () => {
  const { owner, member, roomId } = await sharedRoom();
  const ready = async (server: TestServer) => (await get(server, '/readyz')).status;
  // Ready once each has its bus and database (under a loaded CI machine a moment after they started).
  await until(async () => [await ready(a), await ready(b)], [200, 200], 15_000);
  const onA = await open(a, roomId, owner);
  const onAOtherTab = await open(a, roomId, owner);
  const port = redis.port;
  await redis.stop();
  await until(async () => [await ready(a), await ready(b)], [503, 503]);
  expect((await get(a, '/readyz')).body).toEqual({ status: 'unavailable' });

  // The email flow needs Redis for its captchas: 503 `service unavailable` rather than a captcha no
  // other instance knows.
  const captcha = await get(a, '/api/user/signup/email/captcha');
  expect([captcha.status, captcha.body.error]).toEqual([503, 'service unavailable']);
  // Without Redis, A's own sockets still hear each other.
  onA.send({ type: MessageType.CHAT, payload: { case: 'chatContent', value: 'during the outage' } });
  expect(chatText(await onAOtherTab.next(MessageType.CHAT))).toBe('during the outage');

  redis = await startRedis(port);
  await until(async () => [await ready(a), await ready(b)], [200, 200], 15_000);
  const onB = await open(b, roomId, member);
  onB.send({ type: MessageType.CHAT, payload: { case: 'chatContent', value: 'after the outage' } });
  expect(chatText(await onA.next(MessageType.CHAT, (message) => chatText(message) === 'after the outage'))).toBe('after the outage');
});
