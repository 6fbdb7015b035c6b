/**
 * @jest-environment node
 *
 * The store's database layer (./sql.ts) on SQLite, and on PostgreSQL too when the run has one
 * (`npm run test:pg`): the same typed queries answer the same way on both (a case-insensitive
 * search, 64-bit numbers, paging), a transaction is all or nothing, on SQLite nothing from outside
 * slips into a transaction under way, and a duplicate key is recognised on both.
 */
import { testBackends } from '../test-support/harness';
import { migrate } from './migrations';
import { asNumber, contains, isUniqueViolation, paged, type Connection } from './sql';

const backends = testBackends('sql_test');

const user = (id: string, username: string, createdAt: number) => ({ id, username, hashed_password: '', role: 3, created_at: createdAt, updated_at: createdAt, email: null });

describe.each(backends)('on $name', (backend) => {
  let connection: Connection;
  beforeEach(async () => {
    connection = await backend.open();
    await migrate(connection.db, connection.dialect);
  });
  afterEach(() => connection.close());

  it('reads what it wrote, counts, pages, searches ignoring case, and reads 64-bit integers as numbers', async () => {
    const { db, dialect } = connection;
    const now = Date.now();
    await db.insertInto('users').values([user('a', 'Alpha_1', now), user('b', 'beta', now + 1), user('c', 'gamma', now + 2)]).execute();
    expect(await db.selectFrom('users').select(['id', 'created_at']).where('id', '=', 'a').executeTakeFirst()).toEqual({ id: 'a', created_at: now });
    expect(asNumber((await db.selectFrom('users').select((eb) => eb.fn.countAll().as('n')).executeTakeFirst())?.n)).toBe(3);
    expect(await db.selectFrom('users').select('id').where('id', '=', 'none').executeTakeFirst()).toBeUndefined();
    const search = (keyword: string) =>
      db
        .selectFrom('users')
        .select('id')
        .where((eb) => contains(dialect, eb.ref('username'), keyword))
        .orderBy('id')
        .execute();
    expect(await search('A')).toEqual([{ id: 'a' }, { id: 'b' }, { id: 'c' }]);
    // LIKE's wildcards in the keyword are plain characters.
    expect(await search('_')).toEqual([{ id: 'a' }]);
    expect(await search('%')).toEqual([]);
    const page = (limit: number, offset: number) => paged(db.selectFrom('users').select('id').orderBy('id'), limit, offset).execute();
    expect(await page(-1, 1)).toEqual([{ id: 'b' }, { id: 'c' }]);
    expect(await page(1, 1)).toEqual([{ id: 'b' }]);
    expect(await page(-1, 0)).toHaveLength(3);
    const updated = await db.updateTable('users').set({ role: 1 }).where('id', 'in', ['a', 'b']).executeTakeFirst();
    expect(Number(updated.numUpdatedRows)).toBe(2);
  });

  it('rejects a duplicate key with an error isUniqueViolation recognises', async () => {
    await connection.db.insertInto('users').values(user('a', 'one', 1)).execute();
    const error = await connection.db
      .insertInto('users')
      .values(user('a', 'two', 2))
      .execute()
      .catch((caught: unknown) => caught);
    expect(isUniqueViolation(error)).toBe(true);
    expect(isUniqueViolation(new Error('other'))).toBe(false);
  });

  it('commits a transaction whole, or rolls it back whole when its work rejects', async () => {
    const { db } = connection;
    await db.transaction().execute(async (tx) => {
      await tx.insertInto('users').values(user('a', 'one', 1)).execute();
      await tx.insertInto('users').values(user('b', 'two', 2)).execute();
    });
    const failed = db.transaction().execute(async (tx) => {
      await tx.insertInto('users').values(user('c', 'three', 3)).execute();
      await tx.insertInto('users').values(user('a', 'again', 4)).execute();
    });
    expect(isUniqueViolation(await failed.catch((caught: unknown) => caught))).toBe(true);
    expect(await db.selectFrom('users').select('id').orderBy('id').execute()).toEqual([{ id: 'a' }, { id: 'b' }]);
  });

  it('keeps what others write out of a transaction under way, and lets them through after', async () => {
    const { db } = connection;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const failed = db.transaction().execute(async (tx) => {
      await tx.insertInto('users').values(user('a', 'in the transaction', 1)).execute();
      await held;
      throw new Error('rolled back');
    });
    // Written by someone else while the transaction waits: it must survive the rollback.
    const outside = db.insertInto('users').values(user('b', 'outside', 2)).execute();
    release();
    await expect(failed).rejects.toThrow('rolled back');
    await outside;
    expect(await db.selectFrom('users').select('id').orderBy('id').execute()).toEqual([{ id: 'b' }]);
  });
});
