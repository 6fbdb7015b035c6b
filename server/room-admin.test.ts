/** @jest-environment node */
/**
 * Room administration (docs/contract.md §3.4–§3.6, §4.3, §4.4, §5.3–§5.5, §6.5) against a real
 * server process: the authorization matrix of every `/api/room/admin/*` route and of
 * `/api/room/pwd/check` for every kind of caller, then what each action does to members and sockets.
 */
import { randomBytes } from 'node:crypto';
import { MessageType } from '@/lib/contract/message';
import { AdminPermission } from '@/lib/contract/roles';
import { DEFAULT_ROOM_SETTINGS } from '@/lib/contract/room-settings';
import {
  createRoom,
  get,
  launch,
  post,
  signUpUser,
  TEST_ROOT_PASSWORD,
  TestSocket,
  type ApiResponse,
  type TestServer,
  type TestUser,
} from './test-support/harness';

jest.setTimeout(60_000);

let server: TestServer;
let creator: TestUser;

beforeAll(async () => {
  server = await launch();
  creator = await signUpUser(server, 'owner');
});

afterAll(async () => {
  await server?.stop();
});

const randomId = () => randomBytes(16).toString('hex');

/** A room of a new creator (each user may create only 3 rooms); `creator` becomes that user. */
async function ownRoom(options: { password?: string } = {}): Promise<{ roomId: string }> {
  creator = await signUpUser(server, 'owner');
  return createRoom(server, creator, options);
}

/** Joins `roomId` as `user` (no password) and returns the membership answer. */
async function join(user: TestUser, roomId: string, password = ''): Promise<ApiResponse> {
  return post(server, '/api/room/login', { roomId, password }, { token: user.token });
}

async function makeAdmin(roomId: string, user: TestUser, adminPermissions: number): Promise<void> {
  const made = await post(server, '/api/room/admin/members/admin', { id: user.id, adminPermissions }, { token: creator.token, roomId });
  expect(made.status).toBe(204);
}

async function setSettings(roomId: string, patch: Record<string, unknown>, token = creator.token): Promise<ApiResponse> {
  return post(server, '/api/room/admin/settings', patch, { token, roomId });
}

/** The six admin bits by name, for per-bit admins. */
const ADMIN_BITS = Object.entries(AdminPermission) as [keyof typeof AdminPermission, number][];

