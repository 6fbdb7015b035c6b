/** @jest-environment node */
/**
 * Going live from an encoder (docs/live.md, docs/contract.md §4.5): the publish key (its
 * authorization matrix and errors), and real RTMP pushes by ffmpeg into a real server process on
 * its HTTP port: the push becomes the movie's HTTP-FLV stream, a wrong key is refused, a second push
 * of the same key takes over, deleting the movie ends the broadcast, and bytes that are not RTMP
 * close only their own connection.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import path from 'node:path';
import { createRoom, get, launch, post, signUpUser, TEST_ROOT_PASSWORD, TestSocket, until, type TestServer, type TestUser } from './test-support/harness';
import { MessageType } from '@/lib/contract/message';
import { DefaultPermissions, Permission } from '@/lib/contract/roles';

jest.setTimeout(90_000);

const KEY_ROUTE = '/api/room/movie/live/publishKey';
const CLIP = path.resolve(__dirname, '..', 'e2e', 'media', 'flv', 'clip.flv');

let server: TestServer;
let creator: TestUser;

beforeAll(async () => {
  server = await launch();
  creator = await signUpUser(server, 'host');
});

afterAll(async () => {
  await server?.stop();
});

const join = (user: TestUser, roomId: string) => post(server, '/api/room/login', { roomId, password: '' }, { token: user.token });

/** Adds a live movie pushed over RTMP by `user`; its id. */
async function pushLiveMovie(user: TestUser, roomId: string, name = 'Live'): Promise<string> {
  const pushed = await post(server, '/api/room/movie/push', { name, url: '', live: true, rtmpSource: true, type: 'flv' }, { token: user.token, roomId });
  expect(pushed.status).toBe(200);
  return pushed.body.data.id as string;
}

/** ffmpeg pushing the committed FLV clip (looped, in real time, without re-encoding) to `url`. */
function startPush(url: string): { process: ChildProcess; exited: Promise<number | null> } {
  const child = spawn('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-re', '-stream_loop', '-1', '-i', CLIP, '-c', 'copy', '-f', 'flv', url], { stdio: 'ignore' });
  return { process: child, exited: new Promise((resolve) => child.on('exit', (code) => resolve(code))) };
}

/** Reads the first `bytes` of a streaming response, then cancels it. */
async function readHead(url: string, bytes: number): Promise<Buffer> {
  const response = await fetch(url);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('video/x-flv');
  const reader = response.body!.getReader();
  const chunks: Buffer[] = [];
  let length = 0;
  while (length < bytes) {
    const { value, done } = await reader.read();
    if (done) break;
    chunks.push(Buffer.from(value));
    length += value.length;
  }
  await reader.cancel();
  return Buffer.concat(chunks);
}

/** The FLV tags of `data` after the 13-byte header: type and, for video, whether it is a key frame. */
function flvTags(data: Buffer): { type: number; keyFrame: boolean }[] {
  const tags = [];
  for (let offset = 13; offset + 11 <= data.length; ) {
    const type = data[offset];
    const size = data.readUIntBE(offset + 1, 3);
    if (offset + 11 + size > data.length) break;
    tags.push({ type, keyFrame: type === 9 && data[offset + 11] >> 4 === 1 });
    offset += 11 + size + 4;
  }
  return tags;
}

