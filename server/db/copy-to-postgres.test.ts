/** @jest-environment node */
/**
 * `npm run db:copy-to-postgres` (./copy-to-postgres.ts): a site's SQLite file copied into a new
 * PostgreSQL database reads back the same through the store. Runs in `npm run test:pg`, which
 * provides the throwaway PostgreSQL; skipped in the SQLite run.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEFAULT_ROOM_SETTINGS } from '@/lib/contract/room-settings';
import { MemberRole, MemberStatus, Role, RoomStatus } from '@/lib/contract/roles';
import { databaseFor, testsOnPostgres } from '../test-support/harness';
import { copyToPostgres } from './copy-to-postgres';
import { openStore } from './index';
import { emptyCurrent } from './rooms';

const onPostgres = testsOnPostgres() ? describe : describe.skip;
const ROOT = path.join(__dirname, '..', '..');

onPostgres('copying a site from SQLite to PostgreSQL', () => {
  const dirs: string[] = [];
  const tempDir = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'copy-pg-'));
    dirs.push(dir);
    return dir;
  };
  afterAll(() => {
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  const roomId = 'r'.repeat(32);
  const userId = 'a'.repeat(32);
  const memberId = 'b'.repeat(32);

  async function sqliteSite(): Promise<string> {
    const dataDir = tempDir();
    const store = await openStore({ dataDir });
    await store.users.insert({ id: userId, username: 'alice', hashedPassword: 'hash-a', role: Role.Admin, createdAt: 10 });
    await store.users.insert({ id: memberId, username: 'bob', hashedPassword: 'hash-b', role: Role.User, createdAt: 20 }, { provider: 'github', providerUserId: '42' });
    const creator = { roomId, userId, status: MemberStatus.Active, role: MemberRole.Creator, permissions: 0xffff_ffff, adminPermissions: 0xffff_ffff, joinAt: 30 };
    await store.rooms.insert({ id: roomId, name: 'movie night', creatorId: userId, hashedPassword: '', status: RoomStatus.Active, createdAt: 30 }, { ...DEFAULT_ROOM_SETTINGS, hidden: true }, emptyCurrent(30), creator);
    await store.members.insertIfMissing({ roomId, userId: memberId, status: MemberStatus.Active, role: MemberRole.Member, permissions: 7, adminPermissions: 0, joinAt: 40 });
    await store.movies.insertMany(roomId, userId, [{ url: 'https://example.com/a.m3u8', name: 'A' }], () => 'm'.repeat(32));
    for (let n = 1; n <= 3; n += 1) await store.chat.append(roomId, { userId: memberId, username: 'bob', content: `line ${n}`, createdAt: 50 + n });
    await store.settings.setMany({ custom_publish_host: 'live.example.com', room_ttl: 7 });
    await store.close();
    return dataDir;
  }

  it('copies every table, and the copy reads back the same through the store', async () => {
    const source = await sqliteSite();
    const target = tempDir();
    const url = (await databaseFor(target))!;
    const copied = await copyToPostgres(source, url);
    expect(copied).toMatchObject({ users: 2, user_providers: 1, rooms: 1, room_settings: 1, room_members: 2, movies: 1, chat_messages: 3 });

    const store = await openStore({ dataDir: target, databaseUrl: url });
    try {
      expect(await store.users.findById(userId)).toMatchObject({ username: 'alice', hashedPassword: 'hash-a', role: Role.Admin, createdAt: 10 });
      const room = await store.rooms.findWithMember(roomId, memberId);
      expect(room).toMatchObject({ room: { name: 'movie night', creator: 'alice' }, settings: { hidden: true }, member: { permissions: 7, joinAt: 40 } });
      expect((await store.rooms.findWithMember(roomId, userId))?.member?.permissions).toBe(0xffff_ffff);
      expect((await store.chat.recent(roomId)).map((line) => line.content)).toEqual(['line 1', 'line 2', 'line 3']);
      expect(await store.settings.get()).toMatchObject({ custom_publish_host: 'live.example.com', room_ttl: 7 });
      // New lines continue after the copied ones.
      const before = await store.chat.latestId(roomId);
      await store.chat.append(roomId, { userId, username: 'alice', content: 'after the move', createdAt: 99 });
      expect(await store.chat.latestId(roomId)).toBeGreaterThan(before);
    } finally {
      await store.close();
    }

    // A second copy into the same database is refused, and writes nothing.
    await expect(copyToPostgres(source, url)).rejects.toThrow('already has users');
  });

  it('refuses to run without a PostgreSQL DATABASE_URL', () => {
    const run = spawnSync(process.execPath, [path.join(ROOT, 'node_modules/tsx/dist/cli.mjs'), 'server/db/copy-to-postgres-main.ts'], {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: tempDir(), DATABASE_URL: 'mysql://x' },
      encoding: 'utf8',
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('nothing copied: set DATABASE_URL');
  });
});