describe('authorization matrix', () => {
  /** A caller: its token (undefined = no token) and the room it calls (the matrix room, or the password room for the visitor). */
  interface Caller {
    token?: string;
    password?: boolean;
  }
  const callers = new Map<string, Caller>();
  let roomId = '';
  let passwordRoomId = '';

  beforeAll(async () => {
    ({ roomId } = await ownRoom());
    ({ roomId: passwordRoomId } = await createRoom(server, creator, { password: 'room-pw' }));
    const root = await post(server, '/api/user/login', { username: 'root', password: TEST_ROOT_PASSWORD });

    const memberWithout = await signUpUser(server, 'm0');
    const memberWith = await signUpUser(server, 'm1');
    const adminWithout = await signUpUser(server, 'a0');
    const pending = await signUpUser(server, 'pend');
    const banned = await signUpUser(server, 'ban');
    const nonMember = await signUpUser(server, 'non');
    for (const user of [memberWithout, memberWith, adminWithout, banned]) expect((await join(user, roomId)).status).toBe(200);
    expect((await get(server, '/api/room/me', { token: root.body.data.token, roomId })).status).toBe(200);
    // The guest's member row, created by a guest's first request (§3.4 step 6).
    expect((await get(server, '/api/room/me', { roomId })).status).toBe(200);
    const grant = await post(server, '/api/room/admin/members/member/permissions', { id: memberWith.id, permissions: 0xff }, { token: creator.token, roomId });
    expect(grant.status).toBe(204);
    await makeAdmin(roomId, adminWithout, 0);
    expect((await post(server, '/api/room/admin/members/ban', { id: banned.id }, { token: creator.token, roomId })).status).toBe(204);
    expect((await setSettings(roomId, { join_need_review: true })).status).toBe(204);
    expect((await join(pending, roomId)).body.data.status).toBe(2);
    // From here on, nobody new may join: the non-member stays one.
    expect((await setSettings(roomId, { join_need_review: false, disable_join_new_user: true })).status).toBe(204);

    callers.set('visitor', { password: true });
    callers.set('guest', {});
    callers.set('non-member', { token: nonMember.token });
    callers.set('pending', { token: pending.token });
    callers.set('banned', { token: banned.token });
    callers.set('member without the bit', { token: memberWithout.token });
    callers.set('member with every member bit', { token: memberWith.token });
    callers.set('site admin (a plain member)', { token: root.body.data.token });
    callers.set('room admin without admin bits', { token: adminWithout.token });
    for (const [name, bit] of ADMIN_BITS) {
      const only = await signUpUser(server, `only${bit}`);
      const allBut = await signUpUser(server, `but${bit}`);
      await setSettings(roomId, { disable_join_new_user: false });
      await join(only, roomId);
      await join(allBut, roomId);
      await setSettings(roomId, { disable_join_new_user: true });
      await makeAdmin(roomId, only, bit);
      await makeAdmin(roomId, allBut, 0x3f & ~bit);
      callers.set(`room admin with only ${name}`, { token: only.token });
      callers.set(`room admin with every bit but ${name}`, { token: allBut.token });
    }
    callers.set('creator', { token: creator.token });
  });

  /**
   * What a caller gets from a route at `level` needing admin bit `bit` (0: none). `allowed` is the
   * status of a request that passed every check (the probes are built to stop right after them).
   */
  function expected(caller: string, level: 'room-noguest' | 'room-admin' | 'room-creator', bit: number, allowed: number, noPermission = 'no permission'): [number, string | undefined] {
    if (caller === 'visitor') return [401, 'guests are not allowed to perform this action'];
    if (caller === 'non-member') return [401, 'get room member failed: room or member not found'];
    if (caller === 'pending') return [401, 'user account is pending approval'];
    if (caller === 'banned') return [401, 'user has been banned from this room'];
    if (level === 'room-noguest') {
      return caller === 'guest' ? [403, 'guests are not allowed to perform this action'] : [allowed, undefined];
    }
    if (level === 'room-creator') {
      if (caller !== 'creator') return [403, 'user is not the room creator'];
      return [allowed, undefined];
    }
    const roomAdmin = caller === 'creator' || caller.startsWith('room admin');
    if (!roomAdmin) return [403, 'user is not a room administrator'];
    if (bit === 0 || caller === 'creator') return [allowed, undefined];
    const name = ADMIN_BITS.find(([, value]) => value === bit)?.[0] ?? '';
    const holds = caller === `room admin with only ${name}` || (caller.startsWith('room admin with every bit but') && !caller.endsWith(` ${name}`));
    return holds ? [allowed, undefined] : [403, noPermission];
  }

  /**
   * Routes with a probe that changes nothing when it is allowed: an unknown member id (404), the room's
   * current password (400 `password is the same`), an empty settings patch (204).
   */
  const routes: {
    name: string;
    method: 'GET' | 'POST';
    path: string;
    body?: () => unknown;
    level: 'room-noguest' | 'room-admin' | 'room-creator';
    bit: number;
    allowed: number;
    noPermission?: string;
  }[] = [
    { name: 'settings (read)', method: 'GET', path: '/api/room/admin/settings', level: 'room-admin', bit: 0, allowed: 200 },
    { name: 'settings (write)', method: 'POST', path: '/api/room/admin/settings', body: () => ({}), level: 'room-admin', bit: AdminPermission.SetRoomSettings, allowed: 204, noPermission: 'set room setting failed: no permission' },
    { name: 'password', method: 'POST', path: '/api/room/admin/pwd', body: () => ({ password: '' }), level: 'room-admin', bit: AdminPermission.SetRoomPassword, allowed: 400 },
    { name: 'member list', method: 'GET', path: '/api/room/admin/members?status=', level: 'room-admin', bit: 0, allowed: 200 },
    { name: 'approve', method: 'POST', path: '/api/room/admin/members/approve', body: () => ({ id: randomId() }), level: 'room-admin', bit: AdminPermission.ApprovePendingMember, allowed: 404 },
    { name: 'delete member', method: 'POST', path: '/api/room/admin/members/delete', body: () => ({ id: randomId() }), level: 'room-admin', bit: AdminPermission.ApprovePendingMember, allowed: 404 },
    { name: 'ban', method: 'POST', path: '/api/room/admin/members/ban', body: () => ({ id: randomId() }), level: 'room-admin', bit: AdminPermission.BanRoomMember, allowed: 404 },
    { name: 'unban', method: 'POST', path: '/api/room/admin/members/unban', body: () => ({ id: randomId() }), level: 'room-admin', bit: AdminPermission.BanRoomMember, allowed: 404 },
    { name: 'make member', method: 'POST', path: '/api/room/admin/members/member', body: () => ({ id: randomId() }), level: 'room-creator', bit: 0, allowed: 404 },
    { name: 'member permissions', method: 'POST', path: '/api/room/admin/members/member/permissions', body: () => ({ id: randomId(), permissions: 1 }), level: 'room-creator', bit: AdminPermission.SetUserPermission, allowed: 404 },
    { name: 'make admin', method: 'POST', path: '/api/room/admin/members/admin', body: () => ({ id: randomId() }), level: 'room-creator', bit: 0, allowed: 404 },
    { name: 'admin permissions', method: 'POST', path: '/api/room/admin/members/admin/permissions', body: () => ({ id: randomId(), adminPermissions: 1 }), level: 'room-creator', bit: 0, allowed: 404 },
    { name: 'delete room', method: 'POST', path: '/api/room/admin/delete', level: 'room-admin', bit: AdminPermission.DeleteRoom, allowed: 204 },
    { name: 'clear chat history', method: 'POST', path: '/api/room/admin/chat/clear', level: 'room-admin', bit: AdminPermission.SetRoomSettings, allowed: 204 },
    { name: 'password check', method: 'POST', path: '/api/room/pwd/check', body: () => ({ password: 'x' }), level: 'room-noguest', bit: 0, allowed: 200 },
    { name: 'member list (everyone)', method: 'GET', path: '/api/room/members', level: 'room-noguest', bit: 0, allowed: 200 },
  ];

  it.each(routes.map((route) => [route.name, route] as const))('%s', async (_name, route) => {
    const outcomes: Record<string, [number, string | undefined]> = {};
    const wanted: Record<string, [number, string | undefined]> = {};
    for (const [caller, { token, password }] of callers) {
      const [status, error] = expected(caller, route.level, route.bit, route.allowed, route.noPermission);
      // Deleting the room is only probed where it is refused; the allowed case is tested below.
      if (route.name === 'delete room' && status === route.allowed) continue;
      const options = { token, roomId: password ? passwordRoomId : roomId };
      const response = route.method === 'GET' ? await get(server, route.path, options) : await post(server, route.path, route.body?.() ?? {}, options);
      outcomes[caller] = [response.status, error === undefined ? undefined : response.body?.error];
      wanted[caller] = [status, error];
    }
    expect(outcomes).toEqual(wanted);
    expect(Object.keys(outcomes).length).toBeGreaterThanOrEqual(route.name === 'delete room' ? 10 : 20);
  });

  it('lets a room admin with DeleteRoom and the creator delete a room', async () => {
    const { roomId: first } = await ownRoom();
    const { roomId: second } = await createRoom(server, creator);
    const admin = await signUpUser(server, 'deleter');
    await join(admin, first);
    await makeAdmin(first, admin, AdminPermission.DeleteRoom);
    expect((await post(server, '/api/room/admin/delete', { roomId: first }, { token: admin.token, roomId: first })).status).toBe(204);
    expect((await post(server, '/api/room/admin/delete', {}, { token: creator.token, roomId: second })).status).toBe(204);
    for (const id of [first, second]) expect((await get(server, `/api/room/check?roomId=${id}`)).status).toBe(404);
    // The creator's room count is freed.
    const again = await createRoom(server, creator);
    expect(again.roomId).toHaveLength(32);
    await post(server, '/api/room/admin/delete', {}, { token: creator.token, roomId: again.roomId });
  });
});

