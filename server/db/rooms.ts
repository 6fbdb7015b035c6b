/**
 * Rooms, their per-room settings (docs/contract.md §5.5) and their persisted playback status
 * (`rooms.current`, §6.7). Times are Unix ms.
 */
import type { RoomPlayback } from '@/lib/contract/playback';
import type { RoomSettings } from '@/lib/contract/types';
import { DEFAULT_ROOM_SETTINGS } from '@/lib/contract/room-settings';
import { insertMember, type MemberRecord } from './members';
import type { Db, RoomRow, SqlDialect } from './schema';
import { asNumber, contains, paged } from './sql';

/** A stored room. `hashedPassword` is a bcrypt hash or "" (no password); `createdAt` is Unix ms. */
export interface RoomRecord {
  id: string;
  name: string;
  creatorId: string;
  /** Username of the creator (joined from users). */
  creator: string;
  hashedPassword: string;
  status: number;
  createdAt: number;
}

/**
 * The room's current movie and playback status as persisted in `rooms.current` (§6.7).
 * `currentTime` is seconds, `lastUpdateMs` the server wall clock in Unix ms.
 */
export interface StoredCurrent extends RoomPlayback {
  movieId: string;
  subPath: string;
}

/** Filters of the room list queries (§4.2, §4.3). */
export interface RoomListFilter {
  status?: number;
  /** Only rooms whose settings have `hidden` = false. */
  visibleOnly?: boolean;
  creatorId?: string;
  /** Rooms the user is a member of but did not create. */
  joinedBy?: string;
  keyword?: string;
  /** Which columns `keyword` matches: all (name, creator, id), name, creator, creatorId or id. */
  search?: 'all' | 'name' | 'creator' | 'creatorId' | 'id';
  sort: 'name' | 'createdAt';
  desc: boolean;
  limit: number;
  offset: number;
}

/**
 * A room as the room middleware reads it (../rules/room-access.ts): the room, its creator's site
 * role (null when the creator's row is gone), its settings and one user's membership (null when
 * that user has none).
 */
export interface RoomWithMember {
  room: RoomRecord;
  creatorRole: number | null;
  settings: RoomSettings;
  member: MemberRecord | null;
}

/** A room list row; `memberStatus`/`memberRole` are set for `joinedBy` queries. */
export interface RoomListRow extends RoomRecord {
  hidden: boolean;
  memberStatus?: number;
  memberRole?: number;
}

export { DEFAULT_ROOM_SETTINGS };

/** The keys of the settings object, which are also the columns of `room_settings` (§5.5). */
export const SETTING_KEYS = Object.keys(DEFAULT_ROOM_SETTINGS) as (keyof RoomSettings)[];

/** Settings from a `room_settings` row (its columns as they are); defaults for a missing row (all null). */
function settingsOf(row: Record<string, unknown>): RoomSettings {
  const settings = { ...DEFAULT_ROOM_SETTINGS } as Record<string, number | boolean>;
  if (row.room_id == null) return settings as unknown as RoomSettings;
  for (const key of SETTING_KEYS) {
    const fallback = DEFAULT_ROOM_SETTINGS[key];
    const value = Number(row[key]);
    settings[key] = typeof fallback === 'boolean' ? Boolean(value) : value >>> 0;
  }
  return settings as unknown as RoomSettings;
}

/** A settings object as the columns of `room_settings` (flags as 0/1). */
function settingColumns(settings: Partial<RoomSettings>): Record<string, number> {
  const columns: Record<string, number> = {};
  for (const key of SETTING_KEYS) {
    const value = settings[key];
    if (value !== undefined) columns[key] = typeof value === 'boolean' ? (value ? 1 : 0) : value;
  }
  return columns;
}

function toRecord(row: RoomRow & { creator: string | null }): RoomRecord {
  return {
    id: row.id,
    name: row.name,
    creatorId: row.creator_id,
    creator: row.creator ?? '',
    hashedPassword: row.hashed_password,
    status: row.status,
    createdAt: Number(row.created_at),
  };
}

/** The `rooms` and `room_settings` tables. */
export class RoomRepository {
  constructor(
    private readonly db: Db,
    private readonly dialect: SqlDialect,
  ) {}

