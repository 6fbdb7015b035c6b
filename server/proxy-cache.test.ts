/** @jest-environment node */
/**
 * The movie proxy's shared slice cache (server/proxy/slice-cache.ts) against a real server process:
 * ten viewers of one file cost the source one copy of it, every range comes back byte for byte
 * (across slice boundaries, from the end, past the end), a source without Range still plays through
 * the proxy, and `proxyCacheBytes: 0` turns the sharing off.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sendWithRange } from '../e2e/support/range-source';
import { createRoom, get, launch, post, signUpUser, type TestServer, type TestUser } from './test-support/harness';

jest.setTimeout(60_000);

const HOST = '127.0.0.2';
/** 5 MiB + 123 bytes: three slices, the last one short. */
const FILE = Buffer.from(Array.from({ length: 5 * 1024 * 1024 + 123 }, (_, i) => (i * 7 + (i >> 11)) % 256));

let source: http.Server;
let sourceUrl = '';
/** Bytes the source sent for each path. */
const sent = new Map<string, number>();
/** Requests the source had for each path. */
const asked = new Map<string, number>();

beforeAll(async () => {
  source = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://source');
    asked.set(url.pathname, (asked.get(url.pathname) ?? 0) + 1);
    const count = (bytes: number) => sent.set(url.pathname, (sent.get(url.pathname) ?? 0) + bytes);
    if (url.pathname === '/film.mp4') {
      count(sendWithRange(request, response, FILE, { ETag: '"film-1"' }));
    } else if (url.pathname === '/no-range.mp4' || url.pathname === '/no-range-2.mp4') {
      // A host without Range (python3 -m http.server style): the whole file, 200, every time.
      response.writeHead(200, { 'Content-Type': 'video/mp4', 'Content-Length': FILE.length });
      count(FILE.length);
      response.end(FILE);
    } else {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => source.listen(0, HOST, resolve));
  sourceUrl = `http://${HOST}:${(source.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => source.close(resolve));
});

/** A proxied movie of `path` playing in the owner's room; the playback URL (absolute) of /current. */
async function proxiedMovie(server: TestServer, owner: TestUser, path: string): Promise<string> {
  const roomId = roomOf.get(server) ?? (await createRoom(server, owner)).roomId;
  roomOf.set(server, roomId);
  const pushed = await post(server, '/api/room/movie/push', { url: `${sourceUrl}${path}`, name: 'film', proxy: true }, { token: owner.token, roomId });
  expect(pushed.status).toBe(200);
  await post(server, '/api/room/movie/current', { id: pushed.body.data.id }, { token: owner.token, roomId });
  return `${server.url}${(await get(server, '/api/room/movie/current', { token: owner.token, roomId })).body.data.movie.base.url}`;
}

const roomOf = new Map<TestServer, string>();

async function fetchBytes(url: string, range?: string): Promise<{ status: number; body: Buffer; headers: Headers }> {
  const response = await fetch(url, { headers: range ? { Range: range } : {} });
  return { status: response.status, body: Buffer.from(await response.arrayBuffer()), headers: response.headers };
}

describe('with the cache (the default)', () => {
  let server: TestServer;
  let owner: TestUser;
  beforeAll(async () => {
    server = await launch({ proxyAllowAddresses: [HOST] });
    owner = await signUpUser(server, 'cache');
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('serves ten viewers of one file with one copy of it from the source', async () => {
    sent.clear();
    const url = await proxiedMovie(server, owner, '/film.mp4');
    const viewers = await Promise.all(Array.from({ length: 10 }, () => fetchBytes(url)));
    for (const viewer of viewers) {
      expect(viewer.status).toBe(200);
      expect(viewer.body.equals(FILE)).toBe(true);
    }
    expect(viewers[0].headers.get('etag')).toBe('"film-1"');
    expect(sent.get('/film.mp4')).toBe(FILE.length);
  });

  it('answers every range byte for byte: across slices, from the end, past the end', async () => {
    const url = await proxiedMovie(server, owner, '/film.mp4');
    const slice = 2 * 1024 * 1024;
    const cases: [string, number, number][] = [
      [`bytes=${slice - 10}-${slice + 9}`, slice - 10, slice + 9],
      [`bytes=${2 * slice + 5}-`, 2 * slice + 5, FILE.length - 1],
      ['bytes=-100', FILE.length - 100, FILE.length - 1],
      ['bytes=0-0', 0, 0],
    ];
    for (const [range, start, end] of cases) {
      const answer = await fetchBytes(url, range);
      expect([range, answer.status, answer.headers.get('content-range')]).toEqual([range, 206, `bytes ${start}-${end}/${FILE.length}`]);
      expect(answer.body.equals(FILE.subarray(start, end + 1))).toBe(true);
    }
    const past = await fetchBytes(url, `bytes=${FILE.length + 10}-`);
    expect([past.status, past.headers.get('content-range')]).toEqual([416, `bytes */${FILE.length}`]);
  });

  // Last in this server: the source's host is then known not to answer Range.
  it('plays a source without Range through, and seeks in it, without slicing it or its host', async () => {
    const url = await proxiedMovie(server, owner, '/no-range.mp4');
    const whole = await fetchBytes(url);
    expect(whole.body.equals(FILE)).toBe(true);
    const part = await fetchBytes(url, 'bytes=1000-1999');
    expect([part.status, part.body.equals(FILE.subarray(1000, 2000))]).toEqual([206, true]);
    // The first request tried a slice and got the whole file: its host is not asked for slices again.
    expect(asked.get('/no-range.mp4')).toBe(3);
    const other = await proxiedMovie(server, owner, '/no-range-2.mp4');
    expect((await fetchBytes(other)).body.equals(FILE)).toBe(true);
    expect(asked.get('/no-range-2.mp4')).toBe(1);
  });
});

describe('with proxyCacheBytes 0', () => {
  it('sends every viewer to the source', async () => {
    const server = await launch({ proxyAllowAddresses: [HOST], proxyCacheBytes: 0 });
    try {
      const owner = await signUpUser(server, 'nocache');
      sent.clear();
      const url = await proxiedMovie(server, owner, '/film.mp4');
      await Promise.all(Array.from({ length: 3 }, () => fetchBytes(url)));
      expect(sent.get('/film.mp4')).toBe(3 * FILE.length);
    } finally {
      await server.stop();
    }
  });
});
