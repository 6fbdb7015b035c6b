/** @jest-environment node */
/**
 * Emby and Jellyfin accounts and movies (docs/vendors.md) against a real server process and two
 * stand-ins (e2e/support/emby-stand-in.ts) on 127.0.0.2: a Jellyfin 10.11 answering at the root and
 * an Emby answering under `/emby`. Binding finds the prefix; browsing goes libraries → series →
 * season → episodes, with search; a movie plays through the proxy with the creator's token kept on
 * the server (Range, a second media source, a text subtitle as WebVTT); a series as a dynamic folder
 * (listed live, an episode played, nothing outside it); a file that needs converting
 * and an expired session are said in words; and who may call each route.
 */
import path from 'node:path';
import { startEmbyStandIn, type EmbyStandIn } from '../e2e/support/emby-stand-in';
import { expectUserLevel, type UserLevelRoute } from './test-support/user-level';
import { createRoom, get, launch, openServerDatabase, post, signUpUser, until, type TestDatabase, type TestServer, type TestUser } from './test-support/harness';

jest.setTimeout(60_000);

const HOST = '127.0.0.2';
const MEDIA = path.resolve(__dirname, '../e2e/media');
const ACCOUNT = { username: 'bob', password: 'jelly-pw' };

let server: TestServer;
let jellyfin: EmbyStandIn;
let emby: EmbyStandIn;
let db: TestDatabase;

beforeAll(async () => {
  jellyfin = await startEmbyStandIn({ flavor: 'jellyfin', ...ACCOUNT, mediaDir: MEDIA, host: HOST });
  emby = await startEmbyStandIn({ flavor: 'emby', ...ACCOUNT, mediaDir: MEDIA, host: HOST });
  server = await launch({ proxyAllowAddresses: [HOST], embyTranscodeIdleMs: 400 });
  db = await openServerDatabase(server.dataDir);
});

afterAll(async () => {
  // The database first: on PostgreSQL its open connection would keep the test worker from exiting.
  await db?.close();
  await server?.stop();
  await jellyfin?.close();
  await emby?.close();
});

const bind = (user: TestUser, body: Record<string, unknown>) => post(server, '/api/vendor/emby/login', body, { token: user.token });
const browse = (user: TestUser, body: Record<string, unknown>, query = '') => post(server, `/api/vendor/emby/list${query}`, body, { token: user.token });
const names = (items: { name: string }[]) => items.map((item) => item.name);

describe('binding', () => {
  it('finds Jellyfin at the root and Emby under /emby, keeps the token sealed, and says a wrong password in words', async () => {
    const user = await signUpUser(server, 'embyb');
    const wrong = await bind(user, { host: jellyfin.url, username: 'bob', password: 'nope' });
    expect([wrong.status, wrong.body.error]).toEqual([400, 'emby: user name or password is incorrect']);
    expect((await bind(user, { host: jellyfin.url, ...ACCOUNT })).status).toBe(204);
    expect((await bind(user, { host: `${emby.url}/`, ...ACCOUNT })).status).toBe(204);
    expect(emby.calls).toContain('/Users/AuthenticateByName');
    const binds = (await get(server, '/api/vendor/emby/binds', { token: user.token })).body.data;
    expect(binds).toEqual([
      { serverId: jellyfin.serverId, host: jellyfin.url },
      { serverId: emby.serverId, host: emby.url },
    ]);
    const me = await get(server, `/api/vendor/emby/me?serverId=${emby.serverId}`, { token: user.token });
    expect(me.body.data).toEqual({ isLogin: true, info: expect.objectContaining({ name: 'bob', serverId: emby.serverId }) });
    const rows = await db.all<{ credentials: string }>('SELECT credentials FROM vendor_bindings WHERE user_id = ?', [user.id]);
    expect(rows.map((row) => row.credentials.startsWith('v1.'))).toEqual([true, true]);
    // Two servers: the picker starts with them.
    const top = await browse(user, { path: '' });
    expect(top.body.data.items).toEqual([
      { name: jellyfin.url, path: `${jellyfin.serverId}/`, isDir: true, type: 'server' },
      { name: emby.url, path: `${emby.serverId}/`, isDir: true, type: 'server' },
    ]);
    expect((await post(server, '/api/vendor/emby/logout', { serverId: emby.serverId }, { token: user.token })).status).toBe(204);
    const unbound = await get(server, `/api/vendor/emby/me?serverId=${emby.serverId}`, { token: user.token });
    expect([unbound.status, unbound.body.error]).toEqual([400, 'emby server not found']);
  });

  it('refuses something that is not Emby or Jellyfin, and a private address', async () => {
    const user = await signUpUser(server, 'embyr');
    const nothing = await bind(user, { host: `http://${HOST}:9`, ...ACCOUNT });
    expect([nothing.status, nothing.body.error]).toEqual([502, 'vendor server unreachable']);
    // Something answers there, but not as Emby or Jellyfin, at the root or under /emby.
    const notEmby = await bind(user, { host: `${jellyfin.url}/not-here`, ...ACCOUNT });
    expect([notEmby.status, notEmby.body.error]).toEqual([502, 'emby: no Emby or Jellyfin answers at this address']);
    const local = await bind(user, { host: jellyfin.url.replace(HOST, '127.0.0.3'), ...ACCOUNT });
    expect([local.status, local.body.error]).toEqual([400, 'local ip is not allowed']);
  });
});

