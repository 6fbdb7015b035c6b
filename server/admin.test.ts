/** @jest-environment node */
/**
 * Site administration (docs/contract.md §4.6, §5.1, §5.2, §5.6) against a real server process:
 * the authorization matrix of every `/api/admin/*` route for visitor, pending, banned, user, admin
 * and root; settings by group with type checks and their effect at once; users, rooms and
 * administrators with who may act on whom (an admin on root or on another admin); the test mail,
 * received by a real SMTP server.
 */
import { randomBytes } from 'node:crypto';
import { Role, RoomStatus } from '@/lib/contract/roles';
import { createRoom, get, launch, post, signUpUser, TEST_ROOT_PASSWORD, TestSocket, openServerDatabase, type TestDatabase, type TestServer, type TestUser } from './test-support/harness';
import { startMailSink, type MailSink } from './test-support/mail-sink';

jest.setTimeout(60_000);

let server: TestServer;
let sink: MailSink;
let db: TestDatabase;
let root: TestUser;

const randomId = () => randomBytes(16).toString('hex');
const setRole = (userId: string, role: number) => db.run('UPDATE users SET role = ? WHERE id = ?', [role, userId]);
const roleOf = async (userId: string) => (await db.get<{ role: number }>('SELECT role FROM users WHERE id = ?', [userId]))?.role;

/** A fresh user with `role` (set in SQLite, as the test's arrangement only). */
async function userWithRole(prefix: string, role: number = Role.User): Promise<TestUser> {
  const user = await signUpUser(server, prefix);
  if (role !== Role.User) await setRole(user.id, role);
  return user;
}

const adminPost = (urlPath: string, body: unknown, token = root.token) => post(server, urlPath, body, { token });

beforeAll(async () => {
  sink = await startMailSink();
  server = await launch({ initialSettings: sink.settings() });
  db = await openServerDatabase(server.dataDir);
  const login = await post(server, '/api/user/login', { username: 'root', password: TEST_ROOT_PASSWORD });
  const me = await get(server, '/api/user/me', { token: login.body.data.token });
  root = { token: login.body.data.token, id: me.body.data.id, username: 'root', password: TEST_ROOT_PASSWORD };
});

afterAll(async () => {
  await db?.close();
  await server?.stop();
  await sink?.close();
});

describe('authorization matrix', () => {
  type Level = 'admin' | 'root';
  /** Every route with a request that passes authorization without changing anything. */
  const routes: Array<{ method: 'GET' | 'POST'; path: string; level: Level; body?: unknown; ok: number }> = [
    { method: 'GET', path: '/api/admin/settings', level: 'admin', ok: 200 },
    { method: 'GET', path: '/api/admin/settings/user', level: 'admin', ok: 200 },
    { method: 'POST', path: '/api/admin/settings', level: 'admin', body: {}, ok: 204 },
    { method: 'POST', path: '/api/admin/email/test', level: 'admin', body: { email: 'not an address' }, ok: 400 },
    { method: 'GET', path: '/api/admin/user/list', level: 'admin', ok: 200 },
    { method: 'GET', path: `/api/admin/user/rooms?id=${randomId()}`, level: 'admin', ok: 404 },
    { method: 'POST', path: '/api/admin/user/add', level: 'admin', body: { username: '', password: 'x', role: 3 }, ok: 400 },
    ...['delete', 'ban', 'unban', 'approve', 'password', 'username'].map((action) => ({
      method: 'POST' as const,
      path: `/api/admin/user/${action}`,
      level: 'admin' as Level,
      body: { id: randomId(), password: 'pw', username: 'name' },
      ok: 404,
    })),
    { method: 'GET', path: '/api/admin/room/list', level: 'admin', ok: 200 },
    ...['approve', 'ban', 'unban', 'delete', 'password'].map((action) => ({
      method: 'POST' as const,
      path: `/api/admin/room/${action}`,
      level: 'admin' as Level,
      body: { id: randomId(), password: 'pw' },
      ok: 404,
    })),
    { method: 'POST', path: '/api/admin/admin/add', level: 'root', body: { id: randomId() }, ok: 404 },
    { method: 'POST', path: '/api/admin/admin/delete', level: 'root', body: { id: randomId() }, ok: 404 },
  ];

  const callers: Record<string, { token?: string; role: number }> = {};
  beforeAll(async () => {
    callers.visitor = { role: Role.Visitor };
    callers.pending = { token: (await userWithRole('mxp', Role.Pending)).token, role: Role.Pending };
    callers.banned = { token: (await userWithRole('mxb', Role.Banned)).token, role: Role.Banned };
    callers.user = { token: (await userWithRole('mxu')).token, role: Role.User };
    callers.admin = { token: (await userWithRole('mxa', Role.Admin)).token, role: Role.Admin };
    callers.root = { token: root.token, role: Role.Root };
  });

  /** What a caller of `role` gets on a route of `level`: status and error text. */
  function expected(role: number, level: Level, ok: number): [number, string | undefined] {
    if (role === Role.Visitor) return [401, 'authentication token is empty'];
    if (role === Role.Pending) return [401, 'user account is pending approval'];
    if (role === Role.Banned) return [401, 'user account has been banned'];
    if (level === 'root' && role !== Role.Root) return [403, 'user is not a root user'];
    if (role < Role.Admin) return [403, 'user is not an administrator'];
    return [ok, undefined];
  }

  it.each(['visitor', 'pending', 'banned', 'user', 'admin', 'root'])('%s', async (name) => {
    const caller = callers[name];
    const seen: string[] = [];
    const wanted: string[] = [];
    for (const route of routes) {
      const response =
        route.method === 'GET'
          ? await get(server, route.path, { token: caller.token })
          : await post(server, route.path, route.body, { token: caller.token });
      const [status, error] = expected(caller.role, route.level, route.ok);
      seen.push(`${route.method} ${route.path.split('?')[0]} ${response.status}${error ? ` ${response.body?.error}` : ''}`);
      wanted.push(`${route.method} ${route.path.split('?')[0]} ${status}${error ? ` ${error}` : ''}`);
    }
    expect(seen).toEqual(wanted);
  });
});

