/**
 * The companion server's tables as Kysely sees them (https://kysely.dev): one typed description for
 * both databases, which ./migrations.ts creates and the repositories query. Times are Unix ms and
 * permission masks uint32, both INTEGER in SQLite and BIGINT in PostgreSQL (read as numbers, ./sql.ts);
 * flags are 0/1 integers in both. Column names follow SyncTV's own tables where the contract exposes
 * them (room settings are the snake_case keys of docs/contract.md §5.5).
 */
import type { Generated, Insertable, Kysely, Selectable } from 'kysely';

export interface UsersTable {
  id: string;
  username: string;
  hashed_password: string;
  /** Site role (§5.1). */
  role: number;
  created_at: number;
  updated_at: number;
  /** The bound email; null when none (a unique index skips nulls). */
  email: string | null;
}

export interface RoomsTable {
  id: string;
  name: string;
  creator_id: string;
  /** A bcrypt hash, or "" for no password. */
  hashed_password: Generated<string>;
  /** Room status (§5.2). */
  status: number;
  created_at: number;
  updated_at: number;
  /** The current movie and playback status as JSON (./rooms.ts StoredCurrent). */
  current: Generated<string>;
}

/** One row per room: its settings (§5.5), flags as 0/1. */
export interface RoomSettingsTable {
  room_id: string;
  user_default_permissions: Generated<number>;
  guest_permissions: Generated<number>;
  disable_guest: Generated<number>;
  join_need_review: Generated<number>;
  disable_join_new_user: Generated<number>;
  hidden: Generated<number>;
  can_get_movie_list: Generated<number>;
  can_add_movie: Generated<number>;
  can_delete_movie: Generated<number>;
  can_edit_movie: Generated<number>;
  can_set_current_movie: Generated<number>;
  can_set_current_status: Generated<number>;
  can_send_chat_message: Generated<number>;
  /** Companion extension: 1 when the room converts what browsers cannot play (docs/transcode.md). */
  auto_convert: Generated<number>;
}

export interface RoomMembersTable {
  room_id: string;
  user_id: string;
  /** Member status (§5.3). */
  status: number;
  /** Member role (§5.3). */
  role: number;
  permissions: number;
  admin_permissions: number;
  join_at: number;
}

export interface MoviesTable {
  id: string;
  room_id: string;
  creator_id: string;
  /** "" for the room's root folder. */
  parent_id: Generated<string>;
  /** Orders a folder's items (insertion time in ms). */
  position: number;
  created_at: number;
  name: string;
  url: string;
  /** The MovieBase as JSON (§7). */
  base: string;
}

/** Site settings (§5.6), one JSON value per name. */
export interface SettingsTable {
  name: string;
  value: string;
}

export interface UserProvidersTable {
  provider: string;
  provider_user_id: string;
  user_id: string;
  created_at: number;
}

export interface ChatMessagesTable {
  /** Only grows (AUTOINCREMENT, an identity column in PostgreSQL). */
  id: Generated<number>;
  room_id: string;
  user_id: string;
  username: string;
  content: string;
  created_at: number;
}

/** The signing secret (../signing-keys.ts): slot `current` and, during a rotation, `previous`. */
export interface SigningSecretsTable {
  slot: string;
  fingerprint: string;
  /** Null when the secret comes from JWT_SECRET. */
  secret: string | null;
  since: number;
}

/**
 * A user's account on a vendor's server (docs/vendors.md): one row per user, vendor and server.
 * `credentials` is sealed by ../vendors/credentials.ts (the password hash, tokens); `host` is kept
 * plain so that the user's list of bound servers and the address guard can read it.
 */
export interface VendorBindingsTable {
  user_id: string;
  /** `alist`, `emby` or `bilibili`. */
  vendor: string;
  /** 32 hex characters derived from the host (AList) or the server's own id (Emby). */
  server_id: string;
  host: string;
  credentials: string;
  created_at: number;
  updated_at: number;
}

/** Every table of the schema. */
export interface Schema {
  users: UsersTable;
  rooms: RoomsTable;
  room_settings: RoomSettingsTable;
  room_members: RoomMembersTable;
  movies: MoviesTable;
  settings: SettingsTable;
  user_providers: UserProvidersTable;
  chat_messages: ChatMessagesTable;
  signing_secrets: SigningSecretsTable;
  vendor_bindings: VendorBindingsTable;
}

/** The query builder over the schema: the store's, or one transaction's. */
export type Db = Kysely<Schema>;

/** Which database answers. */
export type SqlDialect = 'sqlite' | 'postgres';

export type UserRow = Selectable<UsersTable>;
export type RoomRow = Selectable<RoomsTable>;
export type MemberRow = Selectable<RoomMembersTable>;
export type MovieRow = Selectable<MoviesTable>;
export type NewMember = Insertable<RoomMembersTable>;