describe('settings', () => {
  it('reads and writes partial maps of snake_case keys with type checks', async () => {
    const { roomId } = await ownRoom();
    const before = await get(server, '/api/room/admin/settings', { token: creator.token, roomId });
    // The literal defaults are checked in api.test.ts.
    expect(before.body.data).toEqual(DEFAULT_ROOM_SETTINGS);
    expect((await setSettings(roomId, { hidden: true, guest_permissions: 1, can_add_movie: false })).status).toBe(204);
    const after = await get(server, '/api/room/settings', { token: creator.token, roomId });
    expect(after.body.data).toMatchObject({ hidden: true, guest_permissions: 1, can_add_movie: false, can_edit_movie: true });
    const unknown = await setSettings(roomId, { hidden: false, nope: 1 });
    expect([unknown.status, unknown.body.error]).toEqual([400, 'no such column: nope']);
    const wrongType = await setSettings(roomId, { hidden: 'yes' });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.error).toContain('hidden');
    const negative = await setSettings(roomId, { user_default_permissions: -1 });
    expect(negative.status).toBe(400);
    // A refused patch changes nothing, not even its valid keys.
    expect((await get(server, '/api/room/settings', { token: creator.token, roomId })).body.data.hidden).toBe(true);
    // A hidden room leaves the public list.
    const list = await get(server, `/api/room/list?keyword=${roomId}&search=id`);
    expect(list.body.data.total).toBe(0);
  });

  it('new members get user_default_permissions and Pending under join review; no new members at all when closed', async () => {
    const { roomId } = await ownRoom();
    await setSettings(roomId, { user_default_permissions: 0x33, join_need_review: true });
    const first = await signUpUser(server, 'newbie');
    const joined = await join(first, roomId);
    expect(joined.body.data).toMatchObject({ status: 2, permissions: 0x33 });
    expect((await get(server, '/api/room/me', { token: first.token, roomId })).body.error).toBe('user account is pending approval');
    await setSettings(roomId, { disable_join_new_user: true });
    const second = await signUpUser(server, 'latecomer');
    const refused = await join(second, roomId);
    expect([refused.status, refused.body.error]).toEqual([403, 'this room was disabled join new user']);
  });

  it('sends MY_STATUS to everyone and disconnects guests when guests are disabled', async () => {
    const { roomId } = await ownRoom();
    const guest = await TestSocket.open(server, roomId);
    const owner = await TestSocket.open(server, roomId, creator.token);
    expect((await setSettings(roomId, { can_send_chat_message: false })).status).toBe(204);
    await owner.next(MessageType.MY_STATUS);
    await guest.next(MessageType.MY_STATUS);
    expect(guest.isOpen()).toBe(true);
    expect((await setSettings(roomId, { disable_guest: true })).status).toBe(204);
    await guest.closed;
    expect(owner.isOpen()).toBe(true);
    const again = await TestSocket.open(server, roomId).catch((refusal: { status: number }) => refusal);
    expect(again).toMatchObject({ status: 401 });
    owner.close();
  });
});

