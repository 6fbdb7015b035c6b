/** @jest-environment node */
/**
 * Movies this server converts (docs/transcode.md "The route") against a real server process, a
 * real source on 127.0.0.2 (one host with HTTP Range, one without, like `python3 -m http.server`)
 * and Debian's ffmpeg: the playlist `/current` points at, segments made on demand and shared, a far
 * seek made first, a copied picture cut at its keyframes, the refusals, the loopback-only input and
 * the authorization matrix.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { IMAGE_SUBTITLE_BOX, makeConversionMedia, type ConversionMedia } from '../e2e/support/conversion-media';
import { createRoom, get, launch, post, signUpUser, tempDir, TEST_ROOT_PASSWORD, type TestServer, type TestUser } from './test-support/harness';
import { roomCallers, statusesOf, watchersMatrix } from './test-support/room-roles';

jest.setTimeout(60_000);

const SOURCE_HOST = '127.0.0.2';

let media: ConversionMedia;
let server: TestServer;
let source: http.Server;
let sourceUrl = '';
let owner: TestUser;
let member: TestUser;
let roomId = '';
/** Range requests the source answered, by file name. */
const ranges: Record<string, number> = {};
/** Files the source no longer has (404), as a host whose film was removed. */
const gone = new Set<string>();

beforeAll(async () => {
  media = makeConversionMedia(path.join(tempDir('convert-media-'), 'media'));
  source = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://source');
    const name = path.basename(url.pathname);
    const file = Object.values(media).find((candidate) => path.basename(candidate) === name);
    if (!file || gone.has(name)) {
      response.writeHead(404).end();
      return;
    }
    const body = fs.readFileSync(file);
    const range = /bytes=(\d+)-(\d+)?/.exec(request.headers.range ?? '');
    if (url.pathname.startsWith('/whole/') || !range) {
      // `/whole/…`: a host that ignores Range, always the whole file.
      response.writeHead(200, { 'Content-Type': 'video/x-matroska', 'Content-Length': body.length });
      response.end(body);
      return;
    }
    ranges[name] = (ranges[name] ?? 0) + 1;
    const start = Number(range[1]);
    const end = range[2] ? Math.min(Number(range[2]), body.length - 1) : body.length - 1;
    response.writeHead(206, { 'Content-Type': 'video/x-matroska', 'Accept-Ranges': 'bytes', 'Content-Length': end - start + 1, 'Content-Range': `bytes ${start}-${end}/${body.length}` });
    response.end(body.subarray(start, end + 1));
  });
  await new Promise<void>((resolve) => source.listen(0, SOURCE_HOST, resolve));
  sourceUrl = `http://${SOURCE_HOST}:${(source.address() as AddressInfo).port}`;
  server = await launch({ proxyAllowAddresses: [SOURCE_HOST] });
  owner = await signUpUser(server, 'convowner');
  ({ roomId } = await createRoom(server, owner));
  member = await signUpUser(server, 'convmember');
  expect((await post(server, '/api/room/login', { roomId, password: '' }, { token: member.token })).status).toBe(200);
});

/** `url` with `user`'s token instead. */
const as = (user: TestUser, url: string) => url.replace(/token=[^&]+/, `token=${user.token}`);

afterAll(async () => {
  await server?.stop();
  source?.closeAllConnections();
  await new Promise((resolve) => source?.close(resolve));
});

/** Pushes `base` into the room as `owner`, makes it current, and returns its id and the URL `/current` gives. */
async function play(base: Record<string, unknown>): Promise<{ id: string; url: string; type: string }> {
  const pushed = await post(server, '/api/room/movie/push', base, { token: owner.token, roomId });
  expect(pushed.body.error).toBeUndefined();
  const id = pushed.body.data.id as string;
  expect((await post(server, '/api/room/movie/current', { id }, { token: owner.token, roomId })).status).toBe(204);
  const current = await get(server, '/api/room/movie/current', { token: owner.token, roomId });
  const url = current.body.data.movie.base.url as string;
  return { id, url: url.startsWith('/') ? `${server.url}${url}` : url, type: current.body.data.movie.base.type };
}

