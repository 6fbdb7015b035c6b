/** @jest-environment node */
/**
 * AList accounts and movies (docs/vendors.md) against a real server process and the AList stand-in
 * (e2e/support/alist-stand-in.ts) on 127.0.0.2, named in `proxyAllowAddresses` as an operator would
 * with PROXY_ALLOW_ADDRESSES: binding (the reference client's hashed password too), the bound list,
 * browsing with paths, search and a locked folder, the credentials sealed at rest, a movie and a
 * dynamic folder played with the creator's account by members who bound nothing, the proxy, the
 * address guard on binding, and who may call each route.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { makeAlistLibrary, startAlistStandIn, type AlistStandIn } from '../e2e/support/alist-stand-in';
import { expectUserLevel, type UserLevelRoute } from './test-support/user-level';
import { createRoom, get, launch, openServerDatabase, post, signUpUser, tempDir, type TestDatabase, type TestServer, type TestUser } from './test-support/harness';

jest.setTimeout(60_000);

const HOST = '127.0.0.2';
const MEDIA = path.resolve(__dirname, '../e2e/media');
const ALICE = { username: 'alice', password: 'alist-pw' };

let server: TestServer;
let alist: AlistStandIn;
let db: TestDatabase;
let owner: TestUser;
let libraryDir = '';

beforeAll(async () => {
  libraryDir = tempDir('alist-library-');
  makeAlistLibrary(libraryDir, MEDIA);
  alist = await startAlistStandIn({ rootDir: libraryDir, users: [ALICE], passwords: { '/Locked': 'open-sesame' }, host: HOST });
  server = await launch({ proxyAllowAddresses: [HOST] });
  db = await openServerDatabase(server.dataDir);
  owner = await signUpUser(server, 'alist');
});

afterAll(async () => {
  // The database first: on PostgreSQL its open connection would keep the test worker from exiting.
  await db?.close();
  await server?.stop();
  await alist?.close();
  fs.rmSync(libraryDir, { recursive: true, force: true });
});

const bind = (user: TestUser, body: Record<string, unknown>) => post(server, '/api/vendor/alist/login', body, { token: user.token });
const browse = (user: TestUser, body: Record<string, unknown>, query = '') => post(server, `/api/vendor/alist/list${query}`, body, { token: user.token });
const hashOf = (password: string) => crypto.createHash('sha256').update(`${password}-https://github.com/alist-org/alist`).digest('hex');

describe('binding an AList account', () => {
  it('signs in with the password or the reference client hash, lists the server once, and keeps no password readable', async () => {
    const user = await signUpUser(server, 'binder');
    expect((await bind(user, { host: `${alist.url}/`, username: ALICE.username, password: ALICE.password })).status).toBe(204);
    // The reference client's form: the hash only. Same host (the trailing slash normalized): same server.
    expect((await bind(user, { host: alist.url, username: ALICE.username, hashedPassword: hashOf(ALICE.password) })).status).toBe(204);
    const binds = await get(server, '/api/vendor/alist/binds', { token: user.token });
    expect(binds.body.data).toEqual([{ serverId: expect.stringMatching(/^[0-9a-f]{32}$/), host: alist.url }]);
    const serverId = binds.body.data[0].serverId as string;

    const me = await get(server, `/api/vendor/alist/me?serverId=${serverId}`, { token: user.token });
    expect(me.body.data).toEqual({ isLogin: true, info: expect.objectContaining({ username: 'alice', basePath: '/' }) });
    expect((await get(server, `/api/vendor/alist/me?serverID=${serverId}`, { token: user.token })).status).toBe(200);

    const rows = await db.all<{ credentials: string; host: string }>('SELECT credentials, host FROM vendor_bindings WHERE user_id = ?', [user.id]);
    expect(rows).toHaveLength(1);
    expect(rows[0].credentials).toMatch(/^v1\./);
    expect(rows[0].credentials).not.toContain(hashOf(ALICE.password));
    expect(rows[0].credentials).not.toContain('alice');

    expect((await post(server, '/api/vendor/alist/logout', { serverId }, { token: user.token })).status).toBe(204);
    expect((await get(server, '/api/vendor/alist/binds', { token: user.token })).body.data).toEqual([]);
    const again = await post(server, '/api/vendor/alist/logout', { serverId }, { token: user.token });
    expect([again.status, again.body.error]).toEqual([400, 'alist server not found']);
  });

  it('refuses a wrong password, a bad host, an unreachable host and a private address in words', async () => {
    const user = await signUpUser(server, 'refused');
    const cases: [Record<string, unknown>, number, string][] = [
      [{ host: alist.url, username: 'alice', password: 'wrong' }, 400, 'alist: password is incorrect'],
      [{ host: '', username: 'alice', password: 'x' }, 400, 'host is required'],
      [{ host: 'ftp://example.com', username: 'alice', password: 'x' }, 400, 'host is invalid'],
      [{ host: alist.url, username: 'alice', password: 'x', hashedPassword: 'y' }, 400, "password and hashedPassword can't be both set"],
      // 127.0.0.3 is loopback and not named by the operator: refused before any byte is sent.
      [{ host: alist.url.replace(HOST, '127.0.0.3'), username: 'alice', password: ALICE.password }, 400, 'local ip is not allowed'],
      // Named, but nothing listens on port 9 there.
      [{ host: `http://${HOST}:9`, username: 'alice', password: ALICE.password }, 502, 'vendor server unreachable'],
    ];
    const outcomes = [];
    for (const [body] of cases) {
      const response = await bind(user, body);
      outcomes.push([response.status, response.body.error]);
    }
    expect(outcomes).toEqual(cases.map(([, status, error]) => [status, error]));
    expect((await get(server, '/api/vendor/alist/binds', { token: user.token })).body.data).toEqual([]);
  });

  it('says an AList without the hashed sign-in is too old, not that it is not AList', async () => {
    const old = await startAlistStandIn({ rootDir: libraryDir, users: [ALICE], host: HOST, tooOld: true });
    try {
      const user = await signUpUser(server, 'oldalist');
      const response = await bind(user, { host: old.url, username: 'alice', password: ALICE.password });
      expect([response.status, response.body.error]).toEqual([400, 'alist: this AList is too old, update it']);
      expect(old.calls).toEqual(['/api/auth/login/hash', '/api/public/settings']);
    } finally {
      await old.close();
    }
  });

  it('binds a private address once the admin allows local addresses', async () => {
    const user = await signUpUser(server, 'lan');
    const lanHost = alist.url.replace(HOST, '127.0.0.3');
    expect((await bind(user, { host: lanHost, username: 'alice', password: ALICE.password })).body.error).toBe('local ip is not allowed');
    const root = (await post(server, '/api/user/login', { username: 'root', password: 'root-test-pw' })).body.data.token as string;
    const allow = (value: boolean) => post(server, '/api/admin/settings', { allow_proxy_to_local: value }, { token: root });
    expect((await allow(true)).status).toBe(204);
    try {
      // The stand-in listens on 127.0.0.2 only; the guard now lets the call through, and it fails to connect.
      expect((await bind(user, { host: lanHost, username: 'alice', password: ALICE.password })).body.error).toBe('vendor server unreachable');
    } finally {
      expect((await allow(false)).status).toBe(204);
    }
  });
});

describe('browsing', () => {
  let serverId = '';
  beforeAll(async () => {
    expect((await bind(owner, { host: alist.url, username: ALICE.username, password: ALICE.password })).status).toBe(204);
    serverId = (await get(server, '/api/vendor/alist/binds', { token: owner.token })).body.data[0].serverId;
  });

  it('opens the one bound server at its root, then a folder with its crumbs, paged', async () => {
    const root = await browse(owner, { path: '' });
    expect(root.body.data.paths).toEqual([{ name: '', path: '' }, { name: alist.url, path: `${serverId}/` }]);
    expect(root.body.data.items.map((item: { name: string; isDir: boolean }) => [item.name, item.isDir])).toEqual([['Locked', true], ['Movies', true], ['Series', true]]);
    const season = await browse(owner, { path: `${serverId}/Series/Season 1` }, '?page=2&max=1');
    expect(season.body.data.total).toBe(2);
    expect(season.body.data.items).toEqual([expect.objectContaining({ name: 'Episode 2.mp4', path: `${serverId}/Series/Season 1/Episode 2.mp4`, isDir: false, size: fs.statSync(path.join(MEDIA, 'mp4', 'clip.mp4')).size })]);
    expect(season.body.data.paths.slice(2)).toEqual([{ name: 'Series', path: `${serverId}/Series` }, { name: 'Season 1', path: `${serverId}/Series/Season 1` }]);
  });

  it('searches, and opens a locked folder only with its password', async () => {
    const found = await browse(owner, { path: `${serverId}/`, keyword: 'episode' });
    expect(found.body.data.items.map((item: { path: string }) => item.path)).toEqual([`${serverId}/Series/Season 1/Episode 1.mp4`, `${serverId}/Series/Season 1/Episode 2.mp4`]);
    const refused = await browse(owner, { path: `${serverId}/Locked` });
    expect([refused.status, refused.body.error]).toEqual([400, 'alist: password is incorrect or you have no permission']);
    expect((await browse(owner, { path: `${serverId}/Locked`, password: 'open-sesame' })).body.data.items[0].name).toBe('Secret.mp4');
  });

  it('signs in again when AList no longer takes the token', async () => {
    alist.expireTokens();
    expect((await browse(owner, { path: `${serverId}/Movies` })).status).toBe(200);
  });

  it('says which server is not bound', async () => {
    const stranger = await signUpUser(server, 'stranger');
    expect((await browse(stranger, { path: '' })).body.error).toBe('alist server not found');
    expect((await browse(stranger, { path: `${serverId}/Movies` })).body.error).toBe('alist server not found');
  });
});

describe('AList movies in a room', () => {
  let serverId = '';
  let roomId = '';
  let member: TestUser;
  const as = (user: TestUser) => ({ token: user.token, roomId });

  beforeAll(async () => {
    await bind(owner, { host: alist.url, username: ALICE.username, password: ALICE.password });
    serverId = (await get(server, '/api/vendor/alist/binds', { token: owner.token })).body.data[0].serverId;
    ({ roomId } = await createRoom(server, owner));
    member = await signUpUser(server, 'viewer');
    expect((await post(server, '/api/room/login', { roomId, password: '' }, { token: member.token })).status).toBe(200);
  });

  const push = (user: TestUser, body: Record<string, unknown>) => post(server, '/api/room/movie/push', { url: '', type: '', ...body }, as(user));
  const setCurrent = (id: string, subPath = '') => post(server, '/api/room/movie/current', { id, subPath }, as(owner));

  it("takes the reference client's picker as it calls: its list request, then a file and a folder pushed at once", async () => {
    // synctv-web's src/components/fileList/alist.vue: the token as the whole Authorization header,
    // the room in X-Room-Id, the listing's paths pushed back as they came.
    const call = (route: string, body: unknown, headers: Record<string, string> = {}) =>
      fetch(`${server.url}${route}`, { method: 'POST', headers: { Authorization: owner.token, 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(body) }).then(async (response) => ({ status: response.status, body: (await response.json()) as { data: { items: { name: string; path: string; isDir: boolean }[] } } }));
    const root = await call('/api/vendor/alist/list?page=1&max=10', { path: '', keyword: '' });
    expect(root.status).toBe(200);
    const series = root.body.data.items.find((item) => item.name === 'Series')!;
    const movies = root.body.data.items.find((item) => item.name === 'Movies')!;
    const inMovies = await call('/api/vendor/alist/list?page=1&max=10', { path: movies.path, keyword: '' });
    const clip = inMovies.body.data.items.find((item) => item.name === 'Clip.mp4')!;
    const picked = [clip, series].map((item) => ({ name: item.name, url: '', live: false, rtmpSource: false, type: '', headers: {}, proxy: false, vendorInfo: { vendor: 'alist', alist: { path: item.path } }, isFolder: item.isDir, parentId: '' }));
    const pushed = await call('/api/room/movie/pushs', picked, { 'X-Room-Id': roomId });
    expect(pushed.status).toBe(200);
    const listed = (await get(server, '/api/room/movie/movies?max=100', as(member))).body.data.movies as { base: { name: string; isFolder: boolean; vendorInfo: { alist: { path: string } } } }[];
    expect(listed.filter((movie) => movie.base.name === 'Clip.mp4' || movie.base.name === 'Series').map((movie) => [movie.base.name, movie.base.isFolder, movie.base.vendorInfo.alist.path])).toEqual([
      ['Clip.mp4', false, clip.path],
      ['Series', true, series.path],
    ]);
  });

  it('plays a file with its subtitle from AList for a member who bound nothing', async () => {
    const pushed = await push(owner, { name: 'Clip', vendorInfo: { vendor: 'alist', alist: { path: `${serverId}/Movies/Clip.mp4` } } });
    expect(pushed.status).toBe(200);
    expect((await setCurrent(pushed.body.data.id)).status).toBe(204);
    const current = (await get(server, '/api/room/movie/current', as(member))).body.data.movie;
    expect(current.base).toEqual(expect.objectContaining({ type: 'mp4', vendorInfo: { vendor: 'alist', backend: '', alist: { path: `${serverId}/Movies/Clip.mp4` } } }));
    expect(current.base.url).toMatch(new RegExp(`^${alist.url}/d/Movies/Clip\\.mp4\\?sign=`));
    expect(Object.keys(current.base.subtitles)).toEqual(['Clip.srt']);
    const video = await fetch(current.base.url, { headers: { Range: 'bytes=0-99' } });
    expect(video.status).toBe(206);
    expect((await fetch(current.base.subtitles['Clip.srt'].url).then((response) => response.text())).length).toBeGreaterThan(10);
  });

  it('plays a proxied file through this server, Range and subtitles included', async () => {
    const pushed = await push(owner, { name: 'Clip (proxy)', proxy: true, vendorInfo: { vendor: 'alist', alist: { path: `${serverId}/Movies/Clip.mp4` } } });
    expect(pushed.status).toBe(200);
    expect((await setCurrent(pushed.body.data.id)).status).toBe(204);
    const base = (await get(server, '/api/room/movie/current', as(member))).body.data.movie.base;
    expect(base.url).toBe(`/api/room/movie/proxy/${pushed.body.data.id}?token=${member.token}&roomId=${roomId}`);
    const video = await fetch(`${server.url}${base.url}`, { headers: { Range: 'bytes=10-19' } });
    expect([video.status, (await video.arrayBuffer()).byteLength]).toEqual([206, 10]);
    const subtitle = await fetch(`${server.url}${base.subtitles['Clip.srt'].url}`);
    expect([subtitle.status, await subtitle.text()]).toEqual([200, fs.readFileSync(path.join(MEDIA, 'subs', 'clip.srt'), 'utf8')]);
  });

  it('lists a dynamic folder live for every member, and plays a child of it, never outside it', async () => {
    const folder = await push(owner, { name: 'Series', isFolder: true, vendorInfo: { vendor: 'alist', alist: { path: `${serverId}/Series` } } });
    expect(folder.status).toBe(200);
    const id = folder.body.data.id as string;
    const top = await get(server, `/api/room/movie/movies?id=${id}`, as(member));
    expect(top.body.data).toEqual(expect.objectContaining({ dynamic: true, total: 1 }));
    expect(top.body.data.movies[0]).toEqual(expect.objectContaining({ id, subPath: '/Season 1', base: expect.objectContaining({ name: 'Season 1', isFolder: true }) }));
    const season = await get(server, `/api/room/movie/movies?id=${id}&subPath=${encodeURIComponent('/Season 1')}`, as(member));
    expect(season.body.data.paths.map((crumb: { name: string }) => crumb.name)).toEqual(['Home', 'Series', 'Season 1']);
    expect(season.body.data.movies.map((movie: { subPath: string }) => movie.subPath)).toEqual(['/Season 1/Episode 1.mp4', '/Season 1/Episode 2.mp4']);

    expect((await setCurrent(id, '/Season 1/Episode 2.mp4')).status).toBe(204);
    const current = (await get(server, '/api/room/movie/current', as(member))).body.data.movie;
    expect([current.id, current.subPath, current.base.name, current.base.isFolder]).toEqual([id, '/Season 1/Episode 2.mp4', 'Episode 2.mp4', false]);
    expect(current.base.url).toContain('/d/Series/Season%201/Episode%202.mp4?sign=');

    const escape = await setCurrent(id, '/../Locked/Secret.mp4');
    expect([escape.status, escape.body.error]).toEqual([400, 'sub path is not in parent path']);
  });

  it('keeps a folder password sealed and off the wire, and opens the locked folder with it', async () => {
    const locked = await push(owner, { name: 'Locked', isFolder: true, vendorInfo: { vendor: 'alist', alist: { path: `${serverId}/Locked`, password: 'open-sesame' } } });
    expect(locked.status).toBe(200);
    const stored = await db.get<{ base: string }>('SELECT base FROM movies WHERE id = ?', [locked.body.data.id]);
    expect(stored?.base).not.toContain('open-sesame');
    const listed = await get(server, `/api/room/movie/movies?id=${locked.body.data.id}`, as(member));
    expect(listed.body.data.movies.map((movie: { base: { name: string } }) => movie.base.name)).toEqual(['Secret.mp4']);
    const list = await get(server, '/api/room/movie/movies', as(member));
    expect(JSON.stringify(list.body)).not.toContain('open-sesame');
    // An edit sends the base as the wire shows it, without the password: the folder still opens.
    const shown = (list.body.data.movies as { id: string; base: Record<string, unknown> }[]).find((movie) => movie.id === locked.body.data.id);
    expect((await post(server, '/api/room/movie/edit', { ...shown?.base, id: locked.body.data.id, name: 'Locked (renamed)' }, as(owner))).status).toBe(204);
    const again = await get(server, `/api/room/movie/movies?id=${locked.body.data.id}`, as(member));
    expect(again.body.data.movies.map((movie: { base: { name: string } }) => movie.base.name)).toEqual(['Secret.mp4']);
  });

  it('refuses an AList movie of a server the pusher did not bind, and one without a path', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ name: 'x', vendorInfo: { vendor: 'alist', alist: { path: `${serverId}/Movies/Clip.mp4` } } }, 'alist server not found'],
      [{ name: 'x', vendorInfo: { vendor: 'alist', alist: { path: '' } } }, 'path is empty'],
      [{ name: 'x', vendorInfo: { vendor: 'bilibili', bilibili: { bvid: 'BV1xx' } } }, 'cid is empty'],
      [{ name: 'x', vendorInfo: { vendor: 'youtube' } }, 'vendor youtube is not supported by this server'],
    ];
    for (const [body, error] of cases) {
      const response = await push(member, body);
      expect([response.status, response.body.error]).toEqual([400, error]);
    }
  });

  it('names a file that is gone from AList', async () => {
    const moved = path.join(libraryDir, 'Movies', 'Other Clip.mp4');
    const pushed = await push(owner, { name: 'Other', vendorInfo: { vendor: 'alist', alist: { path: `${serverId}/Movies/Other Clip.mp4` } } });
    fs.renameSync(moved, `${moved}.gone`);
    try {
      expect((await setCurrent(pushed.body.data.id)).status).toBe(204);
      const current = await get(server, '/api/room/movie/current', as(member));
      expect([current.status, current.body.error]).toEqual([400, 'alist: failed get objs: object not found']);
    } finally {
      fs.renameSync(`${moved}.gone`, moved);
    }
  });
});

describe('authorization matrix of the /api/vendor routes (user level: each caller sees only their own accounts)', () => {
  const routes: UserLevelRoute[] = [
    ['GET', '/api/vendor/backends/alist', undefined],
    ['GET', '/api/vendor/alist/binds', undefined],
    ['POST', '/api/vendor/alist/list', { path: '' }],
    ['GET', '/api/vendor/alist/me?serverId=0123456789abcdef0123456789abcdef', undefined],
    ['POST', '/api/vendor/alist/logout', { serverId: '0123456789abcdef0123456789abcdef' }],
    ['POST', '/api/vendor/alist/login', { host: '', username: 'a', password: 'b' }],
  ];

  it('refuses visitors (guests have no token), pending and banned users; answers users, admins and root for themselves', async () => {
    // What a signed-in caller without bound servers gets from each route.
    await expectUserLevel(server, db, 'vm', routes, [[200, undefined], [200, undefined], [400, 'alist server not found'], [400, 'alist server not found'], [400, 'alist server not found'], [400, 'host is required']]);
    const user = await signUpUser(server, 'vuser');
    expect((await get(server, '/api/vendor/backends/nope', { token: user.token })).body.error).toBe('invalid vendor name');
  });
});
