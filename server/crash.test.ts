/** @jest-environment node */
/**
 * `kill -9` in the middle of writes: every write the server acknowledged (a 2xx answer)
 * is there after a restart on the same data directory, and the database opens cleanly.
 */
import { MessageType } from '@/lib/contract/message';
import { createRoom, get, launch, post, signUpUser, tempDir, TestSocket } from './test-support/harness';

jest.setTimeout(60_000);

it('keeps every acknowledged write when the process is killed with SIGKILL during a write storm', async () => {
  const dataDir = tempDir('synctv-crash-');
  const first = await launch({ dataDir });
  const owner = await signUpUser(first, 'crash');
  const { roomId } = await createRoom(first, owner);
  const socket = await TestSocket.open(first, roomId, owner.token);
  const playing = await post(first, '/api/room/movie/push', { url: 'https://media.test/current.mp4', name: 'current' }, { token: owner.token, roomId });
  await post(first, '/api/room/movie/current', { id: playing.body.data.id }, { token: owner.token, roomId });

  const pushed: string[] = [];
  const users: string[] = [];
  let stop = false;
  const pusher = async (lane: number) => {
    for (let n = 0; !stop; n++) {
      try {
        const response = await post(first, '/api/room/movie/push', { url: `https://media.test/${lane}-${n}.mp4`, name: `m${lane}-${n}` }, { token: owner.token, roomId });
        if (response.status === 200) pushed.push(response.body.data.id as string);
      } catch {
        return; // the connection died with the process: this write was not acknowledged
      }
    }
  };
  const signer = async () => {
    for (let n = 0; !stop; n++) {
      try {
        const response = await post(first, '/api/user/signup', { username: `crash${process.pid % 1000}u${n}`, password: 'pw-crash' });
        if (response.status === 200) users.push(`crash${process.pid % 1000}u${n}`);
      } catch {
        return;
      }
    }
  };
  const lanes = [pusher(0), pusher(1), pusher(2), signer()];
  // STATUS goes over the socket; SYNC after it answers the stored status, which acknowledges it.
  socket.send({ type: MessageType.STATUS, timestamp: BigInt(Date.now()), payload: { case: 'playbackStatus', value: { isPlaying: false, currentTime: 123.5, playbackRate: 1 } } });
  socket.send({ type: MessageType.SYNC });
  await socket.next(MessageType.SYNC);

  await new Promise((resolve) => setTimeout(resolve, 1500));
  await first.kill();
  socket.close();
  stop = true;
  await Promise.all(lanes);
  expect(pushed.length).toBeGreaterThan(20);
  expect(users.length).toBeGreaterThan(2);

  const second = await launch({ dataDir });
  try {
    const list = await get(second, `/api/room/movie/movies?max=100&page=1`, { token: owner.token, roomId });
    expect(list.status).toBe(200);
    const stored = new Set<string>();
    const pages = Math.ceil(list.body.data.total / 100);
    for (let page = 1; page <= pages; page++) {
      const answer = await get(second, `/api/room/movie/movies?max=100&page=${page}`, { token: owner.token, roomId });
      for (const movie of answer.body.data.movies) stored.add(movie.id);
    }
    expect(pushed.filter((id) => !stored.has(id))).toEqual([]);
    for (const username of users.slice(-3)) {
      expect((await post(second, '/api/user/login', { username, password: 'pw-crash' })).status).toBe(200);
    }
    const current = await get(second, '/api/room/movie/current', { token: owner.token, roomId });
    expect(current.body.data.movie.id).toBe(playing.body.data.id);
    expect(current.body.data.status.currentTime).toBe(123.5);
  } finally {
    await second.stop();
    await first.stop();
  }
});
