/** @jest-environment node */
/**
 * `mayStay` (./room-access.ts): whether an open room socket may stay, read from the database alone,
 * as an instance re-checks its sockets after Redis was down (../hub/registry.ts).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEFAULT_ROOM_SETTINGS } from '@/lib/contract/room-settings';
import { MemberRole, MemberStatus, Role, RoomStatus } from '@/lib/contract/roles';
import { userVersion } from '../passwords';
import { openStore, type Store } from '../db';
import { emptyCurrent } from '../db/rooms';
import { databaseFor } from '../test-support/harness';
import { creatorMember, mayStay } from './room-access';
import { ensureBuiltinUsers, GUEST_USER_ID } from './users';

let dataDir: string;
let store: Store;
const creatorId = 'c'.repeat(32);
const memberId = 'm'.repeat(32);
const roomId = 'r'.repeat(32);

beforeEach(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'may-stay-'));
  store = await openStore({ dataDir, databaseUrl: (await databaseFor(dataDir)) ?? undefined });
  await ensureBuiltinUsers(store, 'root-password-1');
  for (const id of [creatorId, memberId]) await store.users.insert({ id, username: `user-${id[0]}`, hashedPassword: `hash-${id[0]}`, role: Role.User, createdAt: 1 });
  await store.rooms.insert({ id: roomId, name: 'stay', creatorId, hashedPassword: '', status: RoomStatus.Active, createdAt: 1 }, { ...DEFAULT_ROOM_SETTINGS }, emptyCurrent(1), creatorMember(roomId, creatorId, 1));
  await store.members.insertIfMissing({ roomId, userId: memberId, status: MemberStatus.Active, role: MemberRole.Member, permissions: 0, adminPermissions: 0, joinAt: 1 });
});

afterEach(async () => {
  await store.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const member = () => mayStay(store, roomId, memberId, userVersion('hash-m'));

it('lets an active member, the creator and a guest stay', async () => {
  expect([await member(), await mayStay(store, roomId, creatorId, userVersion('hash-c')), await mayStay(store, roomId, GUEST_USER_ID, null)]).toEqual([true, true, true]);
});

it.each([
  ['banned from the room', () => store.members.update(roomId, memberId, { status: MemberStatus.Banned })],
  ['removed from the room', () => store.members.delete(roomId, memberId)],
  ['banned from the site', () => store.users.updateRole(memberId, Role.Banned)],
  ['deleted', () => store.users.delete(memberId)],
  ['with a new password', () => store.users.updatePassword(memberId, 'another-hash')],
  ['in a banned room', () => store.rooms.updateStatus(roomId, RoomStatus.Banned)],
  ['in a deleted room', () => store.rooms.delete(roomId)],
  ['in the room of a banned creator', () => store.users.updateRole(creatorId, Role.Banned)],
])('sends a member away who is %s', async (_what, change) => {
  await change();
  expect(await member()).toBe(false);
});

it('sends guests away once the room has a password or no longer lets guests in', async () => {
  await store.rooms.updatePassword(roomId, 'room-hash');
  expect(await mayStay(store, roomId, GUEST_USER_ID, null)).toBe(false);
  await store.rooms.updatePassword(roomId, '');
  await store.rooms.updateSettings(roomId, { disable_guest: true });
  expect(await mayStay(store, roomId, GUEST_USER_ID, null)).toBe(false);
});
