/** @jest-environment node */
/**
 * The movie proxy (server-contract.md §4.5, §7.2) against a real server process and a real source on
 * 127.0.0.2 (named in `proxyAllowAddresses`, as an operator would with PROXY_ALLOW_ADDRESSES): MP4 with
 * Range, HLS with rewritten playlists, the movie's headers sent upstream, and the address guard
 * (loopback, private, link-local and metadata addresses, IPv6 forms, names and redirects that lead
 * to them) refusing with `local ip is not allowed`.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRoom, get, launch, post, signUpUser, type TestServer, type TestUser } from './test-support/harness';

jest.setTimeout(30_000);

const SOURCE_HOST = '127.0.0.2';
const VIDEO = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 256));

let server: TestServer;
let source: http.Server;
let sourceUrl = '';
let owner: TestUser;
let roomId = '';
let trapHits = 0;

beforeAll(async () => {
  source = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://source');
    if (url.pathname === '/video.mp4') {
      const range = /bytes=(\d+)-(\d+)?/.exec(request.headers.range ?? '');
      const start = range ? Number(range[1]) : 0;
      const end = range?.[2] ? Number(range[2]) : VIDEO.length - 1;
      response.writeHead(range ? 206 : 200, {
        'Content-Type': 'video/mp4',
        'Accept-Ranges': 'bytes',
        'Content-Length': end - start + 1,
        ...(range ? { 'Content-Range': `bytes ${start}-${end}/${VIDEO.length}` } : {}),
      });
      response.end(VIDEO.subarray(start, end + 1));
    } else if (url.pathname === '/big.bin') {
      // 4 MiB, written in pieces over time like a slow source.
      response.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': 4 * 1024 * 1024 });
      let sent = 0;
      const timer = setInterval(() => {
        response.write(Buffer.alloc(256 * 1024, sent % 251));
        sent += 1;
        if (sent === 16) {
          clearInterval(timer);
          response.end();
        }
      }, 10);
    } else if (url.pathname === '/hls/index.m3u8') {
      response.writeHead(200, { 'Content-Type': 'application/vnd.apple.mpegurl' });
      response.end('#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2.0,\nseg-0.ts\n#EXT-X-ENDLIST\n');
    } else if (url.pathname === '/hls/seg-0.ts') {
      response.writeHead(200, { 'Content-Type': 'video/mp2t' });
      response.end('segment-bytes');
    } else if (url.pathname === '/needs-header') {
      response.writeHead(request.headers['x-token'] === 'abc' ? 200 : 403, { 'Content-Type': 'video/mp4' });
      response.end('ok');
    } else if (url.pathname === '/to-localhost') {
      response.writeHead(302, { Location: `http://localhost:${(source.address() as AddressInfo).port}/trap` });
      response.end();
    } else {
      if (url.pathname === '/trap') trapHits += 1;
      response.writeHead(404);
      response.end();
    }
  });
  // Also on 127.0.0.1 (not allowed), to see that nothing reaches it.
  await new Promise<void>((resolve) => source.listen(0, '0.0.0.0', resolve));
  sourceUrl = `http://${SOURCE_HOST}:${(source.address() as AddressInfo).port}`;
  server = await launch({ proxyAllowAddresses: [SOURCE_HOST] });
  owner = await signUpUser(server, 'proxy');
  ({ roomId } = await createRoom(server, owner));
});

afterAll(async () => {
  await server?.stop();
  await new Promise((resolve) => source.close(resolve));
});

async function pushProxied(url: string, extra: Record<string, unknown> = {}) {
  return post(server, '/api/room/movie/push', { url, name: 'proxied', proxy: true, ...extra }, { token: owner.token, roomId });
}

/** Pushes, sets current and returns the playback URL of /current (absolute). */
async function play(url: string, extra: Record<string, unknown> = {}): Promise<string> {
  const pushed = await pushProxied(url, extra);
  expect(pushed.status).toBe(200);
  expect((await post(server, '/api/room/movie/current', { id: pushed.body.data.id }, { token: owner.token, roomId })).status).toBe(204);
  const current = await get(server, '/api/room/movie/current', { token: owner.token, roomId });
  expect(current.body.data.movie.base.headers).toBeUndefined();
  return `${server.url}${current.body.data.movie.base.url}`;
}

