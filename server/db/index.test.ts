import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEFAULT_ROOM_SETTINGS } from '@/lib/contract/room-settings';
import { MemberRole, MemberStatus, Role, RoomStatus } from '@/lib/contract/roles';
import { databaseFor, openServerDatabase } from '../test-support/harness';
import { isPostgresUrl, openStore, type Store } from './index';
import { emptyCurrent } from './rooms';

describe('openStore', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'store-'));
  });
  afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('keeps the data in <dataDir>/synctv.db when no database URL is given', async () => {
    const store = await openStore({ dataDir, databaseUrl: '' });
    await store.ping();
    await store.close();
    expect(fs.existsSync(path.join(dataDir, 'synctv.db'))).toBe(true);
  });

  it.each(['postgress://db/synctv', 'mysql://user:secret@db/synctv', 'db.example:5432'])(
    'refuses %s instead of quietly starting an empty SQLite file, and shows no password',
    async (databaseUrl) => {
      const opening = openStore({ dataDir, databaseUrl });
      await expect(opening).rejects.toThrow(/DATABASE_URL must start with postgres:\/\/ or postgresql:\/\//);
      await expect(opening).rejects.not.toThrow(/secret/);
      expect(fs.readdirSync(dataDir)).toEqual([]);
    },
  );

  it('recognises both PostgreSQL schemes, in any case', () => {
    expect(['postgres://h/d', 'postgresql://h/d', 'POSTGRES://h/d'].map(isPostgresUrl)).toEqual([true, true, true]);
    expect(['', undefined, 'postgres:/h', 'sqlite://x'].map(isPostgresUrl)).toEqual([false, false, false, false]);
  });
});

describe('the store on the test database', () => {
  let dataDir: string;
  let store: Store;
  const roomId = 'c'.repeat(32);
  const userId = 'u'.repeat(32);
  const otherId = 'o'.repeat(32);

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'store-'));
    store = await openStore({ dataDir, databaseUrl: (await databaseFor(dataDir)) ?? undefined });
    await store.users.insert({ id: userId, username: 'chatty', hashedPassword: 'x', role: Role.User, createdAt: 1 });
    await store.users.insert({ id: otherId, username: 'flood', hashedPassword: 'x', role: Role.User, createdAt: 1 });
    const creator = { roomId, userId, status: MemberStatus.Active, role: MemberRole.Creator, permissions: 0, adminPermissions: 0, joinAt: 1 };
    await store.rooms.insert({ id: roomId, name: 'chat room', creatorId: userId, hashedPassword: '', status: RoomStatus.Active, createdAt: 1 }, { ...DEFAULT_ROOM_SETTINGS }, emptyCurrent(1), creator);
  });
  afterAll(async () => {
    await store.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps a room’s newest 100 chat lines, and never many more', async () => {
    // Two people taking turns: neither holds more than their half (CHAT_SHARE_PER_USER).
    const line = (n: number) => ({ userId: n % 2 ? userId : otherId, username: n % 2 ? 'chatty' : 'flood', content: `line ${n}`, createdAt: n });
    const db = await openServerDatabase(dataDir);
    const stored = async () => Number((await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM chat_messages WHERE room_id = ?', [roomId]))?.n);
    const counts: number[] = [];
    try {
      for (let n = 1; n <= 125; n += 1) {
        await store.chat.append(roomId, line(n));
        counts.push(await stored());
      }
    } finally {
      await db.close();
    }
    // Every line is stored; the old ones go ten lines at a time once there are more than 100.
    expect(counts.slice(0, 100)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    expect(Math.max(...counts)).toBeLessThanOrEqual(110);
    expect(counts.at(-1)).toBeLessThanOrEqual(110);
    expect(counts).toContain(100);
    const recent = await store.chat.recent(roomId);
    expect(recent.map((r) => r.content)).toEqual(Array.from({ length: 100 }, (_, i) => `line ${i + 26}`));
  });

  it('keeps at most half of a room’s history per sender, so that one flooding account cannot wipe it', async () => {
    const floodedRoomId = 'f'.repeat(32);
    const creator = { roomId: floodedRoomId, userId, status: MemberStatus.Active, role: MemberRole.Creator, permissions: 0, adminPermissions: 0, joinAt: 1 };
    await store.rooms.insert({ id: floodedRoomId, name: 'flooded room', creatorId: userId, hashedPassword: '', status: RoomStatus.Active, createdAt: 1 }, { ...DEFAULT_ROOM_SETTINGS }, emptyCurrent(1), creator);
    for (let n = 1; n <= 30; n += 1) await store.chat.append(floodedRoomId, { userId, username: 'chatty', content: `hello ${n}`, createdAt: n });
    for (let n = 1; n <= 200; n += 1) await store.chat.append(floodedRoomId, { userId: otherId, username: 'flood', content: `flood ${n}`, createdAt: 100 + n });
    const recent = (await store.chat.recent(floodedRoomId)).map((r) => r.content);
    expect(recent.filter((content) => content.startsWith('hello'))).toEqual(Array.from({ length: 30 }, (_, i) => `hello ${i + 1}`));
    // The flood keeps its newest 50 lines (and at most the 9 it stored since the last trim).
    const flood = recent.filter((content) => content.startsWith('flood'));
    expect(flood.length).toBeGreaterThanOrEqual(50);
    expect(flood.length).toBeLessThan(60);
    expect(flood.at(-1)).toBe('flood 200');
  });

  it('reads a room with its creator’s role, its settings and one user’s membership in one call', async () => {
    await store.rooms.updateSettings(roomId, { hidden: true, guest_permissions: 0x8000_0001 });
    const found = await store.rooms.findWithMember(roomId, userId);
    expect(found).toMatchObject({ room: { id: roomId, name: 'chat room', creator: 'chatty' }, creatorRole: Role.User });
    expect(found?.settings).toEqual({ ...(await store.rooms.settings(roomId)) });
    expect(found?.settings).toEqual({ ...DEFAULT_ROOM_SETTINGS, hidden: true, guest_permissions: 0x8000_0001 });
    expect(found?.member).toMatchObject({ roomId, userId, role: MemberRole.Creator, status: MemberStatus.Active });
    expect((await store.rooms.findWithMember(roomId, 'x'.repeat(32)))?.member).toBeNull();
    expect(await store.rooms.findWithMember('d'.repeat(32), userId)).toBeNull();
  });
});
