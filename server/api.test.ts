/** @jest-environment node */
/**
 * HTTP contract of the companion server (docs/contract.md §2–§5, §7, §8, §11) against a real
 * server process.
 */
import zlib from 'node:zlib';
import { call, createRoom, get, launch, post, signUpUser, TEST_ROOT_PASSWORD, type TestServer, type TestUser } from './test-support/harness';

jest.setTimeout(30_000);

let server: TestServer;

beforeAll(async () => {
  server = await launch();
});

afterAll(async () => {
  await server?.stop();
});

describe('envelope and errors', () => {
  it('wraps data with a microsecond time', async () => {
    const before = Date.now() * 1000;
    const response = await get(server, '/api/public/settings');
    expect(response.status).toBe(200);
    expect(response.body.time).toBeGreaterThanOrEqual(before - 1_000_000);
    expect(response.body.time).toBeLessThan((Date.now() + 1000) * 1000);
    expect(response.body.data).toEqual({
      passwordDisableSignup: false,
      emailEnable: false,
      emailDisableSignup: false,
      emailWhitelistEnabled: false,
      emailWhitelist: ['gmail.com', 'qq.com', '163.com', 'yahoo.com', 'sina.com', '126.com', 'outlook.com', 'yeah.net', 'foxmail.com'],
      oauth2DisableSignup: true,
      guestEnable: true,
      chatHistory: 100,
      userMaxRoomCount: 3,
      createRoomDisabled: false,
      siteAddress: '',
      movieConvert: true,
      p2pZone: 'hk',
    });
  });

  it('answers invalid JSON with 400 and the decoder message', async () => {
    const response = await call(server, 'POST', '/api/user/login', { rawBody: '{"username": ', contentType: 'application/json' });
    expect(response.status).toBe(400);
    expect(typeof response.body.error).toBe('string');
    expect(response.body.error).not.toBe('EOF');
    expect(response.body.error.length).toBeGreaterThan(3);
  });

  it('answers an empty or missing body with 400 EOF', async () => {
    const empty = await call(server, 'POST', '/api/user/signup', { rawBody: '', contentType: 'application/json' });
    expect([empty.status, empty.body.error]).toEqual([400, 'EOF']);
    const none = await call(server, 'POST', '/api/user/signup');
    expect([none.status, none.body.error]).toEqual([400, 'EOF']);
  });

  it('decodes JSON whatever the content type, and rejects non-objects and wrong field types', async () => {
    const plain = await call(server, 'POST', '/api/user/login', {
      rawBody: JSON.stringify({ username: 'root', password: TEST_ROOT_PASSWORD }),
      contentType: 'text/plain',
    });
    expect(plain.status).toBe(200);
    expect(plain.body.data.role).toBe(5);
    const array = await post(server, '/api/user/login', [1, 2]);
    expect([array.status, array.body.error]).toEqual([400, 'json: cannot unmarshal array into an object']);
    const wrongType = await post(server, '/api/user/login', { username: 42, password: 'x' });
    expect([wrongType.status, wrongType.body.error]).toEqual([400, 'json: cannot unmarshal number into field username of type string']);
  });

  it('answers unknown routes with the plain-text 404', async () => {
    for (const path of ['/nope', '/api/nope', '/api/user/me/extra']) {
      const response = await get(server, path);
      expect(response.status).toBe(404);
      expect(response.text).toBe('404 page not found');
      expect(response.headers.get('content-type')).toContain('text/plain');
    }
  });

  it('redirects / to /web/ and allows every origin', async () => {
    const root = await get(server, '/');
    expect(root.status).toBe(301);
    expect(root.headers.get('location')).toBe('/web/');
    const cors = await get(server, '/api/public/settings', { headers: { Origin: 'http://elsewhere.example' } });
    expect(cors.headers.get('access-control-allow-origin')).toBe('*');
  });
});

