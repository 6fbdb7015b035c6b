/** @jest-environment node */
/**
 * The movie proxy (docs/contract.md §4.5, §7.2) against a real server process and a real source on
 * 127.0.0.2 (named in `proxyAllowAddresses`, as an operator would with PROXY_ALLOW_ADDRESSES): MP4 with
 * Range, HLS with rewritten playlists, the movie's headers sent upstream, and the address guard
 * (loopback, private, link-local and metadata addresses, IPv6 forms, names and redirects that lead
 * to them) refusing with `local ip is not allowed`.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRoom, get, launch, post, signUpUser, openServerDatabase, type TestServer, type TestUser } from './test-support/harness';
import { roomCallers, statusesOf, watchersMatrix } from './test-support/room-roles';

jest.setTimeout(30_000);

const SOURCE_HOST = '127.0.0.2';
const VIDEO = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 256));

let server: TestServer;
let source: http.Server;
let sourceUrl = '';
let owner: TestUser;
let roomId = '';
let trapHits = 0;
let liveReloads = 0;
let flvClosed = 0;
/** Another origin (same host, another port), and the headers each request to it carried. */
let other: http.Server;
let otherUrl = '';
const otherHeaders: http.IncomingHttpHeaders[] = [];
/** The headers each request to `/landing` of the source itself carried. */
const sameHeaders: http.IncomingHttpHeaders[] = [];

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
    } else if (url.pathname === '/whole.mp4') {
      // A host that ignores Range (python3 -m http.server): always the whole file, 200.
      response.writeHead(200, { 'Content-Type': 'video/mp4', 'Content-Length': VIDEO.length });
      response.end(VIDEO);
    } else if (url.pathname === '/dash/manifest.mpd') {
      response.writeHead(200, { 'Content-Type': 'application/dash+xml' });
      response.end('<?xml version="1.0"?><MPD type="static"><Period><AdaptationSet><SegmentTemplate initialization="init-$RepresentationID$.m4s" media="chunk-$RepresentationID$-$Number$.m4s"/><Representation id="0"/></AdaptationSet></Period></MPD>');
    } else if (url.pathname === '/dash/chunk-0-1.m4s') {
      response.writeHead(200, { 'Content-Type': 'video/iso.segment', 'Content-Length': VIDEO.length });
      response.end(VIDEO);
    } else if (url.pathname === '/secret.txt') {
      trapHits += 1;
      response.writeHead(200);
      response.end('outside the base');
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
    } else if (url.pathname === '/live/index.m3u8') {
      // A live playlist: no ENDLIST, and each reload moves the window on by one segment.
      liveReloads += 1;
      response.writeHead(200, { 'Content-Type': 'application/vnd.apple.mpegurl' });
      response.end(`#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-MEDIA-SEQUENCE:${liveReloads}\n#EXTINF:2.0,\nlive-${liveReloads}.ts\n`);
    } else if (url.pathname.startsWith('/live/live-')) {
      response.writeHead(200, { 'Content-Type': 'video/mp2t' });
      response.end(`live segment ${url.pathname}`);
    } else if (url.pathname === '/live/stream.flv') {
      // An endless HTTP-FLV stream: the header, then a tag every 20 ms until the reader goes away.
      response.writeHead(200, { 'Content-Type': 'video/x-flv' });
      response.write(Buffer.from('FLV\x01\x05\x00\x00\x00\x09', 'latin1'));
      const timer = setInterval(() => response.write(Buffer.alloc(1024, 7)), 20);
      response.on('close', () => {
        clearInterval(timer);
        flvClosed += 1;
      });
    } else if (url.pathname === '/needs-header') {
      response.writeHead(request.headers['x-token'] === 'abc' ? 200 : 403, { 'Content-Type': 'video/mp4' });
      response.end('ok');
    } else if (url.pathname === '/to-other') {
      // A .strm item of a media server, or a host that moved its files: a redirect to another origin.
      response.writeHead(302, { Location: `${otherUrl}/landing.mp4` });
      response.end();
    } else if (url.pathname === '/to-same') {
      response.writeHead(302, { Location: '/landing.mp4' });
      response.end();
    } else if (url.pathname === '/landing.mp4') {
      sameHeaders.push(request.headers);
      response.writeHead(200, { 'Content-Type': 'video/mp4', 'Content-Length': 2 });
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
  other = http.createServer((request, response) => {
    otherHeaders.push(request.headers);
    response.writeHead(200, { 'Content-Type': 'video/mp4', 'Content-Length': 2 });
    response.end('ok');
  });
  await new Promise<void>((resolve) => other.listen(0, SOURCE_HOST, resolve));
  otherUrl = `http://${SOURCE_HOST}:${(other.address() as AddressInfo).port}`;
  server = await launch({ proxyAllowAddresses: [SOURCE_HOST] });
  owner = await signUpUser(server, 'proxy');
  ({ roomId } = await createRoom(server, owner));
});

