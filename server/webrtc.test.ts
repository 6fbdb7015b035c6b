/** @jest-environment node */
/**
 * Voice chat's ICE servers (`GET /api/room/webrtc/iceServers`, docs/voice.md) against a real server
 * process: who gets them (the authorization matrix, with the WebRTC permission as the room's
 * sockets check it), and TURN credentials a coturn with `use-auth-secret` accepts.
 */
import { createHmac } from 'node:crypto';
import { DefaultPermissions, Permission } from '@/lib/contract/roles';
import { createRoom, get, launch, post, signUpUser, TEST_ROOT_PASSWORD, type TestServer, type TestUser } from './test-support/harness';

jest.setTimeout(60_000);

const ICE = { stunUrls: ['stun:stun.example.com:3478'], turnUrls: ['turn:turn.example.com:3478', 'turns:turn.example.com:5349'], turnSecret: 'coturn-secret', turnTtlSec: 3600 };
const ROUTE = '/api/room/webrtc/iceServers';

let server: TestServer;
let creator: TestUser;

beforeAll(async () => {
  server = await launch({ ice: ICE });
  creator = await signUpUser(server, 'owner');
});

afterAll(async () => {
  await server?.stop();
});

const join = (user: TestUser, roomId: string) => post(server, '/api/room/login', { roomId, password: '' }, { token: user.token });

describe('authorization matrix', () => {
  it('gives the servers to whoever may use voice, and refuses everyone else with the texts of the other room routes', async () => {
    const { roomId } = await createRoom(server, creator);
    const { roomId: passwordRoomId } = await createRoom(server, creator, { password: 'room-pw' });
    const settings = (patch: Record<string, unknown>) => post(server, '/api/room/admin/settings', patch, { token: creator.token, roomId });
    const root = (await post(server, '/api/user/login', { username: 'root', password: TEST_ROOT_PASSWORD })).body.data.token as string;
    const [without, withBit, admin, pending, banned, nonMember] = await Promise.all(
      ['m0', 'm1', 'adm', 'pend', 'ban', 'non'].map((prefix) => signUpUser(server, prefix)),
    );
    for (const user of [without, withBit, admin, banned]) expect((await join(user, roomId)).status).toBe(200);
    expect((await get(server, '/api/room/me', { token: root, roomId })).status).toBe(200);
    // The guest's member row, created by a guest's first request (§3.4 step 6).
    expect((await get(server, '/api/room/me', { roomId })).status).toBe(200);
    const setPermissions = (user: TestUser, permissions: number) =>
      post(server, '/api/room/admin/members/member/permissions', { id: user.id, permissions }, { token: creator.token, roomId });
    expect((await setPermissions(without, DefaultPermissions & ~Permission.WebRTC)).status).toBe(204);
    expect((await post(server, '/api/room/admin/members/admin', { id: admin.id, adminPermissions: 0 }, { token: creator.token, roomId })).status).toBe(204);
    expect((await post(server, '/api/room/admin/members/ban', { id: banned.id }, { token: creator.token, roomId })).status).toBe(204);
    expect((await settings({ join_need_review: true })).status).toBe(204);
    expect((await join(pending, roomId)).body.data.status).toBe(2);
    expect((await settings({ join_need_review: false, disable_join_new_user: true })).status).toBe(204);

    const callers: [string, { token?: string; roomId: string }, number, string | undefined][] = [
      ['visitor (password room)', { roomId: passwordRoomId }, 401, 'guests are not allowed to perform this action'],
      ['guest (no WebRTC bit)', { roomId }, 403, 'no permission to use webrtc'],
      ['non-member', { token: nonMember.token, roomId }, 401, 'get room member failed: room or member not found'],
      ['pending', { token: pending.token, roomId }, 401, 'user account is pending approval'],
      ['banned', { token: banned.token, roomId }, 401, 'user has been banned from this room'],
      ['member without the bit', { token: without.token, roomId }, 403, 'no permission to use webrtc'],
      ['member with the bit (the default)', { token: withBit.token, roomId }, 200, undefined],
      ['room admin', { token: admin.token, roomId }, 200, undefined],
      ['creator', { token: creator.token, roomId }, 200, undefined],
      ['site admin (root, a plain member)', { token: root, roomId }, 200, undefined],
    ];
    const outcomes = [];
    for (const [name, options, , error] of callers) {
      const response = await get(server, ROUTE, options);
      outcomes.push([name, response.status, error === undefined ? undefined : response.body?.error]);
    }
    expect(outcomes).toEqual(callers.map(([name, , status, error]) => [name, status, error]));

    // Guests get it once the room gives guests the bit.
    expect((await settings({ guest_permissions: Permission.WebRTC })).status).toBe(204);
    expect((await get(server, ROUTE, { roomId })).status).toBe(200);
  });
});

describe('the servers', () => {
  it('are STUN as configured and TURN with TURN REST credentials for the caller that expire after TURN_TTL', async () => {
    const { roomId } = await createRoom(server, creator);
    const before = Math.floor(Date.now() / 1000);
    const response = await get(server, ROUTE, { token: creator.token, roomId });
    expect(response.status).toBe(200);
    const [stun, turn] = response.body.data.iceServers as { urls: string[]; username?: string; credential?: string }[];
    expect(stun).toEqual({ urls: ICE.stunUrls });
    expect(turn.urls).toEqual(ICE.turnUrls);
    const [expiry, userId] = turn.username!.split(':');
    expect(userId).toBe(creator.id);
    expect(Number(expiry) - before).toBeGreaterThanOrEqual(ICE.turnTtlSec);
    expect(Number(expiry) - before).toBeLessThanOrEqual(ICE.turnTtlSec + 5);
    // What coturn computes from its static-auth-secret for this username.
    expect(turn.credential).toBe(createHmac('sha1', ICE.turnSecret).update(turn.username!).digest('base64'));
  });

  it('are an empty list when none are configured (the client then uses its own)', async () => {
    const bare = await launch();
    try {
      const owner = await signUpUser(bare, 'bare');
      const { roomId } = await createRoom(bare, owner);
      const response = await get(bare, ROUTE, { token: owner.token, roomId });
      expect([response.status, response.body.data]).toEqual([200, { iceServers: [] }]);
    } finally {
      await bare.stop();
    }
  });
});
