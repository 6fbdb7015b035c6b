/** @jest-environment node */
/**
 * Everything survives a restart on the same data directory: users, tokens (the
 * JWT secret), rooms, memberships, movies, the current movie and its status, the chat; and the first-start
 * root password is random and printed once.
 */
import fs from 'node:fs';
import { MessageType } from '@/lib/contract/message';
import { createRoom, get, launch, post, signUpUser, tempDir, testsOnPostgres, TestSocket } from './test-support/harness';

jest.setTimeout(40_000);

const dataDirs: string[] = [];
afterAll(() => {
  for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
});

it('keeps users, tokens, rooms, members, movies and the playback status across a restart', async () => {
  const dataDir = tempDir();
  dataDirs.push(dataDir);
  const first = await launch({ dataDir });
  let roomId = '';
  let movieId = '';
  const owner = await signUpUser(first, 'keeper');
  const member = await signUpUser(first, 'joiner');
  try {
    ({ roomId } = await createRoom(first, owner, { password: 'persist-pw' }));
    await post(first, '/api/room/login', { roomId, password: 'persist-pw' }, { token: member.token });
    const push = await post(first, '/api/room/movie/push', { url: 'https://x/keep.m3u8', name: 'Keep' }, { token: owner.token, roomId });
    movieId = push.body.data.id;
    await post(first, '/api/room/movie/current', { id: movieId }, { token: owner.token, roomId });
    const socket = await TestSocket.open(first, roomId, owner.token);
    socket.send({ type: MessageType.STATUS, payload: { case: 'playbackStatus', value: { isPlaying: false, currentTime: 77, playbackRate: 1.5 } } });
    socket.send({ type: MessageType.CHAT, payload: { case: 'chatContent', value: 'see you after the restart' } });
    await socket.next(MessageType.CHAT);
    socket.close();
  } finally {
    await first.stop();
  }

  const second = await launch({ dataDir });
  try {
    expect(second.output()).not.toContain('created user');
    const me = await get(second, '/api/user/me', { token: owner.token });
    expect(me.body.data.username).toBe(owner.username);
    const login = await post(second, '/api/user/login', { username: member.username, password: member.password });
    expect(login.status).toBe(200);
    const roomMe = await get(second, '/api/room/me', { token: member.token, roomId });
    expect(roomMe.body.data).toMatchObject({ userId: member.id, status: 3, role: 1 });
    const check = await get(second, `/api/room/check?roomId=${roomId}`);
    expect(check.body.data).toMatchObject({ needPassword: true, creator: owner.username });
    const wrong = await post(second, '/api/room/login', { roomId, password: 'nope' }, { token: (await signUpUser(second, 'late')).token });
    expect(wrong.body.error).toBe('password error');
    const movies = await get(second, '/api/room/movie/movies', { token: member.token, roomId });
    expect(movies.body.data.movies.map((movie: { id: string }) => movie.id)).toEqual([movieId]);
    const current = await get(second, '/api/room/movie/current', { token: member.token, roomId });
    expect(current.body.data.movie.id).toBe(movieId);
    expect(current.body.data.status).toMatchObject({ currentTime: 77, playbackRate: 1.5 });
    expect(current.body.data.status.isPlaying).toBeUndefined();
    // The room's chat is replayed from the database to a socket that joins.
    const socket = await TestSocket.open(second, roomId, member.token);
    const chat = await socket.next(MessageType.CHAT);
    expect([chat.payload.value, chat.sender?.username]).toEqual(['see you after the restart', owner.username]);
    socket.close();
  } finally {
    await second.stop();
  }
});

it('creates root with a random password printed once', async () => {
  const dataDir = tempDir();
  dataDirs.push(dataDir);
  const first = await launch({ dataDir, rootPassword: undefined });
  let password = '';
  try {
    const line = /created user "root" with password: (\S+)/.exec(first.output());
    expect(line).not.toBeNull();
    password = line![1];
    expect(password).not.toBe('root');
    const root = await post(first, '/api/user/login', { username: 'root', password });
    expect(root.body.data.role).toBe(5);
    const rootDefault = await post(first, '/api/user/login', { username: 'root', password: 'root' });
    expect(rootDefault.status).toBe(403);
  } finally {
    await first.stop();
  }
  const second = await launch({ dataDir, rootPassword: undefined });
  try {
    expect(second.output()).not.toContain('created user');
    expect((await post(second, '/api/user/login', { username: 'root', password })).status).toBe(200);
  } finally {
    await second.stop();
  }
});

it("keeps the data directory's files readable by the owner only, also those an older version left open", async () => {
  const parent = tempDir();
  dataDirs.push(parent);
  const dataDir = `${parent}/data`;
  const mode = (file: string) => fs.statSync(file).mode & 0o777;
  // On PostgreSQL the directory holds nothing (the signing secret is in the database too).
  const files = testsOnPostgres() ? [] : ['synctv.db', 'synctv.db-wal'];
  const first = await launch({ dataDir });
  try {
    await signUpUser(first, 'modes');
    expect(mode(dataDir)).toBe(0o700);
    for (const file of files) expect([file, mode(`${dataDir}/${file}`)]).toEqual([file, 0o600]);
    // Under `npm run test:pg` the data really is in PostgreSQL.
    expect(fs.existsSync(`${dataDir}/synctv.db`)).toBe(!testsOnPostgres());
  } finally {
    await first.stop();
  }
  // An older version created them with the default mode.
  for (const file of files) if (file !== 'synctv.db-wal') fs.chmodSync(`${dataDir}/${file}`, 0o644);
  const second = await launch({ dataDir });
  try {
    expect((await get(second, '/api/public/settings')).status).toBe(200);
    for (const file of files) if (file !== 'synctv.db-wal') expect([file, mode(`${dataDir}/${file}`)]).toEqual([file, 0o600]);
  } finally {
    await second.stop();
  }
});
