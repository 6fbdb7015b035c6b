/**
 * The data layer of the companion server: typed repositories over one database, the SQLite file
 * `<dataDir>/synctv.db` (the default) or a PostgreSQL database (`DATABASE_URL`), through Kysely
 * (./sql.ts) on one schema (./schema.ts, ./migrations.ts).
 */
import { ChatRepository } from './chat';
import { openDatabase } from './database';
import { migrate } from './migrations';
import { postgresConnection, postgresPool, type Connection, type SqlDialect } from './sql';
import { MemberRepository } from './members';
import { MovieRepository } from './movies';
import { ProviderRepository } from './providers';
import { RoomRepository } from './rooms';
import { SettingsRepository, type SiteSettings } from './settings';
import { SigningSecretRepository } from './signing-secrets';
import { UserRepository } from './users';
import { VendorBindingRepository } from './vendors';

export type { UserRecord } from './users';
export type { RoomRecord, RoomListRow, RoomWithMember, StoredCurrent } from './rooms';
export type { MemberRecord, MemberListRow } from './members';
export type { MovieRecord, MovieListRow } from './movies';
export type { SiteSettings } from './settings';
export type { ProviderLink } from './providers';
export type { ChatRecord } from './chat';
export type { StoredSecret } from './signing-secrets';
export type { VendorBinding, BoundVendor } from './vendors';

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
  /** Users' accounts on AList and Emby servers (./vendors.ts). */
  vendorBindings: VendorBindingRepository;
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
  return storeOver(await openDatabase(location.dataDir), initial);
}

/** A pool on `url`, migrated. 64-bit integers (COUNT, BIGINT columns) are read as numbers. */
async function openPostgres(url: string): Promise<Connection> {
  const connection = postgresConnection(postgresPool(url));
  try {
    await migrate(connection.db, 'postgres');
  } catch (error) {
    await connection.close();
    throw error;
  }
  return connection;
}

async function storeOver(connection: Connection, initial: Partial<SiteSettings>): Promise<Store> {
  const { db, dialect } = connection;
  const settings = new SettingsRepository(db);
  try {
    await settings.seedDefaults(initial);
  } catch (error) {
    await connection.close();
    throw error;
  }
  return {
    dialect,
    users: new UserRepository(db, dialect),
    rooms: new RoomRepository(db, dialect),
    members: new MemberRepository(db, dialect),
    movies: new MovieRepository(db, dialect),
    settings,
    providers: new ProviderRepository(db),
    chat: new ChatRepository(db),
    signingSecrets: new SigningSecretRepository(db),
    vendorBindings: new VendorBindingRepository(db),
    ping: connection.ping,
    close: connection.close,
  };
}
