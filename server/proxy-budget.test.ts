/** @jest-environment node */
/**
 * The proxy's budget (docs/security.md "The proxy's budget") against real server processes: Range
 * answered per RFC 9110 (416 past the end, sliced or streamed; no number the source cannot read
 * sent on), a slice nobody waits for no longer fetched, open media responses capped per viewer and
 * per room, and the media routes' request rate per user.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sendWithRange } from '../e2e/support/range-source';
import { createRoom, get, launch, post, signUpUser, until, type TestServer, type TestUser } from './test-support/harness';

jest.setTimeout(60_000);

const HOST = '127.0.0.2';
/** 3 MiB: two slices. */
const FILE = Buffer.from(Array.from({ length: 3 * 1024 * 1024 }, (_, i) => (i * 13 + (i >> 9)) % 256));

let source: http.Server;
let sourceUrl = '';
/** The Range headers the source was sent. */
const rangesAsked: string[] = [];
/** Answers to `/slow.mp4` that the proxy closed before they were complete. */
let slowCutShort = 0;
let slowAnswered = 0;
/** Answers of `/trickle.bin` open now. */
let trickling = 0;

beforeAll(async () => {
  source = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://source');
    if (request.headers.range) rangesAsked.push(request.headers.range);
    if (url.pathname === '/film.mp4') {
      sendWithRange(request, response, FILE);
    } else if (url.pathname === '/slow.mp4') {
      // A slow host with Range: a slice takes it about three seconds.
      const range = /bytes=(\d+)-(\d+)?/.exec(request.headers.range ?? '');
      const start = range ? Number(range[1]) : 0;
      const end = range?.[2] ? Math.min(Number(range[2]), FILE.length - 1) : FILE.length - 1;
      response.writeHead(range ? 206 : 200, { 'Content-Type': 'video/mp4', 'Content-Length': end - start + 1, ...(range ? { 'Content-Range': `bytes ${start}-${end}/${FILE.length}` } : {}) });
      let offset = start;
      const timer = setInterval(() => {
        const next = Math.min(offset + 32 * 1024, end + 1);
        response.write(FILE.subarray(offset, next));
        offset = next;
        if (offset > end) {
          clearInterval(timer);
          response.end();
        }
      }, 50);
      response.on('close', () => {
        clearInterval(timer);
        if (offset <= end) slowCutShort += 1;
        else slowAnswered += 1;
      });
    } else if (url.pathname === '/trickle.bin') {
      // A host without Range sending a long file slowly: each viewer holds a response open.
      trickling += 1;
      response.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': 100 * 1024 * 1024 });
      const timer = setInterval(() => response.write(Buffer.alloc(1024)), 20);
      response.on('close', () => {
        clearInterval(timer);
        trickling -= 1;
      });
    } else {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => source.listen(0, HOST, resolve));
  sourceUrl = `http://${HOST}:${(source.address() as AddressInfo).port}`;
});

afterAll(async () => {
  source?.closeAllConnections();
  await new Promise((resolve) => source?.close(resolve));
});

/** A proxied movie of `path` in `roomId`, made current by `owner`; the playback URL (absolute, with `owner`'s token). */
async function proxiedMovie(server: TestServer, owner: TestUser, roomId: string, path: string): Promise<string> {
  const pushed = await post(server, '/api/room/movie/push', { url: `${sourceUrl}${path}`, name: 'film', proxy: true }, { token: owner.token, roomId });
  expect(pushed.status).toBe(200);
  await post(server, '/api/room/movie/current', { id: pushed.body.data.id }, { token: owner.token, roomId });
  return `${server.url}${(await get(server, '/api/room/movie/current', { token: owner.token, roomId })).body.data.movie.base.url}`;
}