describe('publish key', () => {
  it('goes to the movie’s creator only; everyone else is refused with the contract’s texts', async () => {
    const { roomId } = await createRoom(server, creator);
    const { roomId: passwordRoomId } = await createRoom(server, creator, { password: 'room-pw' });
    const root = (await post(server, '/api/user/login', { username: 'root', password: TEST_ROOT_PASSWORD })).body.data.token as string;
    const [without, withBit, admin, pending, banned, nonMember] = await Promise.all(['m0', 'm1', 'adm', 'pend', 'ban', 'non'].map((prefix) => signUpUser(server, prefix)));
    for (const user of [without, withBit, admin, banned]) expect((await join(user, roomId)).status).toBe(200);
    expect((await get(server, '/api/room/me', { token: root, roomId })).status).toBe(200);
    expect((await get(server, '/api/room/me', { roomId })).status).toBe(200);
    const settings = (patch: Record<string, unknown>) => post(server, '/api/room/admin/settings', patch, { token: creator.token, roomId });
    const setPermissions = (user: TestUser, permissions: number) =>
      post(server, '/api/room/admin/members/member/permissions', { id: user.id, permissions }, { token: creator.token, roomId });
    expect((await setPermissions(withBit, DefaultPermissions | Permission.AddMovie)).status).toBe(204);
    expect((await post(server, '/api/room/admin/members/admin', { id: admin.id, adminPermissions: 0 }, { token: creator.token, roomId })).status).toBe(204);
    expect((await post(server, '/api/room/admin/members/ban', { id: banned.id }, { token: creator.token, roomId })).status).toBe(204);
    expect((await settings({ join_need_review: true })).status).toBe(204);
    expect((await join(pending, roomId)).body.data.status).toBe(2);
    expect((await settings({ join_need_review: false, disable_join_new_user: true })).status).toBe(204);

    // The room creator's live movie, and one a member (with the add-movie bit) created.
    const creatorsMovie = await pushLiveMovie(creator, roomId);
    const membersMovie = await pushLiveMovie(withBit, roomId, 'member live');
    // Without the add-movie bit there is no live movie of one's own to get a key for.
    expect((await post(server, '/api/room/movie/push', { name: 'x', url: '', live: true, rtmpSource: true }, { token: without.token, roomId })).status).toBe(403);

    const NO = 'new publish key error: no permission';
    const callers: [string, { token?: string; roomId: string }, string, number, string | undefined][] = [
      ['visitor (password room)', { roomId: passwordRoomId }, creatorsMovie, 401, 'guests are not allowed to perform this action'],
      ['guest', { roomId }, creatorsMovie, 403, NO],
      ['non-member', { token: nonMember.token, roomId }, creatorsMovie, 401, 'get room member failed: room or member not found'],
      ['pending', { token: pending.token, roomId }, creatorsMovie, 401, 'user account is pending approval'],
      ['banned', { token: banned.token, roomId }, creatorsMovie, 401, 'user has been banned from this room'],
      ['member without the add-movie bit', { token: without.token, roomId }, creatorsMovie, 403, NO],
      ['member with the bit, another’s movie', { token: withBit.token, roomId }, creatorsMovie, 403, NO],
      ['member with the bit, own movie', { token: withBit.token, roomId }, membersMovie, 200, undefined],
      ['room admin', { token: admin.token, roomId }, creatorsMovie, 403, NO],
      ['room creator, own movie', { token: creator.token, roomId }, creatorsMovie, 200, undefined],
      ['room creator, a member’s movie', { token: creator.token, roomId }, membersMovie, 403, NO],
      ['site admin (root)', { token: root, roomId }, creatorsMovie, 403, NO],
    ];
    const outcomes = [];
    for (const [name, options, id, , error] of callers) {
      const response = await post(server, KEY_ROUTE, { id }, options);
      outcomes.push([name, response.status, error === undefined ? undefined : response.body?.error]);
    }
    expect(outcomes).toEqual(callers.map(([name, , , status, error]) => [name, status, error]));

    const key = await post(server, KEY_ROUTE, { id: creatorsMovie }, { token: creator.token, roomId });
    expect(key.body.data).toEqual({ host: new URL(server.url).host, app: roomId, token: expect.stringMatching(/^[0-9a-f]{32}\.[\w-]{43}$/) });
  });

  it('says what is wrong: an unknown movie, a movie that is not a push, a bad body; and names the configured host', async () => {
    const creator = await signUpUser(server, 'host');
    const { roomId } = await createRoom(server, creator);
    const plain = await post(server, '/api/room/movie/push', { name: 'clip', url: 'https://example.com/a.mp4' }, { token: creator.token, roomId });
    const ask = (body: unknown) => post(server, KEY_ROUTE, body, { token: creator.token, roomId });
    expect(await ask({ id: 'f'.repeat(32) }).then((r) => [r.status, r.body.error])).toEqual([400, 'room or movie not found']);
    expect(await ask({ id: plain.body.data.id }).then((r) => [r.status, r.body.error])).toEqual([400, 'only live movie can get publish key']);
    expect((await ask({ id: 5 })).status).toBe(400);

    const root = (await post(server, '/api/user/login', { username: 'root', password: TEST_ROOT_PASSWORD })).body.data.token as string;
    const movieId = await pushLiveMovie(creator, roomId);
    expect((await post(server, '/api/admin/settings', { host: 'https://watch.example.com' }, { token: root })).status).toBe(204);
    expect((await ask({ id: movieId })).body.data.host).toBe('watch.example.com');
    expect((await post(server, '/api/admin/settings', { custom_publish_host: 'live.example.com:1935' }, { token: root })).status).toBe(204);
    expect((await ask({ id: movieId })).body.data.host).toBe('live.example.com:1935');
    expect((await post(server, '/api/admin/settings', { host: '', custom_publish_host: '' }, { token: root })).status).toBe(204);
  });

  it('is refused, as live movies are, when the server takes no RTMP; without ffmpeg a push is offered as HTTP-FLV only', async () => {
    const off = await launch({ rtmp: false });
    try {
      const owner = await signUpUser(off, 'off');
      const { roomId } = await createRoom(off, owner);
      const pushed = await post(off, '/api/room/movie/push', { name: 'Live', url: '', live: true, rtmpSource: true }, { token: owner.token, roomId });
      expect([pushed.status, pushed.body.error]).toEqual([400, 'rtmp is not enabled']);
      const plain = await post(off, '/api/room/movie/push', { name: 'clip', url: 'https://example.com/a.mp4' }, { token: owner.token, roomId });
      const key = await post(off, KEY_ROUTE, { id: plain.body.data.id }, { token: owner.token, roomId });
      expect([key.status, key.body.error]).toEqual([400, 'rtmp is not enabled']);
    } finally {
      await off.stop();
    }
    const noFfmpeg = await launch({ ffmpeg: false });
    try {
      const owner = await signUpUser(noFfmpeg, 'flv');
      const { roomId } = await createRoom(noFfmpeg, owner);
      const pushed = await post(noFfmpeg, '/api/room/movie/push', { name: 'Live', url: '', live: true, rtmpSource: true }, { token: owner.token, roomId });
      await post(noFfmpeg, '/api/room/movie/current', { id: pushed.body.data.id }, { token: owner.token, roomId });
      const base = (await get(noFfmpeg, '/api/room/movie/current', { token: owner.token, roomId })).body.data.movie.base;
      expect([base.type, base.moreSources]).toEqual(['flv', undefined]);
      const list = await get(noFfmpeg, `/api/room/movie/live/hls/list/${pushed.body.data.id as string}.m3u8`, { token: owner.token, roomId });
      expect([list.status, list.body.error]).toEqual([404, 'live stream not started']);
    } finally {
      await noFfmpeg.stop();
    }
  });
});

