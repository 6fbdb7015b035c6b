/**
 * Rooms, their per-room settings (docs/contract.md §5.5) and their persisted playback status
 * (`rooms.current`, §6.7). Times are Unix ms.
 */
import type { RoomPlayback } from '@/lib/contract/playback';
import type { RoomSettings } from '@/lib/contract/types';
import { DEFAULT_ROOM_SETTINGS } from '@/lib/contract/room-settings';
import { likeOperator, limitOf, type Sql, type SqlValue } from './sql';
import { insertMember, type MemberRecord } from './members';
import { likePattern } from './users';

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

interface RoomRow {
  id: string;
  name: string;
  creator_id: string;
  creator: string | null;
  hashed_password: string;
  status: number;
  created_at: number;
  current: string;
  hidden?: number;
  member_status?: number;
  member_role?: number;
}

export { DEFAULT_ROOM_SETTINGS };

/** The keys of the settings object, which are also the columns of `room_settings` (§5.5). */
export const SETTING_KEYS = Object.keys(DEFAULT_ROOM_SETTINGS) as (keyof RoomSettings)[];

/** Settings from a `room_settings` row whose columns carry `prefix`; defaults for a missing row (all null). */
function settingsOf(row: Record<string, unknown>, prefix = ''): RoomSettings {
  const settings = { ...DEFAULT_ROOM_SETTINGS } as Record<string, number | boolean>;
  if (row[`${prefix}room_id`] == null) return settings as unknown as RoomSettings;
  for (const key of SETTING_KEYS) {
    const fallback = DEFAULT_ROOM_SETTINGS[key];
    const value = Number(row[`${prefix}${key}`]);
    settings[key] = typeof fallback === 'boolean' ? Boolean(value) : value >>> 0;
  }
  return settings as unknown as RoomSettings;
}

/** The columns of `findWithMember`: the room and its creator, then settings as `s_*` and the membership as `m_*`. */
const ROOM_WITH_MEMBER_SELECT = `SELECT r.*, u.username AS creator, u.role AS creator_role, s.room_id AS s_room_id,
  ${SETTING_KEYS.map((key) => `s.${key} AS s_${key}`).join(', ')},
  m.status AS m_status, m.role AS m_role, m.permissions AS m_permissions, m.admin_permissions AS m_admin_permissions, m.join_at AS m_join_at
  FROM rooms r LEFT JOIN users u ON u.id = r.creator_id LEFT JOIN room_settings s ON s.room_id = r.id
  LEFT JOIN room_members m ON m.room_id = r.id AND m.user_id = ?`;

interface RoomWithMemberRow extends RoomRow {
  creator_role: number | null;
  m_status: number | null;
  m_role: number;
  m_permissions: number;
  m_admin_permissions: number;
  m_join_at: number;
}

function toRecord(row: RoomRow): RoomRecord {
  return {
    id: row.id,
    name: row.name,
    creatorId: row.creator_id,
    creator: row.creator ?? '',
    hashedPassword: row.hashed_password,
    status: row.status,
    createdAt: row.created_at,
  };
}

const ROOM_SELECT = 'SELECT r.*, u.username AS creator FROM rooms r LEFT JOIN users u ON u.id = r.creator_id';

/** The `rooms` and `room_settings` tables. */
export class RoomRepository {
  constructor(private readonly sql: Sql) {}

  async findById(id: string): Promise<RoomRecord | null> {
    const row = await this.sql.get<RoomRow>(`${ROOM_SELECT} WHERE r.id = ?`, [id]);
    return row ? toRecord(row) : null;
  }

  /**
   * The room `id` with its creator's role, its settings and `userId`'s membership, in one query
   * (the room middleware runs on every room request and socket; on PostgreSQL each query is a
   * round trip). Null when the room does not exist.
   */
  async findWithMember(id: string, userId: string): Promise<RoomWithMember | null> {
    const row = await this.sql.get<RoomWithMemberRow>(`${ROOM_WITH_MEMBER_SELECT} WHERE r.id = ?`, [userId, id]);
    if (!row) return null;
    const member: MemberRecord | null =
      row.m_status == null
        ? null
        : {
            roomId: row.id,
            userId,
            status: row.m_status,
            role: row.m_role,
            permissions: row.m_permissions >>> 0,
            adminPermissions: row.m_admin_permissions >>> 0,
            joinAt: row.m_join_at,
          };
    return { room: toRecord(row), creatorRole: row.creator_role ?? null, settings: settingsOf(row as unknown as Record<string, unknown>, 's_'), member };
  }