  /** Rooms with their creator's username. */
  private withCreator() {
    return this.db.selectFrom('rooms as r').leftJoin('users as u', 'u.id', 'r.creator_id').selectAll('r').select('u.username as creator');
  }

  async findById(id: string): Promise<RoomRecord | null> {
    const row = await this.withCreator().where('r.id', '=', id).executeTakeFirst();
    return row ? toRecord(row) : null;
  }

  /**
   * The room `id` with its creator's role, its settings and `userId`'s membership, in one query
   * (the room middleware runs on every room request and socket; on PostgreSQL each query is a
   * round trip). Null when the room does not exist.
   */
  async findWithMember(id: string, userId: string): Promise<RoomWithMember | null> {
    const row = await this.withCreator()
      .leftJoin('room_settings as s', 's.room_id', 'r.id')
      .leftJoin('room_members as m', (join) => join.onRef('m.room_id', '=', 'r.id').on('m.user_id', '=', userId))
      .selectAll('s')
      .select(['u.role as creator_role', 'm.status as m_status', 'm.role as m_role', 'm.permissions as m_permissions', 'm.admin_permissions as m_admin_permissions', 'm.join_at as m_join_at'])
      .where('r.id', '=', id)
      .executeTakeFirst();
    if (!row) return null;
    const member: MemberRecord | null =
      row.m_status == null
        ? null
        : {
            roomId: row.id,
            userId,
            status: row.m_status,
            role: Number(row.m_role),
            permissions: Number(row.m_permissions) >>> 0,
            adminPermissions: Number(row.m_admin_permissions) >>> 0,
            joinAt: Number(row.m_join_at),
          };
    return { room: toRecord(row), creatorRole: row.creator_role ?? null, settings: settingsOf(row), member };
  }

  async findByName(name: string): Promise<RoomRecord | null> {
    const row = await this.withCreator().where('r.name', '=', name).executeTakeFirst();
    return row ? toRecord(row) : null;
  }

  /**
   * Inserts a room with its settings, initial status and its creator's membership in one
   * transaction. Rejects with a UNIQUE violation (`isUniqueViolation`) when the name is taken (then
   * nothing is written).
   */
  async insert(room: Omit<RoomRecord, 'creator'>, settings: RoomSettings, current: StoredCurrent, creator: MemberRecord): Promise<void> {
    await this.db.transaction().execute(async (tx) => {
      await tx
        .insertInto('rooms')
        .values({
          id: room.id,
          name: room.name,
          creator_id: room.creatorId,
          hashed_password: room.hashedPassword,
          status: room.status,
          created_at: room.createdAt,
          updated_at: room.createdAt,
          current: JSON.stringify(current),
        })
        .execute();
      await tx
        .insertInto('room_settings')
        .values({ room_id: room.id, ...settingColumns(settings) })
        .execute();
      await insertMember(tx, creator);
    });
  }

  /** Deletes a room; settings, members and movies go with it (ON DELETE CASCADE). */
  async delete(id: string): Promise<void> {
    await this.db.deleteFrom('rooms').where('id', '=', id).execute();
  }

  async countByCreator(creatorId: string): Promise<number> {
    return asNumber((await this.db.selectFrom('rooms').select((eb) => eb.fn.countAll().as('n')).where('creator_id', '=', creatorId).executeTakeFirst())?.n);
  }

  async updatePassword(id: string, hashedPassword: string): Promise<void> {
    await this.db.updateTable('rooms').set({ hashed_password: hashedPassword, updated_at: Date.now() }).where('id', '=', id).execute();
  }

  /** Sets the room's status (§5.2). */
  async updateStatus(id: string, status: number): Promise<void> {
    await this.db.updateTable('rooms').set({ status, updated_at: Date.now() }).where('id', '=', id).execute();
  }

  /**
   * Writes some settings of a room (§5.5) in one statement. `changes` holds only known keys with
   * values of the right type (checked by the caller).
   */
  async updateSettings(roomId: string, changes: Partial<RoomSettings>): Promise<void> {
    const columns = settingColumns(changes);
    if (Object.keys(columns).length === 0) return;
    await this.db.updateTable('room_settings').set(columns).where('room_id', '=', roomId).execute();
  }

