/** @jest-environment node */
/**
 * Health routes and the graceful shutdown (server/routes/health.ts, server/app.ts `close`; docs/deployment.md
 * "Health and shutdown"): /healthz and /readyz answer everyone alike, a shutdown turns /readyz to
 * 503 at once, closes every room socket with 1012 so clients reconnect, and loses no write.
 */
import fs from 'node:fs';
import type { Socket } from 'node:net';
import { MessageType } from '@/lib/contract/message';
import { createRoom, get, launch, post, signUpUser, tempDir, TestSocket, TEST_ROOT_PASSWORD, type TestServer } from './test-support/harness';

jest.setTimeout(30_000);

const servers: TestServer[] = [];
const dirs: string[] = [];
afterAll(async () => {
  for (const server of servers) await server.stop();
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

async function started(dataDir?: string): Promise<TestServer> {
  const server = await launch(dataDir ? { dataDir } : {});
  servers.push(server);
  return server;
}

describe('/healthz and /readyz', () => {
  it('answer every caller alike (visitor, user, root, a bad token, a room header), uncached', async () => {
    const server = await started();
    const user = await signUpUser(server, 'health');
    const root = await post(server, '/api/user/login', { username: 'root', password: TEST_ROOT_PASSWORD });
    const { roomId } = await createRoom(server, user);
    const callers = [{}, { token: user.token }, { token: root.body.data.token as string }, { token: 'not-a-jwt' }, { token: user.token, roomId }];
    for (const caller of callers) {
      const live = await get(server, '/healthz', caller);
      expect([live.status, live.body]).toEqual([200, { status: 'ok' }]);
      const ready = await get(server, '/readyz', caller);
      expect([ready.status, ready.body]).toEqual([200, { status: 'ready' }]);
      expect(ready.headers.get('cache-control')).toBe('no-store');
    }
  });
});

describe('shutdown', () => {
  it('answers /readyz 503 from its start, closes room sockets with 1012 "server restarting", and keeps what was written', async () => {
    const dataDir = tempDir('synctv-drain-');
    dirs.push(dataDir);
    const server = await started(dataDir);
    const owner = await signUpUser(server, 'drain');
    const { roomId } = await createRoom(server, owner);
    const listening = await TestSocket.open(server, roomId, owner.token);
    await listening.next(MessageType.VIEWER_COUNT);
    // A second viewer whose connection stops reading: the shutdown waits up to a second for its
    // answer to the close frame, long enough to see /readyz while the server drains.
    const stalled = await TestSocket.open(server, roomId, owner.token);
    await stalled.next(MessageType.VIEWER_COUNT);
    (stalled.ws as unknown as { _socket: Socket })._socket.pause();
    listening.send({ type: MessageType.CHAT, payload: { case: 'chatContent', value: 'last words' } });
    await listening.next(MessageType.CHAT);

    const stopping = server.stop();
    let ready = await get(server, '/readyz');
    for (let i = 0; ready.status === 200 && i < 100; i += 1) ready = await get(server, '/readyz');
    expect([ready.status, ready.body]).toEqual([503, { status: 'stopping' }]);
    expect(await listening.closed).toEqual({ code: 1012, reason: 'server restarting' });
    await stopping;

    // The chat line written before the shutdown is there after a restart on the same data.
    const again = await started(dataDir);
    const replay = await TestSocket.open(again, roomId, owner.token);
    const line = await replay.next(MessageType.CHAT, (message) => message.payload.case === 'chatContent' && message.payload.value === 'last words');
    expect(line.sender?.username).toBe(owner.username);
    replay.close();
  });
});
