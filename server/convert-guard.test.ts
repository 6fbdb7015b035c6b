/** @jest-environment node */
/**
 * ffmpeg and ffprobe behind the address guard (docs/transcode.md "What ffmpeg reads"), against a real
 * server process, Debian's ffmpeg, a "public" host on 127.0.0.2 that an attacker controls (named in
 * `proxyAllowAddresses`, as reachable hosts are) and a canary on 127.0.0.3 standing for the
 * server's own network, which the guard refuses. Each escape the audit of issue 59 found, and the
 * ways around a naive fix: a film whose body is a playlist, a segment, a variant, a key (quoted and
 * not), a line broken by a lone CR, the `#.ts` fragment, an ID3 tag before the playlist, a DASH
 * BaseURL, and a segment past the probe's reach. The canary must never hear from ffmpeg; a real HLS
 * source still converts, through the input route's rewriting.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { makeConversionMedia } from '../e2e/support/conversion-media';
import { createRoom, get, launch, post, signUpUser, tempDir, until, type TestServer, type TestUser } from './test-support/harness';

jest.setTimeout(60_000);

const SOURCE_HOST = '127.0.0.2';
const CANARY_HOST = '127.0.0.3';
const NOT_MEDIA = 'the source is not a film this server can read';

let server: TestServer;
let source: http.Server;
let canary: http.Server;
let sourceUrl = '';
let canaryUrl = '';
let owner: TestUser;
let roomId = '';
/** What the canary was asked for, and by whom. */
const canaryHits: string[] = [];
/** The real HLS of a film: its playlist's text and its segments, by name. */
let hlsPlaylist = '';
const hlsSegments = new Map<string, Buffer>();

/**
 * What the attacker's host serves: path → [content type, body]. Playlists come as `video/mp4` from
 * addresses without `.m3u8` (the movie says `type: m3u8`), as a host may send them: only what the
 * body says makes them playlists.
 */
function attackerFiles(): Record<string, [string, string | Buffer]> {
  const segment = `${canaryUrl}/ssrf-seg.ts`;
  const hls = (lines: string[]) => ['#EXTM3U', '#EXT-X-VERSION:3', '#EXT-X-TARGETDURATION:4', ...lines, '#EXT-X-ENDLIST', ''].join('\n');
  const realSegment = `${sourceUrl}/real/${[...hlsSegments.keys()][0]}`;
  const id3 = Buffer.concat([Buffer.from([0x49, 0x44, 0x33, 4, 0, 0, 0, 0, 0, 20]), Buffer.alloc(20), Buffer.from(hls(['#EXTINF:4,', segment]))]);
  return {
    '/fake.mp4': ['video/mp4', hls(['#EXTINF:4,', segment])],
    '/segment': ['video/mp4', hls(['#EXTINF:4,', segment])],
    '/variant': ['video/mp4', ['#EXTM3U', '#EXT-X-STREAM-INF:BANDWIDTH=100000', `${canaryUrl}/latest/meta-data/iam/security-credentials/`, ''].join('\n')],
    '/key': ['video/mp4', hls([`#EXT-X-KEY:METHOD=AES-128,URI="${canaryUrl}/ssrf-key?x=1"`, '#EXTINF:4,', realSegment])],
    '/bare-key': ['video/mp4', hls([`#EXT-X-KEY:METHOD=AES-128,URI=${canaryUrl}/ssrf-bare-key`, '#EXTINF:4,', realSegment])],
    '/carriage': ['video/mp4', hls([`#EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00Z\r${canaryUrl}/ssrf-cr.ts`, '#EXTINF:4,', realSegment])],
    '/fragment': ['video/mp4', hls(['#EXTINF:4,', `${canaryUrl}/ssrf-fragment#.ts`])],
    '/id3.m3u8': ['application/octet-stream', id3],
    '/manifest.mp4': ['video/mp4', `<?xml version="1.0"?><MPD xmlns="urn:mpeg:dash:schema:mpd:2011" profiles="urn:mpeg:dash:profile:isoff-on-demand:2011" type="static" mediaPresentationDuration="PT4S"><BaseURL>${canaryUrl}/ssrf-dash/</BaseURL><Period><AdaptationSet mimeType="video/mp4"><Representation id="1" bandwidth="1000"><BaseURL>film.mp4</BaseURL></Representation></AdaptationSet></Period></MPD>`],
    // The probe reads the first segment; the canary is the last one, for the conversion itself.
    '/late.m3u8': ['application/vnd.apple.mpegurl', latePlaylist()],
    '/real/index.m3u8': ['application/vnd.apple.mpegurl', hlsPlaylist],
  };
}