describe('site settings', () => {
  it('lists every group, one group, or every oauth2 group; an unknown group is 400', async () => {
    const all = await get(server, '/api/admin/settings', { token: root.token });
    expect(Object.keys(all.body.data)).toEqual(expect.arrayContaining(['user', 'room', 'proxy', 'email', 'server', 'database', 'oauth2_github']));
    expect(all.body.data.user).toMatchObject({ enable_password_signup: true, user_max_room_count: 3, enable_guest: true });
    expect(all.body.data.server.version).toMatch(/0\.9\.11/);
    expect(all.body.data.database.database_version).toBe('6');

    const room = await get(server, '/api/admin/settings/room', { token: root.token });
    expect(Object.keys(room.body.data)).toEqual(['room']);
    expect(room.body.data.room.room_ttl).toBe(48);

    const oauth2 = await get(server, '/api/admin/settings/oauth2', { token: root.token });
    expect(Object.keys(oauth2.body.data).every((group) => group.startsWith('oauth2_'))).toBe(true);
    expect(oauth2.body.data.oauth2_gitee).toMatchObject({ oauth2_gitee_enabled: false, oauth2_gitee_client_id: '' });

    const unknown = await get(server, '/api/admin/settings/nope', { token: root.token });
    expect([unknown.status, unknown.body.error]).toEqual([400, 'group not found']);
  });

  it('refuses unknown, read-only and ill-typed values, and writes nothing unless every entry is valid', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ nope: true }, 'setting nope not found'],
      [{ version: 'x' }, 'setting version not found'],
      [{ enable_guest: 'maybe' }, 'setting enable_guest must be true or false'],
      [{ room_ttl: 1.5 }, 'setting room_ttl must be a whole number'],
      [{ room_ttl: 0 }, `setting room_ttl must be between 1 and ${Number.MAX_SAFE_INTEGER}`],
      [{ smtp_port: 70000 }, 'setting smtp_port must be between 1 and 65535'],
      [{ smtp_protocol: 'POP' }, 'setting smtp_protocol must be one of TLS, SSL, TCP'],
      [{ host: 'example.com' }, 'setting host must start with http:// or https://'],
      [{ p2p_zone: ['hk'] }, 'setting p2p_zone must be text'],
      [{ room_must_need_pwd: true, room_must_no_need_pwd: true }, 'room_must_need_pwd and room_must_no_need_pwd cannot both be on'],
      [{ user_max_room_count: 9, room_ttl: -1 }, `setting room_ttl must be between 1 and ${Number.MAX_SAFE_INTEGER}`],
    ];
    for (const [patch, error] of cases) {
      const response = await adminPost('/api/admin/settings', patch);
      expect([response.status, response.body?.error]).toEqual([400, error]);
    }
    const user = await get(server, '/api/admin/settings/user', { token: root.token });
    expect(user.body.data.user.user_max_room_count).toBe(3);
  });

  it('coerces strings as v0.9.11 does and takes effect at once', async () => {
    const visitorSignup = () => post(server, '/api/user/signup', { username: `late${randomId().slice(0, 8)}`, password: 'pw-123456' });
    expect((await adminPost('/api/admin/settings', { enable_password_signup: 'false', host: ' https://watch.example ' })).status).toBe(204);
    const settings = await get(server, '/api/admin/settings/server', { token: root.token });
    expect(settings.body.data.server.host).toBe('https://watch.example');
    expect((await get(server, '/api/public/settings')).body.data.passwordDisableSignup).toBe(true);
    const refused = await visitorSignup();
    expect([refused.status, refused.body.error]).toEqual([400, 'password signup disabled']);
    expect((await adminPost('/api/admin/settings', { enable_password_signup: true, host: '' })).status).toBe(204);
    expect((await visitorSignup()).status).toBe(200);

    // Review of new rooms, the room limit and guests.
    const owner = await userWithRole('lim');
    expect((await adminPost('/api/admin/settings', { create_room_need_review: true, user_max_room_count: '1', enable_guest: false })).status).toBe(204);
    const pendingRoom = await post(server, '/api/room/create', { roomName: `rev ${randomId().slice(0, 6)}`, password: '' }, { token: owner.token });
    expect(pendingRoom.body.data.status).toBe(RoomStatus.Pending);
    const second = await post(server, '/api/room/create', { roomName: `rev ${randomId().slice(0, 6)}`, password: '' }, { token: owner.token });
    expect([second.status, second.body.error]).toEqual([400, 'room count exceeds limit']);
    expect((await get(server, '/api/public/settings')).body.data.guestEnable).toBe(false);
    expect((await adminPost('/api/admin/settings', { create_room_need_review: false, user_max_room_count: 3, enable_guest: true })).status).toBe(204);
  });
});

