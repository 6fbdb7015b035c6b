/**
 * The companion server's schema (./schema.ts) as one list of numbered migrations for both databases,
 * written with Kysely's schema builder, which speaks each one's SQL; run by umzug on every start.
 * Where the two differ, a migration asks the dialect: times and permission masks are INTEGER in
 * SQLite and BIGINT in PostgreSQL (whose INTEGER is 32 bits), names sort byte by byte in both
 * (SQLite's default; `COLLATE "C"` in PostgreSQL, whatever the cluster's locale), and the chat's ids
 * are an AUTOINCREMENT rowid or an identity column.
 *
 * The version: SQLite's `user_version`, PostgreSQL's one row of `schema_version` (shown as the
 * read-only site setting `database_version`, docs/contract.md §5.6). A database at version N has
 * run the first N migrations. Each migration and the version it leads to are written in one
 * transaction, so a crash leaves the database at a version it really has; on PostgreSQL instances
 * starting together take an advisory lock, so the migrations run once. SQLite files from before the
 * version was kept (version 0, with some tables) are why the first migration creates only what is
 * missing. A new change to the tables is a new entry at the end of `MIGRATIONS`; an entry once
 * released is never changed in what it creates.
 */
import { sql, type ColumnDataType, type Expression, type Kysely } from 'kysely';
import { Umzug, type UmzugStorage } from 'umzug';
import type { Schema, SqlDialect } from './schema';

/** What a migration builds with: the query builder (inside the step's transaction) and the database it is. */
export interface MigrationContext {
  // Any table, including ones the schema no longer has.
  db: Kysely<any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  dialect: SqlDialect;
}

/** One step of the schema: a name that says what it adds, and what adds it. */
export interface Migration {
  name: string;
  up(context: MigrationContext): Promise<void>;
}

/** A 64-bit integer column: INTEGER in SQLite (64-bit there), BIGINT in PostgreSQL. */
const int64 = (dialect: SqlDialect): ColumnDataType => (dialect === 'postgres' ? 'bigint' : 'integer');
/** A name column that sorts byte by byte in both. */
const bytewiseText = (dialect: SqlDialect): Expression<unknown> | ColumnDataType => (dialect === 'postgres' ? sql`text collate "C"` : 'text');

