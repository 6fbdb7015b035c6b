/** @jest-environment node */
/**
 * The two-instance deployment of docs/deployment.md "Running more than one instance", as shipped:
 * Debian's nginx running `deploy/cluster/nginx.conf` (only its addresses replaced) in front of two
 * companion servers on one data directory and one Redis. No sticky sessions: requests and room
 * sockets land on either instance, and a rolling restart of one loses no request and no room.
 */
import fs from 'node:fs';
import path from 'node:path';
import { MessageType, type Message } from '@/lib/contract/message';
import { createRoom, get, launch, signUpUser, tempDir, TestSocket, type TestServer } from './test-support/harness';
import { startNginx, type TestNginx } from './test-support/nginx';
import { startRedis, type TestRedis } from './test-support/redis';

jest.setTimeout(60_000);

const CONFIG = path.join(__dirname, '..', 'deploy', 'cluster', 'nginx.conf');

let redis: TestRedis;
let dataDir: string;
const instances: TestServer[] = [];
let nginx: TestNginx;
/** The front, as the harness's helpers see a server (they only read `url`). */
let front: TestServer;

const chatText = (message: Message) => (message.payload.case === 'chatContent' ? message.payload.value : '');

beforeAll(async () => {
  redis = await startRedis();
  dataDir = tempDir('synctv-nginx-cluster-');
  const options = { dataDir, redisUrl: redis.url, hubTickMs: 200 };
  instances.push(await launch(options));
  instances.push(await launch(options));
  nginx = await startNginx(CONFIG, {
    'listen 80;': 'listen 127.0.0.1:{port};',
    '127.0.0.1:8081': `127.0.0.1:${instances[0].port}`,
    '127.0.0.1:8082': `127.0.0.1:${instances[1].port}`,
  });
  front = { ...instances[0], url: nginx.url, port: nginx.port };
});

afterAll(async () => {
  await nginx?.stop();
  for (const instance of instances) await instance.stop();
  await redis?.stop();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

it('serves a room through nginx across both instances, and a rolling restart loses no request and no room', async () => {
  const owner = await signUpUser(front, 'ng-owner');
  const { roomId } = await createRoom(front, owner);
  const sockets = await Promise.all([0, 1, 2, 3].map(() => TestSocket.open(front, roomId, owner.token)));
  try {
    // Every socket hears every other's chat, whichever instance nginx gave it.
    sockets.forEach((socket, i) => socket.send({ type: MessageType.CHAT, payload: { case: 'chatContent', value: `line ${i}` } }));
    for (const socket of sockets) {
      const heard: string[] = [];
      for (let i = 0; i < 4; i++) heard.push(chatText(await socket.next(MessageType.CHAT)));
      expect(heard.sort()).toEqual(['line 0', 'line 1', 'line 2', 'line 3']);
    }

    // Requests through nginx every 20 ms while the first instance restarts.
    const statuses: number[] = [];
    let polling = true;
    const poller = (async () => {
      while (polling) {
        statuses.push((await get(front, '/api/room/movie/current', { token: owner.token, roomId })).status);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    const port = instances[0].port;
    await instances[0].stop();
    // Round robin put some sockets on the stopped instance: told 1012, they reconnect through nginx.
    const told = (await Promise.all(sockets.map((socket) => Promise.race([socket.closed, new Promise((resolve) => setTimeout(() => resolve(null), 300))])))).filter(Boolean);
    expect(told.length).toBeGreaterThan(0);
    expect(told).toEqual(told.map(() => ({ code: 1012, reason: 'server restarting' })));
    const again = await TestSocket.open(front, roomId, owner.token);
    sockets.push(again);
    const survivor = sockets.find((socket) => socket.isOpen() && socket !== again)!;
    survivor.send({ type: MessageType.CHAT, payload: { case: 'chatContent', value: 'while one is down' } });
    expect(chatText(await again.next(MessageType.CHAT, (message) => chatText(message) === 'while one is down'))).toBe('while one is down');

    instances[0] = await launch({ dataDir, redisUrl: redis.url, hubTickMs: 200, port });
    await new Promise((resolve) => setTimeout(resolve, 300));
    polling = false;
    await poller;
    expect(statuses.length).toBeGreaterThan(10);
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
  } finally {
    for (const socket of sockets) socket.close();
  }
});

it('answers every request through nginx after an instance is killed (kill -9), also right after the other came back from a restart; its sockets reconnect to the survivor and find the chat', async () => {
  const owner = await signUpUser(front, 'ng-killed');
  const viewer = await signUpUser(front, 'ng-viewer');
  const { roomId } = await createRoom(front, owner);
  const sockets = await Promise.all([0, 1, 2, 3].map(() => TestSocket.open(front, roomId, owner.token)));
  try {
    sockets[0].send({ type: MessageType.CHAT, payload: { case: 'chatContent', value: 'before the crash' } });
    await Promise.all(sockets.map((socket) => socket.next(MessageType.CHAT)));
    // The previous test restarted instances[0] a moment ago; now the other one dies without a word.
    const port = instances[1].port;
    await instances[1].kill();
    const cut = (await Promise.all(sockets.map((socket) => Promise.race([socket.closed, new Promise((resolve) => setTimeout(() => resolve(null), 500))])))).filter(Boolean);
    expect(cut.length).toBeGreaterThan(0);
    expect(cut.every((close) => (close as { code: number }).code === 1006)).toBe(true);
    // Every request from now on is answered (the refused connects go to the survivor), sockets included.
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) statuses.push((await get(front, '/api/room/movie/current', { token: owner.token, roomId })).status);
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    const again = await Promise.all([0, 1, 2, 3].map(() => TestSocket.open(front, roomId, viewer.token)));
    sockets.push(...again);
    for (const socket of again) expect(chatText(await socket.next(MessageType.CHAT))).toBe('before the crash');
    // The dead instance's viewers are counted out within three ticks: only the survivor's sockets count.
    const viewers = new Set([owner.id, viewer.id]).size;
    await again[0].next(MessageType.VIEWER_COUNT, (message) => message.payload.case === 'viewerCount' && Number(message.payload.value) === viewers, 5000);
    instances[1] = await launch({ dataDir, redisUrl: redis.url, hubTickMs: 200, port });
  } finally {
    for (const socket of sockets) socket.close();
  }
});
