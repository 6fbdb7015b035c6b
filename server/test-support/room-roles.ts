/**
 * Callers in every role a room route must tell apart (the authorization matrix of the developers'
 * guide): a visitor, a guest, a non-member, a pending and a banned member, members without and with
 * every permission, a room admin, the creator and the site admin (root).
 */
import { get, post, signUpUser, TEST_ROOT_PASSWORD, type TestServer, type TestUser } from './harness';

/** A caller: its token (none for a visitor or guest) and the room it asks in. */
export type RoomCaller = [token: string | undefined, roomId: string];

/**
 * Makes the callers for `room` (created by `creator`, open to guests); the visitor asks in
 * `passwordRoom`, which needs a password. Leaves the room closed to new members
 * (`disable_join_new_user`), so the non-member stays one.
 */
export async function roomCallers(server: TestServer, creator: TestUser, room: string, passwordRoom: string, prefix: string): Promise<Record<string, RoomCaller>> {
  const join = (user: TestUser) => post(server, '/api/room/login', { roomId: room, password: '' }, { token: user.token });
  const settings = (patch: Record<string, unknown>) => post(server, '/api/room/admin/settings', patch, { token: creator.token, roomId: room });
  const [without, withBits, admin, pending, banned, nonMember] = await Promise.all(['0', '1', 'a', 'p', 'b', 'n'].map((name) => signUpUser(server, `${prefix}${name}`)));
  for (const user of [without, withBits, admin, banned]) expect((await join(user)).status).toBe(200);
  await post(server, '/api/room/admin/members/member/permissions', { id: withBits.id, permissions: 0xff }, { token: creator.token, roomId: room });
  await post(server, '/api/room/admin/members/admin', { id: admin.id, adminPermissions: 0x3f }, { token: creator.token, roomId: room });
  await post(server, '/api/room/admin/members/ban', { id: banned.id }, { token: creator.token, roomId: room });
  // The guest's member row, made by a guest's first request (as in room-admin.test.ts).
  expect((await get(server, '/api/room/me', { roomId: room })).status).toBe(200);
  await settings({ join_need_review: true });
  await join(pending);
  await settings({ join_need_review: false, disable_join_new_user: true });
  const root = (await post(server, '/api/user/login', { username: 'root', password: TEST_ROOT_PASSWORD })).body.data.token as string;
  await settings({ disable_join_new_user: false });
  expect((await get(server, '/api/room/me', { token: root, roomId: room })).status).toBe(200);
  await settings({ disable_join_new_user: true });
  return {
    visitor: [undefined, passwordRoom],
    guest: [undefined, room],
    'non-member': [nonMember.token, room],
    pending: [pending.token, room],
    banned: [banned.token, room],
    'member without permissions': [without.token, room],
    'member with every permission': [withBits.token, room],
    'room admin': [admin.token, room],
    creator: [creator.token, room],
    'site admin (root)': [root, room],
  };
}

/** Asks `status(token, roomId)` for each caller; the statuses by caller, to compare with the wanted ones. */
export async function statusesOf(callers: Record<string, RoomCaller>, status: (token: string, roomId: string) => Promise<number>): Promise<Record<string, number>> {
  const outcomes: Record<string, number> = {};
  for (const [name, [token, roomId]] of Object.entries(callers)) outcomes[name] = await status(token ?? '', roomId);
  return outcomes;
}

/**
 * The statuses of a route every viewer of the room may use (the movie proxy, the live routes, a
 * converted movie), by caller: `allowed` for a guest of a room open to guests and for every member
 * who is not pending or banned, 401 for the others.
 */
export function watchersMatrix(allowed: number): Record<string, number> {
  return {
    visitor: 401,
    guest: allowed,
    'non-member': 401,
    pending: 401,
    banned: 401,
    'member without permissions': allowed,
    'member with every permission': allowed,
    'room admin': allowed,
    creator: allowed,
    'site admin (root)': allowed,
  };
}