describe('the movie proxy', () => {
  it('plays an MP4 through the proxy, forwarding Range so that seeking works', async () => {
    const url = await play(`${sourceUrl}/video.mp4`);
    expect(url).toMatch(new RegExp(`/api/room/movie/proxy/[0-9a-f]{32}\\?token=.+&roomId=${roomId}$`));
    const part = await fetch(url, { headers: { Range: 'bytes=100-109' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe('bytes 100-109/1000');
    expect(Buffer.from(await part.arrayBuffer())).toEqual(VIDEO.subarray(100, 110));
    // Without a token (and not a guest room member) it is refused like any room route.
    const anonymous = await fetch(url.replace(/token=[^&]+/, 'token='));
    expect(anonymous.status).toBe(200); // the room lets guests in (no password, guests enabled)
  });

  it('streams a large file through to the end', async () => {
    const url = await play(`${sourceUrl}/big.bin`);
    const response = await fetch(url);
    expect(response.status).toBe(200);
    expect((await response.arrayBuffer()).byteLength).toBe(4 * 1024 * 1024);
  });

  it('rewrites HLS playlists so that segments come through the proxy too', async () => {
    const url = await play(`${sourceUrl}/hls/index.m3u8`);
    const playlist = await fetch(url);
    expect(playlist.headers.get('content-type')).toContain('mpegurl');
    const lines = (await playlist.text()).split('\n');
    const segment = lines.find((line) => line && !line.startsWith('#'));
    expect(segment).toMatch(new RegExp(`^/api/room/movie/proxy/[0-9a-f]{32}/m3u8/[^?]+\\?token=.+&roomId=${roomId}$`));
    const bytes = await fetch(`${server.url}${segment}`);
    expect(await bytes.text()).toBe('segment-bytes');
    // A target token is bound to its room and movie.
    const tampered = await fetch(`${server.url}${segment!.replace(/m3u8\/[^.]+\./, 'm3u8/x.')}`);
    expect(tampered.status).toBe(400);
  });

  it("sends the movie's headers to the source", async () => {
    const url = await play(`${sourceUrl}/needs-header`, { headers: { 'X-Token': 'abc' } });
    expect((await fetch(url)).status).toBe(200);
  });

  it.each([
    'http://127.0.0.1:9/x.mp4',
    'http://localhost:9/x.mp4',
    'http://[::1]:9/x.mp4',
    'http://[::ffff:127.0.0.1]:9/x.mp4',
    'http://10.1.2.3/x.mp4',
    'http://192.168.1.10/x.mp4',
    'http://169.254.169.254/latest/meta-data',
    'http://0.0.0.0/x.mp4',
  ])('refuses %s at push time', async (url) => {
    const pushed = await pushProxied(url);
    expect([pushed.status, pushed.body.error]).toEqual([400, 'local ip is not allowed']);
  });

  it('refuses a source that redirects to a name resolving to this machine, without reaching it', async () => {
    const url = await play(`${sourceUrl}/to-localhost`);
    const response = await fetch(url);
    expect(response.status).toBe(400);
    expect((await response.json()).error).toBe('local ip is not allowed');
    expect(trapHits).toBe(0);
  });

  it('refuses proxying a live stream and other schemes with the contract texts', async () => {
    const live = await pushProxied(`${sourceUrl}/hls/index.m3u8`, { live: true });
    expect([live.status, live.body.error]).toEqual([400, 'live proxy is not enabled']);
    const magnet = await pushProxied('magnet:?xt=urn:btih:abc');
    expect([magnet.status, magnet.body.error]).toEqual([400, 'unsupported scheme: magnet']);
  });

  it('answers 502 when the source cannot be reached and 404 for an unknown movie', async () => {
    const url = await play(`http://${SOURCE_HOST}:9/closed.mp4`);
    expect((await fetch(url)).status).toBe(502);
    const unknown = await fetch(`${server.url}/api/room/movie/proxy/${'0'.repeat(32)}?token=${owner.token}&roomId=${roomId}`);
    expect(unknown.status).toBe(404);
  });
});