describe('users', () => {
  it('signs up, reads me and logs in', async () => {
    const signup = await post(server, '/api/user/signup', { username: 'alice-api', password: 'pw-alice' });
    expect(signup.status).toBe(200);
    expect(signup.body.data.role).toBe(3);
    const me = await get(server, '/api/user/me', { token: signup.body.data.token });
    expect(me.status).toBe(200);
    expect(me.body.data).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{32}$/),
      username: 'alice-api',
      email: '',
      createdAt: expect.any(Number),
      role: 3,
    });
    expect(Math.abs(me.body.data.createdAt - Date.now())).toBeLessThan(60_000);

    const login = await post(server, '/api/user/login', { username: 'alice-api', email: '', password: 'pw-alice' });
    expect(login.status).toBe(200);
    const bearer = await get(server, '/api/user/me', { token: `Bearer ${login.body.data.token}` });
    expect(bearer.body.data.username).toBe('alice-api');
  });

  it('refuses a duplicate user, a short password, and answers an unknown user as a wrong password', async () => {
    const short = await post(server, '/api/user/signup', { username: 'dup-user', password: 'seven77' });
    expect([short.status, short.body.error]).toEqual([400, 'password too short']);
    expect((await post(server, '/api/user/signup', { username: 'dup-user', password: 'eight888' })).status).toBe(200);
    const dup = await post(server, '/api/user/signup', { username: 'dup-user', password: 'pw2-long-enough' });
    expect([dup.status, dup.body.error]).toEqual([400, 'user already exists']);
    // Who has an account is not told: an unknown name gets the answer of a wrong password.
    const unknown = await post(server, '/api/user/login', { username: 'nobody-here', password: 'pw' });
    expect([unknown.status, unknown.body.error]).toEqual([403, 'password incorrect']);
    const wrong = await post(server, '/api/user/login', { username: 'dup-user', password: 'nope' });
    expect([wrong.status, wrong.body.error]).toEqual([403, 'password incorrect']);
    const guest = await post(server, '/api/user/signup', { username: 'guest', password: 'guest-password' });
    expect(guest.body.error).toBe('user already exists');
  });

  it('validates with the contract texts', async () => {
    const cases: [unknown, string][] = [
      [{ username: '', password: 'pw' }, 'username is empty'],
      [{ username: 'a'.repeat(33), password: 'pw' }, 'username too long'],
      [{ username: '汉'.repeat(11), password: 'pw' }, 'username too long'],
      [{ username: 'tab\tname', password: 'pw' }, 'username has invalid char'],
      [{ username: 'valid-name', password: '' }, 'user password empty'],
      [{ username: 'valid-name', password: 'p'.repeat(33) }, 'password too long'],
      [{ username: 'valid-name', password: 'pässword' }, 'password has invalid char'],
    ];
    for (const [body, error] of cases) {
      const response = await post(server, '/api/user/signup', body);
      expect([response.status, response.body.error]).toEqual([400, error]);
    }
    const both = await post(server, '/api/user/login', { username: 'a', email: 'a@b.cd', password: 'pw' });
    expect(both.body.error).toBe('only one of username or email should be provided');
    const neither = await post(server, '/api/user/login', { password: 'pw' });
    expect(neither.body.error).toBe('either username or email is required');
  });

  it('rejects missing, malformed and foreign tokens', async () => {
    const none = await get(server, '/api/user/me');
    expect([none.status, none.body.error]).toEqual([401, 'authentication token is empty']);
    const garbage = await get(server, '/api/user/me', { token: 'not-a-jwt' });
    expect([garbage.status, garbage.body.error]).toEqual([401, 'authentication failed']);
    const forged =
      'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJ1IjoiMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDIiLCJ1diI6MX0.c2lnbmF0dXJl';
    expect((await get(server, '/api/user/me', { token: forged })).status).toBe(401);
  });

  it('changing the password returns a new token and expires the old ones', async () => {
    const user = await signUpUser(server, 'pwchange');
    const same = await post(server, '/api/user/password', { password: user.password }, { token: user.token });
    expect([same.status, same.body.error]).toEqual([400, 'password is the same']);
    const short = await post(server, '/api/user/password', { password: 'short' }, { token: user.token });
    expect([short.status, short.body.error]).toEqual([400, 'password too short']);
    const changed = await post(server, '/api/user/password', { password: 'new-secret' }, { token: user.token });
    expect(changed.status).toBe(200);
    expect(changed.body.data.token).toEqual(expect.any(String));
    const old = await get(server, '/api/user/me', { token: user.token });
    expect([old.status, old.body.error]).toEqual([401, 'authentication token expired']);
    expect((await get(server, '/api/user/me', { token: changed.body.data.token })).status).toBe(200);
    const login = await post(server, '/api/user/login', { username: user.username, password: 'new-secret' });
    expect(login.status).toBe(200);
  });

  it('renames, and refuses a taken name', async () => {
    const user = await signUpUser(server, 'renamer');
    const other = await signUpUser(server, 'taken');
    const taken = await post(server, '/api/user/username', { username: other.username }, { token: user.token });
    expect([taken.status, taken.body.error]).toEqual([400, 'user already exists']);
    const renamed = await post(server, '/api/user/username', { username: `${user.username}-new` }, { token: user.token });
    expect(renamed.status).toBe(204);
    expect(renamed.text).toBe('');
    expect((await get(server, '/api/user/me', { token: user.token })).body.data.username).toBe(`${user.username}-new`);
  });

  it('logout deletes the account and its rooms', async () => {
    const user = await signUpUser(server, 'leaver');
    const { roomId } = await createRoom(server, user);
    expect((await post(server, '/api/user/logout', undefined, { token: user.token })).status).toBe(204);
    const me = await get(server, '/api/user/me', { token: user.token });
    expect([me.status, me.body.error]).toEqual([401, 'user not found']);
    expect((await get(server, `/api/room/check?roomId=${roomId}`)).status).toBe(404);
  });
});