describe('who may watch', () => {
  it('lets the room in to the HLS playlist and the danmaku stream of a push, and refuses everyone else with the texts of the other room routes', async () => {
    const creator = await signUpUser(server, 'watch');
    const { roomId } = await createRoom(server, creator);
    const { roomId: passwordRoomId } = await createRoom(server, creator, { password: 'room-pw' });
    const movieId = await pushLiveMovie(creator, roomId);
    const settings = (patch: Record<string, unknown>) => post(server, '/api/room/admin/settings', patch, { token: creator.token, roomId });
    const root = (await post(server, '/api/user/login', { username: 'root', password: TEST_ROOT_PASSWORD })).body.data.token as string;
    const [member, admin, pending, banned, nonMember] = await Promise.all(['m', 'adm', 'pend', 'ban', 'non'].map((prefix) => signUpUser(server, prefix)));
    for (const user of [member, admin, banned]) expect((await join(user, roomId)).status).toBe(200);
    expect((await post(server, '/api/room/admin/members/admin', { id: admin.id, adminPermissions: 0 }, { token: creator.token, roomId })).status).toBe(204);
    expect((await post(server, '/api/room/admin/members/ban', { id: banned.id }, { token: creator.token, roomId })).status).toBe(204);
    // Root and the guest become members on their first request (§3.4 step 6), before new members are reviewed or turned away.
    expect((await get(server, '/api/room/me', { token: root, roomId })).status).toBe(200);
    expect((await get(server, '/api/room/me', { roomId })).status).toBe(200);
    expect((await settings({ join_need_review: true })).status).toBe(204);
    expect((await join(pending, roomId)).body.data.status).toBe(2);
    expect((await settings({ join_need_review: false, disable_join_new_user: true })).status).toBe(204);

    const callers: [string, { token?: string; roomId: string }, string | null][] = [
      ['visitor (password room)', { roomId: passwordRoomId }, 'guests are not allowed to perform this action'],
      ['guest', { roomId }, null],
      ['non-member', { token: nonMember.token, roomId }, 'get room member failed: room or member not found'],
      ['pending', { token: pending.token, roomId }, 'user account is pending approval'],
      ['banned', { token: banned.token, roomId }, 'user has been banned from this room'],
      ['member', { token: member.token, roomId }, null],
      ['room admin', { token: admin.token, roomId }, null],
      ['creator', { token: creator.token, roomId }, null],
      ['site admin (root)', { token: root, roomId }, null],
    ];
    const seen = [];
    for (const [name, options] of callers) {
      const list = await get(server, `/api/room/movie/live/hls/list/${movieId}.m3u8`, options);
      const danmu = await get(server, `/api/room/movie/danmu/${movieId}`, options);
      seen.push([name, list.status, list.body?.error, danmu.status, danmu.body?.error]);
    }
    // Let in: nobody pushes yet (404), and this server has no vendor with a danmaku stream (v0.9.11's text for a movie without one).
    expect(seen).toEqual(
      callers.map(([name, , refused]) => (refused ? [name, 401, refused, 401, refused] : [name, 404, 'live stream not started', 400, 'vendor  not support'])),
    );
    expect((await get(server, `/api/room/movie/danmu/${'f'.repeat(32)}`, { token: member.token, roomId })).body.error).toBe('room or movie not found');
  });
});