  /** The room's settings (§5.5), defaults for any missing row. */
  async settings(roomId: string): Promise<RoomSettings> {
    const row = await this.db.selectFrom('room_settings').selectAll().where('room_id', '=', roomId).executeTakeFirst();
    return row ? settingsOf(row) : { ...DEFAULT_ROOM_SETTINGS };
  }

  /** The persisted current movie and status, or null when the room does not exist. */
  async current(roomId: string): Promise<StoredCurrent | null> {
    const row = await this.db.selectFrom('rooms').select('current').where('id', '=', roomId).executeTakeFirst();
    if (!row) return null;
    try {
      return { ...emptyCurrent(0), ...(JSON.parse(row.current) as Partial<StoredCurrent>) };
    } catch {
      return emptyCurrent(0);
    }
  }

  async saveCurrent(roomId: string, current: StoredCurrent): Promise<void> {
    await this.db.updateTable('rooms').set({ current: JSON.stringify(current) }).where('id', '=', roomId).execute();
  }

  /** One page of rooms matching `filter`, plus the total count of matches. */
  async list(filter: RoomListFilter): Promise<{ total: number; rows: RoomListRow[] }> {
    const { dialect } = this;
    const { keyword, joinedBy } = filter;
    let query = this.db
      .selectFrom('rooms as r')
      .leftJoin('users as u', 'u.id', 'r.creator_id')
      .innerJoin('room_settings as s', 's.room_id', 'r.id')
      // The membership of `joinedBy` (none is looked for without it).
      .leftJoin('room_members as m', (join) => join.onRef('m.room_id', '=', 'r.id').on('m.user_id', '=', joinedBy ?? ''));
    if (joinedBy) query = query.where('m.user_id', 'is not', null).where('r.creator_id', '!=', joinedBy);
    if (filter.status !== undefined) query = query.where('r.status', '=', filter.status);
    if (filter.visibleOnly) query = query.where('s.hidden', '=', 0);
    if (filter.creatorId) query = query.where('r.creator_id', '=', filter.creatorId);
    if (keyword) {
      query = query.where((eb) => {
        switch (filter.search ?? 'all') {
          case 'name':
            return contains(dialect, eb.ref('r.name'), keyword);
          case 'creator':
            return contains(dialect, eb.ref('u.username'), keyword);
          case 'id':
            return contains(dialect, eb.ref('r.id'), keyword);
          case 'creatorId':
            return eb('r.creator_id', '=', keyword);
          default:
            return eb.or([contains(dialect, eb.ref('r.name'), keyword), contains(dialect, eb.ref('u.username'), keyword), contains(dialect, eb.ref('r.id'), keyword)]);
        }
      });
    }
    const total = asNumber((await query.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst())?.n);
    const rows = await paged(
      query
        .selectAll('r')
        .select(['u.username as creator', 's.hidden as hidden', 'm.status as member_status', 'm.role as member_role'])
        .orderBy(filter.sort === 'createdAt' ? 'r.created_at' : 'r.name', filter.desc ? 'desc' : 'asc')
        .orderBy('r.id'),
      filter.limit,
      filter.offset,
    ).execute();
    return {
      total,
      rows: rows.map((row) => ({
        ...toRecord(row),
        hidden: Boolean(row.hidden),
        memberStatus: joinedBy ? (row.member_status ?? undefined) : undefined,
        memberRole: joinedBy ? (row.member_role ?? undefined) : undefined,
      })),
    };
  }

  /** Rooms by id, with their `hidden` flag (for the hot list). Unknown ids are skipped. */
  async findManyWithVisibility(ids: string[]): Promise<RoomListRow[]> {
    const rows: RoomListRow[] = [];
    for (const id of ids) {
      const row = await this.withCreator().innerJoin('room_settings as s', 's.room_id', 'r.id').select('s.hidden as hidden').where('r.id', '=', id).executeTakeFirst();
      if (row) rows.push({ ...toRecord(row), hidden: Boolean(row.hidden) });
    }
    return rows;
  }
}

/** The status of a room with no current movie: paused at 0 s, rate 1 (§6.7). */
export function emptyCurrent(nowMs: number): StoredCurrent {
  return { movieId: '', subPath: '', isPlaying: false, currentTime: 0, playbackRate: 1, lastUpdateMs: nowMs };
}
