/**
 * Opens the companion server's SQLite database: one file `<dataDir>/synctv.db` in WAL mode, with the
 * schema created (idempotently) on every start. Column names follow SyncTV's own tables where the
 * contract exposes them (room settings are the snake_case keys of docs/contract.md §5.5).
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';

/** The better-sqlite3 handle type used by the repositories. */
export type Sqlite = Database.Database;

/**
 * Prepared statements for SQL built at run time from a few fixed shapes (list filters and orders):
 * each distinct text is compiled once and reused. Values always go in as parameters, never in `sql`.
 */
export class StatementCache {
  private readonly statements = new Map<string, Database.Statement<unknown[], unknown>>();

  constructor(private readonly db: Sqlite) {}

  /** The compiled statement for `sql`. Throws better-sqlite3's SqliteError when `sql` is invalid. */
  get(sql: string): Database.Statement<unknown[], unknown> {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare<unknown[], unknown>(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }
}

/** File name of the database inside the data directory. */
export const DATABASE_FILE = 'synctv.db';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS users (
  id TEXT PRIMARY KEY,
  username TEXT NOT NULL UNIQUE,
  hashed_password TEXT NOT NULL,
  role INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);

CREATE TABLE IF NOT EXISTS rooms (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  creator_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  hashed_password TEXT NOT NULL DEFAULT '',
  status INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  current TEXT NOT NULL DEFAULT ''
);
CREATE INDEX IF NOT EXISTS rooms_creator ON rooms(creator_id);

CREATE TABLE IF NOT EXISTS room_settings (
  room_id TEXT PRIMARY KEY REFERENCES rooms(id) ON DELETE CASCADE,
  user_default_permissions INTEGER NOT NULL DEFAULT 193,
  guest_permissions INTEGER NOT NULL DEFAULT 0,
  disable_guest INTEGER NOT NULL DEFAULT 0,
  join_need_review INTEGER NOT NULL DEFAULT 0,
  disable_join_new_user INTEGER NOT NULL DEFAULT 0,
  hidden INTEGER NOT NULL DEFAULT 0,
  can_get_movie_list INTEGER NOT NULL DEFAULT 1,
  can_add_movie INTEGER NOT NULL DEFAULT 1,
  can_delete_movie INTEGER NOT NULL DEFAULT 1,
  can_edit_movie INTEGER NOT NULL DEFAULT 1,
  can_set_current_movie INTEGER NOT NULL DEFAULT 1,
  can_set_current_status INTEGER NOT NULL DEFAULT 1,
  can_send_chat_message INTEGER NOT NULL DEFAULT 1
);

CREATE TABLE IF NOT EXISTS room_members (
  room_id TEXT NOT NULL REFERENCES rooms(id) ON DELETE CASCADE,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  status INTEGER NOT NULL,
  role INTEGER NOT NULL,
  permissions INTEGER NOT NULL,
  admin_permissions INTEGER NOT NULL,
  join_at INTEGER NOT NULL,
  PRIMARY KEY (room_id, user_id)
);
CREATE INDEX IF NOT EXISTS room_members_user ON room_members(user_id);

CREATE TABLE IF NOT EXISTS movies (
  id TEXT PRIMARY KEY,
  room_id TEXT NOT NULL REFERENCES rooms(id) ON DELETE CASCADE,
  creator_id TEXT NOT NULL,
  parent_id TEXT NOT NULL DEFAULT '',
  position INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  name TEXT NOT NULL,
  url TEXT NOT NULL,
  base TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS movies_room_parent ON movies(room_id, parent_id, position);

CREATE TABLE IF NOT EXISTS settings (
  name TEXT PRIMARY KEY,
  value TEXT NOT NULL
);

CREATE TABLE IF NOT EXISTS user_providers (
  provider TEXT NOT NULL,
  provider_user_id TEXT NOT NULL,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (provider, provider_user_id),
  UNIQUE (user_id, provider)
);

CREATE TABLE IF NOT EXISTS chat_messages (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  room_id TEXT NOT NULL REFERENCES rooms(id) ON DELETE CASCADE,
  user_id TEXT NOT NULL,
  username TEXT NOT NULL,
  content TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS chat_messages_room ON chat_messages(room_id, id);
`;

/**
 * Version of the schema, kept in SQLite's `user_version` (shown as the read-only site setting
 * `database_version`, §5.6): 1 = the first tables, 2 = users.email and user_providers, 3 = chat_messages.
 */
export const SCHEMA_VERSION = 3;

/**
 * Changes to tables that older data directories already have (CREATE TABLE IF NOT EXISTS leaves
 * them as they were): each runs once, when its column is missing.
 */
function migrate(db: Sqlite): void {
  const userColumns = db.prepare<[], { name: string }>('PRAGMA table_info(users)').all().map((column) => column.name);
  if (!userColumns.includes('email')) db.exec('ALTER TABLE users ADD COLUMN email TEXT');
  // One account per address; NULL (no email bound) may repeat.
  db.exec('CREATE UNIQUE INDEX IF NOT EXISTS users_email ON users(email) WHERE email IS NOT NULL');
  db.pragma(`user_version = ${SCHEMA_VERSION}`);
}

/**
 * Opens (creating if needed) `<dataDir>/synctv.db`, mode 0600. Creates `dataDir` (mode 0700) when missing.
 * Throws when the directory cannot be created or the file is not a SQLite database.
 */
export function openDatabase(dataDir: string): Sqlite {
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
  db.exec(SCHEMA);
  migrate(db);
  return db;
}
