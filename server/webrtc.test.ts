/** @jest-environment node */
/**
 * Voice chat against a real server process (docs/voice.md, docs/contract.md §6.4): the signalling's
 * relay rules (JOIN and LEAVE to the others in the call, OFFER/ANSWER/ICE to the one connection in
 * `to`, the permission, the leave on disconnect); the ICE servers (`GET /api/room/webrtc/iceServers`):
 * who gets them (the authorization matrix, with the WebRTC permission as the sockets check it), and
 * TURN credentials a coturn with `use-auth-secret` accepts.
 */
import { createHmac } from 'node:crypto';
import { MessageType, type Message } from '@/lib/contract/message';
import { DefaultPermissions, Permission } from '@/lib/contract/roles';
import { createRoom, get, launch, post, signUpUser, TEST_ROOT_PASSWORD, TestSocket, type TestServer, type TestUser } from './test-support/harness';

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

describe('signalling', () => {
  const fromOf = (message: Message) => (message.payload.case === 'webrtcData' ? message.payload.value.from : '');
  /**
   * Sends WEBRTC_JOIN and waits until the server has handled it: a socket's messages are handled in
   * order, so once the SYNC sent after it is answered, the JOIN was (the store's reads make two
   * sockets' joins otherwise finish in either order).
   */
  const join = async (socket: TestSocket) => {
    socket.send({ type: MessageType.WEBRTC_JOIN });
    socket.send({ type: MessageType.SYNC });
    await socket.next(MessageType.SYNC);
  };

  it('passes a JOIN to the others in the call with the joiner as `from`, and an OFFER only to the connection in `to`', async () => {
    const { roomId } = await createRoom(server, await signUpUser(server, 'sig-owner'));
    const guestless = [await signUpUser(server, 'sig-a'), await signUpUser(server, 'sig-b'), await signUpUser(server, 'sig-c')];
    for (const user of guestless) expect((await post(server, '/api/room/login', { roomId, password: '' }, { token: user.token })).status).toBe(200);
    const [a, b, c] = await Promise.all(guestless.map((user) => TestSocket.open(server, roomId, user.token)));
    try {
      await join(a);
      expect(await b.none(MessageType.WEBRTC_JOIN, 200)).toBe(true);
      await join(b);
      const joined = await a.next(MessageType.WEBRTC_JOIN);
      const bAddress = fromOf(joined);
      expect(bAddress).toMatch(new RegExp(`^${guestless[1].id}:.+`));
      expect(joined.sender?.username).toBe(guestless[1].username);
      // Not to the joiner itself, and not to a connection outside the call.
      expect(await b.none(MessageType.WEBRTC_JOIN, 200)).toBe(true);
      expect(await c.none(MessageType.WEBRTC_JOIN, 0)).toBe(true);

      a.send({ type: MessageType.WEBRTC_OFFER, payload: { case: 'webrtcData', value: { to: bAddress, data: '{"type":"offer","sdp":"v=0"}' } } });
      const offer = await b.next(MessageType.WEBRTC_OFFER);
      expect(offer.payload.case === 'webrtcData' && offer.payload.value.data).toBe('{"type":"offer","sdp":"v=0"}');
      expect(fromOf(offer)).toMatch(new RegExp(`^${guestless[0].id}:.+`));
      expect(await c.none(MessageType.WEBRTC_OFFER, 100)).toBe(true);

      for (const to of ['', 'no-colon', `${guestless[1].id}:nope`, `${bAddress}:extra`]) {
        a.send({ type: MessageType.WEBRTC_ICE_CANDIDATE, payload: { case: 'webrtcData', value: { to, data: '{}' } } });
        const error = await a.next(MessageType.ERROR);
        expect(error.payload.case === 'errorMessage' && error.payload.value).toBe('target user id is invalid');
      }
    } finally {
      for (const socket of [a, b, c]) socket.close();
    }
  });

  it('refuses a member without the permission, and tells the call when a connection leaves or drops', async () => {
    const owner = await signUpUser(server, 'sig-owner');
    const { roomId } = await createRoom(server, owner);
    const [speaker, listener, outsider, muted] = await Promise.all(['sig-s', 'sig-l', 'sig-o', 'sig-m'].map((prefix) => signUpUser(server, prefix)));
    for (const user of [speaker, listener, outsider, muted]) expect((await post(server, '/api/room/login', { roomId, password: '' }, { token: user.token })).status).toBe(200);
    const permissions = await post(server, '/api/room/admin/members/member/permissions', { id: muted.id, permissions: DefaultPermissions & ~Permission.WebRTC }, { token: owner.token, roomId });
    expect(permissions.status).toBe(204);
    const [s, l, o, m] = await Promise.all([speaker, listener, outsider, muted].map((user) => TestSocket.open(server, roomId, user.token)));
    try {
      await join(s);
      await join(l);
      await s.next(MessageType.WEBRTC_JOIN);

      await join(m);
      const refusal = await m.next(MessageType.ERROR);
      expect(refusal.payload.case === 'errorMessage' && refusal.payload.value).toBe('no permission to use webrtc');
      expect(await s.none(MessageType.WEBRTC_JOIN, 200)).toBe(true);

      // An explicit leave goes to the others in the call only.
      l.send({ type: MessageType.WEBRTC_LEAVE });
      expect(fromOf(await s.next(MessageType.WEBRTC_LEAVE))).toMatch(new RegExp(`^${listener.id}:`));
      expect(await o.none(MessageType.WEBRTC_LEAVE, 200)).toBe(true);

      // A connection that drops while in the call: everyone in the room hears it left.
      s.close();
      expect(fromOf(await o.next(MessageType.WEBRTC_LEAVE))).toMatch(new RegExp(`^${speaker.id}:`));
      expect(fromOf(await l.next(MessageType.WEBRTC_LEAVE))).toMatch(new RegExp(`^${speaker.id}:`));
    } finally {
      for (const socket of [s, l, o, m]) socket.close();
    }
  });
});
