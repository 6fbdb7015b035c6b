import { ApiError } from '@/lib/api/error';
import type { RoomCheck, UserInfo } from '@/lib/contract/types';
import { MemberRole, MemberStatus, RoomStatus } from '@/lib/contract/roles';
import { runJoinFlow, type JoinApi } from './join-room-flow';

const ROOM_ID = '0123456789abcdef0123456789abcdef';
const alice: UserInfo = { id: 'a'.repeat(32), username: 'alice', email: '', createdAt: 0, role: 3 };
const bob: UserInfo = { id: 'b'.repeat(32), username: 'bob', email: '', createdAt: 0, role: 3 };

function room(overrides: Partial<RoomCheck> = {}): RoomCheck {
  return {
    name: 'movie night',
    creatorId: alice.id,
    creator: 'alice',
    viewerCount: 1,
    status: RoomStatus.Active,
    needPassword: false,
    enabledGuest: false,
    ...overrides,
  };
}

function api(check: RoomCheck, joined = { joined: false, status: MemberStatus.NotJoined as number }, loginStatus: number = MemberStatus.Active) {
  const calls: string[] = [];
  const stub: JoinApi = {
    checkRoom: jest.fn(async () => {
      calls.push('check');
      return check;
    }),
    getRoomJoined: jest.fn(async () => {
      calls.push('joined');
      return { ...joined, room: check } as never;
    }),
    loginRoom: jest.fn(async (_id: string, password: string) => {
      calls.push(`login:${password}`);
      return { status: loginStatus, role: MemberRole.Member, permissions: 0, adminPermissions: 0 } as never;
    }),
  };
  return { stub, calls };
}

describe('runJoinFlow', () => {
  it('stops on a pending or banned room before any membership call', async () => {
    for (const [status, message] of [
      [RoomStatus.Pending, 'joinRoom.roomPending'],
      [RoomStatus.Banned, 'joinRoom.roomBanned'],
    ] as const) {
      const { stub, calls } = api(room({ status }));
      const { outcome } = await runJoinFlow({ roomId: ROOM_ID, password: '', user: bob }, stub);
      expect(outcome).toMatchObject({ kind: 'refused', message });
      expect(calls).toEqual(['check']);
    }
  });

  it('lets a visitor into a guest room straight away', async () => {
    const { stub, calls } = api(room({ enabledGuest: true }));
    expect((await runJoinFlow({ roomId: ROOM_ID, password: '', user: null }, stub)).outcome).toEqual({ kind: 'enter' });
    expect(calls).toEqual(['check']);
  });

  it('checks a signed-in user as themselves even in a guest room, so a banned member is told so', async () => {
    const banned = api(room({ enabledGuest: true }), { joined: true, status: MemberStatus.Banned });
    expect((await runJoinFlow({ roomId: ROOM_ID, password: '', user: bob }, banned.stub)).outcome).toMatchObject({
      kind: 'refused',
      message: 'joinRoom.memberBanned',
    });
    expect(banned.calls).toEqual(['check', 'joined']);
  });

  it('asks a visitor to log in when the room is not open to guests', async () => {
    const { stub, calls } = api(room());
    expect((await runJoinFlow({ roomId: ROOM_ID, password: '', user: null }, stub)).outcome).toEqual({ kind: 'needLogin' });
    expect(calls).toEqual(['check']);
  });

  it('lets the creator in without a password', async () => {
    const { stub, calls } = api(room({ needPassword: true }));
    expect((await runJoinFlow({ roomId: ROOM_ID, password: '', user: alice }, stub)).outcome).toEqual({ kind: 'enter' });
    expect(calls).toEqual(['check']);
  });

  it('reuses an existing membership, reporting pending and banned members', async () => {
    const active = api(room({ needPassword: true }), { joined: true, status: MemberStatus.Active });
    expect((await runJoinFlow({ roomId: ROOM_ID, password: '', user: bob }, active.stub)).outcome).toEqual({ kind: 'enter' });
    expect(active.calls).toEqual(['check', 'joined']);

    const pending = api(room(), { joined: true, status: MemberStatus.Pending });
    expect((await runJoinFlow({ roomId: ROOM_ID, password: '', user: bob }, pending.stub)).outcome).toEqual({ kind: 'waiting' });

    const banned = api(room(), { joined: true, status: MemberStatus.Banned });
    expect((await runJoinFlow({ roomId: ROOM_ID, password: '', user: bob }, banned.stub)).outcome).toMatchObject({
      kind: 'refused',
      message: 'joinRoom.memberBanned',
    });
  });

  it('asks for the password of a password room instead of trying an empty one', async () => {
    const { stub, calls } = api(room({ needPassword: true }));
    expect((await runJoinFlow({ roomId: ROOM_ID, password: '', user: bob }, stub)).outcome).toEqual({ kind: 'needPassword' });
    expect(calls).toEqual(['check', 'joined']);
  });

  it('logs in to the room with the typed password', async () => {
    const { stub, calls } = api(room({ needPassword: true }));
    expect((await runJoinFlow({ roomId: ROOM_ID, password: 'secret', user: bob }, stub)).outcome).toEqual({ kind: 'enter' });
    expect(calls).toEqual(['check', 'joined', 'login:secret']);
  });

  it('joins a room without a password through room login', async () => {
    const { stub, calls } = api(room(), undefined, MemberStatus.Pending);
    expect((await runJoinFlow({ roomId: ROOM_ID, password: '', user: bob }, stub)).outcome).toEqual({ kind: 'waiting' });
    expect(calls).toEqual(['check', 'joined', 'login:']);
  });

  it('passes a wrong password error through to the screen', async () => {
    const { stub } = api(room({ needPassword: true }));
    (stub.loginRoom as jest.Mock).mockRejectedValueOnce(new ApiError(403, 'password error', '/api/room/login'));
    await expect(runJoinFlow({ roomId: ROOM_ID, password: 'nope', user: bob }, stub)).rejects.toMatchObject({
      status: 403,
      message: 'password error',
    });
  });
});
