/**
 * The companion server's schema as numbered migrations, run by umzug on every start.
 *
 * The version is SQLite's `user_version` (shown as the read-only site setting `database_version`,
 * docs/contract.md §5.6): a database at version N has run the first N migrations. Each migration and
 * the version it leads to are written in one transaction, so a crash leaves the file at a version it
 * really has. Data directories from before the version was kept (version 0, with some tables) are
 * why the first migration creates only what is missing. A new change to the tables is a new entry at
 * the end of `MIGRATIONS`; an entry once released is never edited.
 */
import { Umzug, type UmzugStorage } from 'umzug';
import type { Sqlite } from './database';

/** One step of the schema: a name that says what it adds, and the SQL that adds it. */
export interface Migration {
  name: string;
  up(db: Sqlite): void;
}

const MIGRATIONS: readonly Migration[] = [
  {
    name: '0001-users-rooms-members-movies-settings',
    up: (db) =>
      db.exec(`
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
      `),
  },
  {
    name: '0002-users-email-and-user-providers',
    up: (db) =>
      db.exec(`
        ALTER TABLE users ADD COLUMN email TEXT;
        -- One account per address; NULL (no email bound) may repeat.
        CREATE UNIQUE INDEX users_email ON users(email) WHERE email IS NOT NULL;

        CREATE TABLE IF NOT EXISTS user_providers (
          provider TEXT NOT NULL,
          provider_user_id TEXT NOT NULL,
          user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
          created_at INTEGER NOT NULL,
          PRIMARY KEY (provider, provider_user_id),
          UNIQUE (user_id, provider)
        );
      `),
  },
  {
    name: '0003-chat-messages',
    up: (db) =>
      db.exec(`
        CREATE TABLE chat_messages (
          id INTEGER PRIMARY KEY AUTOINCREMENT,
          room_id TEXT NOT NULL REFERENCES rooms(id) ON DELETE CASCADE,
          user_id TEXT NOT NULL,
          username TEXT NOT NULL,
          content TEXT NOT NULL,
          created_at INTEGER NOT NULL
        );
        CREATE INDEX chat_messages_room ON chat_messages(room_id, id);
      `),
  },
  {
    name: '0004-signing-secrets',
    up: (db) =>
      db.exec(`
        -- The JWT signing secret every instance shares (server/signing-keys.ts): slot 'current', and
        -- 'previous' during a rotation's grace period. secret is NULL when it comes from JWT_SECRET.
        CREATE TABLE signing_secrets (
          slot TEXT PRIMARY KEY,
          fingerprint TEXT NOT NULL,
          secret TEXT,
          since INTEGER NOT NULL
        );
      `),
  },
];

/** The version a database has once every migration ran: the number of migrations. */
export const SCHEMA_VERSION = MIGRATIONS.length;

function userVersion(db: Sqlite): number {
  return db.pragma('user_version', { simple: true }) as number;
}

/**
 * umzug's record of what ran, read from `user_version`: the first N names. The version itself is
 * written by the migration's own transaction (see `migrate`), so logging has nothing left to do.
 */
function userVersionStorage(migrations: readonly Migration[]): UmzugStorage<Sqlite> {
  return {
    executed: async ({ context: db }) => migrations.slice(0, userVersion(db)).map((migration) => migration.name),
    logMigration: async () => undefined,
    unlogMigration: async () => {
      throw new Error('schema migrations only go forward');
    },
  };
}

/**
 * Brings `db` to the last version of `migrations` (the schema's, `SCHEMA_VERSION`, unless a test
 * passes its own), running each pending migration with its new `user_version` in one transaction.
 * Rejects (umzug's MigrationError, naming the step) when a step fails, which leaves the database at
 * the last version that completed; rejects when the database is newer than this server.
 */
export async function migrate(db: Sqlite, migrations: readonly Migration[] = MIGRATIONS): Promise<void> {
  const version = userVersion(db);
  if (version > migrations.length) {
    throw new Error(`the database is at schema version ${version}, newer than this server's ${migrations.length}: run a newer server`);
  }
  const umzug = new Umzug<Sqlite>({
    context: db,
    storage: userVersionStorage(migrations),
    logger: undefined,
    migrations: migrations.map((migration, index) => ({
      name: migration.name,
      up: async ({ context }) =>
        context.transaction(() => {
          migration.up(context);
          context.pragma(`user_version = ${index + 1}`);
        })(),
    })),
  });
  await umzug.up();
}