describe('browsing and playing', () => {
  let owner: TestUser;
  let viewer: TestUser;
  let roomId = '';
  const as = (user: TestUser) => ({ token: user.token, roomId });
  const sid = () => jellyfin.serverId;

  beforeAll(async () => {
    owner = await signUpUser(server, 'embyo');
    viewer = await signUpUser(server, 'embyv');
    expect((await bind(owner, { host: jellyfin.url, ...ACCOUNT })).status).toBe(204);
    ({ roomId } = await createRoom(server, owner));
    expect((await post(server, '/api/room/login', { roomId, password: '' }, { token: viewer.token })).status).toBe(200);
  });

  it('goes from the libraries to a series, its season and episodes, with crumbs, and searches', async () => {
    const libraries = await browse(owner, { path: '' });
    expect(libraries.body.data.items).toEqual([
      { name: 'Movies', path: `${sid()}/v-movies`, isDir: true, type: 'CollectionFolder' },
      { name: 'Shows', path: `${sid()}/v-shows`, isDir: true, type: 'CollectionFolder' },
    ]);
    expect(names((await browse(owner, { path: `${sid()}/v-shows` })).body.data.items)).toEqual(['Show']);
    const season = await browse(owner, { path: `${sid()}/se-1` }, '?page=1&max=10');
    expect(season.body.data.items.map((item: { name: string; type: string }) => [item.name, item.type])).toEqual([
      ['Episode 1', 'Episode'],
      ['Episode 2', 'Episode'],
    ]);
    expect(season.body.data.paths).toEqual([
      { name: '', path: '' },
      { name: jellyfin.url, path: `${sid()}/` },
      { name: 'Shows', path: `${sid()}/v-shows` },
      { name: 'Show', path: `${sid()}/s-show` },
      { name: 'Season 1', path: `${sid()}/se-1` },
    ]);
    expect(names((await browse(owner, { path: `${sid()}/`, keyword: 'episode' })).body.data.items)).toEqual(['Episode 1', 'Episode 2']);
  });

  it("takes the reference client's picker as it calls: its list request, then a film and a series pushed at once", async () => {
    // synctv-web's src/components/fileList/emby.vue: the token as the whole Authorization header,
    // the room in X-Room-Id, the listing's paths pushed back as they came.
    const call = (route: string, body: unknown, headers: Record<string, string> = {}) =>
      fetch(`${server.url}${route}`, { method: 'POST', headers: { Authorization: owner.token, 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(body) }).then(async (response) => ({ status: response.status, body: (await response.json()) as { data: { items: { name: string; path: string; isDir: boolean }[] } } }));
    const libraries = await call('/api/vendor/emby/list?page=1&max=10', { path: '', keyword: '' });
    expect(libraries.status).toBe(200);
    const open = async (name: string, items: { name: string; path: string }[]) => (await call('/api/vendor/emby/list?page=1&max=10', { path: items.find((item) => item.name === name)!.path, keyword: '' })).body.data.items;
    const film = (await open('Movies', libraries.body.data.items)).find((item) => item.name === 'Clip')!;
    const show = (await open('Shows', libraries.body.data.items)).find((item) => item.name === 'Show')!;
    const picked = [film, show].map((item) => ({ name: item.name, url: '', live: false, rtmpSource: false, type: '', headers: {}, proxy: false, vendorInfo: { vendor: 'emby', emby: { path: item.path } }, isFolder: item.isDir, parentId: '' }));
    const pushed = await call('/api/room/movie/pushs', picked, { 'X-Room-Id': roomId });
    expect(pushed.status).toBe(200);
    const listed = (await get(server, '/api/room/movie/movies?max=100', as(viewer))).body.data.movies as { id: string; base: { name: string; isFolder: boolean; proxy: boolean } }[];
    const added = listed.filter((movie) => movie.base.name === 'Clip' || movie.base.name === 'Show');
    // Always through this server, whatever the picker sent.
    expect(added.map((movie) => [movie.base.name, movie.base.isFolder, movie.base.proxy])).toEqual([
      ['Clip', false, true],
      ['Show', true, true],
    ]);
    const seasons = await get(server, `/api/room/movie/movies?id=${added[1].id}`, as(viewer));
    expect(seasons.body.data.movies.map((movie: { base: { name: string } }) => movie.base.name)).toEqual(['Season 1']);
  });

  it('plays a film through the proxy for a viewer who bound nothing, without ever showing the token', async () => {
    const pushed = await post(server, '/api/room/movie/push', { name: 'Clip', url: '', vendorInfo: { vendor: 'emby', emby: { path: `${sid()}/m-clip` } } }, as(owner));
    expect(pushed.status).toBe(200);
    expect((await post(server, '/api/room/movie/current', { id: pushed.body.data.id }, as(owner))).status).toBe(204);
    const current = await get(server, '/api/room/movie/current', as(viewer));
    const base = current.body.data.movie.base;
    expect(base).toEqual(expect.objectContaining({ proxy: true, type: 'mp4', vendorInfo: { vendor: 'emby', backend: '', emby: { path: `${sid()}/m-clip`, transcode: false } } }));
    expect(base.url).toBe(`/api/room/movie/proxy/${pushed.body.data.id}?token=${viewer.token}&roomId=${roomId}`);
    expect(base.moreSources).toEqual([{ name: "Clip (director's cut)", type: 'mp4', url: `/api/room/movie/proxy/${pushed.body.data.id}?source=1&token=${viewer.token}&roomId=${roomId}` }]);
    expect(Object.keys(base.subtitles)).toEqual(['English (SRT)']);
    // The creator's access token stays on the server: not in the answer, not in any URL of it.
    expect(jellyfin.tokens().length).toBeGreaterThan(0);
    for (const secret of jellyfin.tokens()) expect(JSON.stringify(current.body)).not.toContain(secret);

    const video = await fetch(`${server.url}${base.url}`, { headers: { Range: 'bytes=0-99' } });
    expect([video.status, (await video.arrayBuffer()).byteLength]).toEqual([206, 100]);
    expect((await fetch(`${server.url}${base.moreSources[0].url}`, { headers: { Range: 'bytes=0-9' } })).status).toBe(206);
    const subtitle = await fetch(`${server.url}${base.subtitles['English (SRT)'].url}`);
    expect(await subtitle.text()).toMatch(/^WEBVTT/);
  });

  it('converts the main source with the audio track and bitrate a viewer picks, one play session per choice, and refuses others', async () => {
    const pushed = await post(server, '/api/room/movie/push', { name: 'Clip', url: '', vendorInfo: { vendor: 'emby', emby: { path: `${sid()}/m-clip` } } }, as(owner));
    await post(server, '/api/room/movie/current', { id: pushed.body.data.id }, as(owner));
    const base = (await get(server, '/api/room/movie/current', as(viewer))).body.data.movie.base;
    expect(base.mediaChoices).toEqual({
      audioTracks: [
        { index: 1, name: 'English - AAC - Stereo', language: 'eng', default: true },
        { index: 2, name: 'Japanese - AAC - Stereo', language: 'jpn', default: false },
      ],
      // Below the source's 5 Mbit/s.
      maxBitrates: [4_000_000, 2_000_000, 1_000_000],
    });
    const asked = jellyfin.playbackRequests.length;
    const japanese = await fetch(`${server.url}${base.url}&audio=2&maxBitrate=2000000`);
    expect([japanese.status, japanese.headers.get('content-type')]).toEqual([200, 'application/vnd.apple.mpegurl']);
    const variant = /^\/api\/room\/movie\/proxy\/.+$/m.exec(await japanese.text())?.[0] ?? '';
    const segment = /^\/api\/room\/movie\/proxy\/.+$/m.exec(await (await fetch(`${server.url}${variant}`)).text())?.[0] ?? '';
    expect((await fetch(`${server.url}${segment}`)).status).toBe(200);
    expect(jellyfin.playbackRequests.slice(asked)).toEqual([
      expect.objectContaining({ itemId: 'm-clip', MediaSourceId: 'ms-m-clip', AudioStreamIndex: 2, MaxStreamingBitrate: 2_000_000, EnableDirectStream: false }),
    ]);
    // The owner picks the same: the same play session, no second conversion.
    const again = await fetch(`${server.url}/api/room/movie/proxy/${pushed.body.data.id}?audio=2&maxBitrate=2000000&token=${owner.token}&roomId=${roomId}`);
    expect(again.status).toBe(200);
    await again.text();
    expect(jellyfin.playbackRequests.length).toBe(asked + 1);
    for (const [query, error] of [['audio=7', 'id out of range'], ['audio=3', 'id out of range'], ['maxBitrate=123', 'bitrate out of range'], ['source=1&audio=1', 'id out of range']]) {
      const refused = await fetch(`${server.url}/api/room/movie/proxy/${pushed.body.data.id}?${query}&token=${viewer.token}&roomId=${roomId}`);
      expect([query, refused.status, ((await refused.json()) as { error: string }).error]).toEqual([query, 400, error]);
    }
  });

  it("plays a file browsers cannot decode as the media server's HLS transcode, token-free, and stops it once nobody fetches it", async () => {
    const hevc = await post(server, '/api/room/movie/push', { name: 'HEVC', url: '', vendorInfo: { vendor: 'emby', emby: { path: `${sid()}/m-hevc` } } }, as(owner));
    await post(server, '/api/room/movie/current', { id: hevc.body.data.id }, as(owner));
    const base = (await get(server, '/api/room/movie/current', as(viewer))).body.data.movie.base;
    expect([base.type, base.url]).toEqual(['m3u8', `/api/room/movie/proxy/${hevc.body.data.id}?token=${viewer.token}&roomId=${roomId}`]);
    const master = await (await fetch(`${server.url}${base.url}`)).text();
    const variant = /^\/api\/room\/movie\/proxy\/.+$/m.exec(master)?.[0] ?? '';
    const media = await (await fetch(`${server.url}${variant}`)).text();
    const segment = /^\/api\/room\/movie\/proxy\/.+$/m.exec(media)?.[0] ?? '';
    const first = await fetch(`${server.url}${segment}`);
    expect([first.status, first.headers.get('content-type'), (await first.arrayBuffer()).byteLength > 1000]).toEqual([200, 'video/mp2t', true]);
    // The playlists name this server only, and no token of the media server's, not even inside a target token's claims.
    const claims = [...`${master}${media}`.matchAll(/m3u8\/([\w-]+\.[\w-]+\.[\w-]+)/g)].map((match) => Buffer.from(match[1].split('.')[1], 'base64url').toString());
    expect(claims.length).toBeGreaterThan(1);
    for (const secret of jellyfin.tokens()) expect(`${master}${media}${claims.join()}`).not.toContain(secret);
    expect(claims.every((claim) => !/api_?key/i.test(claim))).toBe(true);
    const session = jellyfin.transcodes().at(-1) ?? '';
    expect(session).not.toBe('');
    // Nobody fetches it any more: stopped after TRANSCODE_IDLE (shortened here).
    await until(() => jellyfin.stopped.includes(session), 'the idle transcode stopped');
    expect(jellyfin.transcodes()).not.toContain(session);
  });

  it('says when a file cannot play, and when the session expired', async () => {
    const hevc = await post(server, '/api/room/movie/push', { name: 'ISO', url: '', vendorInfo: { vendor: 'emby', emby: { path: `${sid()}/m-iso` } } }, as(owner));
    await post(server, '/api/room/movie/current', { id: hevc.body.data.id }, as(owner));
    const converting = await get(server, '/api/room/movie/current', as(viewer));
    expect([converting.status, converting.body.error]).toEqual([400, 'emby: this file needs converting, which the media server does not offer']);

    const episode = await post(server, '/api/room/movie/push', { name: 'E1', url: '', vendorInfo: { vendor: 'emby', emby: { path: `${sid()}/e-1` } } }, as(owner));
    await post(server, '/api/room/movie/current', { id: episode.body.data.id }, as(owner));
    jellyfin.expireTokens();
    const expired = await get(server, '/api/room/movie/current', as(viewer));
    expect([expired.status, expired.body.error]).toEqual([400, 'emby: the session expired, sign in again']);
    expect((await bind(owner, { host: jellyfin.url, ...ACCOUNT })).status).toBe(204);
    expect((await get(server, '/api/room/movie/current', as(viewer))).status).toBe(200);
  });

  it('lists a series pushed as a dynamic folder live for a member, plays an episode of it, never anything outside it', async () => {
    const pushed = await post(server, '/api/room/movie/push', { name: 'Show', url: '', isFolder: true, vendorInfo: { vendor: 'emby', emby: { path: `${sid()}/s-show` } } }, as(owner));
    expect(pushed.status).toBe(200);
    const id = pushed.body.data.id as string;
    const top = await get(server, `/api/room/movie/movies?id=${id}`, as(viewer));
    expect(top.body.data).toEqual(expect.objectContaining({ dynamic: true, total: 1 }));
    expect(top.body.data.movies[0]).toEqual(expect.objectContaining({ id, subPath: 'se-1', base: expect.objectContaining({ name: 'Season 1', isFolder: true }) }));
    expect(top.body.data.paths.map((crumb: { name: string }) => crumb.name)).toEqual(['Home', 'Show']);
    const season = await get(server, `/api/room/movie/movies?id=${id}&subPath=se-1`, as(viewer));
    expect(season.body.data.movies.map((movie: { subPath: string; base: { name: string } }) => [movie.subPath, movie.base.name])).toEqual([
      ['e-1', 'Episode 1'],
      ['e-2', 'Episode 2'],
    ]);
    expect(season.body.data.paths).toEqual([
      { name: 'Home', id: '', subPath: '' },
      { name: 'Show', id, subPath: '' },
      { name: 'Season 1', id, subPath: 'se-1' },
    ]);
    const found = await get(server, `/api/room/movie/movies?id=${id}&keyword=episode%202`, as(viewer));
    expect(found.body.data.movies.map((movie: { subPath: string }) => movie.subPath)).toEqual(['e-2']);

    expect((await post(server, '/api/room/movie/current', { id, subPath: 'e-2' }, as(owner))).status).toBe(204);
    const current = (await get(server, '/api/room/movie/current', as(viewer))).body.data.movie;
    expect([current.id, current.subPath, current.base.name, current.base.isFolder, current.base.vendorInfo.emby.path]).toEqual([id, 'e-2', 'Episode 2', false, `${sid()}/e-2`]);
    const video = await fetch(`${server.url}${current.base.url}`, { headers: { Range: 'bytes=0-99' } });
    expect(video.status).toBe(206);

    // A film of another library, a made-up path, nothing: refused.
    for (const [subPath, error] of [['m-clip', 'sub path is not in parent path'], ['../m-clip', 'sub path is not in parent path'], ['', 'sub path is empty']]) {
      const refused = await post(server, '/api/room/movie/current', { id, subPath }, as(owner));
      expect([subPath, refused.status, refused.body.error]).toEqual([subPath, 400, error]);
      const listed = subPath ? await get(server, `/api/room/movie/movies?id=${id}&subPath=${encodeURIComponent(subPath)}`, as(viewer)) : null;
      if (listed) expect([listed.status, listed.body.error]).toEqual([400, 'sub path is not in parent path']);
    }
    const child = await post(server, '/api/room/movie/push', { name: 'x', url: 'https://example.com/a.mp4', parentId: id }, as(owner));
    expect([child.status, child.body.error]).toEqual([400, 'parent is a dynamic folder, cannot add child']);
  });

  it('refuses an Emby movie of a server the pusher did not bind, and a path without an item', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ name: 'x', vendorInfo: { vendor: 'emby', emby: { path: `${sid()}/m-clip` } } }, 'emby server not found'],
      [{ name: 'x', isFolder: true, vendorInfo: { vendor: 'emby', emby: { path: `${sid()}/s-show` } } }, 'emby server not found'],
      [{ name: 'x', vendorInfo: { vendor: 'emby', emby: { path: `${sid()}/` } } }, 'path is invalid'],
    ];
    for (const [body, error] of cases) {
      const response = await post(server, '/api/room/movie/push', { url: '', ...body }, as(viewer));
      expect([response.status, response.body.error]).toEqual([400, error]);
    }
  });
});

describe('authorization matrix of the /api/vendor/emby routes (user level)', () => {
  it('refuses visitors, pending and banned users; answers users, admins and root for themselves', async () => {
    const routes: UserLevelRoute[] = [
      ['GET', '/api/vendor/backends/emby', undefined],
      ['GET', '/api/vendor/emby/binds', undefined],
      ['POST', '/api/vendor/emby/list', { path: '' }],
      ['GET', '/api/vendor/emby/me?serverId=0123456789abcdef0123456789abcdef', undefined],
      ['POST', '/api/vendor/emby/logout', { serverId: '0123456789abcdef0123456789abcdef' }],
      ['POST', '/api/vendor/emby/login', { host: '', username: 'a', password: 'b' }],
    ];
    await expectUserLevel(server, db, 'em', routes, [[200, undefined], [200, undefined], [400, 'emby server not found'], [400, 'emby server not found'], [400, 'emby server not found'], [400, 'host is required']]);
  });
});