describe('rooms', () => {
  let owner: TestUser;
  let member: TestUser;

  beforeAll(async () => {
    owner = await signUpUser(server, 'owner');
    member = await signUpUser(server, 'member');
  });

  it('creates rooms with 201 and enforces names and the per-user limit', async () => {
    const user = await signUpUser(server, 'creator');
    const first = await post(server, '/api/room/create', { roomName: 'limit room 1', password: '', settings: { hidden: false } }, { token: user.token });
    expect(first.status).toBe(201);
    expect(first.body.data).toEqual({ roomId: expect.stringMatching(/^[0-9a-f]{32}$/), status: 3 });
    const dup = await post(server, '/api/room/create', { roomName: 'limit room 1', password: '' }, { token: user.token });
    expect([dup.status, dup.body.error]).toEqual([400, 'room already exists']);
    const long = await post(server, '/api/room/create', { roomName: 'r'.repeat(33), password: '' }, { token: user.token });
    expect([long.status, long.body.error]).toEqual([400, 'room name too long']);
    const empty = await post(server, '/api/room/create', { roomName: '', password: '' }, { token: user.token });
    expect(empty.body.error).toBe('empty room name');
    await createRoom(server, user);
    await createRoom(server, user);
    const fourth = await post(server, '/api/room/create', { roomName: 'limit room 4', password: '' }, { token: user.token });
    expect([fourth.status, fourth.body.error]).toEqual([400, 'room count exceeds limit']);
    const guest = await post(server, '/api/room/create', { roomName: 'guest room', password: '' });
    expect(guest.status).toBe(401);
  });

  it('lets admins create more rooms than the limit', async () => {
    const login = await post(server, '/api/user/login', { username: 'root', password: TEST_ROOT_PASSWORD });
    const root: TestUser = { token: login.body.data.token, id: '', username: 'root', password: TEST_ROOT_PASSWORD };
    for (let i = 0; i < 4; i++) await createRoom(server, root);
  });

  it('lists active visible rooms with paging, search and sort', async () => {
    const lister = await signUpUser(server, 'lister');
    const visible = await createRoom(server, lister, { name: `zz-visible-${lister.username}` });
    const hidden = await createRoom(server, lister, { name: `zz-hidden-${lister.username}`, hidden: true });
    const byCreator = await get(server, `/api/room/list?keyword=${lister.username}&search=creator`);
    expect(byCreator.status).toBe(200);
    expect(byCreator.body.data.total).toBe(1);
    expect(byCreator.body.data.list[0]).toEqual({
      roomId: visible.roomId,
      roomName: visible.roomName,
      creatorId: lister.id,
      creator: lister.username,
      viewerCount: 0,
      createdAt: expect.any(Number),
      needPassword: false,
      status: 3,
    });
    const all = await get(server, '/api/room/list?max=100');
    expect(all.body.data.list.map((room: { roomId: string }) => room.roomId)).not.toContain(hidden.roomId);

    const pageOne = await get(server, '/api/room/list?max=2&page=1&sort=name&order=asc');
    const pageTwo = await get(server, '/api/room/list?max=2&page=2&sort=name&order=asc');
    expect(pageOne.body.data.list).toHaveLength(2);
    expect(pageOne.body.data.total).toBe(all.body.data.total);
    const names = [...pageOne.body.data.list, ...pageTwo.body.data.list].map((room: { roomName: string }) => room.roomName);
    expect(names).toEqual([...names].sort());

    const mine = await get(server, '/api/user/rooms', { token: lister.token });
    expect(mine.body.data.total).toBe(2);
  });

  it('answers bad list parameters with the contract texts', async () => {
    const cases: [string, string][] = [
      ['/api/room/list?max=x', 'max must be a number'],
      ['/api/room/list?page=abc', 'page must be a number'],
      ['/api/room/list?max=', 'max must be a number'],
      ['/api/room/list?sort=size', 'not support sort'],
      ['/api/room/hot?page=1.5', 'page must be a number'],
    ];
    for (const [path, error] of cases) {
      const response = await get(server, path);
      expect([response.status, response.body.error]).toEqual([400, error]);
    }
    const capped = await get(server, '/api/room/list?max=1000&page=-3');
    expect(capped.status).toBe(200);
    expect(capped.body.data.list.length).toBeLessThanOrEqual(100);
  });

  it('checks rooms and validates ids', async () => {
    const { roomId, roomName } = await createRoom(server, owner, { password: 'room-pw' });
    const check = await get(server, `/api/room/check?roomId=${roomId}`);
    expect(check.body.data).toEqual({
      name: roomName,
      creatorId: owner.id,
      creator: owner.username,
      viewerCount: 0,
      status: 3,
      needPassword: true,
      enabledGuest: false,
    });
    const bad = await get(server, '/api/room/check?roomId=short');
    expect([bad.status, bad.body.error]).toEqual([400, 'invalid room ID']);
    const missing = await get(server, `/api/room/check?roomId=${'f'.repeat(32)}`);
    expect([missing.status, missing.body.error]).toEqual([404, 'room not found']);
    const badMiddleware = await get(server, '/api/room/me', { token: owner.token, roomId: 'short' });
    expect([badMiddleware.status, badMiddleware.body.error]).toEqual([401, 'invalid room ID']);
  });

  it('keeps non-members of a password room out until they log in with the password', async () => {
    const { roomId } = await createRoom(server, owner, { password: 'secret-room' });
    for (const path of ['/api/room/me', '/api/room/info', '/api/room/movie/movies', '/api/room/movie/current', '/api/room/members', '/api/room/ws']) {
      const response = await get(server, path, { token: member.token, roomId });
      expect([path, response.status, response.body.error]).toEqual([path, 401, 'get room member failed: room or member not found']);
    }
    const joinedBefore = await get(server, `/api/room/joined?roomId=${roomId}`, { token: member.token });
    expect(joinedBefore.body.data).toMatchObject({ joined: false, status: 0, room: { needPassword: true } });

    const wrong = await post(server, '/api/room/login', { roomId, password: 'guess' }, { token: member.token });
    expect([wrong.status, wrong.body.error]).toEqual([403, 'password error']);
    const badId = await post(server, '/api/room/login', { roomId: 'abc', password: 'x' }, { token: member.token });
    expect([badId.status, badId.body.error]).toEqual([400, 'invalid room id']);

    const login = await post(server, '/api/room/login', { roomId, password: 'secret-room' }, { token: member.token });
    expect(login.status).toBe(200);
    expect(login.body.data).toEqual({ status: 3, role: 1, permissions: 193, adminPermissions: 0 });

    const me = await get(server, '/api/room/me', { token: member.token, roomId });
    expect(me.body.data).toEqual({
      userId: member.id,
      roomId,
      joinAt: expect.any(Number),
      role: 1,
      status: 3,
      permissions: 193,
      adminPermissions: 0,
    });
    const joined = await get(server, `/api/user/room/joined?roomId=${roomId}`, { token: member.token });
    expect(joined.body.data).toMatchObject({ joined: true, status: 3 });
    const info = await get(server, '/api/room/info', { token: member.token, roomId });
    expect(info.body.data).toMatchObject({ id: roomId, needPassword: true, creatorId: owner.id, member: { id: member.id, role: 1 } });
    const creatorMe = await get(server, '/api/room/me', { token: owner.token, roomId });
    expect(creatorMe.body.data).toMatchObject({ role: 3, status: 3, permissions: 4294967295, adminPermissions: 4294967295 });

    const pwd = await post(server, '/api/room/pwd/check', { password: 'secret-room' }, { token: member.token, roomId });
    expect(pwd.body.data).toEqual({ valid: true });
    const pwdWrong = await post(server, '/api/room/pwd/check', { password: 'nope' }, { token: member.token, roomId });
    expect(pwdWrong.body.data).toEqual({ valid: false });

    const joinedList = await get(server, '/api/user/rooms/joined', { token: member.token });
    expect(joinedList.body.data.list).toEqual(
      expect.arrayContaining([expect.objectContaining({ roomId, memberStatus: 3, memberRole: 1 })]),
    );
    const members = await get(server, '/api/room/members?sort=join', { token: owner.token, roomId });
    expect(members.body.data.total).toBe(2);
    expect(members.body.data.list).toEqual(
      expect.arrayContaining([expect.objectContaining({ userId: member.id, username: member.username, onlineCount: 0, permissions: 193 })]),
    );
  });

  it('lets guests into open rooms only, with guest permissions', async () => {
    const owner = await signUpUser(server, 'guesthost');
    const open = await createRoom(server, owner);
    const locked = await createRoom(server, owner, { password: 'pw' });
    const me = await get(server, '/api/room/me', { roomId: open.roomId });
    expect(me.status).toBe(200);
    expect(me.body.data).toMatchObject({ userId: '00000000000000000000000000000001', permissions: 0, status: 3 });
    const lockedMe = await get(server, '/api/room/me', { roomId: locked.roomId });
    expect([lockedMe.status, lockedMe.body.error]).toEqual([401, 'guests are not allowed to perform this action']);
    const settings = await get(server, '/api/room/settings', { roomId: open.roomId });
    expect([settings.status, settings.body.error]).toEqual([403, 'guests are not allowed to perform this action']);
    const movies = await get(server, '/api/room/movie/movies', { roomId: open.roomId });
    expect([movies.status, movies.body.error]).toEqual([403, 'no permission']);
    const current = await get(server, '/api/room/movie/current', { roomId: open.roomId });
    expect(current.status).toBe(200);
  });

  it('joins open rooms automatically and serves the settings object', async () => {
    const owner = await signUpUser(server, 'openhost');
    const open = await createRoom(server, owner);
    const settings = await get(server, '/api/room/settings', { token: member.token, roomId: open.roomId });
    expect(settings.body.data).toEqual({
      user_default_permissions: 193,
      guest_permissions: 0,
      disable_guest: false,
      join_need_review: false,
      disable_join_new_user: false,
      hidden: false,
      can_get_movie_list: true,
      can_add_movie: true,
      can_delete_movie: true,
      can_edit_movie: true,
      can_set_current_movie: true,
      can_set_current_status: true,
      can_send_chat_message: true,
      // The companion extension (docs/transcode.md "Converting automatically").
      auto_convert: false,
    });
    const joined = await get(server, `/api/room/joined?roomId=${open.roomId}`, { token: member.token });
    expect(joined.body.data).toMatchObject({ joined: true, status: 3, room: { enabledGuest: true } });
  });

  it('exits and deletes rooms', async () => {
    const owner = await signUpUser(server, 'exithost');
    const room = await createRoom(server, owner);
    await get(server, '/api/room/me', { token: member.token, roomId: room.roomId });
    const creatorExit = await post(server, '/api/user/room/exit', { id: room.roomId }, { token: owner.token });
    expect([creatorExit.status, creatorExit.body.error]).toEqual([400, 'creator cannot be deleted']);
    expect((await post(server, '/api/user/room/exit', { id: room.roomId }, { token: member.token })).status).toBe(204);
    const joined = await get(server, `/api/room/joined?roomId=${room.roomId}`, { token: member.token });
    expect(joined.body.data.joined).toBe(false);
    const notCreator = await post(server, '/api/user/room/delete', { id: room.roomId }, { token: member.token });
    expect([notCreator.status, notCreator.body.error]).toEqual([403, 'not creator']);
    const badId = await post(server, '/api/user/room/delete', { id: 'x' }, { token: owner.token });
    expect([badId.status, badId.body.error]).toEqual([400, 'empty room name']);
    expect((await post(server, '/api/user/room/delete', { id: room.roomId }, { token: owner.token })).status).toBe(204);
    expect((await get(server, `/api/room/check?roomId=${room.roomId}`)).status).toBe(404);
  });
});

