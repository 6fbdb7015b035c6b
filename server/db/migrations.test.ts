/**
 * @jest-environment node
 *
 * The one list of migrations (./migrations.ts) on SQLite, and on PostgreSQL too when the run has one
 * (`npm run test:pg`): a new database reaches the current version with every table, a second run
 * changes nothing, an older one runs only what it lacks, a newer one is refused, and a failing step
 * leaves the last version that completed.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { sql } from 'kysely';
import { MIGRATIONS, migrate, SCHEMA_VERSION, schemaVersion, type Migration } from './migrations';
import { testBackends } from '../test-support/harness';
import { sqliteConnection, type Connection } from './sql';

const TABLES = ['chat_messages', 'movies', 'room_members', 'room_settings', 'rooms', 'settings', 'signing_secrets', 'user_providers', 'users', 'vendor_bindings'];

const backends = testBackends('migrations_test');

/** The user tables of the database, sorted. */
async function tables(connection: Connection): Promise<string[]> {
  const found = await connection.db.introspection.getTables();
  return found
    .map((table) => table.name)
    .filter((name) => name !== 'schema_version')
    .sort();
}

describe.each(backends)('schema migrations on $name', (backend) => {
  let connection: Connection;
  beforeEach(async () => {
    connection = await backend.open();
  });
  afterEach(() => connection.close());

  it('bring a new database to the current version, and a second run changes nothing', async () => {
    await migrate(connection.db, connection.dialect);
    expect(await schemaVersion(connection.db, connection.dialect)).toBe(SCHEMA_VERSION);
    expect(await tables(connection)).toEqual(TABLES);
    await migrate(connection.db, connection.dialect);
    expect(await schemaVersion(connection.db, connection.dialect)).toBe(SCHEMA_VERSION);
    expect(await tables(connection)).toEqual(TABLES);
  });

  it('make the same columns on both databases, with 64-bit times and byte-order names', async () => {
    await migrate(connection.db, connection.dialect);
    const users = (await connection.db.introspection.getTables()).find((table) => table.name === 'users')!;
    expect(users.columns.map((column) => column.name).sort()).toEqual(['created_at', 'email', 'hashed_password', 'id', 'role', 'updated_at', 'username']);
    const createdAt = users.columns.find((column) => column.name === 'created_at')!;
    expect(createdAt.dataType.toLowerCase()).toBe(connection.dialect === 'postgres' ? 'int8' : 'integer');
    await connection.db.insertInto('users').values([
      { id: 'a', username: 'b', hashed_password: '', role: 1, created_at: 2 ** 41, updated_at: 0, email: null },
      { id: 'b', username: 'B', hashed_password: '', role: 1, created_at: 0, updated_at: 0, email: null },
      { id: 'c', username: 'a', hashed_password: '', role: 1, created_at: 0, updated_at: 0, email: null },
    ]).execute();
    const sorted = await connection.db.selectFrom('users').select(['username', 'created_at']).orderBy('username').execute();
    expect(sorted.map((row) => row.username)).toEqual(['B', 'a', 'b']);
    expect(Number(sorted[2].created_at)).toBe(2 ** 41);
  });

  it('refuse a database from a newer server and leave it as it is', async () => {
    const newer = [...MIGRATIONS, { name: 'from the future', up: async () => undefined }];
    await migrate(connection.db, connection.dialect, newer);
    await expect(migrate(connection.db, connection.dialect)).rejects.toThrow(`schema version ${SCHEMA_VERSION + 1}, newer than this server's ${SCHEMA_VERSION}`);
    expect(await schemaVersion(connection.db, connection.dialect)).toBe(SCHEMA_VERSION + 1);
  });

  it('stop at a failing step, leaving the database at the last version that completed', async () => {
    const create = (name: string) => async ({ db }: Parameters<Migration['up']>[0]) => void (await db.schema.createTable(name).addColumn('id', 'integer').execute());
    const steps: Migration[] = [
      { name: 'one', up: create('one') },
      {
        name: 'two',
        up: async (context) => {
          await create('two')(context);
          await create('one')(context);
        },
      },
      { name: 'three', up: create('three') },
    ];
    await expect(migrate(connection.db, connection.dialect, steps)).rejects.toThrow(/two/);
    expect(await schemaVersion(connection.db, connection.dialect)).toBe(1);
    // The failing step's first statement was rolled back with it.
    expect(await tables(connection)).toEqual(['one']);
  });
});

describe('a SQLite file from before the version was kept', () => {
  it('runs only what a database at an earlier version lacks, keeping its rows', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'migrations-'));
    const db = new Database(path.join(dir, 'test.db'));
    const connection = sqliteConnection(db);
    try {
      // A database as version 2 of the server left it: users with email, room settings, no chat table.
      db.exec(`CREATE TABLE users (id TEXT PRIMARY KEY, username TEXT NOT NULL UNIQUE, hashed_password TEXT NOT NULL,
        role INTEGER NOT NULL, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, email TEXT)`);
      db.exec('CREATE TABLE room_settings (room_id TEXT PRIMARY KEY, hidden INTEGER NOT NULL DEFAULT 0)');
      db.prepare('INSERT INTO room_settings (room_id, hidden) VALUES (?, 1)').run('r'.repeat(32));
      db.prepare('INSERT INTO users VALUES (?, ?, ?, ?, ?, ?, ?)').run('a'.repeat(32), 'kept', 'hash', 3, 1, 1, 'kept@example.com');
      db.pragma('user_version = 2');
      await migrate(connection.db, 'sqlite');
      expect(await schemaVersion(connection.db, 'sqlite')).toBe(SCHEMA_VERSION);
      expect(await tables(connection)).toContain('chat_messages');
      // Migration 2 (which adds the email column) did not run again: it would have failed.
      const { rows } = await sql<{ username: string; email: string }>`SELECT username, email FROM users`.execute(connection.db);
      expect(rows).toEqual([{ username: 'kept', email: 'kept@example.com' }]);
      // A room from then does not convert automatically (migration 6).
      const settings = await sql<{ hidden: number; auto_convert: number }>`SELECT hidden, auto_convert FROM room_settings`.execute(connection.db);
      expect(settings.rows).toEqual([{ hidden: 1, auto_convert: 0 }]);
    } finally {
      await connection.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
