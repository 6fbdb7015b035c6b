/** @jest-environment node */
/**
 * Input hygiene: user, room and movie names are trimmed and may not be blank. A blank name
 * gets 400 with the contract's empty-name text; a padded one is stored without the padding.
 */
import { createRoom, get, launch, post, signUpUser, TEST_ROOT_PASSWORD, type TestServer } from './test-support/harness';

jest.setTimeout(60_000);

let server: TestServer;

beforeAll(async () => {
  server = await launch();
});

afterAll(async () => {
  await server?.stop();
});

it('refuses a blank user name at sign-up, rename and admin add, and trims a padded one', async () => {
  expect((await post(server, '/api/user/signup', { username: '    ', password: 'secret-pw' })).body).toMatchObject({ error: 'username is empty' });
  const padded = `  pad${process.pid % 1000}  `;
  const signup = await post(server, '/api/user/signup', { username: padded, password: 'secret-pw' });
  expect(signup.status).toBe(200);
  const me = await get(server, '/api/user/me', { token: signup.body.data.token });
  expect(me.body.data.username).toBe(padded.trim());
  // Signing in with the padding finds the same account.
  expect((await post(server, '/api/user/login', { username: padded, password: 'secret-pw' })).status).toBe(200);

  const rename = await post(server, '/api/user/username', { username: ' \t ' }, { token: signup.body.data.token });
  expect(rename.status).toBe(400);
  expect(rename.body.error).toBe('username is empty');

  const root = (await post(server, '/api/user/login', { username: 'root', password: TEST_ROOT_PASSWORD })).body.data.token;
  const add = await post(server, '/api/admin/user/add', { username: '   ', password: 'secret-pw', role: 3 }, { token: root });
  expect(add.status).toBe(400);
  expect(add.body.error).toBe('username is empty');
  const rootRename = await post(server, '/api/admin/user/username', { id: me.body.data.id, username: '  ' }, { token: root });
  expect(rootRename.status).toBe(400);
  expect(rootRename.body.error).toBe('username is empty');
});

it('refuses a blank room name and trims a padded one', async () => {
  const owner = await signUpUser(server, 'names');
  const blank = await post(server, '/api/room/create', { roomName: '   ', password: '', settings: { hidden: false } }, { token: owner.token });
  expect(blank.status).toBe(400);
  expect(blank.body.error).toBe('empty room name');
  const { roomId } = await createRoom(server, owner, { name: `  padded room ${process.pid % 1000}  ` });
  const info = await get(server, `/api/room/check?roomId=${roomId}`);
  expect(info.body.data.name).toBe(`padded room ${process.pid % 1000}`);
});

it('refuses a blank movie name and trims a padded one', async () => {
  const owner = await signUpUser(server, 'names');
  const { roomId } = await createRoom(server, owner);
  const blank = await post(server, '/api/room/movie/push', { url: 'https://media.test/a.mp4', name: '  ' }, { token: owner.token, roomId });
  expect(blank.status).toBe(400);
  expect(blank.body.error).toBe('empty name');
  await post(server, '/api/room/movie/push', { url: 'https://media.test/a.mp4', name: '  Clip  ' }, { token: owner.token, roomId });
  const list = await get(server, '/api/room/movie/movies?page=1&max=10', { token: owner.token, roomId });
  expect(list.body.data.movies.map((movie: { base: { name: string } }) => movie.base.name)).toEqual(['Clip']);
});