describe('Range', () => {
  it.each([
    ['sliced', undefined],
    ['streamed (no slice cache)', 0],
  ])('answers a range past the end with 416 and the size, %s, and sends the source no number it cannot read', async (_how, proxyCacheBytes) => {
    const server = await launch({ proxyAllowAddresses: [HOST], proxyCacheBytes });
    try {
      const owner = await signUpUser(server, 'ranges');
      const { roomId } = await createRoom(server, owner);
      const url = await proxiedMovie(server, owner, roomId, '/film.mp4');
      rangesAsked.length = 0;
      for (const range of [`bytes=${FILE.length + 10}-`, `bytes=${'9'.repeat(300)}-`]) {
        const answer = await fetch(url, { headers: { Range: range } });
        expect([answer.status, answer.headers.get('content-range')]).toEqual([416, `bytes */${FILE.length}`]);
        await answer.arrayBuffer();
      }
      // Several ranges, or a malformed one, is ignored (RFC 9110 §14.2): the whole file.
      const several = await fetch(url, { headers: { Range: 'bytes=0-1,5-6' } });
      expect(several.status).toBe(200);
      expect((await several.arrayBuffer()).byteLength).toBe(FILE.length);
      expect(rangesAsked.filter((range) => !/^bytes=\d{1,15}-\d{0,15}$/.test(range))).toEqual([]);
    } finally {
      await server.stop();
    }
  });
});

describe('the budget', () => {
  it('stops fetching a slice once the viewer who asked for it is gone', async () => {
    const server = await launch({ proxyAllowAddresses: [HOST] });
    try {
      const owner = await signUpUser(server, 'leaver');
      const { roomId } = await createRoom(server, owner);
      const url = await proxiedMovie(server, owner, roomId, '/slow.mp4');
      slowCutShort = 0;
      slowAnswered = 0;
      const leaving = new AbortController();
      const asked = fetch(url, { headers: { Range: 'bytes=0-0' }, signal: leaving.signal }).catch(() => null);
      await new Promise((resolve) => setTimeout(resolve, 300));
      leaving.abort();
      await asked;
      await until(() => slowCutShort + slowAnswered > 0, 'the source\'s answer ended', 10_000);
      expect([slowCutShort, slowAnswered]).toEqual([1, 0]);
    } finally {
      await server.stop();
    }
  });

  it('holds a viewer to its open streams and a room to its own, with 429 and Retry-After past them', async () => {
    const server = await launch({ proxyAllowAddresses: [HOST], rateLimitScale: 1, streamCaps: { perUser: 2, perRoom: 3 } });
    const open: AbortController[] = [];
    try {
      const owner = await signUpUser(server, 'streams');
      const friend = await signUpUser(server, 'friend');
      const { roomId } = await createRoom(server, owner);
      expect((await post(server, '/api/room/login', { roomId, password: '' }, { token: friend.token })).status).toBe(200);
      const url = await proxiedMovie(server, owner, roomId, '/trickle.bin');
      const stream = async (token: string) => {
        const controller = new AbortController();
        const response = await fetch(url.replace(/token=[^&]+/, `token=${token}`), { signal: controller.signal });
        if (response.status === 200) open.push(controller);
        else await response.arrayBuffer();
        return response;
      };
      expect((await stream(owner.token)).status).toBe(200);
      expect((await stream(owner.token)).status).toBe(200);
      const third = await stream(owner.token);
      expect([third.status, third.headers.get('retry-after')]).toEqual([429, '1']);
      // Another viewer of the room: one more, then the room is full.
      expect((await stream(friend.token)).status).toBe(200);
      expect((await stream(friend.token)).status).toBe(429);
      // One ends: the friend gets its second.
      open.shift()!.abort();
      await until(async () => {
        const next = await stream(friend.token);
        return next.status === 200;
      }, 'a stream freed');
    } finally {
      for (const controller of open) controller.abort();
      await server.stop();
    }
    await until(() => trickling === 0, 'the source\'s streams closed');
  });

  it('stops a viewer who asks for media faster than any player does', async () => {
    // A hundredth of the limits: 12 requests a minute for one user.
    const server = await launch({ proxyAllowAddresses: [HOST], rateLimitScale: 0.01 });
    try {
      const owner = await signUpUser(server, 'greedy');
      const { roomId } = await createRoom(server, owner);
      const url = await proxiedMovie(server, owner, roomId, '/film.mp4');
      let passed = 0;
      for (; passed < 20; passed++) {
        const answer = await fetch(url, { method: 'HEAD' });
        if (answer.status === 429) {
          expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
          break;
        }
      }
      expect(passed).toBe(12);
    } finally {
      await server.stop();
    }
  });
});