describe('users', () => {
  it('lists users (not the guest) with role filter, search, sort and paging, with their email', async () => {
    const tag = `lst${randomId().slice(0, 5)}`;
    const users = [await userWithRole(tag), await userWithRole(tag, Role.Pending), await userWithRole(tag)];
    await db.run('UPDATE users SET email = ? WHERE id = ?', [`${tag}@example.com`, users[0].id]);
    const list = (query: string) => get(server, `/api/admin/user/list?${query}`, { token: root.token });

    const byName = await list(`keyword=${tag}&search=name&sort=name&order=asc&max=2&page=1`);
    expect(byName.body.data.total).toBe(3);
    expect(byName.body.data.list.map((user: { username: string }) => user.username)).toEqual([users[0].username, users[1].username]);
    expect(byName.body.data.list[0]).toMatchObject({ id: users[0].id, email: `${tag}@example.com`, role: Role.User });
    const page2 = await list(`keyword=${tag}&search=name&sort=name&order=asc&max=2&page=2`);
    expect(page2.body.data.list.map((user: { username: string }) => user.username)).toEqual([users[2].username]);

    const pending = await list(`keyword=${tag}&role=pending`);
    expect(pending.body.data.list.map((user: { id: string }) => user.id)).toEqual([users[1].id]);
    const newest = await list(`keyword=${tag}&sort=createdAt&order=desc`);
    expect(newest.body.data.list[0].id).toBe(users[2].id);
    const byId = await list(`keyword=${users[2].id}&search=id`);
    expect(byId.body.data.list.map((user: { id: string }) => user.id)).toEqual([users[2].id]);

    const everyone = await list('max=100&keyword=guest&search=name');
    expect(everyone.body.data.list.some((user: { username: string }) => user.username === 'guest')).toBe(false);
    const badSort = await list('sort=role');
    expect([badSort.status, badSort.body.error]).toEqual([400, 'not support sort']);
  });

  it('adds users; only root adds admins and roots', async () => {
    const admin = await userWithRole('adda', Role.Admin);
    const name = () => `add${randomId().slice(0, 8)}`;
    const added = name();
    expect((await adminPost('/api/admin/user/add', { username: added, password: 'pw-added', role: Role.User }, admin.token)).status).toBe(204);
    expect((await post(server, '/api/user/login', { username: added, password: 'pw-added' })).status).toBe(200);

    const refusals: Array<[unknown, string, number, string]> = [
      [{ username: name(), password: 'pw-added', role: Role.Root }, admin.token, 403, 'you cannot add root user'],
      [{ username: name(), password: 'pw-added', role: Role.Admin }, admin.token, 403, 'user is not a root user'],
      [{ username: name(), password: 'pw-added', role: 0 }, admin.token, 400, 'role cannot be empty'],
      [{ username: name(), password: 'pw-added', role: 9 }, admin.token, 400, 'invalid role'],
      [{ username: added, password: 'pw-added', role: Role.User }, admin.token, 400, 'user already exists'],
      [{ username: name(), password: '', role: Role.User }, admin.token, 400, 'user password empty'],
      [{ username: name(), password: 'pw', role: Role.User }, admin.token, 400, 'password too short'],
    ];
    for (const [body, token, status, error] of refusals) {
      const response = await adminPost('/api/admin/user/add', body, token);
      expect([response.status, response.body?.error]).toEqual([status, error]);
    }
    expect((await adminPost('/api/admin/user/add', { username: name(), password: 'pw-added', role: Role.Admin })).status).toBe(204);
  });

  it('approves a pending user, who can then sign in', async () => {
    const pending = await userWithRole('apv', Role.Pending);
    const before = await post(server, '/api/user/login', { username: pending.username, password: pending.password });
    expect(before.body.data).toMatchObject({ role: Role.Pending });
    expect(before.body.data.token).toBeUndefined();
    expect((await adminPost('/api/admin/user/approve', { id: pending.id })).status).toBe(204);
    const after = await post(server, '/api/user/login', { username: pending.username, password: pending.password });
    expect(after.body.data.token).toEqual(expect.any(String));
    const again = await adminPost('/api/admin/user/approve', { id: pending.id });
    expect([again.status, again.body.error]).toEqual([400, 'user is not pending']);
    const malformed = await adminPost('/api/admin/user/approve', { id: 'short' });
    expect([malformed.status, malformed.body.error]).toEqual([400, 'id is required']);
  });

  it('bans a user: their sockets close and their rooms refuse everyone; unban restores them', async () => {
    const owner = await userWithRole('bno');
    const viewer = await userWithRole('bnv');
    const { roomId } = await createRoom(server, owner);
    const ownerSocket = await TestSocket.open(server, roomId, owner.token);
    const viewerSocket = await TestSocket.open(server, roomId, viewer.token);
    expect((await adminPost('/api/admin/user/ban', { id: owner.id })).status).toBe(204);
    await ownerSocket.closed;
    await viewerSocket.closed;
    expect(await roleOf(owner.id)).toBe(Role.Banned);
    const me = await get(server, '/api/user/me', { token: owner.token });
    expect([me.status, me.body.error]).toEqual([401, 'user account has been banned']);
    const room = await get(server, '/api/room/me', { token: viewer.token, roomId });
    expect([room.status, room.body.error]).toEqual([401, 'room creator is banned']);

    expect((await adminPost('/api/admin/user/unban', { id: owner.id })).status).toBe(204);
    expect((await get(server, '/api/user/me', { token: owner.token })).status).toBe(200);
    const twice = await adminPost('/api/admin/user/unban', { id: owner.id });
    expect([twice.status, twice.body.error]).toEqual([400, 'user is not banned']);
  });

  it('changes a password (older tokens die) and a name; deletes a user with their rooms', async () => {
    const user = await userWithRole('pwd');
    const socket = await TestSocket.open(server, (await createRoom(server, user)).roomId, user.token);
    const short = await adminPost('/api/admin/user/password', { id: user.id, password: 'new-pw' });
    expect([short.status, short.body.error]).toEqual([400, 'password too short']);
    expect((await adminPost('/api/admin/user/password', { id: user.id, password: 'new-pass-1' })).status).toBe(204);
    await socket.closed;
    expect((await get(server, '/api/user/me', { token: user.token })).status).toBe(401);
    const login = await post(server, '/api/user/login', { username: user.username, password: 'new-pass-1' });
    expect(login.status).toBe(200);

    const renamed = `ren${randomId().slice(0, 8)}`;
    expect((await adminPost('/api/admin/user/username', { id: user.id, username: renamed })).status).toBe(204);
    expect((await get(server, '/api/user/me', { token: login.body.data.token })).body.data.username).toBe(renamed);
    const taken = await adminPost('/api/admin/user/username', { id: user.id, username: 'root' });
    expect([taken.status, taken.body.error]).toEqual([400, 'user already exists']);

    const rooms = await get(server, `/api/admin/user/rooms?id=${user.id}`, { token: root.token });
    expect(rooms.body.data.total).toBe(1);
    const roomId = rooms.body.data.list[0].roomId;
    expect((await adminPost('/api/admin/user/delete', { id: user.id })).status).toBe(204);
    expect(await roleOf(user.id)).toBeUndefined();
    expect((await get(server, `/api/room/check?roomId=${roomId}`)).status).toBe(404);
  });

  it('an admin cannot act on root or on another admin; root can act on admins; nobody on themselves', async () => {
    const admin = await userWithRole('hia', Role.Admin);
    const other = await userWithRole('hib', Role.Admin);
    const cases: Array<[string, Record<string, unknown>, string, number, string]> = [
      ['delete', { id: root.id }, admin.token, 403, 'cannot delete root'],
      ['ban', { id: root.id }, admin.token, 403, 'cannot ban root'],
      ['password', { id: root.id, password: 'taken-over' }, admin.token, 403, "cannot change root's name or password here"],
      ['username', { id: root.id, username: 'mine' }, admin.token, 403, "cannot change root's name or password here"],
      ['delete', { id: other.id }, admin.token, 403, 'cannot delete admin'],
      ['ban', { id: other.id }, admin.token, 403, 'cannot ban admin'],
      ['password', { id: other.id, password: 'taken-over' }, admin.token, 403, "cannot change admin's name or password"],
      ['username', { id: other.id, username: 'mine2' }, admin.token, 403, "cannot change admin's name or password"],
      ['delete', { id: admin.id }, admin.token, 400, 'cannot delete yourself'],
      ['ban', { id: admin.id }, admin.token, 400, 'cannot ban self'],
      ['delete', { id: root.id }, root.token, 400, 'cannot delete yourself'],
      ['ban', { id: root.id }, root.token, 400, 'cannot ban self'],
    ];
    for (const [action, body, token, status, error] of cases) {
      const response = await adminPost(`/api/admin/user/${action}`, body, token);
      expect(`${action} ${response.status} ${response.body?.error}`).toBe(`${action} ${status} ${error}`);
    }
    expect(await roleOf(root.id)).toBe(Role.Root);
    expect((await post(server, '/api/user/login', { username: 'root', password: TEST_ROOT_PASSWORD })).status).toBe(200);
    // Anyone may change their own name here, as in the user center.
    expect((await adminPost('/api/admin/user/username', { id: admin.id, username: `${admin.username}x` }, admin.token)).status).toBe(204);
    // Root may ban and delete an admin.
    expect((await adminPost('/api/admin/user/ban', { id: other.id })).status).toBe(204);
    expect((await adminPost('/api/admin/user/delete', { id: other.id })).status).toBe(204);
  });
});