export const MIGRATIONS: readonly Migration[] = [
  {
    name: '0001-users-rooms-members-movies-settings',
    async up({ db, dialect }) {
      const big = int64(dialect);
      await db.schema
        .createTable('users')
        .ifNotExists()
        .addColumn('id', 'text', (col) => col.primaryKey())
        .addColumn('username', bytewiseText(dialect), (col) => col.notNull().unique())
        .addColumn('hashed_password', 'text', (col) => col.notNull())
        .addColumn('role', 'integer', (col) => col.notNull())
        .addColumn('created_at', big, (col) => col.notNull())
        .addColumn('updated_at', big, (col) => col.notNull())
        .execute();
      await db.schema
        .createTable('rooms')
        .ifNotExists()
        .addColumn('id', 'text', (col) => col.primaryKey())
        .addColumn('name', bytewiseText(dialect), (col) => col.notNull().unique())
        .addColumn('creator_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
        .addColumn('hashed_password', 'text', (col) => col.notNull().defaultTo(''))
        .addColumn('status', 'integer', (col) => col.notNull())
        .addColumn('created_at', big, (col) => col.notNull())
        .addColumn('updated_at', big, (col) => col.notNull())
        .addColumn('current', 'text', (col) => col.notNull().defaultTo(''))
        .execute();
      await db.schema.createIndex('rooms_creator').ifNotExists().on('rooms').column('creator_id').execute();
      const flag = (name: string, on: 0 | 1) => [name, on] as const;
      let settings = db.schema
        .createTable('room_settings')
        .ifNotExists()
        .addColumn('room_id', 'text', (col) => col.primaryKey().references('rooms.id').onDelete('cascade'))
        .addColumn('user_default_permissions', big, (col) => col.notNull().defaultTo(193))
        .addColumn('guest_permissions', big, (col) => col.notNull().defaultTo(0));
      for (const [name, on] of [
        flag('disable_guest', 0),
        flag('join_need_review', 0),
        flag('disable_join_new_user', 0),
        flag('hidden', 0),
        flag('can_get_movie_list', 1),
        flag('can_add_movie', 1),
        flag('can_delete_movie', 1),
        flag('can_edit_movie', 1),
        flag('can_set_current_movie', 1),
        flag('can_set_current_status', 1),
        flag('can_send_chat_message', 1),
      ]) {
        settings = settings.addColumn(name, 'integer', (col) => col.notNull().defaultTo(on));
      }
      await settings.execute();
      await db.schema
        .createTable('room_members')
        .ifNotExists()
        .addColumn('room_id', 'text', (col) => col.notNull().references('rooms.id').onDelete('cascade'))
        .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
        .addColumn('status', 'integer', (col) => col.notNull())
        .addColumn('role', 'integer', (col) => col.notNull())
        .addColumn('permissions', big, (col) => col.notNull())
        .addColumn('admin_permissions', big, (col) => col.notNull())
        .addColumn('join_at', big, (col) => col.notNull())
        .addPrimaryKeyConstraint('room_members_pkey', ['room_id', 'user_id'])
        .execute();
      await db.schema.createIndex('room_members_user').ifNotExists().on('room_members').column('user_id').execute();
      await db.schema
        .createTable('movies')
        .ifNotExists()
        .addColumn('id', 'text', (col) => col.primaryKey())
        .addColumn('room_id', 'text', (col) => col.notNull().references('rooms.id').onDelete('cascade'))
        .addColumn('creator_id', 'text', (col) => col.notNull())
        .addColumn('parent_id', 'text', (col) => col.notNull().defaultTo(''))
        .addColumn('position', big, (col) => col.notNull())
        .addColumn('created_at', big, (col) => col.notNull())
        .addColumn('name', bytewiseText(dialect), (col) => col.notNull())
        .addColumn('url', 'text', (col) => col.notNull())
        .addColumn('base', 'text', (col) => col.notNull())
        .execute();
      await db.schema.createIndex('movies_room_parent').ifNotExists().on('movies').columns(['room_id', 'parent_id', 'position']).execute();
      await db.schema
        .createTable('settings')
        .ifNotExists()
        .addColumn('name', 'text', (col) => col.primaryKey())
        .addColumn('value', 'text', (col) => col.notNull())
        .execute();
    },
  },
  {
    name: '0002-users-email-and-user-providers',
    async up({ db, dialect }) {
      await db.schema.alterTable('users').addColumn('email', 'text').execute();
      // One account per address; NULL (no email bound) may repeat.
      await db.schema.createIndex('users_email').unique().on('users').column('email').where(sql.ref('email'), 'is not', null).execute();
      await db.schema
        .createTable('user_providers')
        .ifNotExists()
        .addColumn('provider', 'text', (col) => col.notNull())
        .addColumn('provider_user_id', 'text', (col) => col.notNull())
        .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
        .addColumn('created_at', int64(dialect), (col) => col.notNull())
        .addPrimaryKeyConstraint('user_providers_pkey', ['provider', 'provider_user_id'])
        .addUniqueConstraint('user_providers_user_provider', ['user_id', 'provider'])
        .execute();
    },
  },
  {
    name: '0003-chat-messages',
    async up({ db, dialect }) {
      await db.schema
        .createTable('chat_messages')
        .addColumn('id', dialect === 'postgres' ? 'bigint' : 'integer', (col) =>
          dialect === 'postgres' ? col.generatedByDefaultAsIdentity().primaryKey() : col.primaryKey().autoIncrement(),
        )
        .addColumn('room_id', 'text', (col) => col.notNull().references('rooms.id').onDelete('cascade'))
        .addColumn('user_id', 'text', (col) => col.notNull())
        .addColumn('username', 'text', (col) => col.notNull())
        .addColumn('content', 'text', (col) => col.notNull())
        .addColumn('created_at', int64(dialect), (col) => col.notNull())
        .execute();
      await db.schema.createIndex('chat_messages_room').on('chat_messages').columns(['room_id', 'id']).execute();
    },
  },
  {
    name: '0004-signing-secrets',
    async up({ db, dialect }) {
      // The JWT signing secret every instance shares (../signing-keys.ts): slot 'current', and
      // 'previous' during a rotation's grace period. secret is NULL when it comes from JWT_SECRET.
      await db.schema
        .createTable('signing_secrets')
        .addColumn('slot', 'text', (col) => col.primaryKey())
        .addColumn('fingerprint', 'text', (col) => col.notNull())
        .addColumn('secret', 'text')
        .addColumn('since', int64(dialect), (col) => col.notNull())
        .execute();
    },
  },
  {
    name: '0005-vendor-bindings',
    async up({ db, dialect }) {
      // Users' AList and Emby accounts (./vendors.ts); credentials sealed (../vendors/credentials.ts).
      await db.schema
        .createTable('vendor_bindings')
        .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
        .addColumn('vendor', 'text', (col) => col.notNull())
        .addColumn('server_id', 'text', (col) => col.notNull())
        .addColumn('host', 'text', (col) => col.notNull())
        .addColumn('credentials', 'text', (col) => col.notNull())
        .addColumn('created_at', int64(dialect), (col) => col.notNull())
        .addColumn('updated_at', int64(dialect), (col) => col.notNull())
        .addPrimaryKeyConstraint('vendor_bindings_pkey', ['user_id', 'vendor', 'server_id'])
        .execute();
    },
  },
  {
    name: '0006-room-auto-convert',
    async up({ db }) {
      // Whether a room converts what browsers cannot play (docs/transcode.md "Converting automatically").
      await db.schema.alterTable('room_settings').addColumn('auto_convert', 'integer', (col) => col.notNull().defaultTo(0)).execute();
    },
  },
];

/** The version a database has once every migration ran: the number of migrations. */
export const SCHEMA_VERSION = MIGRATIONS.length;

// Any table: the version's own, outside the schema.
type AnyDb = Kysely<any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The database's schema version (0 before the first start). */
export async function schemaVersion(db: AnyDb, dialect: SqlDialect): Promise<number> {
  if (dialect === 'sqlite') {
    const { rows } = await sql<{ user_version: number }>`PRAGMA user_version`.execute(db);
    return Number(rows[0]?.user_version ?? 0);
  }
  await db.schema.createTable('schema_version').ifNotExists().addColumn('version', 'integer', (col) => col.notNull()).execute();
  const row = await db.selectFrom('schema_version').select('version').executeTakeFirst();
  return Number(row?.version ?? 0);
}

async function setSchemaVersion(db: AnyDb, dialect: SqlDialect, version: number): Promise<void> {
  if (dialect === 'sqlite') {
    await sql`PRAGMA ${sql.raw(`user_version = ${Math.trunc(version)}`)}`.execute(db);
    return;
  }
  await db.deleteFrom('schema_version').execute();
  await db.insertInto('schema_version').values({ version }).execute();
}

/** Any constant names PostgreSQL's advisory lock; this one spells "synctv". */
const MIGRATION_LOCK = 7368820278;

/**
 * Brings `db` to the last version of `migrations` (the schema's, `SCHEMA_VERSION`, unless a test
 * passes its own), running each pending one with its new version in one transaction; on PostgreSQL
 * under an advisory lock held on one connection for the whole run. Rejects (umzug's MigrationError,
 * naming the step) when a step fails, which leaves the database at the last version that completed;
 * rejects when the database is newer than this server.
 */
export async function migrate(db: Kysely<Schema>, dialect: SqlDialect, migrations: readonly Migration[] = MIGRATIONS): Promise<void> {
  await db.connection().execute(async (connection) => {
    const any = connection as unknown as AnyDb;
    if (dialect === 'postgres') await sql`SELECT pg_advisory_lock(${sql.lit(MIGRATION_LOCK)})`.execute(any);
    try {
      const version = await schemaVersion(any, dialect);
      if (version > migrations.length) {
        throw new Error(`the database is at schema version ${version}, newer than this server's ${migrations.length}: run a newer server`);
      }
      const storage: UmzugStorage<AnyDb> = {
        executed: async ({ context }) => migrations.slice(0, await schemaVersion(context, dialect)).map((migration) => migration.name),
        logMigration: async () => undefined,
        unlogMigration: async () => {
          throw new Error('schema migrations only go forward');
        },
      };
      const umzug = new Umzug<AnyDb>({
        context: any,
        storage,
        logger: undefined,
        migrations: migrations.map((migration, index) => ({
          name: migration.name,
          up: ({ context }) =>
            context.transaction().execute(async (tx) => {
              await migration.up({ db: tx, dialect });
              await setSchemaVersion(tx, dialect, index + 1);
            }),
        })),
      });
      await umzug.up();
    } finally {
      if (dialect === 'postgres') await sql`SELECT pg_advisory_unlock(${sql.lit(MIGRATION_LOCK)})`.execute(any).catch(() => undefined);
    }
  });
}
