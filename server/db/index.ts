/**
 * The data layer of the companion server: one SQLite file `<dataDir>/synctv.db` behind typed
 * repositories with prepared statements.
 */
import { ChatRepository } from './chat';
import { openDatabase, type Sqlite } from './database';
import { MemberRepository } from './members';
import { MovieRepository } from './movies';
import { ProviderRepository } from './providers';
import { RoomRepository } from './rooms';
import { SettingsRepository, type SiteSettings } from './settings';
import { UserRepository } from './users';

export type { UserRecord } from './users';
export type { RoomRecord, RoomListRow, StoredCurrent } from './rooms';
export type { MemberRecord, MemberListRow } from './members';
export type { MovieRecord, MovieListRow } from './movies';
export type { SiteSettings } from './settings';
export type { ProviderLink } from './providers';
export type { ChatRecord } from './chat';

/** All repositories over one database. `close()` checkpoints and closes the file. */
export interface Store {
  db: Sqlite;
  users: UserRepository;
  rooms: RoomRepository;
  members: MemberRepository;
  movies: MovieRepository;
  settings: SettingsRepository;
  providers: ProviderRepository;
  /** The rooms' recent chat (./chat.ts). */
  chat: ChatRepository;
  /** Asks the database a trivial question; rejects when it cannot answer (closed, unreadable file). */
  ping(): Promise<void>;
  close(): void;
}

/**
 * Opens the store in `dataDir` (created when missing, migrated to the current schema) and writes the
 * site settings that have no row yet: `initial` values first (first-start configuration from the
 * environment), then the defaults. Rejects as `openDatabase` does.
 */
export async function openStore(dataDir: string, initial: Partial<SiteSettings> = {}): Promise<Store> {
  const db = await openDatabase(dataDir);
  const settings = new SettingsRepository(db);
  await settings.seedDefaults(initial);
  return {
    db,
    users: new UserRepository(db),
    rooms: new RoomRepository(db),
    members: new MemberRepository(db),
    movies: new MovieRepository(db),
    settings,
    providers: new ProviderRepository(db),
    chat: new ChatRepository(db),
    ping: async () => void db.prepare('SELECT 1').get(),
    close: () => db.close(),
  };
}