  async findByName(name: string): Promise<RoomRecord | null> {
    const row = await this.sql.get<RoomRow>(`${ROOM_SELECT} WHERE r.name = ?`, [name]);
    return row ? toRecord(row) : null;
  }

  /**
   * Inserts a room with its settings, initial status and its creator's membership in one
   * transaction. Rejects with a UNIQUE violation (`isUniqueViolation`) when the name is taken (then
   * nothing is written).
   */
  async insert(room: Omit<RoomRecord, 'creator'>, settings: RoomSettings, current: StoredCurrent, creator: MemberRecord): Promise<void> {
    await this.sql.transaction(async (tx) => {
      await tx.run('INSERT INTO rooms (id, name, creator_id, hashed_password, status, created_at, updated_at, current) VALUES (?, ?, ?, ?, ?, ?, ?, ?)', [
        room.id,
        room.name,
        room.creatorId,
        room.hashedPassword,
        room.status,
        room.createdAt,
        room.createdAt,
        JSON.stringify(current),
      ]);
      await tx.run(`INSERT INTO room_settings (room_id, ${SETTING_KEYS.join(', ')}) VALUES (?, ${SETTING_KEYS.map(() => '?').join(', ')})`, [
        room.id,
        ...SETTING_KEYS.map((key) => toSql(settings[key])),
      ]);
      await insertMember(tx, creator);
    });
  }

  /** Deletes a room; settings, members and movies go with it (ON DELETE CASCADE). */
  async delete(id: string): Promise<void> {
    await this.sql.run('DELETE FROM rooms WHERE id = ?', [id]);
  }

  async countByCreator(creatorId: string): Promise<number> {
    return (await this.sql.get<{ n: number }>('SELECT COUNT(*) AS n FROM rooms WHERE creator_id = ?', [creatorId]))?.n ?? 0;
  }

  async updatePassword(id: string, hashedPassword: string): Promise<void> {
    await this.sql.run('UPDATE rooms SET hashed_password = ?, updated_at = ? WHERE id = ?', [hashedPassword, Date.now(), id]);
  }

  /** Sets the room's status (§5.2). */
  async updateStatus(id: string, status: number): Promise<void> {
    await this.sql.run('UPDATE rooms SET status = ?, updated_at = ? WHERE id = ?', [status, Date.now(), id]);
  }

  /**
   * Writes some settings of a room (§5.5) in one statement. `changes` holds only known keys with
   * values of the right type (checked by the caller).
   */
  async updateSettings(roomId: string, changes: Partial<RoomSettings>): Promise<void> {
    const keys = SETTING_KEYS.filter((key) => changes[key] !== undefined);
    if (keys.length === 0) return;
    await this.sql.run(`UPDATE room_settings SET ${keys.map((key) => `${key} = ?`).join(', ')} WHERE room_id = ?`, [
      ...keys.map((key) => toSql(changes[key] as number | boolean)),
      roomId,
    ]);
  }

  /** The room's settings (§5.5), defaults for any missing row. */
  async settings(roomId: string): Promise<RoomSettings> {
    const row = await this.sql.get<Record<string, unknown>>('SELECT * FROM room_settings WHERE room_id = ?', [roomId]);
    return row ? settingsOf(row) : { ...DEFAULT_ROOM_SETTINGS };
  }

  /** The persisted current movie and status, or null when the room does not exist. */
  async current(roomId: string): Promise<StoredCurrent | null> {
    const row = await this.sql.get<{ current: string }>('SELECT current FROM rooms WHERE id = ?', [roomId]);
    if (!row) return null;
    try {
      return { ...emptyCurrent(0), ...(JSON.parse(row.current) as Partial<StoredCurrent>) };
    } catch {
      return emptyCurrent(0);
    }
  }