describe('password', () => {
  it('sets, changes and removes the password; the old one stops working for new members; guests are disconnected', async () => {
    const { roomId } = await ownRoom();
    const guest = await TestSocket.open(server, roomId);
    const member = await signUpUser(server, 'stays');
    await join(member, roomId);
    const pwd = (password: string) => post(server, '/api/room/admin/pwd', { password }, { token: creator.token, roomId });
    expect((await pwd('first-pw')).status).toBe(204);
    await guest.closed;
    expect((await get(server, `/api/room/check?roomId=${roomId}`)).body.data).toMatchObject({ needPassword: true, enabledGuest: false });
    // Members stay members.
    expect((await get(server, '/api/room/me', { token: member.token, roomId })).status).toBe(200);
    const same = await pwd('first-pw');
    expect([same.status, same.body.error]).toEqual([400, 'password is the same']);
    expect((await pwd('second-pw')).status).toBe(204);
    const third = await signUpUser(server, 'third');
    const old = await join(third, roomId, 'first-pw');
    expect([old.status, old.body.error]).toEqual([403, 'password error']);
    const check = await post(server, '/api/room/pwd/check', { password: 'second-pw' }, { token: member.token, roomId });
    expect(check.body.data).toEqual({ valid: true });
    expect((await post(server, '/api/room/pwd/check', { password: 'first-pw' }, { token: member.token, roomId })).body.data).toEqual({ valid: false });
    expect((await join(third, roomId, 'second-pw')).status).toBe(200);
    const long = await pwd('x'.repeat(33));
    expect([long.status, long.body.error]).toEqual([400, 'password too long']);
    expect((await pwd('')).status).toBe(204);
    expect((await get(server, `/api/room/check?roomId=${roomId}`)).body.data.needPassword).toBe(false);
    const removeAgain = await pwd('');
    expect(removeAgain.body.error).toBe('password is the same');
  });
});

