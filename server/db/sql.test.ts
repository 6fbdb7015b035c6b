/**
 * @jest-environment node
 *
 * The store's SQL layer (./sql.ts) on SQLite, and on PostgreSQL too when the run has one
 * (`npm run test:pg`): the same statements answer the same way on both, a transaction is all or
 * nothing, and on SQLite nothing from outside slips into a transaction under way.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { isUniqueViolation, likeOperator, limitOf, numberPlaceholders, postgresPool, PostgresSql, SqliteSql, type Sql } from './sql';

describe('numberPlaceholders', () => {
  it("numbers each ? in order and leaves string literals alone", () => {
    expect(numberPlaceholders("SELECT * FROM t WHERE a = ? AND b LIKE ? ESCAPE '\\' AND c = '?' AND d = ?")).toBe(
      "SELECT * FROM t WHERE a = $1 AND b LIKE $2 ESCAPE '\\' AND c = '?' AND d = $3",
    );
    expect(numberPlaceholders("SELECT 'it''s ?' , ?")).toBe("SELECT 'it''s ?' , $1");
  });
});

interface Backend {
  name: string;
  open(): Promise<{ sql: Sql; close(): Promise<void> }>;
}

const backends: Backend[] = [
  {
    name: 'SQLite',
    async open() {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sql-test-'));
      const db = new Database(path.join(dir, 'test.db'));
      return {
        sql: new SqliteSql(db),
        close: async () => {
          db.close();
          fs.rmSync(dir, { recursive: true, force: true });
        },
      };
    },
  },
];
if (process.env.TEST_DATABASE_URL) {
  backends.push({
    name: 'PostgreSQL',
    async open() {
      const name = `sql_test_${process.pid}_${Date.now()}`;
      const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${name}`);
      await admin.end();
      const url = new URL(process.env.TEST_DATABASE_URL!);
      url.pathname = `/${name}`;
      const pool = postgresPool(url.toString());
      return { sql: new PostgresSql(pool), close: () => pool.end() };
    },
  });
}

describe.each(backends)('on $name', (backend) => {
  let sql: Sql;
  let close: () => Promise<void>;
  beforeEach(async () => {
    ({ sql, close } = await backend.open());
    await sql.run('CREATE TABLE items (id TEXT PRIMARY KEY, name TEXT NOT NULL, at BIGINT NOT NULL)');
  });
  afterEach(() => close());

  it('reads what it wrote, counts changes, and reads 64-bit integers as numbers', async () => {
    const now = Date.now();
    expect(await sql.run('INSERT INTO items (id, name, at) VALUES (?, ?, ?)', ['a', 'Alpha', now])).toEqual({ changes: 1 });
    await sql.run('INSERT INTO items (id, name, at) VALUES (?, ?, ?)', ['b', 'beta', now + 1]);
    expect(await sql.get('SELECT id, at FROM items WHERE id = ?', ['a'])).toEqual({ id: 'a', at: now });
    expect(await sql.get<{ n: number }>('SELECT COUNT(*) AS n FROM items')).toEqual({ n: 2 });
    expect(await sql.get('SELECT id FROM items WHERE id = ?', ['none'])).toBeUndefined();
    // Case-insensitive keyword search on both.
    expect(await sql.all(`SELECT id FROM items WHERE name ${likeOperator(sql)} ? ORDER BY id`, ['%A%'])).toEqual([{ id: 'a' }, { id: 'b' }]);
    expect(await sql.all('SELECT id FROM items ORDER BY id LIMIT ? OFFSET ?', [limitOf(sql, -1), 1])).toEqual([{ id: 'b' }]);
    expect(await sql.run('UPDATE items SET name = ? WHERE id IN (?, ?)', ['x', 'a', 'b'])).toEqual({ changes: 2 });
  });

  it('rejects a duplicate key with an error isUniqueViolation recognises', async () => {
    await sql.run('INSERT INTO items (id, name, at) VALUES (?, ?, ?)', ['a', 'one', 1]);
    const error = await sql.run('INSERT INTO items (id, name, at) VALUES (?, ?, ?)', ['a', 'two', 2]).catch((caught: unknown) => caught);
    expect(isUniqueViolation(error)).toBe(true);
    expect(isUniqueViolation(new Error('other'))).toBe(false);
  });

  it('commits a transaction whole, or rolls it back whole when its work rejects', async () => {
    await sql.transaction(async (tx) => {
      await tx.run('INSERT INTO items (id, name, at) VALUES (?, ?, ?)', ['a', 'one', 1]);
      await tx.run('INSERT INTO items (id, name, at) VALUES (?, ?, ?)', ['b', 'two', 2]);
    });
    const failed = sql.transaction(async (tx) => {
      await tx.run('INSERT INTO items (id, name, at) VALUES (?, ?, ?)', ['c', 'three', 3]);
      await tx.run('INSERT INTO items (id, name, at) VALUES (?, ?, ?)', ['a', 'again', 4]);
    });
    expect(isUniqueViolation(await failed.catch((caught: unknown) => caught))).toBe(true);
    expect(await sql.all('SELECT id FROM items ORDER BY id')).toEqual([{ id: 'a' }, { id: 'b' }]);
  });

  it('keeps what others write out of a transaction under way, and lets them through after', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const failed = sql.transaction(async (tx) => {
      await tx.run('INSERT INTO items (id, name, at) VALUES (?, ?, ?)', ['a', 'in the transaction', 1]);
      await held;
      throw new Error('rolled back');
    });
    // Written by someone else while the transaction waits: it must survive the rollback.
    const outside = sql.run('INSERT INTO items (id, name, at) VALUES (?, ?, ?)', ['b', 'outside', 2]);
    release();
    await expect(failed).rejects.toThrow('rolled back');
    await outside;
    expect(await sql.all('SELECT id FROM items ORDER BY id')).toEqual([{ id: 'b' }]);
  });
});
