/**
 * Moves a site from the SQLite file to PostgreSQL (docs/deployment.md "Storage"): copies every row
 * of `<dataDir>/synctv.db` into an empty PostgreSQL database, in one transaction, after bringing
 * both to the current schema. Both have the tables and columns of the one schema (./schema.ts,
 * ./migrations.ts), so rows are copied column by column as they are.
 */
import { sql } from 'kysely';
import { openDatabase } from './database';
import { migrate } from './migrations';
import type { Schema } from './schema';
import { asNumber, postgresConnection, postgresPool } from './sql';

/** The tables in an order their foreign keys accept (a room after its creator, a member after both). */
export const COPIED_TABLES = ['users', 'user_providers', 'settings', 'signing_secrets', 'rooms', 'room_settings', 'room_members', 'movies', 'chat_messages', 'vendor_bindings'] as const satisfies readonly (keyof Schema)[];

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
  const postgres = postgresConnection(postgresPool(databaseUrl, 1));
  try {
    await migrate(postgres.db, 'postgres');
    return await postgres.db.transaction().execute(async (tx) => {
      if (asNumber((await tx.selectFrom('users').select((eb) => eb.fn.countAll().as('n')).executeTakeFirst())?.n) > 0) {
        throw new Error('the PostgreSQL database already has users: copy into a new, empty database');
      }
      // A first start may have written the default settings and a signing secret already; the copied
      // ones replace them (the copied secret keeps everyone's sessions).
      await tx.deleteFrom('settings').execute();
      await tx.deleteFrom('signing_secrets').execute();
      const copied = {} as Record<(typeof COPIED_TABLES)[number], number>;
      for (const table of COPIED_TABLES) {
        const source = (await sqlite.db.selectFrom(table).selectAll().execute()) as Record<string, unknown>[];
        for (let start = 0; start < source.length; start += ROWS_PER_INSERT) {
          // The row types differ per table; each row is copied as it was read.
          await tx.insertInto(table).values(source.slice(start, start + ROWS_PER_INSERT) as never).execute();
        }
        copied[table] = source.length;
      }
      // New chat lines continue after the copied ones.
      await sql`SELECT setval(pg_get_serial_sequence('chat_messages', 'id'), COALESCE((SELECT MAX(id) FROM chat_messages), 0) + 1, false)`.execute(tx);
      return copied;
    });
  } finally {
    await sqlite.close();
    await postgres.close();
  }
}