/** The real HLS with absolute segment addresses, the last one the canary's. */
function latePlaylist(): string {
  const lines = hlsPlaylist.split('\n').map((line) => (line.endsWith('.ts') ? `${sourceUrl}/real/${line}` : line));
  const last = lines.map((line) => line.endsWith('.ts')).lastIndexOf(true);
  lines[last] = `${canaryUrl}/ssrf-late.ts`;
  return lines.join('\n');
}

beforeAll(async () => {
  const dir = tempDir('convert-guard-');
  const media = makeConversionMedia(path.join(dir, 'media'));
  const hlsDir = path.join(dir, 'hls');
  fs.mkdirSync(hlsDir);
  execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-i', media.hevcLong, '-c', 'copy', '-f', 'hls', '-hls_time', '4', '-hls_playlist_type', 'vod', '-hls_segment_filename', path.join(hlsDir, 'seg%d.ts'), path.join(hlsDir, 'index.m3u8')]);
  hlsPlaylist = fs.readFileSync(path.join(hlsDir, 'index.m3u8'), 'utf8');
  for (const name of fs.readdirSync(hlsDir).filter((file) => file.endsWith('.ts')).sort()) hlsSegments.set(name, fs.readFileSync(path.join(hlsDir, name)));

  canary = http.createServer((request, response) => {
    canaryHits.push(`${request.url} ${request.headers['user-agent'] ?? ''}`);
    response.writeHead(200, { 'Content-Type': 'video/mp2t' });
    response.end(hlsSegments.values().next().value);
  });
  await new Promise<void>((resolve) => canary.listen(0, CANARY_HOST, resolve));
  canaryUrl = `http://${CANARY_HOST}:${(canary.address() as AddressInfo).port}`;

  source = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://source');
    // `/whole/…`: the same file from a host that ignores Range (streamed through, not sliced).
    const whole = url.pathname.startsWith('/whole/');
    const name = whole ? url.pathname.slice('/whole'.length) : url.pathname;
    const segment = name.startsWith('/real/') ? hlsSegments.get(name.slice('/real/'.length)) : undefined;
    const file: [string, string | Buffer] | undefined = segment ? ['video/mp2t', segment] : attackerFiles()[name];
    if (!file) {
      response.writeHead(404).end();
      return;
    }
    const body = Buffer.from(file[1]);
    const range = /bytes=(\d+)-(\d+)?/.exec(request.headers.range ?? '');
    if (whole || !range) {
      response.writeHead(200, { 'Content-Type': file[0], 'Content-Length': body.length });
      response.end(body);
      return;
    }
    const start = Number(range[1]);
    const end = range[2] ? Math.min(Number(range[2]), body.length - 1) : body.length - 1;
    response.writeHead(206, { 'Content-Type': file[0], 'Content-Length': end - start + 1, 'Content-Range': `bytes ${start}-${end}/${body.length}` });
    response.end(body.subarray(start, end + 1));
  });
  await new Promise<void>((resolve) => source.listen(0, SOURCE_HOST, resolve));
  sourceUrl = `http://${SOURCE_HOST}:${(source.address() as AddressInfo).port}`;

  server = await launch({ proxyAllowAddresses: [SOURCE_HOST] });
  owner = await signUpUser(server, 'guardowner');
  ({ roomId } = await createRoom(server, owner));
});

afterAll(async () => {
  await server?.stop();
  for (const listener of [source, canary]) {
    listener?.closeAllConnections();
    await new Promise((resolve) => listener?.close(resolve));
  }
});

/** Pushes `base` with conversion on, makes it current, and asks for its converted playlist: its status, error and text. */
async function convert(base: Record<string, unknown>): Promise<{ status: number; error: string | undefined; playlist: string }> {
  const pushed = await post(server, '/api/room/movie/push', { name: 'Attack', convert: true, ...base }, { token: owner.token, roomId });
  expect(pushed.body.error).toBeUndefined();
  const id = pushed.body.data.id as string;
  expect((await post(server, '/api/room/movie/current', { id }, { token: owner.token, roomId })).status).toBe(204);
  const answer = await get(server, `/api/room/movie/convert/${id}/index.m3u8`, { token: owner.token, roomId });
  return { status: answer.status, error: answer.body?.error as string | undefined, playlist: answer.text };
}