describe('movies', () => {
  let owner: TestUser;
  let member: TestUser;
  let roomId: string;

  beforeAll(async () => {
    owner = await signUpUser(server, 'mvowner');
    member = await signUpUser(server, 'mvmember');
    ({ roomId } = await createRoom(server, owner));
  });

  const as = (user: TestUser) => ({ token: user.token, roomId });

  it("gives the player a movie's request headers in /current, unless the server proxies it", async () => {
    const headers = { Referer: 'https://media.example/', 'X-Room-Token': 'abc' };
    const direct = await post(server, '/api/room/movie/push', { url: 'https://media.example/a.m3u8', name: 'with headers', headers }, as(owner));
    expect((await post(server, '/api/room/movie/current', { id: direct.body.data.id }, as(owner))).status).toBe(204);
    const current = await get(server, '/api/room/movie/current', as(member));
    expect(current.body.data.movie.base.headers).toEqual(headers);
    expect((await post(server, '/api/room/movie/current', { id: '' }, as(owner))).status).toBe(204);
    expect((await post(server, '/api/room/movie/delete', { ids: [direct.body.data.id] }, as(owner))).status).toBe(204);
  });

  it('reports an empty current movie', async () => {
    const current = await get(server, '/api/room/movie/current', as(owner));
    expect(current.body.data).toEqual({
      movie: {
        id: '',
        creator: '',
        creatorId: '',
        subPath: '',
        base: expect.objectContaining({ url: '', name: '', type: '', live: false, proxy: false, isFolder: false }),
        createAt: 0,
      },
      status: { lastUpdate: '0001-01-01T00:00:00Z' },
      expireId: 0,
    });
  });

  it('pushes, pages, plays and deletes movies', async () => {
    const push = await post(server, '/api/room/movie/push', { url: 'https://cdn.example/a/clip.m3u8', name: 'Clip' }, as(owner));
    expect(push.status).toBe(200);
    expect(push.body.data).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{32}$/),
      creatorId: owner.id,
      base: expect.objectContaining({ url: 'https://cdn.example/a/clip.m3u8', name: 'Clip' }),
    });
    const clipId: string = push.body.data.id;
    const many = await post(
      server,
      '/api/room/movie/pushs',
      [1, 2, 3, 4].map((n) => ({ url: `http://media.local/v${n}.mp4`, name: `Video ${n}` })),
      as(owner),
    );
    expect(many.body.data).toHaveLength(4);

    const page1 = await get(server, '/api/room/movie/movies?page=1&max=2', as(member));
    const page3 = await get(server, '/api/room/movie/movies?page=3&max=2', as(member));
    expect(page1.body.data.total).toBe(5);
    expect(page3.body.data.total).toBe(5);
    expect(page1.body.data.movies.map((movie: { base: { name: string } }) => movie.base.name)).toEqual(['Clip', 'Video 1']);
    expect(page3.body.data.movies.map((movie: { base: { name: string } }) => movie.base.name)).toEqual(['Video 4']);
    expect(page1.body.data.paths).toEqual([{ name: 'Home', id: '', subPath: '' }]);
    expect(page1.body.data.dynamic).toBe(false);
    const first = page1.body.data.movies[0];
    expect(first).toEqual({
      id: clipId,
      creator: owner.username,
      creatorId: owner.id,
      subPath: '',
      base: expect.objectContaining({ type: 'm3u8' }),
      createAt: expect.any(Number),
    });
    const search = await get(server, '/api/room/movie/movies?keyword=video%203', as(member));
    expect(search.body.data.total).toBe(1);

    expect((await post(server, '/api/room/movie/current', { id: clipId }, as(owner))).status).toBe(204);
    const current = await get(server, '/api/room/movie/current', as(member));
    expect(current.body.data.movie).toMatchObject({ id: clipId, base: { name: 'Clip', type: 'm3u8' } });
    // currentTime is omitempty (§7.3): absent when the GET lands in the same millisecond as the change.
    const { currentTime, ...status } = current.body.data.status;
    expect(status).toEqual({ isPlaying: true, playbackRate: 1, lastUpdate: expect.any(String) });
    expect(currentTime === undefined || (typeof currentTime === 'number' && currentTime >= 0)).toBe(true);
    expect(Date.parse(current.body.data.status.lastUpdate)).toBeGreaterThan(Date.now() - 10_000);
    expect(current.body.data.expireId).toBe(zlib.crc32(clipId) >>> 0);

    const deleteCurrent = await post(server, '/api/room/movie/delete', { ids: [clipId] }, as(owner));
    expect([deleteCurrent.status, deleteCurrent.body.error]).toEqual([400, 'cannot modify current movie']);
    const clear = await post(server, '/api/room/movie/clear', { parentId: '' }, as(owner));
    expect([clear.status, clear.body.error]).toEqual([400, 'cannot modify current movie']);
    const deleteOther = await post(server, '/api/room/movie/delete', { ids: [many.body.data[0].id] }, as(owner));
    expect(deleteOther.status).toBe(204);
    expect((await get(server, '/api/room/movie/movies', as(owner))).body.data.total).toBe(4);

    expect((await post(server, '/api/room/movie/current', { id: '' }, as(owner))).status).toBe(204);
    expect((await post(server, '/api/room/movie/clear', { parentId: '' }, as(owner))).status).toBe(204);
    const after = await get(server, '/api/room/movie/movies', as(owner));
    expect(after.body.data).toMatchObject({ total: 0, movies: [] });
  });

  it('validates pushed movies and ids', async () => {
    const cases: [unknown, string][] = [
      [{ url: 'ftp://x/y.mp4', name: 'ftp' }, 'unsupported scheme: ftp'],
      [{ url: 'https://x/y.mp4', name: '' }, 'empty name'],
      [{ url: `https://x/${'a'.repeat(8200)}`, name: 'long' }, 'url too long'],
      [{ url: 'https://x/y', name: 'n', type: 't'.repeat(33) }, 'type too long'],
      [{ url: 'https://x/y', name: 'n', parentId: 'abc' }, 'parent id length must be empty or 32'],
    ];
    for (const [body, error] of cases) {
      const response = await post(server, '/api/room/movie/push', body, as(owner));
      expect([response.status, response.body.error]).toEqual([400, error]);
    }
    const longName = await post(server, '/api/room/movie/push', { url: 'https://x/long.mp4', name: 'n'.repeat(300) }, as(owner));
    expect(longName.body.data.base.name).toBe(`${'n'.repeat(253)}...`);
    const badList = await get(server, '/api/room/movie/movies?id=abc', as(owner));
    expect([badList.status, badList.body.error]).toEqual([400, 'id length must be 0 or 32']);
    const emptyIds = await post(server, '/api/room/movie/delete', { ids: [] }, as(owner));
    expect(emptyIds.body.error).toBe('empty ids');
    const badIds = await post(server, '/api/room/movie/delete', { ids: ['x'] }, as(owner));
    expect(badIds.body.error).toBe('id length must be 32');
    const badCurrent = await post(server, '/api/room/movie/current', { id: 'x' }, as(owner));
    expect([badCurrent.status, badCurrent.body.error]).toEqual([400, 'id length must be 0 or 32']);
  });

  it('applies member permissions: default members may list but not push or play', async () => {
    expect((await get(server, '/api/room/movie/movies', as(member))).status).toBe(200);
    const push = await post(server, '/api/room/movie/push', { url: 'https://x/m.mp4', name: 'm' }, as(member));
    expect([push.status, push.body.error]).toEqual([403, 'push movie error: no permission']);
    const own = await post(server, '/api/room/movie/push', { url: 'https://x/o.mp4', name: 'o' }, as(owner));
    const play = await post(server, '/api/room/movie/current', { id: own.body.data.id }, as(member));
    expect([play.status, play.body.error]).toEqual([403, 'set current movie error: no permission']);
    const remove = await post(server, '/api/room/movie/delete', { ids: [own.body.data.id] }, as(member));
    expect(remove.status).toBe(403);
  });

  it('lists folders with their breadcrumb', async () => {
    const folder = await post(server, '/api/room/movie/push', { url: '', name: 'Series', isFolder: true }, as(owner));
    const folderId: string = folder.body.data.id;
    await post(server, '/api/room/movie/push', { url: 'https://x/e1.mp4', name: 'Episode 1', parentId: folderId }, as(owner));
    const inside = await get(server, `/api/room/movie/movies?id=${folderId}`, as(owner));
    expect(inside.body.data.paths).toEqual([
      { name: 'Home', id: '', subPath: '' },
      { name: 'Series', id: folderId, subPath: '' },
    ]);
    expect(inside.body.data.movies.map((movie: { base: { name: string } }) => movie.base.name)).toEqual(['Episode 1']);
    const asCurrent = await post(server, '/api/room/movie/current', { id: folderId }, as(owner));
    expect(asCurrent.body.error).toBe('cannot set static folder as current movie');
  });
});