  async saveCurrent(roomId: string, current: StoredCurrent): Promise<void> {
    await this.sql.run('UPDATE rooms SET current = ? WHERE id = ?', [JSON.stringify(current), roomId]);
  }

  /** One page of rooms matching `filter`, plus the total count of matches. */
  async list(filter: RoomListFilter): Promise<{ total: number; rows: RoomListRow[] }> {
    const where: string[] = [];
    const params: SqlValue[] = [];
    let join = ' JOIN room_settings s ON s.room_id = r.id';
    let select = 'SELECT r.*, u.username AS creator, s.hidden AS hidden';
    if (filter.joinedBy) {
      join += ' JOIN room_members m ON m.room_id = r.id AND m.user_id = ?';
      params.push(filter.joinedBy);
      select += ', m.status AS member_status, m.role AS member_role';
      where.push('r.creator_id != ?');
      params.push(filter.joinedBy);
    }
    if (filter.status !== undefined) {
      where.push('r.status = ?');
      params.push(filter.status);
    }
    if (filter.visibleOnly) where.push('s.hidden = 0');
    if (filter.creatorId) {
      where.push('r.creator_id = ?');
      params.push(filter.creatorId);
    }
    if (filter.keyword) {
      const like = likePattern(filter.keyword);
      const op = likeOperator(this.sql);
      switch (filter.search ?? 'all') {
        case 'name':
          where.push(`r.name ${op} ? ESCAPE '\\'`);
          params.push(like);
          break;
        case 'creator':
          where.push(`u.username ${op} ? ESCAPE '\\'`);
          params.push(like);
          break;
        case 'id':
          where.push(`r.id ${op} ? ESCAPE '\\'`);
          params.push(like);
          break;
        case 'creatorId':
          where.push('r.creator_id = ?');
          params.push(filter.keyword);
          break;
        default:
          where.push(`(r.name ${op} ? ESCAPE '\\' OR u.username ${op} ? ESCAPE '\\' OR r.id ${op} ? ESCAPE '\\')`);
          params.push(like, like, like);
      }
    }
    const from = ` FROM rooms r LEFT JOIN users u ON u.id = r.creator_id${join}${where.length ? ` WHERE ${where.join(' AND ')}` : ''}`;
    const order = `${filter.sort === 'createdAt' ? 'r.created_at' : 'r.name'} ${filter.desc ? 'DESC' : 'ASC'}, r.id`;
    const total = (await this.sql.get<{ n: number }>(`SELECT COUNT(*) AS n${from}`, params))?.n ?? 0;
    const rows = await this.sql.all<RoomRow>(`${select}${from} ORDER BY ${order} LIMIT ? OFFSET ?`, [...params, limitOf(this.sql, filter.limit), filter.offset]);
    return {
      total,
      rows: rows.map((row) => ({
        ...toRecord(row),
        hidden: Boolean(row.hidden),
        memberStatus: row.member_status,
        memberRole: row.member_role,
      })),
    };
  }

  /** Rooms by id, with their `hidden` flag (for the hot list). Unknown ids are skipped. */
  async findManyWithVisibility(ids: string[]): Promise<RoomListRow[]> {
    const rows: RoomListRow[] = [];
    for (const id of ids) {
      const row = await this.sql.get<RoomRow>(
        'SELECT r.*, u.username AS creator, s.hidden AS hidden FROM rooms r LEFT JOIN users u ON u.id = r.creator_id JOIN room_settings s ON s.room_id = r.id WHERE r.id = ?',
        [id],
      );
      if (row) rows.push({ ...toRecord(row), hidden: Boolean(row.hidden) });
    }
    return rows;
  }
}

/** The status of a room with no current movie: paused at 0 s, rate 1 (§6.7). */
export function emptyCurrent(nowMs: number): StoredCurrent {
  return { movieId: '', subPath: '', isPlaying: false, currentTime: 0, playbackRate: 1, lastUpdateMs: nowMs };
}

function toSql(value: number | boolean): number {
  return typeof value === 'boolean' ? (value ? 1 : 0) : value;
}
