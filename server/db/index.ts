/**
 * The data layer of the companion server: typed repositories over one database, the SQLite file
 * `<dataDir>/synctv.db` (the default) or a PostgreSQL database (`DATABASE_URL`), through ./sql.ts.
 */
import { ChatRepository } from './chat';
import { openDatabase } from './database';
import { migratePostgres } from './migrations-postgres';
import { postgresPool, PostgresSql, SqliteSql, type Sql, type SqlDialect } from './sql';
import { MemberRepository } from './members';
import { MovieRepository } from './movies';
import { ProviderRepository } from './providers';
import { RoomRepository } from './rooms';
import { SettingsRepository, type SiteSettings } from './settings';
import { SigningSecretRepository } from './signing-secrets';
import { UserRepository } from './users';

export type { UserRecord } from './users';
export type { RoomRecord, RoomListRow, RoomWithMember, StoredCurrent } from './rooms';
export type { MemberRecord, MemberListRow } from './members';
export type { MovieRecord, MovieListRow } from './movies';
export type { SiteSettings } from './settings';
export type { ProviderLink } from './providers';
export type { ChatRecord } from './chat';
export type { StoredSecret } from './signing-secrets';

/** All repositories over one database. `close()` ends the connection (SQLite checkpoints its file). */
export interface Store {
  /** Which database holds the data. */
  dialect: SqlDialect;
  users: UserRepository;
  rooms: RoomRepository;
  members: MemberRepository;
  movies: MovieRepository;
  settings: SettingsRepository;
  providers: ProviderRepository;
  /** The rooms' recent chat (./chat.ts). */
  chat: ChatRepository;
  /** The JWT signing secret the instances share (./signing-secrets.ts). */
  signingSecrets: SigningSecretRepository;
  /** Asks the database a trivial question; rejects when it cannot answer (closed, unreachable, unreadable). */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** Where the store keeps its data: `<dataDir>/synctv.db`, or the PostgreSQL database at `databaseUrl`. */
export interface StoreLocation {
  dataDir: string;
  /** `postgres://…` or `postgresql://…`; absent or "" for SQLite. */
  databaseUrl?: string;
}

/** Whether `url` names a PostgreSQL database. */
export function isPostgresUrl(url: string | undefined): url is string {
  return Boolean(url && /^postgres(ql)?:\/\//i.test(url));
}

/** The part of `url` before "://" (or its first 12 characters), for an error that shows no password. */
function schemeOf(url: string): string {
  const end = url.indexOf('://');
  return end >= 0 ? `${url.slice(0, end)}://…` : `${url.slice(0, 12)}…`;
}

/**
 * Opens the store (SQLite: the file is created when missing; PostgreSQL: the database must exist),
 * migrated to the current schema, and writes the site settings that have no row yet: `initial`
 * values first (first-start configuration from the environment), then the defaults. Rejects when
 * the database cannot be opened or reached, or a migration fails (./database.ts, ./migrations*.ts),
 * and when `databaseUrl` is set but is not a PostgreSQL URL.
 */
export async function openStore(location: StoreLocation, initial: Partial<SiteSettings> = {}): Promise<Store> {
  if (isPostgresUrl(location.databaseUrl)) return storeOver(await openPostgres(location.databaseUrl), initial);
  if (location.databaseUrl) {
    // A typo ("postgress://", "mysql://") must not quietly become a fresh SQLite file beside the real data.
    throw new Error(`DATABASE_URL must start with postgres:// or postgresql:// (got "${schemeOf(location.databaseUrl)}"); leave it unset for the SQLite file`);
  }
  const db = await openDatabase(location.dataDir);
  return storeOver(
    {
      sql: new SqliteSql(db),
      ping: async () => void db.prepare('SELECT 1').get(),
      close: async () => void db.close(),
    },
    initial,
  );
}

interface Connection {
  sql: Sql;
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** A pool on `url`, migrated. 64-bit integers (COUNT, BIGINT columns) are read as numbers. */
async function openPostgres(url: string): Promise<Connection> {
  const pool = postgresPool(url);
  try {
    await migratePostgres(pool);
  } catch (error) {
    await pool.end();
    throw error;
  }
  return {
    sql: new PostgresSql(pool),
    ping: async () => void (await pool.query('SELECT 1')),
    close: () => pool.end(),
  };
}

async function storeOver(connection: Connection, initial: Partial<SiteSettings>): Promise<Store> {
  const { sql } = connection;
  const settings = new SettingsRepository(sql);
  try {
    await settings.seedDefaults(initial);
  } catch (error) {
    await connection.close();
    throw error;
  }
  return {
    dialect: sql.dialect,
    users: new UserRepository(sql),
    rooms: new RoomRepository(sql),
    members: new MemberRepository(sql),
    movies: new MovieRepository(sql),
    settings,
    providers: new ProviderRepository(sql),
    chat: new ChatRepository(sql),
    signingSecrets: new SigningSecretRepository(sql),
    ping: connection.ping,
    close: connection.close,
  };
}