describe('rooms', () => {
  it('lists every room (hidden, pending, banned) with status filter, search and sort', async () => {
    const owner = await userWithRole('rlo');
    const tag = `rl${randomId().slice(0, 6)}`;
    const hidden = await createRoom(server, owner, { hidden: true, name: `${tag} b hidden` });
    const shown = await createRoom(server, owner, { name: `${tag} a shown` });
    await db.run('UPDATE rooms SET status = ? WHERE id = ?', [RoomStatus.Pending, hidden.roomId]);
    const list = (query: string) => get(server, `/api/admin/room/list?${query}`, { token: root.token });

    const all = await list(`keyword=${tag}&search=name&sort=name&order=asc`);
    expect(all.body.data.list.map((room: { roomId: string }) => room.roomId)).toEqual([shown.roomId, hidden.roomId]);
    const pending = await list(`keyword=${tag}&status=pending`);
    expect(pending.body.data.list.map((room: { roomId: string }) => room.roomId)).toEqual([hidden.roomId]);
    const byCreator = await list(`keyword=${owner.id}&search=creatorId`);
    expect(byCreator.body.data.total).toBe(2);
    const byRoomId = await list(`keyword=${shown.roomId}&search=roomId`);
    expect(byRoomId.body.data.list.map((room: { roomId: string }) => room.roomId)).toEqual([shown.roomId]);
    const userRooms = await get(server, `/api/admin/user/rooms?id=${owner.id}&status=pending`, { token: root.token });
    expect(userRooms.body.data.list.map((room: { roomId: string }) => room.roomId)).toEqual([hidden.roomId]);
  });

  it('approves, bans (everyone disconnected), unbans, sets a password and deletes a room', async () => {
    const owner = await userWithRole('rao');
    const viewer = await userWithRole('rav');
    const { roomId } = await createRoom(server, owner);
    await db.run('UPDATE rooms SET status = ? WHERE id = ?', [RoomStatus.Pending, roomId]);
    expect((await adminPost('/api/admin/room/approve', { id: roomId })).status).toBe(204);
    const again = await adminPost('/api/admin/room/approve', { id: roomId });
    expect([again.status, again.body.error]).toEqual([400, 'room is not pending']);

    const sockets = [await TestSocket.open(server, roomId, owner.token), await TestSocket.open(server, roomId, viewer.token)];
    expect((await adminPost('/api/admin/room/ban', { id: roomId })).status).toBe(204);
    await Promise.all(sockets.map((socket) => socket.closed));
    await expect(TestSocket.open(server, roomId, viewer.token)).rejects.toMatchObject({ status: 401, body: { error: 'room has been banned' } });
    const banAgain = await adminPost('/api/admin/room/ban', { id: roomId });
    expect([banAgain.status, banAgain.body.error]).toEqual([400, 'room is already banned']);
    expect((await adminPost('/api/admin/room/unban', { id: roomId })).status).toBe(204);
    expect((await get(server, '/api/room/me', { token: viewer.token, roomId })).status).toBe(200);
    const unbanAgain = await adminPost('/api/admin/room/unban', { id: roomId });
    expect([unbanAgain.status, unbanAgain.body.error]).toEqual([400, 'room is not banned']);

    const empty = await adminPost('/api/admin/room/password', { id: roomId, password: '' });
    expect([empty.status, empty.body.error]).toEqual([400, 'room password empty']);
    expect((await adminPost('/api/admin/room/password', { id: roomId, password: 'door-pw' })).status).toBe(204);
    expect((await get(server, `/api/room/check?roomId=${roomId}`)).body.data.needPassword).toBe(true);
    const newcomer = await userWithRole('ran');
    const wrong = await post(server, '/api/room/login', { roomId, password: 'nope' }, { token: newcomer.token });
    expect(wrong.status).toBe(403);
    expect((await post(server, '/api/room/login', { roomId, password: 'door-pw' }, { token: newcomer.token })).status).toBe(200);

    expect((await adminPost('/api/admin/room/delete', { id: roomId })).status).toBe(204);
    expect((await get(server, `/api/room/check?roomId=${roomId}`)).status).toBe(404);
  });

  it("an admin cannot ban or delete root's or another admin's room; root can", async () => {
    const admin = await userWithRole('rha', Role.Admin);
    const otherAdmin = await userWithRole('rhb', Role.Admin);
    const rootRoom = await createRoom(server, root);
    const adminRoom = await createRoom(server, otherAdmin);
    const ownRoom = await createRoom(server, admin);
    const cases: Array<[string, string, number, string]> = [
      ['ban', rootRoom.roomId, 403, 'cannot ban root'],
      ['delete', rootRoom.roomId, 403, "cannot delete root's room"],
      ['ban', adminRoom.roomId, 403, 'cannot ban admin'],
      ['delete', adminRoom.roomId, 403, "cannot delete admin's room"],
    ];
    for (const [action, id, status, error] of cases) {
      const response = await adminPost(`/api/admin/room/${action}`, { id }, admin.token);
      expect(`${action} ${response.status} ${response.body?.error}`).toBe(`${action} ${status} ${error}`);
    }
    expect((await adminPost('/api/admin/room/delete', { id: ownRoom.roomId }, admin.token)).status).toBe(204);
    expect((await adminPost('/api/admin/room/ban', { id: adminRoom.roomId })).status).toBe(204);
    expect((await adminPost('/api/admin/room/delete', { id: rootRoom.roomId })).status).toBe(204);
  });
});

