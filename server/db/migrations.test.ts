import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { migrate, SCHEMA_VERSION, type Migration } from './migrations';

function tables(db: Database.Database): string[] {
  return db
    .prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
    .all()
    .map((row) => row.name);
}

const version = (db: Database.Database) => db.pragma('user_version', { simple: true });

describe('schema migrations', () => {
  let dir: string;
  let db: Database.Database;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'migrations-'));
    db = new Database(path.join(dir, 'test.db'));
  });
  afterEach(() => {
    db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('bring a new database to the current version, and a second run changes nothing', async () => {
    await migrate(db);
    expect(version(db)).toBe(SCHEMA_VERSION);
    const created = tables(db);
    expect(created).toEqual(['chat_messages', 'movies', 'room_members', 'room_settings', 'rooms', 'settings', 'signing_secrets', 'user_providers', 'users']);
    await migrate(db);
    expect(version(db)).toBe(SCHEMA_VERSION);
    expect(tables(db)).toEqual(created);
  });

  it('run only what a database at an earlier version lacks, keeping its rows', async () => {
    // A database as version 2 of the server left it: users with email, no chat table.
    db.exec(`CREATE TABLE users (id TEXT PRIMARY KEY, username TEXT NOT NULL UNIQUE, hashed_password TEXT NOT NULL,
      role INTEGER NOT NULL, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, email TEXT)`);
    db.prepare('INSERT INTO users VALUES (?, ?, ?, ?, ?, ?, ?)').run('a'.repeat(32), 'kept', 'hash', 3, 1, 1, 'kept@example.com');
    db.pragma('user_version = 2');
    await migrate(db);
    expect(version(db)).toBe(SCHEMA_VERSION);
    expect(tables(db)).toContain('chat_messages');
    // Migration 2 (which adds the email column) did not run again: it would have failed.
    expect(db.prepare('SELECT username, email FROM users').all()).toEqual([{ username: 'kept', email: 'kept@example.com' }]);
  });

  it('refuse a database from a newer server and leave it as it is', async () => {
    db.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    await expect(migrate(db)).rejects.toThrow(`schema version ${SCHEMA_VERSION + 1}, newer than this server's ${SCHEMA_VERSION}`);
    expect(tables(db)).toEqual([]);
  });

  it('stop at a failing step, leaving the database at the last version that completed', async () => {
    const steps: Migration[] = [
      { name: 'one', up: (target) => target.exec('CREATE TABLE one (id INTEGER)') },
      { name: 'two', up: (target) => target.exec('CREATE TABLE two (id INTEGER); CREATE TABLE one (id INTEGER)') },
      { name: 'three', up: (target) => target.exec('CREATE TABLE three (id INTEGER)') },
    ];
    await expect(migrate(db, steps)).rejects.toThrow(/two/);
    expect(version(db)).toBe(1);
    // The failing step's first statement was rolled back with it.
    expect(tables(db)).toEqual(['one']);
  });
});