describe('what ffmpeg reads', () => {
  it.each([
    ['a film whose body is an HLS playlist (sliced)', { url: '/fake.mp4' }],
    ['a film whose body is an HLS playlist (a host without Range)', { url: '/whole/fake.mp4' }],
    ['the same, said to be HLS', { url: '/fake.mp4', type: 'm3u8' }],
    ['a segment', { url: '/segment', type: 'm3u8' }],
    ['a variant playlist', { url: '/variant', type: 'm3u8' }],
    ['a key', { url: '/key', type: 'm3u8' }],
    ['a key without quotes', { url: '/bare-key', type: 'm3u8' }],
    ['the #.ts fragment', { url: '/fragment', type: 'm3u8' }],
    ['an ID3 tag before the playlist', { url: '/id3.m3u8' }],
    ['an ID3 tag before the playlist, as a film', { url: '/whole/id3.m3u8', type: 'mp4' }],
    ['a DASH BaseURL', { url: '/manifest.mp4' }],
    ['a DASH BaseURL, said to be DASH', { url: '/whole/manifest.mp4', type: 'mpd' }],
  ])('never follows %s to the server\'s own network', async (_name, { url, ...rest }) => {
    const answer = await convert({ url: `${sourceUrl}${url}`, ...rest });
    expect([answer.status, answer.error]).toEqual([400, NOT_MEDIA]);
    expect(canaryHits).toEqual([]);
  });

  it('converts a real HLS source through the rewritten playlist, and never follows a segment past the probe either', async () => {
    const real = await convert({ url: `${sourceUrl}/real/index.m3u8` });
    expect(real.status).toBe(200);
    const segments = real.playlist.split('\n').filter((line) => line.startsWith('/api/'));
    expect(segments.length).toBe(3);
    const first = await fetch(`${server.url}${segments[0]}`);
    expect([first.status, first.headers.get('content-type')]).toEqual([200, 'video/mp2t']);
    expect((await first.arrayBuffer()).byteLength).toBeGreaterThan(1000);

    const late = await convert({ url: `${sourceUrl}/late.m3u8` });
    expect(late.status).toBe(200);
    const lateSegments = late.playlist.split('\n').filter((line) => line.startsWith('/api/'));
    // ffmpeg skips a segment it cannot open (the guard refused it): the conversion ends without it.
    const last = await fetch(`${server.url}${lateSegments[lateSegments.length - 1]}`);
    expect([200, 502]).toContain(last.status);
    await last.arrayBuffer();
    expect(canaryHits).toEqual([]);

    // A line behind a lone CR becomes a segment of its own, refused and skipped; the real one plays.
    const carriage = await convert({ url: `${sourceUrl}/carriage`, type: 'm3u8' });
    expect(carriage.status).toBe(200);
    const carriageSegments = carriage.playlist.split('\n').filter((line) => line.startsWith('/api/'));
    await (await fetch(`${server.url}${carriageSegments[0]}`)).arrayBuffer();
    expect(canaryHits).toEqual([]);
  });

  it('logs no token of ffmpeg\'s, and what a log line names reads nothing from this machine', async () => {
    const logged = await launch({ proxyAllowAddresses: [SOURCE_HOST], logLevel: 'info' });
    try {
      const user = await signUpUser(logged, 'loggeduser');
      const { roomId: room } = await createRoom(logged, user);
      const pushed = await post(logged, '/api/room/movie/push', { url: `${sourceUrl}/real/${[...hlsSegments.keys()][0]}`, name: 'Logged', convert: true }, { token: user.token, roomId: room });
      const id = pushed.body.data.id as string;
      expect((await get(logged, `/api/room/movie/convert/${id}/index.m3u8`, { token: user.token, roomId: room })).status).toBe(200);
      await until(() => logged.output().includes('/input/'), 'ffmpeg\'s requests in the log');
      const inputPaths = [...logged.output().matchAll(/\/api\/room\/movie\/proxy\/[0-9a-f]{32}\/input\/\S+/g)].map((match) => match[0]);
      expect(inputPaths.length).toBeGreaterThan(0);
      for (const logPath of inputPaths) {
        expect(logPath).toMatch(/\/input\/\[redacted\](\.\w+)?$/);
        // Whatever the line names, from this machine (as behind nginx) it is as if the route did not exist.
        expect((await fetch(`${logged.url}${logPath}`)).status).toBe(404);
      }
    } finally {
      await logged.stop();
    }
  });
});