describe('administrators (root only)', () => {
  it('root makes a user admin, who then reaches the admin routes, and removes them; root stays root', async () => {
    const user = await userWithRole('adm');
    expect((await get(server, '/api/admin/settings', { token: user.token })).status).toBe(403);
    expect((await adminPost('/api/admin/admin/add', { id: user.id })).status).toBe(204);
    expect((await get(server, '/api/user/me', { token: user.token })).body.data.role).toBe(Role.Admin);
    expect((await get(server, '/api/admin/settings', { token: user.token })).status).toBe(200);
    const twice = await adminPost('/api/admin/admin/add', { id: user.id });
    expect([twice.status, twice.body.error]).toEqual([400, 'user is already admin']);
    const byAdmin = await adminPost('/api/admin/admin/delete', { id: user.id }, user.token);
    expect([byAdmin.status, byAdmin.body.error]).toEqual([403, 'user is not a root user']);

    expect((await adminPost('/api/admin/admin/delete', { id: user.id })).status).toBe(204);
    expect((await get(server, '/api/admin/settings', { token: user.token })).status).toBe(403);
    const notAdmin = await adminPost('/api/admin/admin/delete', { id: user.id });
    expect([notAdmin.status, notAdmin.body.error]).toEqual([400, 'user is not admin']);

    const pending = await userWithRole('admp', Role.Pending);
    const inactive = await adminPost('/api/admin/admin/add', { id: pending.id });
    expect([inactive.status, inactive.body.error]).toEqual([400, 'only an active user can become admin']);
    const self = await adminPost('/api/admin/admin/add', { id: root.id });
    expect([self.status, self.body.error]).toEqual([400, 'cannot add yourself']);
    const removeSelf = await adminPost('/api/admin/admin/delete', { id: root.id });
    expect([removeSelf.status, removeSelf.body.error]).toEqual([400, 'cannot remove yourself']);
    // A second root (only possible by SQLite or by root's user/add) cannot be demoted either.
    const second = await userWithRole('root2', Role.Root);
    const demote = await adminPost('/api/admin/admin/delete', { id: second.id });
    expect([demote.status, demote.body.error]).toEqual([403, 'cannot remove root']);
    expect(await roleOf(root.id)).toBe(Role.Root);
  });
});

