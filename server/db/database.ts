/**
 * Opens the companion server's SQLite database: one file `<dataDir>/synctv.db` in WAL mode, brought
 * to the current schema by the numbered migrations of ./migrations.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { migrate } from './migrations';
import { sqliteConnection, type Connection } from './sql';

/** The better-sqlite3 handle type used by the repositories. */
export type Sqlite = Database.Database;

/** File name of the database inside the data directory. */
export const DATABASE_FILE = 'synctv.db';

/**
 * Opens (creating if needed) `<dataDir>/synctv.db`, mode 0600, and runs its pending migrations.
 * Creates `dataDir` (mode 0700) when missing. Rejects when the directory cannot be created, the file
 * is not a SQLite database, or a migration fails (the file is closed then).
 */
export async function openDatabase(dataDir: string): Promise<Connection> {
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = path.join(dataDir, DATABASE_FILE);
  // Readable by the owner only (hashes, emails, settings with SMTP and OAuth2 secrets): created so,
  // and tightened on start for a file an older version created. SQLite gives the -wal and -shm files
  // the database file's permissions.
  fs.closeSync(fs.openSync(file, 'a', 0o600));
  fs.chmodSync(file, 0o600);
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  const connection = sqliteConnection(db);
  try {
    await migrate(connection.db, 'sqlite');
  } catch (error) {
    await connection.close();
    throw error;
  }
  return connection;
}