/** The segment URLs and durations of an HLS playlist. */
async function segmentsOf(playlistUrl: string): Promise<{ urls: string[]; durations: number[] }> {
  const response = await fetch(playlistUrl);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('application/vnd.apple.mpegurl');
  const lines = (await response.text()).split('\n');
  expect(lines).toContain('#EXT-X-ENDLIST');
  return {
    urls: lines.filter((line) => line.startsWith('/api/')).map((line) => `${server.url}${line}`),
    durations: lines.filter((line) => line.startsWith('#EXTINF:')).map((line) => Number(/#EXTINF:([\d.]+)/.exec(line)![1])),
  };
}

/** What a downloaded segment holds, read by ffprobe: its streams' codecs. */
/** Downloads a segment (200) into a file of its own; its path and content type. */
async function downloadSegment(url: string): Promise<{ file: string; type: string | null }> {
  const response = await fetch(url);
  expect(response.status).toBe(200);
  const file = path.join(tempDir('segment-'), 'segment.ts');
  fs.writeFileSync(file, Buffer.from(await response.arrayBuffer()));
  return { file, type: response.headers.get('content-type') };
}

async function probeSegment(url: string): Promise<{ codecs: string[] }> {
  const { file, type } = await downloadSegment(url);
  expect(type).toBe('video/mp2t');
  const out = await new Promise<string>((resolve, reject) =>
    execFile('ffprobe', ['-v', 'error', '-show_entries', 'stream=codec_name', '-of', 'csv=p=0', file], (error, stdout) => (error ? reject(error) : resolve(stdout))),
  );
  // ffprobe lists each stream twice in MPEG-TS (under its program, then alone).
  return { codecs: [...new Set(out.split('\n').map((line) => line.replace(/,$/, '').trim()).filter(Boolean))] };
}

/**
 * What frame `frame` of a segment shows, from its brightness (gray, 160×90) at the subtitle box's
 * centre and in a corner: `box` (white over black), `black`, or the two figures.
 */
async function pictureIn(url: string, frame: number): Promise<string> {
  const { file } = await downloadSegment(url);
  const pixels = await new Promise<Buffer>((resolve, reject) =>
    execFile('ffmpeg', ['-v', 'error', '-i', file, '-vf', `select=eq(n\\,${frame})`, '-frames:v', '1', '-f', 'rawvideo', '-pix_fmt', 'gray', 'pipe:1'], { encoding: 'buffer' }, (error, stdout) => (error ? reject(error) : resolve(stdout))),
  );
  const { x, y, width, height } = IMAGE_SUBTITLE_BOX;
  const [box, corner] = [pixels[(y + height / 2) * 160 + x + width / 2], pixels[5 * 160 + 5]];
  if (corner < 40) {
    if (box > 200) return 'box';
    if (box < 40) return 'black';
  }
  return `${box} ${corner}`;
}

describe('a converted movie', () => {
  it('plays as the server\'s HLS: the picture and sound a browser decodes, a far segment first, shared by the room', async () => {
    const { id, url, type } = await play({ url: `${sourceUrl}/hevc-long.mkv`, name: 'HEVC', convert: true });
    expect(type).toBe('m3u8');
    expect(url).toMatch(new RegExp(`/api/room/movie/convert/${id}/index\\.m3u8\\?token=.+&roomId=${roomId}$`));
    const { urls, durations } = await segmentsOf(url);
    expect(durations.map((length) => Number(length.toFixed(1)))).toEqual([4, 4, 4]);
    // The last segment first, as a late joiner's seek asks it: HEVC + AC-3 became H.264 + AAC.
    expect(await probeSegment(urls[2])).toEqual({ codecs: ['h264', 'aac'] });
    expect(await probeSegment(urls[0])).toEqual({ codecs: ['h264', 'aac'] });
    // Another member, the same conversion: its segment is there at once.
    const theirs = await segmentsOf(as(member, url));
    expect(await probeSegment(theirs.urls[2])).toEqual({ codecs: ['h264', 'aac'] });
    expect((await fetch(urls[3] ?? urls[2].replace('/2.ts', '/3.ts'))).status).toBe(404);
    expect(ranges['hevc-long.mkv']).toBeGreaterThan(0);
  });

  it('copies a picture browsers decode, cut at its keyframes, from a host without Range', async () => {
    const { url } = await play({ url: `${sourceUrl}/whole/h264-ac3-long.mkv`, name: 'H.264 + AC-3', convert: true });
    const { urls, durations } = await segmentsOf(url);
    // A keyframe every 2.4 s: segments start 4.8 s apart.
    expect(durations.map((length) => Number(length.toFixed(1)))).toEqual([4.8, 4.8, 2.4]);
    // Watched by the member: the owner's conversion of the first film still counts for the owner.
    expect(await probeSegment(as(member, urls[1]))).toEqual({ codecs: ['h264', 'aac'] });
  });

  it('offers the film\'s sounds to choose from and its text subtitles, as WebVTT and ASS', async () => {
    const { id, url } = await play({ url: `${sourceUrl}/hevc-eac3.mkv`, name: 'Two sounds', convert: true });
    const current = (await get(server, '/api/room/movie/current', { token: member.token, roomId })).body.data.movie.base;
    expect(current.mediaChoices).toEqual({
      audioTracks: [
        { index: 1, name: 'English 5.1', language: 'eng', default: true },
        { index: 2, name: 'Japanese', language: 'jpn', default: false },
      ],
      maxBitrates: [],
    });
    expect(Object.keys(current.subtitles)).toEqual(['eng', 'jpn']);
    const vtt = await fetch(`${server.url}${current.subtitles.eng.url}`);
    expect([vtt.status, current.subtitles.eng.type]).toEqual([200, 'vtt']);
    // On the source's clock (the MKV starts 5 ms in), as the converted picture is.
    expect(await vtt.text()).toMatch(/^WEBVTT\s+00:00\.00\d --> 00:01\.50\d\s+Hello/);
    const ass = await fetch(`${server.url}${current.subtitles.jpn.url}`);
    expect([ass.status, current.subtitles.jpn.type]).toEqual([200, 'ass']);
    expect(await ass.text()).toContain('こんにちは');
    expect((await fetch(`${server.url}/api/room/movie/convert/${id}/subtitle/1.vtt?token=${member.token}&roomId=${roomId}`)).status).toBe(404);
    // The member chooses the Japanese sound: a conversion of its own, with that sound (stereo AC-3 became AAC).
    const japanese = await segmentsOf(`${as(member, url)}&audio=2`);
    expect(japanese.urls[0]).toContain('audio=2');
    expect(await probeSegment(japanese.urls[0])).toEqual({ codecs: ['h264', 'aac'] });
  });

  it('draws an image subtitle into the picture for the viewer who chooses it, from the start or a far segment', async () => {
    const { id, url } = await play({ url: `${sourceUrl}/image-subtitle.mkv`, name: 'PGS', convert: true });
    const current = (await get(server, '/api/room/movie/current', { token: member.token, roomId })).body.data.movie.base;
    expect(current.mediaChoices).toEqual({ audioTracks: [], maxBitrates: [], burnSubtitles: [{ index: 2, name: 'eng', language: 'eng' }] });
    expect(current.subtitles).toBeUndefined();
    // The room's conversion: no box.
    const plain = await segmentsOf(url);
    expect(await pictureIn(plain.urls[0], 25)).toBe('black');
    // The member's choice: a white box over the black picture, in a far segment asked first and in the first.
    const chosen = await segmentsOf(`${as(member, url)}&subtitle=2`);
    expect(chosen.durations).toHaveLength(15);
    expect(chosen.urls[12]).toContain('subtitle=2');
    // Segment 12 (48–52 s), asked first: at 49 s a line shows that began at 48.5 s.
    expect(await pictureIn(chosen.urls[12], 25)).toBe('box');
    expect(await pictureIn(chosen.urls[0], 25)).toBe('box');
    const none = await get(server, `/api/room/movie/convert/${id}/index.m3u8?subtitle=1`, { token: member.token, roomId });
    expect([none.status, none.body.error]).toEqual([400, 'id out of range']);
  });

  it('says the conversion failed when the source is gone in the middle, and stops', async () => {
    // A host without Range: nothing of it stays in the proxy's slice cache.
    const { url } = await play({ url: `${sourceUrl}/whole/dts.mkv`, name: 'Removed later', convert: true });
    const { urls } = await segmentsOf(url);
    gone.add('dts.mkv');
    try {
      // The probe was made; the film is gone before ffmpeg reads it.
      const segment = await fetch(urls[0]);
      expect([segment.status, ((await segment.json()) as { error: string }).error]).toEqual([502, 'the conversion failed']);
    } finally {
      gone.delete('dts.mkv');
    }
  });

  it('refuses what it cannot convert, in the contract\'s words', async () => {
    const notMedia = await play({ url: `${sourceUrl}/not-media.mkv`, name: 'Not a film', convert: true });
    const refused = await get(server, notMedia.url.slice(server.url.length));
    expect([refused.status, refused.body.error]).toEqual([400, 'the source is not a film this server can read']);
    const plain = await play({ url: `${sourceUrl}/hevc-long.mkv`, name: 'Plain' });
    expect(plain.url).toBe(`${sourceUrl}/hevc-long.mkv`);
    const asked = await get(server, `/api/room/movie/convert/${plain.id}/index.m3u8`, { token: owner.token, roomId });
    expect([asked.status, asked.body.error]).toEqual([400, 'movie is not converted']);
    const live = await post(server, '/api/room/movie/push', { url: `${sourceUrl}/live.m3u8`, name: 'Live', live: true, convert: true }, { token: owner.token, roomId });
    expect([live.status, live.body.error]).toEqual([400, 'a live movie cannot be converted']);
    const converted = await play({ url: `${sourceUrl}/hevc-long.mkv`, name: 'HEVC', convert: true });
    const badSegment = await fetch(converted.url.replace('index.m3u8', 'seg.ts'));
    expect(badSegment.status).toBe(404);
    const badAudio = await get(server, `/api/room/movie/convert/${converted.id}/index.m3u8?audio=9`, { token: owner.token, roomId });
    expect([badAudio.status, badAudio.body.error]).toEqual([400, 'id out of range']);
    // Turned off by the site admin: pushes and playlists are refused.
    const root = await post(server, '/api/user/login', { username: 'root', password: TEST_ROOT_PASSWORD });
    const setting = (value: boolean) => post(server, '/api/admin/settings', { movie_convert: value }, { token: root.body.data.token });
    expect((await setting(false)).status).toBe(204);
    try {
      const off = await get(server, converted.url.slice(server.url.length));
      expect([off.status, off.body.error]).toEqual([400, 'movie conversion is not enabled']);
      const push = await post(server, '/api/room/movie/push', { url: `${sourceUrl}/hevc-long.mkv`, name: 'HEVC', convert: true }, { token: owner.token, roomId });
      expect([push.status, push.body.error]).toEqual([400, 'movie conversion is not enabled']);
    } finally {
      await setting(true);
    }
  });

  it('in a room that converts automatically, converts what browsers cannot play when it starts, and leaves the rest as it is', async () => {
    expect((await get(server, '/api/room/settings', { token: member.token, roomId })).body.data.auto_convert).toBe(false);
    const setting = (user: TestUser, value: boolean) => post(server, '/api/room/admin/settings', { auto_convert: value }, { token: user.token, roomId });
    const refused = await setting(member, true);
    expect(refused.status).toBe(403);
    // Started before the room converted: as it is.
    const before = await play({ url: `${sourceUrl}/hevc-eac3.mkv`, name: 'Before' });
    expect(before.url).toBe(`${sourceUrl}/hevc-eac3.mkv`);
    expect((await setting(owner, true)).status).toBe(204);
    try {
      expect((await get(server, '/api/room/settings', { token: member.token, roomId })).body.data.auto_convert).toBe(true);
      const urlOf = async (base: Record<string, unknown>) => (await play(base)).url.replace(server.url, '').replace(/\?.*/, '').replace(/[0-9a-f]{32}/, '<id>');
      expect(await urlOf({ url: `${sourceUrl}/hevc-eac3.mkv`, name: 'HEVC' })).toBe('/api/room/movie/convert/<id>/index.m3u8');
      expect(await urlOf({ url: `${sourceUrl}/whole/h264-aac.mkv`, name: 'Matroska' })).toBe('/api/room/movie/convert/<id>/index.m3u8');
      expect(await urlOf({ url: `${sourceUrl}/ac3.mp4`, name: 'AC-3' })).toBe('/api/room/movie/convert/<id>/index.m3u8');
      expect(await urlOf({ url: `${sourceUrl}/h264-aac.mp4`, name: 'Plays' })).toBe(`${sourceUrl}/h264-aac.mp4`);
      // Not a film: left for the player to say so.
      expect(await urlOf({ url: `${sourceUrl}/not-media.mkv`, name: 'Not a film' })).toBe(`${sourceUrl}/not-media.mkv`);
      // A movie started again once the room converts; the list shows it converted too.
      expect((await post(server, '/api/room/movie/current', { id: before.id }, { token: owner.token, roomId })).status).toBe(204);
      const current = await get(server, '/api/room/movie/current', { token: member.token, roomId });
      expect([current.body.data.movie.base.type, current.body.data.movie.base.url]).toEqual(['m3u8', expect.stringContaining(`/api/room/movie/convert/${before.id}/index.m3u8`)]);
      const list = await get(server, '/api/room/movie/movies?max=100', { token: member.token, roomId });
      expect(list.body.data.movies.find((movie: { id: string }) => movie.id === before.id).base.convert).toBe(true);
    } finally {
      expect((await setting(owner, false)).status).toBe(204);
    }
    expect((await play({ url: `${sourceUrl}/hevc-long.mkv`, name: 'Off again' })).url).toBe(`${sourceUrl}/hevc-long.mkv`);
  });

  it('gives ffmpeg its input only on this machine, with a token for that movie', async () => {
    const { id } = await play({ url: `${sourceUrl}/hevc-long.mkv`, name: 'HEVC', convert: true });
    // From 127.0.0.2 (not this server's own address): as if the route did not exist.
    const fromElsewhere = await new Promise<number>((resolve, reject) => {
      const request = http.get(`${server.url}/api/room/movie/proxy/${id}/input/x`, { localAddress: SOURCE_HOST, agent: false }, (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      });
      request.on('error', reject);
    });
    expect(fromElsewhere).toBe(404);
    // From this machine but not ffmpeg's (behind nginx or Caddy every client is): without this
    // process's secret header, whatever the token, the same.
    expect((await fetch(`${server.url}/api/room/movie/proxy/${id}/input/not-a-token`)).status).toBe(404);
    expect((await fetch(`${server.url}/api/room/movie/proxy/${id}/input/not-a-token`, { headers: { 'x-synctv-input': 'guess' } })).status).toBe(404);
  });

  it('says a server without ffmpeg converts nothing, in the public settings, the admin console and the route', async () => {
    const bare = await launch({ ffmpeg: false, proxyAllowAddresses: [SOURCE_HOST] });
    try {
      expect((await get(bare, '/api/public/settings')).body.data.movieConvert).toBe(false);
      const root = await post(bare, '/api/user/login', { username: 'root', password: TEST_ROOT_PASSWORD });
      expect((await get(bare, '/api/admin/settings/proxy', { token: root.body.data.token })).body.data.proxy.convert_ffmpeg).toBe('');
      const user = await signUpUser(bare, 'bare');
      const { roomId: room } = await createRoom(bare, user);
      const pushed = await post(bare, '/api/room/movie/push', { url: `${sourceUrl}/hevc-long.mkv`, name: 'HEVC', convert: true }, { token: user.token, roomId: room });
      const asked = await get(bare, `/api/room/movie/convert/${pushed.body.data.id}/index.m3u8`, { token: user.token, roomId: room });
      expect([asked.status, asked.body.error]).toEqual([400, 'this server cannot convert movies: ffmpeg is not installed']);
    } finally {
      await bare.stop();
    }
    const root = await post(server, '/api/user/login', { username: 'root', password: TEST_ROOT_PASSWORD });
    const proxy = (await get(server, '/api/admin/settings/proxy', { token: root.body.data.token })).body.data.proxy;
    expect(proxy.convert_ffmpeg).toMatch(/^\d/);
    // The hardware encoders that worked in a test here (none without a graphics device); one that did not is refused.
    expect([proxy.convert_encoder, typeof proxy.convert_hardware]).toEqual(['software', 'string']);
    const missing = ['vaapi', 'nvenc', 'qsv'].find((encoder) => !proxy.convert_hardware.split(', ').includes(encoder));
    const encoder = (value: string) => post(server, '/api/admin/settings', { convert_encoder: value }, { token: root.body.data.token });
    const refused = await encoder(missing!);
    expect([refused.status, refused.body.error]).toEqual([400, 'this hardware encoder does not work on this server']);
    expect((await encoder('turbo')).status).toBe(400);
    expect((await encoder('software')).status).toBe(204);
    const readOnly = await post(server, '/api/admin/settings', { convert_hardware: 'vaapi' }, { token: root.body.data.token });
    expect([readOnly.status, readOnly.body.error]).toEqual([400, 'setting convert_hardware not found']);
  });

  it('lets in whoever may watch the room, and nobody else (authorization matrix)', async () => {
    const creator = await signUpUser(server, 'convcreator');
    const { roomId: room } = await createRoom(server, creator);
    const { roomId: passwordRoom } = await createRoom(server, creator, { password: 'pw' });
    const pushed = await post(server, '/api/room/movie/push', { url: `${sourceUrl}/hevc-long.mkv`, name: 'HEVC', convert: true }, { token: creator.token, roomId: room });
    const movieId = pushed.body.data.id as string;
    const callers = await roomCallers(server, creator, room, passwordRoom, 'c');
    const outcomes = await statusesOf(callers, async (token, inRoom) => (await fetch(`${server.url}/api/room/movie/convert/${movieId}/index.m3u8?token=${token}&roomId=${inRoom}`)).status);
    expect(outcomes).toEqual(watchersMatrix(200));
  });
});