describe('RTMP push on the HTTP port', () => {
  it('becomes the movie’s HTTP-FLV stream; a wrong key is refused; the same key again takes over; the encoder stopping or the movie deleted ends it', async () => {
    const creator = await signUpUser(server, 'host');
    const { roomId } = await createRoom(server, creator);
    const movieId = await pushLiveMovie(creator, roomId);
    const { host, app, token } = (await post(server, KEY_ROUTE, { id: movieId }, { token: creator.token, roomId })).body.data as { host: string; app: string; token: string };
    const current = await post(server, '/api/room/movie/current', { id: movieId }, { token: creator.token, roomId });
    expect(current.status).toBe(204);
    const view = await get(server, '/api/room/movie/current', { token: creator.token, roomId });
    const flvUrl = `${server.url}${view.body.data.movie.base.url as string}`;
    expect(view.body.data.movie.base).toMatchObject({ type: 'flv', live: true, rtmpSource: true });
    const status = async () => (await fetch(flvUrl, { method: 'HEAD' })).status;
    expect(await status()).toBe(404);
    expect((await get(server, view.body.data.movie.base.url as string)).body.error).toBe('live stream not started');

    // A key for another room, and a forged key, are refused: ffmpeg gives up, nothing is live.
    const { roomId: otherRoom } = await createRoom(server, creator);
    for (const url of [`rtmp://${host}/${otherRoom}/${token}`, `rtmp://${host}/${app}/${movieId}.forged`]) {
      const refused = startPush(url);
      expect(await refused.exited).not.toBe(0);
    }
    expect(await status()).toBe(404);

    const first = startPush(`rtmp://${host}/${app}/${token}`);
    await until(async () => (await status()) === 200, 'the push to go live');
    const head = await readHead(flvUrl, 64 * 1024);
    expect(head.subarray(0, 3).toString()).toBe('FLV');
    const tags = flvTags(head);
    expect(tags.some((tag) => tag.type === 18)).toBe(true); // metadata
    // A viewer arriving mid-stream starts at a key frame: the first video tag after the codec header is one.
    const video = tags.filter((tag) => tag.type === 9);
    expect(video.length).toBeGreaterThan(2);
    expect(video[1].keyFrame).toBe(true);

    // The encoder reconnects (the same key): the new push takes over and the old connection closes.
    const second = startPush(`rtmp://${host}/${app}/${token}`);
    expect(await first.exited).not.toBe(0);
    await until(async () => (await status()) === 200, 'the second push to go live');
    expect((await readHead(flvUrl, 16 * 1024)).subarray(0, 3).toString()).toBe('FLV');

    // The encoder stops: the viewers' streams end, and the movie is off the air until the next push.
    const drain = async (response: Response) => {
      const reader = response.body!.getReader();
      while (!(await reader.read()).done);
      return true;
    };
    const watching = drain(await fetch(flvUrl));
    second.process.kill('SIGKILL');
    expect(await watching).toBe(true);
    expect(await status()).toBe(404);
    const third = startPush(`rtmp://${host}/${app}/${token}`);
    await until(async () => (await status()) === 200, 'the third push to go live');

    // Deleting the movie ends the broadcast: the viewer's stream ends and the encoder is cut off.
    // (The current movie cannot be deleted: another one plays first.)
    const plain = await post(server, '/api/room/movie/push', { name: 'clip', url: 'https://example.com/a.mp4' }, { token: creator.token, roomId });
    expect((await post(server, '/api/room/movie/current', { id: plain.body.data.id }, { token: creator.token, roomId })).status).toBe(204);
    const drained = drain(await fetch(flvUrl));
    expect((await post(server, '/api/room/movie/delete', { ids: [movieId] }, { token: creator.token, roomId })).status).toBe(204);
    expect(await drained).toBe(true);
    expect(await third.exited).not.toBe(0);
  });

  it('plays an arriving push for a room that plays nothing or whose broadcaster may change the movie, and leaves any other room alone', async () => {
    const pushOf = async (user: TestUser, roomId: string, movieId: string) => {
      const { host, app, token } = (await post(server, KEY_ROUTE, { id: movieId }, { token: user.token, roomId })).body.data as { host: string; app: string; token: string };
      const flv = `${server.url}/api/room/movie/live/flv/${movieId}.flv?token=${user.token}&roomId=${roomId}`;
      const encoder = startPush(`rtmp://${host}/${app}/${token}`);
      await until(async () => (await fetch(flv, { method: 'HEAD' })).status === 200, 'the push to go live');
      return encoder;
    };
    const currentId = async (user: TestUser, roomId: string) => (await get(server, '/api/room/movie/current', { token: user.token, roomId })).body.data.movie.id as string;
    const encoders: ChildProcess[] = [];
    try {
      // The room's creator, the room showing an earlier movie: the broadcast replaces it, for everyone.
      const owner = await signUpUser(server, 'liveowner');
      const { roomId } = await createRoom(server, owner);
      const earlier = await post(server, '/api/room/movie/push', { name: 'earlier', url: 'https://example.com/a.mp4' }, { token: owner.token, roomId });
      expect((await post(server, '/api/room/movie/current', { id: earlier.body.data.id }, { token: owner.token, roomId })).status).toBe(204);
      const watcher = await TestSocket.open(server, roomId, owner.token);
      const live = await pushLiveMovie(owner, roomId, 'Friday stream');
      encoders.push((await pushOf(owner, roomId, live)).process);
      const current = await watcher.next(MessageType.CURRENT, () => true, 10_000);
      expect(current.sender?.username).toBe(owner.username);
      expect(await currentId(owner, roomId)).toBe(live);
      watcher.close();

      // A member who may add movies but not change the current one: the room goes on with its movie…
      const member = await signUpUser(server, 'livemember');
      expect((await join(member, roomId)).status).toBe(200);
      expect((await post(server, '/api/room/admin/members/member/permissions', { id: member.id, permissions: DefaultPermissions | Permission.AddMovie }, { token: owner.token, roomId })).status).toBe(204);
      expect((await post(server, '/api/room/movie/current', { id: earlier.body.data.id }, { token: owner.token, roomId })).status).toBe(204);
      const theirs = await pushLiveMovie(member, roomId, 'their stream');
      encoders.push((await pushOf(member, roomId, theirs)).process);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(await currentId(owner, roomId)).toBe(earlier.body.data.id);
      // …but a room that plays nothing takes the broadcast, whoever pushes it.
      expect((await post(server, '/api/room/movie/current', { id: '' }, { token: owner.token, roomId })).status).toBe(204);
      encoders.pop()?.kill('SIGKILL');
      await until(async () => (await fetch(`${server.url}/api/room/movie/live/flv/${theirs}.flv?token=${member.token}&roomId=${roomId}`, { method: 'HEAD' })).status === 404, 'the push to end');
      encoders.push((await pushOf(member, roomId, theirs)).process);
      await until(async () => (await currentId(owner, roomId)) === theirs, 'the broadcast to be played');
    } finally {
      for (const encoder of encoders) encoder.kill('SIGKILL');
    }
  });

  it('is also HLS remuxed by ffmpeg: segments disguised as PNG while ts_disguised_as_png is on, plain TS when off; the playlist ends with the push', async () => {
    const creator = await signUpUser(server, 'hls');
    const { roomId } = await createRoom(server, creator);
    const movieId = await pushLiveMovie(creator, roomId);
    const { host, app, token } = (await post(server, KEY_ROUTE, { id: movieId }, { token: creator.token, roomId })).body.data as { host: string; app: string; token: string };
    expect((await post(server, '/api/room/movie/current', { id: movieId }, { token: creator.token, roomId })).status).toBe(204);
    const view = await get(server, '/api/room/movie/current', { token: creator.token, roomId });
    const sources = view.body.data.movie.base.moreSources as { name: string; type: string; url: string }[];
    expect(sources).toEqual([{ name: 'HLS', type: 'm3u8', url: expect.stringContaining(`/api/room/movie/live/hls/list/${movieId}.m3u8?token=`) }]);
    const listUrl = `${server.url}${sources[0].url}`;
    // Who may read the playlist: as the FLV route, the room's members (not someone who never joined); nobody pushes yet.
    const stranger = await signUpUser(server, 'stranger');
    const outside = await get(server, `/api/room/movie/live/hls/list/${movieId}.m3u8`, { token: stranger.token, roomId });
    const outsideFlv = await get(server, `/api/room/movie/live/flv/${movieId}.flv`, { token: stranger.token, roomId });
    expect([outside.status, outside.body.error]).toEqual([outsideFlv.status, outsideFlv.body.error]);
    expect(outside.status).toBeGreaterThanOrEqual(400);
    expect((await get(server, sources[0].url)).body.error).toBe('live stream not started');

    const encoder = startPush(`rtmp://${host}/${app}/${token}`);
    try {
      let playlist = '';
      await until(async () => {
        const response = await fetch(listUrl);
        playlist = await response.text();
        return response.status === 200 && /\.png\?/m.test(playlist);
      }, 'the first HLS playlist');
      expect(playlist).toMatch(/^#EXTM3U/);
      const segmentPath = playlist.split('\n').find((line) => line.includes('.png?'))!;
      expect(segmentPath).toMatch(new RegExp(`^/api/room/movie/live/hls/data/${roomId}/${movieId}/seg\\d+\\.png\\?token=.+&roomId=${roomId}$`));
      // A complete 1×1 PNG, then MPEG-TS packets (sync byte 0x47 every 188 bytes), cacheable by the viewer's browser.
      const segment = await fetch(`${server.url}${segmentPath}`);
      expect(segment.status).toBe(200);
      expect(segment.headers.get('content-type')).toBe('image/png');
      expect(segment.headers.get('cache-control')).toBe('private, max-age=90');
      const bytes = Buffer.from(await segment.arrayBuffer());
      expect(bytes.subarray(1, 4).toString()).toBe('PNG');
      const ts = bytes.indexOf('IEND') + 8;
      expect(ts).toBeLessThan(80);
      expect([bytes[ts], bytes[ts + 188], bytes[ts + 376]]).toEqual([0x47, 0x47, 0x47]);
      expect((bytes.length - ts) % 188).toBe(0);
      // The other extension is 404, any other 400, a segment that never was 404 (v0.9.11's texts).
      const other = await get(server, segmentPath.replace(/\.png\?/, '.ts?'));
      expect([other.status, other.body.error]).toEqual([404, 'not support file type .ts']);
      expect((await get(server, segmentPath.replace(/\.png\?/, '.mp4?'))).status).toBe(400);
      expect((await get(server, segmentPath.replace(/seg\d+\.png/, 'seg999999.png'))).status).toBe(404);

      const root = (await post(server, '/api/user/login', { username: 'root', password: TEST_ROOT_PASSWORD })).body.data.token as string;
      expect((await post(server, '/api/admin/settings', { ts_disguised_as_png: false }, { token: root })).status).toBe(204);
      try {
        const plainList = await (await fetch(listUrl)).text();
        const plainPath = plainList.split('\n').find((line) => line.includes('.ts?'))!;
        const plain = await fetch(`${server.url}${plainPath}`);
        expect(plain.headers.get('content-type')).toBe('video/mp2t');
        expect(Buffer.from(await plain.arrayBuffer())[0]).toBe(0x47);
        expect((await get(server, plainPath.replace(/\.ts\?/, '.png?'))).body.error).toBe('not support file type .png');
      } finally {
        await post(server, '/api/admin/settings', { ts_disguised_as_png: true }, { token: root });
      }
    } finally {
      encoder.process.kill('SIGKILL');
    }
    // The push ended: ffmpeg finishes the playlist, so players play to its end.
    await until(async () => (await (await fetch(listUrl)).text()).includes('#EXT-X-ENDLIST'), 'the playlist to end');
  });

  it('closes a connection whose RTMP announces a message too large or too many chunk streams, and goes on serving', async () => {
    const port = Number(new URL(server.url).port);
    const handshake = Buffer.concat([Buffer.from([3]), Buffer.alloc(1536, 7)]);
    /** A type-0 chunk on chunk stream `cid` announcing a message of `length` bytes (of a type the server ignores), with `payload` bytes of it. */
    const chunk = (cid: number, length: number, payload: number) => {
      const header = Buffer.alloc(12 + payload);
      header[0] = cid & 0x3f;
      header.writeUIntBE(length, 4, 3);
      header[7] = 0;
      return header;
    };
    const attacks = [
      // One 16 MB message announced by 12 bytes.
      chunk(3, 0xffffff, 1),
      // Forty chunk streams of small messages.
      Buffer.concat(Array.from({ length: 40 }, (_, i) => chunk(4 + i, 100, 100))),
    ];
    for (const attack of attacks) {
      const closedAfterMs = await new Promise<number>((resolve) => {
        const started = Date.now();
        const socket = connect(port, '127.0.0.1', () => socket.write(handshake));
        let answered = false;
        socket.on('data', () => {
          if (answered) return;
          answered = true;
          socket.write(Buffer.concat([Buffer.alloc(1536, 9), attack]));
        });
        socket.on('error', () => undefined);
        const timer = setTimeout(() => {
          resolve(Number.POSITIVE_INFINITY);
          socket.destroy();
        }, 10_000);
        socket.on('close', () => {
          clearTimeout(timer);
          resolve(Date.now() - started);
        });
      });
      expect(closedAfterMs).toBeLessThan(5_000);
    }
    expect((await get(server, '/api/public/settings')).status).toBe(200);
  });

  it('closes an RTMP connection that pours bytes before a push or has none accepted within 5 s (a byte now and then), and logs each with its address', async () => {
    const watched = await launch({ logLevel: 'warn' });
    try {
      const port = Number(new URL(watched.url).port);
      const zeros = Buffer.alloc(64 * 1024);
      // The handshake's first byte, then zeros as fast as the socket takes them.
      const flood = await new Promise<{ closedAfterMs: number; sentBytes: number }>((resolve) => {
        const started = Date.now();
        let sentBytes = 0;
        let closed = false;
        const socket = connect(port, '127.0.0.1', () => {
          socket.write(Buffer.from([3]));
          const pump = () => {
            while (!closed && sentBytes < 256 * 1024 * 1024 && socket.write(zeros)) sentBytes += zeros.length;
          };
          socket.on('drain', pump);
          pump();
        });
        socket.on('error', () => undefined);
        const timer = setTimeout(() => socket.destroy(), 15_000);
        socket.on('close', () => {
          closed = true;
          clearTimeout(timer);
          resolve({ closedAfterMs: Date.now() - started, sentBytes });
        });
      });
      expect(flood.closedAfterMs).toBeLessThan(3000);
      expect(flood.sentBytes).toBeLessThan(64 * 1024 * 1024);
      // A valid first byte, then one byte a second: alive, but no encoder.
      const trickleMs = await new Promise<number>((resolve) => {
        const started = Date.now();
        const socket = connect(port, '127.0.0.1', () => socket.write(Buffer.from([3])));
        const drip = setInterval(() => socket.write(Buffer.from([0])), 1000);
        socket.on('error', () => undefined);
        const timer = setTimeout(() => socket.destroy(), 20_000);
        socket.on('close', () => {
          clearInterval(drip);
          clearTimeout(timer);
          resolve(Date.now() - started);
        });
      });
      expect(trickleMs).toBeGreaterThanOrEqual(4500);
      expect(trickleMs).toBeLessThan(8000);
      await until(async () => /bytes before a push was accepted/.test(watched.output()) && /no push accepted within 5 s/.test(watched.output()), 'the warnings');
      expect(watched.output()).toMatch(/closed an RTMP connection from (::ffff:)?127\.0\.0\.1/);
      expect((await get(watched, '/api/public/settings')).status).toBe(200);
    } finally {
      await watched.stop();
    }
  });

  it('does not hold the server’s shutdown: a connection that never spoke and an RTMP one that never published close with it', async () => {
    const other = await launch();
    const port = Number(new URL(other.url).port);
    const open = (first?: Buffer) =>
      new Promise<Socket>((resolve) => {
        const socket = connect(port, '127.0.0.1', () => {
          if (!first) return resolve(socket);
          socket.write(first);
          socket.once('data', () => resolve(socket));
        });
        socket.on('error', () => undefined);
      });
    const sockets = [await open(), await open(Buffer.concat([Buffer.from([3]), Buffer.alloc(1536, 7)]))];
    const started = Date.now();
    await other.stop();
    // Without closing them the server would wait for both, until the harness kills it after 5 s.
    expect(Date.now() - started).toBeLessThan(4000);
    for (const socket of sockets) socket.destroy();
  });
});