describe('members', () => {
  let roomId = '';
  beforeEach(async () => {
    ({ roomId } = await ownRoom());
  });

  const act = (action: string, body: unknown, token = creator.token) => post(server, `/api/room/admin/members/${action}`, body, { token, roomId });

  it('approves a pending member, who can then use the room', async () => {
    await setSettings(roomId, { join_need_review: true });
    const waiting = await signUpUser(server, 'waiting');
    await join(waiting, roomId);
    const pendingList = await get(server, '/api/room/admin/members?status=pending', { token: creator.token, roomId });
    expect(pendingList.body.data.list.map((row: { userId: string }) => row.userId)).toEqual([waiting.id]);
    expect((await act('approve', { id: waiting.id })).status).toBe(204);
    const me = await get(server, '/api/room/me', { token: waiting.token, roomId });
    expect(me.body.data).toMatchObject({ status: 3, role: 1, permissions: 193 });
    const again = await act('approve', { id: waiting.id });
    expect([again.status, again.body.error]).toEqual([400, 'member is not pending']);
    const badId = await act('approve', { id: 'short' });
    expect([badId.status, badId.body.error]).toEqual([400, 'id is required']);
    const active = await get(server, '/api/room/admin/members', { token: creator.token, roomId });
    expect(active.body.data.total).toBe(2);
  });

  it('bans (closing the sockets at once), unbans and deletes members, with the hierarchy rules', async () => {
    const viewer = await signUpUser(server, 'viewer');
    const admin = await signUpUser(server, 'roomadmin');
    await join(viewer, roomId);
    await join(admin, roomId);
    await makeAdmin(roomId, admin, AdminPermission.BanRoomMember | AdminPermission.ApprovePendingMember);
    const socket = await TestSocket.open(server, roomId, viewer.token);
    expect((await act('ban', { id: viewer.id }, admin.token)).status).toBe(204);
    await socket.closed;
    const refused = await TestSocket.open(server, roomId, viewer.token).catch((refusal: unknown) => refusal);
    expect(refused).toMatchObject({ status: 401, body: { error: 'user has been banned from this room' } });
    const banned = await get(server, '/api/room/admin/members?status=banned', { token: admin.token, roomId });
    expect(banned.body.data.list).toEqual([expect.objectContaining({ userId: viewer.id, status: 1, onlineCount: 0 })]);
    const rejoin = await get(server, `/api/room/joined?roomId=${roomId}`, { token: viewer.token });
    expect(rejoin.body.data).toMatchObject({ joined: true, status: 1 });
    expect((await act('unban', { id: viewer.id }, admin.token)).status).toBe(204);
    expect((await act('unban', { id: viewer.id }, admin.token)).body.error).toBe('member is not banned');
    expect((await get(server, '/api/room/me', { token: viewer.token, roomId })).status).toBe(200);

    const cases: [string, unknown, string, number, string][] = [
      ['ban', { id: admin.id }, admin.token, 400, 'cannot ban yourself'],
      ['ban', { id: creator.id }, admin.token, 400, 'creator cannot be banned'],
      ['delete', { id: creator.id }, admin.token, 400, 'creator cannot be deleted'],
      ['delete', { id: admin.id }, admin.token, 400, 'cannot delete yourself'],
    ];
    await get(server, '/api/room/me', { roomId }); // the guest row
    cases.push(['ban', { id: '00000000000000000000000000000001' }, creator.token, 400, 'please set whether to disable guest users in the room settings']);
    const second = await signUpUser(server, 'admin2');
    await join(second, roomId);
    await makeAdmin(roomId, second, 0);
    cases.push(['ban', { id: second.id }, admin.token, 403, 'cannot ban admin'], ['delete', { id: second.id }, admin.token, 403, 'cannot delete admin']);
    for (const [action, body, token, status, error] of cases) {
      const response = await act(action, body, token);
      expect([action, response.status, response.body.error]).toEqual([action, status, error]);
    }
    // The creator may ban an admin.
    expect((await act('ban', { id: second.id })).status).toBe(204);

    const again = await TestSocket.open(server, roomId, viewer.token);
    expect((await act('delete', { id: viewer.id }, admin.token)).status).toBe(204);
    await again.closed;
    const joined = await get(server, `/api/room/joined?roomId=${roomId}`, { token: viewer.token });
    expect(joined.body.data).toMatchObject({ joined: false, status: 0 });
  });

  it('makes admins and members, sets both masks and tells the user with MY_STATUS', async () => {
    const friend = await signUpUser(server, 'friend');
    await join(friend, roomId);
    const socket = await TestSocket.open(server, roomId, friend.token);
    const me = async () => (await get(server, '/api/room/me', { token: friend.token, roomId })).body.data;

    expect((await act('member/permissions', { id: friend.id, permissions: 193 | 32 })).status).toBe(204);
    await socket.next(MessageType.MY_STATUS, (message) => message.sender?.userId === creator.id);
    expect(await me()).toMatchObject({ role: 1, permissions: 225 });

    expect((await act('admin', { id: friend.id, adminPermissions: AdminPermission.BanRoomMember })).status).toBe(204);
    await socket.next(MessageType.MY_STATUS);
    expect(await me()).toMatchObject({ role: 2, permissions: 0xffffffff, adminPermissions: 2 });
    expect((await act('admin/permissions', { id: friend.id, adminPermissions: 63 })).status).toBe(204);
    await socket.next(MessageType.MY_STATUS);
    expect((await me()).adminPermissions).toBe(63);
    // The new admin may read the admin list now.
    expect((await get(server, '/api/room/admin/members', { token: friend.token, roomId })).status).toBe(200);

    expect((await act('member', { id: friend.id, permissions: 1 })).status).toBe(204);
    await socket.next(MessageType.MY_STATUS);
    expect(await me()).toMatchObject({ role: 1, permissions: 1, adminPermissions: 0 });
    const notAdmin = await act('admin/permissions', { id: friend.id, adminPermissions: 1 });
    expect([notAdmin.status, notAdmin.body.error]).toEqual([400, 'not admin']);
    const creatorChange = await act('member', { id: creator.id });
    expect([creatorChange.status, creatorChange.body.error]).toEqual([400, 'creator cannot be changed']);
    const badMask = await act('member/permissions', { id: friend.id, permissions: 'all' });
    expect(badMask.status).toBe(400);
    socket.close();
  });

  it('the guest id edits guest_permissions, which guests then have', async () => {
    const guestId = '00000000000000000000000000000001';
    const guest = await TestSocket.open(server, roomId);
    const denied = await get(server, '/api/room/movie/movies', { roomId });
    expect(denied.status).toBe(403);
    expect((await act('member/permissions', { id: guestId, permissions: 1 | 64 })).status).toBe(204);
    await guest.next(MessageType.MY_STATUS);
    expect((await get(server, '/api/room/movie/movies', { roomId })).status).toBe(200);
    const settings = await get(server, '/api/room/admin/settings', { token: creator.token, roomId });
    expect(settings.body.data.guest_permissions).toBe(65);
    const list = await get(server, '/api/room/members?search=id&keyword=0000000000000000000000000000000', { token: creator.token, roomId });
    expect(list.body.data.list).toEqual([expect.objectContaining({ userId: guestId, username: 'guest', permissions: 65, onlineCount: 1 })]);
    const asAdmin = await act('admin', { id: guestId });
    expect(asAdmin.body.error).toBe('guest cannot be admin');
    guest.close();
  });

  it('filters and sorts the member lists', async () => {
    const names = ['zed', 'amy', 'bob'];
    const users: TestUser[] = [];
    for (const name of names) {
      const user = await signUpUser(server, name);
      users.push(user);
      await join(user, roomId);
    }
    await makeAdmin(roomId, users[0], 0);
    const admins = await get(server, '/api/room/members?role=admin', { token: users[1].token, roomId });
    expect(admins.body.data.list.map((row: { userId: string }) => row.userId)).toEqual([users[0].id]);
    const creators = await get(server, '/api/room/members?role=creator', { token: users[1].token, roomId });
    expect(creators.body.data.list.map((row: { userId: string }) => row.userId)).toEqual([creator.id]);
    const asc = await get(server, '/api/room/members?sort=name&order=asc&max=2', { token: users[1].token, roomId });
    expect(asc.body.data.total).toBe(4);
    expect(asc.body.data.list).toHaveLength(2);
    const names2 = asc.body.data.list.map((row: { username: string }) => row.username);
    expect([...names2].sort()).toEqual(names2);
    const byName = await get(server, `/api/room/members?search=name&keyword=${users[2].username}`, { token: users[1].token, roomId });
    expect(byName.body.data.list.map((row: { userId: string }) => row.userId)).toEqual([users[2].id]);
    const badSort = await get(server, '/api/room/admin/members?sort=nope', { token: creator.token, roomId });
    expect([badSort.status, badSort.body.error]).toEqual([400, 'not support sort']);
  });

  it('deleting the room disconnects everyone at once', async () => {
    const viewer = await signUpUser(server, 'watcher');
    await join(viewer, roomId);
    const sockets = [await TestSocket.open(server, roomId, viewer.token), await TestSocket.open(server, roomId)];
    expect((await post(server, '/api/room/admin/delete', { roomId }, { token: creator.token, roomId })).status).toBe(204);
    await Promise.all(sockets.map((socket) => socket.closed));
    const me = await get(server, '/api/room/me', { token: viewer.token, roomId });
    expect([me.status, me.body.error]).toEqual([401, 'room not found']);
  });
});
