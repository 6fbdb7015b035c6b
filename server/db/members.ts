/**
 * Room memberships (docs/contract.md §5.3). A row exists only for joined users; NotJoined is
 * reported, never stored. `joinAt` is Unix ms; permissions are uint32 masks (§5.4).
 */
import { likeOperator, limitOf, type Sql, type SqlValue } from './sql';
import { likePattern } from './users';

/** A stored membership. */
export interface MemberRecord {
  roomId: string;
  userId: string;
  status: number;
  role: number;
  permissions: number;
  adminPermissions: number;
  joinAt: number;
}

/** A membership joined with its user (room member lists, §4.3). */
export interface MemberListRow extends MemberRecord {
  username: string;
}

/** Filters of `GET /api/room/members` (§4.3). */
export interface MemberListFilter {
  roomId: string;
  role?: number;
  /** Member status (§5.3); undefined lists every status. */
  status?: number;
  keyword?: string;
  search?: 'all' | 'name' | 'id';
  /** `join` orders by the user's createdAt, as coded in v0.9.11. */
  sort: 'join' | 'name';
  desc: boolean;
  limit: number;
  offset: number;
}

interface MemberRow {
  room_id: string;
  user_id: string;
  status: number;
  role: number;
  permissions: number;
  admin_permissions: number;
  join_at: number;
  username?: string;
}

function toRecord(row: MemberRow): MemberRecord {
  return {
    roomId: row.room_id,
    userId: row.user_id,
    status: row.status,
    role: row.role,
    permissions: row.permissions >>> 0,
    adminPermissions: row.admin_permissions >>> 0,
    joinAt: row.join_at,
  };
}

/**
 * Writes one membership row through `sql` (the store, or a transaction of another repository);
 * `ifMissing` leaves an existing row as it is instead of rejecting with a UNIQUE violation.
 */
export async function insertMember(sql: Pick<Sql, 'run'>, member: MemberRecord, ifMissing = false): Promise<void> {
  await sql.run(
    `INSERT INTO room_members (room_id, user_id, status, role, permissions, admin_permissions, join_at) VALUES (?, ?, ?, ?, ?, ?, ?)${ifMissing ? ' ON CONFLICT DO NOTHING' : ''}`,
    [member.roomId, member.userId, member.status, member.role, member.permissions >>> 0, member.adminPermissions >>> 0, member.joinAt],
  );
}

/** The `room_members` table. */
export class MemberRepository {
  constructor(private readonly sql: Sql) {}

  async find(roomId: string, userId: string): Promise<MemberRecord | null> {
    const row = await this.sql.get<MemberRow>('SELECT * FROM room_members WHERE room_id = ? AND user_id = ?', [roomId, userId]);
    return row ? toRecord(row) : null;
  }

  /** Inserts a membership unless one exists, and returns the stored row (load or create). */
  async insertIfMissing(member: MemberRecord): Promise<MemberRecord> {
    await insertMember(this.sql, member, true);
    return (await this.find(member.roomId, member.userId)) ?? member;
  }

  /**
   * Changes some columns of a membership (status, role, permission masks); returns the stored row
   * afterwards, or null when there is no such membership.
   */
  async update(roomId: string, userId: string, changes: Partial<Pick<MemberRecord, 'status' | 'role' | 'permissions' | 'adminPermissions'>>): Promise<MemberRecord | null> {
    const current = await this.find(roomId, userId);
    if (!current) return null;
    const next = { ...current, ...changes };
    await this.sql.run('UPDATE room_members SET status = ?, role = ?, permissions = ?, admin_permissions = ? WHERE room_id = ? AND user_id = ?', [
      next.status,
      next.role,
      next.permissions >>> 0,
      next.adminPermissions >>> 0,
      roomId,
      userId,
    ]);
    return next;
  }

  /** Removes a membership; returns whether a row existed. */
  async delete(roomId: string, userId: string): Promise<boolean> {
    return (await this.sql.run('DELETE FROM room_members WHERE room_id = ? AND user_id = ?', [roomId, userId])).changes > 0;
  }

  /** One page of a room's members (any status) with usernames, plus the total count. */
  async list(filter: MemberListFilter): Promise<{ total: number; rows: MemberListRow[] }> {
    const where = ['m.room_id = ?'];
    const params: SqlValue[] = [filter.roomId];
    if (filter.role !== undefined) {
      where.push('m.role = ?');
      params.push(filter.role);
    }
    if (filter.status !== undefined) {
      where.push('m.status = ?');
      params.push(filter.status);
    }
    if (filter.keyword) {
      const like = likePattern(filter.keyword);
      const op = likeOperator(this.sql);
      if (filter.search === 'name') {
        where.push(`u.username ${op} ? ESCAPE '\\'`);
        params.push(like);
      } else if (filter.search === 'id') {
        where.push(`u.id ${op} ? ESCAPE '\\'`);
        params.push(like);
      } else {
        where.push(`(u.username ${op} ? ESCAPE '\\' OR u.id ${op} ? ESCAPE '\\')`);
        params.push(like, like);
      }
    }
    const from = ` FROM room_members m JOIN users u ON u.id = m.user_id WHERE ${where.join(' AND ')}`;
    const order = `${filter.sort === 'join' ? 'u.created_at' : 'u.username'} ${filter.desc ? 'DESC' : 'ASC'}, u.id`;
    const total = (await this.sql.get<{ n: number }>(`SELECT COUNT(*) AS n${from}`, params))?.n ?? 0;
    const rows = await this.sql.all<MemberRow>(`SELECT m.*, u.username AS username${from} ORDER BY ${order} LIMIT ? OFFSET ?`, [
      ...params,
      limitOf(this.sql, filter.limit),
      filter.offset,
    ]);
    return { total, rows: rows.map((row) => ({ ...toRecord(row), username: row.username ?? '' })) };
  }
}