afterAll(async () => {
  await server?.stop();
  await new Promise((resolve) => source.close(resolve));
  await new Promise((resolve) => other?.close(resolve));
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

  it('serves Range itself for a source that ignores it, so that seeking works there too', async () => {
    const url = await play(`${sourceUrl}/whole.mp4`);
    const whole = await fetch(url);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('accept-ranges')).toBe('bytes');
    expect(Buffer.from(await whole.arrayBuffer())).toEqual(VIDEO);
    const first = await fetch(url, { headers: { Range: 'bytes=0-' } });
    expect(first.status).toBe(206);
    expect(first.headers.get('content-range')).toBe('bytes 0-999/1000');
    expect(Buffer.from(await first.arrayBuffer())).toEqual(VIDEO);
    const part = await fetch(url, { headers: { Range: 'bytes=700-709' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe('bytes 700-709/1000');
    expect(part.headers.get('content-length')).toBe('10');
    expect(Buffer.from(await part.arrayBuffer())).toEqual(VIDEO.subarray(700, 710));
    const past = await fetch(url, { headers: { Range: 'bytes=5000-' } });
    expect(past.status).toBe(416);
    expect(past.headers.get('content-range')).toBe('bytes */1000');
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

  it('keeps the movie\'s headers with their origin: a redirect to another one gets Range and nothing else', async () => {
    const headers = { Authorization: 'Bearer movie-secret', Cookie: 'sid=secret', 'X-Api-Key': 'key-secret' };
    // Sliced (the slice cache asks with Range) and streamed (a HEAD goes through as it is).
    for (const method of ['GET', 'HEAD']) {
      otherHeaders.length = 0;
      sameHeaders.length = 0;
      const away = await play(`${sourceUrl}/to-other`, { headers });
      expect((await fetch(away, { method, headers: { Range: 'bytes=0-1' } })).status).toBeLessThan(300);
      expect(otherHeaders.length).toBeGreaterThan(0);
      for (const sent of otherHeaders) {
        expect([sent.authorization, sent.cookie, sent['x-api-key']]).toEqual([undefined, undefined, undefined]);
        expect(sent.range).toMatch(/^bytes=0-/);
      }
      // The same origin: the headers go on, as they were meant to.
      const here = await play(`${sourceUrl}/to-same`, { headers });
      expect((await fetch(here, { method })).status).toBeLessThan(300);
      expect(sameHeaders.at(-1)).toEqual(expect.objectContaining({ authorization: 'Bearer movie-secret', cookie: 'sid=secret', 'x-api-key': 'key-secret' }));
    }
  });

  it.each([
    'http://localhost./x.mp4',
    'http://app.localhost./x.mp4',
    'http://[::127.0.0.5]/x.mp4',
    'http://[::7f00:1]:9/x.mp4',
    'http://[64:ff9b::a00:1]/x.mp4',
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

  it('refuses other schemes, and live movies on the on-demand route, with the contract texts', async () => {
    const magnet = await pushProxied('magnet:?xt=urn:btih:abc');
    expect([magnet.status, magnet.body.error]).toEqual([400, 'unsupported scheme: magnet']);
    const live = await pushProxied(`${sourceUrl}/live/index.m3u8`, { live: true });
    expect(live.status).toBe(200);
    const onDemand = await fetch(`${server.url}/api/room/movie/proxy/${live.body.data.id}?token=${owner.token}&roomId=${roomId}`);
    expect([onDemand.status, (await onDemand.json()).error]).toEqual([400, 'live proxy is not enabled']);
    const vod = await pushProxied(`${sourceUrl}/video.mp4`);
    const notLive = await fetch(`${server.url}/api/room/movie/live/flv/${vod.body.data.id}.flv?token=${owner.token}&roomId=${roomId}`);
    expect([notLive.status, (await notLive.json()).error]).toEqual([400, 'movie is not live']);
  });

  it('answers 502 when the source cannot be reached and 404 for an unknown movie', async () => {
    const url = await play(`http://${SOURCE_HOST}:9/closed.mp4`);
    expect((await fetch(url)).status).toBe(502);
    const unknown = await fetch(`${server.url}/api/room/movie/proxy/${'0'.repeat(32)}?token=${owner.token}&roomId=${roomId}`);
    expect(unknown.status).toBe(404);
  });
});

describe('a proxied DASH manifest', () => {
  /** The movie's proxy URL and the segment folder its rewritten manifest names. */
  async function proxiedDash(): Promise<{ url: string; base: string; movieId: string }> {
    const url = await play(`${sourceUrl}/dash/manifest.mpd`);
    const manifest = await fetch(url);
    expect(manifest.headers.get('content-type')).toContain('dash+xml');
    const base = /<BaseURL>([^<]+)<\/BaseURL>/.exec(await manifest.text())?.[1] ?? '';
    expect(base).toMatch(/^\/api\/room\/movie\/proxy\/[0-9a-f]{32}\/dash\/[^/?]+\/$/);
    return { url, base, movieId: url.split('/proxy/')[1].split('?')[0] };
  }

  it('names a segment folder through the proxy, which serves the templates’ segments under it with Range', async () => {
    const { base } = await proxiedDash();
    const credentials = `token=${owner.token}&roomId=${roomId}`;
    const segment = await fetch(`${server.url}${base}chunk-0-1.m4s?${credentials}`, { headers: { Range: 'bytes=10-19' } });
    expect(segment.status).toBe(206);
    expect(Buffer.from(await segment.arrayBuffer())).toEqual(VIDEO.subarray(10, 20));
  });

  it('never leaves the folder, and takes no other kind of token', async () => {
    const { base, movieId } = await proxiedDash();
    const credentials = `token=${owner.token}&roomId=${roomId}`;
    const before = trapHits;
    for (const escape of ['..%2Fsecret.txt', '%2e%2e/secret.txt', '%2F%2F127.0.0.1%2Fx']) {
      const response = await fetch(`${server.url}${base}${escape}?${credentials}`);
      // Refused (400), or never this route at all (404: the client resolved the dots itself).
      expect([escape, [400, 404].includes(response.status)]).toEqual([escape, true]);
    }
    expect(trapHits).toBe(before);
    // An HLS target token is not a folder, and a folder token is not an HLS target.
    const hls = await play(`${sourceUrl}/hls/index.m3u8`);
    const segment = (await (await fetch(hls)).text()).split('\n').find((line) => line && !line.startsWith('#'))!;
    const targetToken = /\/m3u8\/([^?]+)/.exec(segment)![1];
    expect((await fetch(`${server.url}/api/room/movie/proxy/${segment.split('/')[5]}/dash/${targetToken}/x?${credentials}`)).status).toBe(400);
    const baseToken = base.split('/')[7];
    expect((await fetch(`${server.url}/api/room/movie/proxy/${movieId}/m3u8/${baseToken}?${credentials}`)).status).toBe(400);
  });

  it('lets in whoever may watch the room, and nobody else (authorization matrix)', async () => {
    const creator = await signUpUser(server, 'dashowner');
    const { roomId: room } = await createRoom(server, creator);
    const { roomId: passwordRoom } = await createRoom(server, creator, { password: 'pw' });
    const pushed = await post(server, '/api/room/movie/push', { url: `${sourceUrl}/dash/manifest.mpd`, name: 'dash', proxy: true }, { token: creator.token, roomId: room });
    expect((await post(server, '/api/room/movie/current', { id: pushed.body.data.id }, { token: creator.token, roomId: room })).status).toBe(204);
    const manifest = await fetch(`${server.url}/api/room/movie/proxy/${pushed.body.data.id}?token=${creator.token}&roomId=${room}`);
    const base = /<BaseURL>([^<]+)<\/BaseURL>/.exec(await manifest.text())![1];
    const callers = await roomCallers(server, creator, room, passwordRoom, 'd');
    const outcomes = await statusesOf(callers, async (token, inRoom) => {
      const response = await fetch(`${server.url}${base}chunk-0-1.m4s?token=${token}&roomId=${inRoom}`, { headers: { Range: 'bytes=0-0' } });
      await response.body?.cancel();
      return response.status;
    });
    expect(outcomes).toEqual(watchersMatrix(206));
  });
});

describe('the live proxy', () => {
  it('serves a live HLS source as a playlist reloaded on every request, its segments behind the data route with the viewer\'s credentials', async () => {
    const url = await play(`${sourceUrl}/live/index.m3u8`, { live: true });
    expect(url).toMatch(new RegExp(`/api/room/movie/live/hls/list/[0-9a-f]{32}\\.m3u8\\?token=.+&roomId=${roomId}$`));
    const first = await fetch(url);
    expect(first.headers.get('cache-control')).toBe('no-store');
    const firstText = await first.text();
    const segment = firstText.split('\n').find((line) => line && !line.startsWith('#'));
    expect(segment).toMatch(new RegExp(`^/api/room/movie/live/hls/data/${roomId}/[0-9a-f]{32}/[^/?]+\\?token=.+&roomId=${roomId}$`));
    // The segment needs what the playlist needs: the viewer's token and room (v0.9.11's segment URLs carry none).
    const bytes = await fetch(`${server.url}${segment}`);
    expect(await bytes.text()).toMatch(/^live segment \/live\/live-\d+\.ts$/);
    expect(bytes.headers.get('cache-control')).toBe('private, max-age=90');
    const stranger = await signUpUser(server, 'livestranger');
    const { roomId: elsewhere } = await createRoom(server, stranger);
    const otherRoom = await fetch(`${server.url}${segment!.replace(/token=[^&]+&roomId=.+$/, `token=${stranger.token}&roomId=${elsewhere}`)}`);
    expect(otherRoom.status).toBe(404);
    const forged = await fetch(`${server.url}${segment!.replace(/token=[^&]+/, 'token=not-a-token')}`);
    expect(forged.status).toBe(401);
    const second = await (await fetch(url)).text();
    expect(second).not.toBe(firstText);
    expect(second).toMatch(/#EXT-X-MEDIA-SEQUENCE:\d+/);
    // The room's status of a live movie is playing at rate 1 whatever anyone sent.
    const current = await get(server, '/api/room/movie/current', { token: owner.token, roomId });
    expect(current.body.data.movie.base.type).toBe('m3u8');
    expect(current.body.data.status).toMatchObject({ isPlaying: true, playbackRate: 1 });
  });

  it('passes an HTTP-FLV live stream through as it comes, and stops reading it when the viewer leaves', async () => {
    const url = await play(`${sourceUrl}/live/stream.flv`, { live: true });
    expect(url).toMatch(new RegExp(`/api/room/movie/live/flv/[0-9a-f]{32}\\.flv\\?token=.+&roomId=${roomId}$`));
    const current = await get(server, '/api/room/movie/current', { token: owner.token, roomId });
    expect(current.body.data.movie.base.type).toBe('flv');
    const controller = new AbortController();
    const response = await fetch(url, { signal: controller.signal });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const reader = response.body!.getReader();
    let received = 0;
    let head = '';
    while (received < 8 * 1024) {
      const { value } = await reader.read();
      if (!value) break;
      if (!head) head = Buffer.from(value).subarray(0, 3).toString('latin1');
      received += value.length;
    }
    expect(head).toBe('FLV');
    const closedBefore = flvClosed;
    controller.abort();
    for (let i = 0; i < 50 && flvClosed === closedBefore; i += 1) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(flvClosed).toBe(closedBefore + 1);
  });

  it('lets in whoever may watch the room to a live segment, and nobody else (authorization matrix)', async () => {
    const creator = await signUpUser(server, 'liveowner');
    const { roomId: room } = await createRoom(server, creator);
    const { roomId: passwordRoom } = await createRoom(server, creator, { password: 'pw' });
    const pushed = await post(server, '/api/room/movie/push', { url: `${sourceUrl}/live/index.m3u8`, name: 'live', proxy: true, live: true }, { token: creator.token, roomId: room });
    const list = await fetch(`${server.url}/api/room/movie/live/hls/list/${pushed.body.data.id}.m3u8?token=${creator.token}&roomId=${room}`);
    const segment = (await list.text()).split('\n').find((line) => line.startsWith('/api/'))!.replace(/\?.*$/, '');
    const callers = await roomCallers(server, creator, room, passwordRoom, 'l');
    const outcomes = await statusesOf(callers, async (token, inRoom) => {
      const response = await fetch(`${server.url}${segment}?${token ? `token=${token}&` : ''}roomId=${inRoom}`);
      await response.arrayBuffer();
      return response.status;
    });
    expect(outcomes).toEqual(watchersMatrix(200));
  });

  it('follows the live_proxy site setting: off, live proxied movies are refused at push and on the live routes', async () => {
    const pushed = await pushProxied(`${sourceUrl}/live/index.m3u8`, { live: true });
    expect(pushed.status).toBe(200);
    // What the admin console's switch writes; the server reads settings on every request.
    const db = await openServerDatabase(server.dataDir);
    const setLiveProxy = (on: boolean) => db.run("UPDATE settings SET value = ? WHERE name = 'live_proxy'", [JSON.stringify(on)]);
    try {
      await setLiveProxy(false);
      const refused = await pushProxied(`${sourceUrl}/live/index.m3u8`, { live: true });
      expect([refused.status, refused.body.error]).toEqual([400, 'live proxy is not enabled']);
      const list = await fetch(`${server.url}/api/room/movie/live/hls/list/${pushed.body.data.id}.m3u8?token=${owner.token}&roomId=${roomId}`);
      expect([list.status, (await list.json()).error]).toEqual([400, 'live proxy is not enabled']);
    } finally {
      await setLiveProxy(true);
      await db.close();
    }
  });
});