describe('test mail', () => {
  it('sends to the given address, or to the caller\'s bound email; without either it is 400', async () => {
    const sent = await post(server, '/api/admin/email/test', { email: 'ops@example.com' }, { token: root.token, headers: { 'Accept-Language': 'zh-CN' } });
    expect(sent.status).toBe(204);
    const mail = await sink.next('ops@example.com');
    expect(mail.subject).toBe('SyncTV 测试邮件');
    expect(mail.text).toContain('root');

    const unbound = await adminPost('/api/admin/email/test', {});
    expect([unbound.status, unbound.body.error]).toEqual([400, 'email unbound']);
    await db.run('UPDATE users SET email = ? WHERE id = ?', ['root@example.com', root.id]);
    expect((await adminPost('/api/admin/email/test', {})).status).toBe(204);
    expect((await sink.next('root@example.com')).subject).toBe('SyncTV test mail');
    await db.run('UPDATE users SET email = NULL WHERE id = ?', [root.id]);
  });

  it('is 500 `send email failed` when the SMTP server cannot be reached', async () => {
    const port = (await get(server, '/api/admin/settings/email', { token: root.token })).body.data.email.smtp_port;
    expect((await adminPost('/api/admin/settings', { smtp_port: 1 })).status).toBe(204);
    const failed = await adminPost('/api/admin/email/test', { email: 'ops@example.com' });
    expect([failed.status, failed.body.error]).toEqual([500, 'send email failed']);
    expect((await adminPost('/api/admin/settings', { smtp_port: port })).status).toBe(204);
  });
});
