/**
 * The authorization matrix of routes at the `user` level (the vendor routes, docs/vendors.md): a
 * visitor, a pending and a banned user are refused with the texts of every such route; a user, an
 * admin and root each get what the route answers for themselves (`own`, one `[status, error]` per
 * route, the same for the three).
 */
import { Role } from '@/lib/contract/roles';
import { get, post, signUpUser, TEST_ROOT_PASSWORD, type TestDatabase, type TestServer } from './harness';

/** One route: method, path (with its query) and the JSON body of a POST. */
export type UserLevelRoute = [method: 'GET' | 'POST', path: string, body: unknown];

/** Asks every route as each caller (new users named from `prefix`) and expects the outcomes above. */
export async function expectUserLevel(server: TestServer, db: TestDatabase, prefix: string, routes: UserLevelRoute[], own: [number, string | undefined][]): Promise<void> {
  const [pending, banned, user, admin] = await Promise.all(['pend', 'ban', 'user', 'adm'].map((name) => signUpUser(server, `${prefix}${name}`)));
  await db.run('UPDATE users SET role = ? WHERE id = ?', [Role.Pending, pending.id]);
  await db.run('UPDATE users SET role = ? WHERE id = ?', [Role.Banned, banned.id]);
  await db.run('UPDATE users SET role = ? WHERE id = ?', [Role.Admin, admin.id]);
  const root = (await post(server, '/api/user/login', { username: 'root', password: TEST_ROOT_PASSWORD })).body.data.token as string;
  const callers: [string, string | undefined, [number, string] | null][] = [
    ['visitor', undefined, [401, 'authentication token is empty']],
    ['pending', pending.token, [401, 'user account is pending approval']],
    ['banned', banned.token, [401, 'user account has been banned']],
    ['user', user.token, null],
    ['admin', admin.token, null],
    ['root', root, null],
  ];
  for (const [name, token, refusal] of callers) {
    const outcomes = [];
    for (const [method, route, body] of routes) {
      const response = method === 'GET' ? await get(server, route, { token }) : await post(server, route, body, { token });
      outcomes.push([response.status, response.body?.error]);
    }
    expect([name, outcomes]).toEqual([name, refusal ? routes.map(() => refusal) : own]);
  }
}
