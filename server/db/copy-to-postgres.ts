/**
 * Moves a site from the SQLite file to PostgreSQL (docs/deployment.md "Storage"): copies every row
 * of `<dataDir>/synctv.db` into an empty PostgreSQL database, in one transaction, after bringing
 * both to the current schema. The two schemas have the same tables and columns (./migrations.ts,
 * ./migrations-postgres.ts), so rows are copied column by column as they are.
 */
import { openDatabase } from './database';
import { migratePostgres } from './migrations-postgres';
import { PostgresSql, postgresPool, type SqlValue } from './sql';

/** The tables in an order their foreign keys accept (a room after its creator, a member after both). */
export const COPIED_TABLES = ['users', 'user_providers', 'settings', 'signing_secrets', 'rooms', 'room_settings', 'room_members', 'movies', 'chat_messages'] as const;

/** Rows per INSERT: a few hundred rows of at most a dozen columns stay far below PostgreSQL's 65535 parameters. */
const ROWS_PER_INSERT = 200;

/**
 * Copies the data of the SQLite file in `dataDir` into the PostgreSQL database at `databaseUrl`,
 * and resolves how many rows each table got. The SQLite file is only read (and migrated, as a
 * start of the server would). Rejects, writing nothing, when the target already has users (it must
 * be a database no server has started on) or when any insert fails.
 */
export async function copyToPostgres(dataDir: string, databaseUrl: string): Promise<Record<(typeof COPIED_TABLES)[number], number>> {
  const sqlite = await openDatabase(dataDir);
  const pool = postgresPool(databaseUrl, 1);
  try {
    await migratePostgres(pool);
    return await new PostgresSql(pool).transaction(async (tx) => {
      if (Number((await tx.get<{ n: number }>('SELECT COUNT(*) AS n FROM users'))?.n) > 0) {
        throw new Error('the PostgreSQL database already has users: copy into a new, empty database');
      }
      // A first start may have written the default settings and a signing secret already; the copied
      // ones replace them (the copied secret keeps everyone's sessions).
      await tx.run('DELETE FROM settings');
      await tx.run('DELETE FROM signing_secrets');
      const copied = {} as Record<(typeof COPIED_TABLES)[number], number>;
      for (const table of COPIED_TABLES) {
        const source = sqlite.prepare(`SELECT * FROM ${table}`).all() as Record<string, SqlValue>[];
        for (let start = 0; start < source.length; start += ROWS_PER_INSERT) {
          const batch = source.slice(start, start + ROWS_PER_INSERT);
          const columns = Object.keys(batch[0]);
          const tuples = batch.map(() => `(${columns.map(() => '?').join(', ')})`);
          await tx.run(`INSERT INTO ${table} (${columns.join(', ')}) VALUES ${tuples.join(', ')}`, batch.flatMap((row) => columns.map((column) => row[column])));
        }
        copied[table] = source.length;
      }
      // New chat lines continue after the copied ones.
      await tx.get("SELECT setval(pg_get_serial_sequence('chat_messages', 'id'), COALESCE((SELECT MAX(id) FROM chat_messages), 0) + 1, false)");
      return copied;
    });
  } finally {
    sqlite.close();
    await pool.end();
  }
}
