/**
 * Room memberships (docs/contract.md §5.3). A row exists only for joined users; NotJoined is
 * reported, never stored. `joinAt` is Unix ms; permissions are uint32 masks (§5.4).
 */
import type { Db, MemberRow, SqlDialect } from './schema';
import { asNumber, nameOrIdContains, paged, type NameOrIdSearch } from './sql';

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
  search?: NameOrIdSearch;
  /** `join` orders by the user's createdAt, as coded in v0.9.11. */
  sort: 'join' | 'name';
  desc: boolean;
  limit: number;
  offset: number;
}

function toRecord(row: MemberRow): MemberRecord {
  return {
    roomId: row.room_id,
    userId: row.user_id,
    status: row.status,
    role: row.role,
    permissions: Number(row.permissions) >>> 0,
    adminPermissions: Number(row.admin_permissions) >>> 0,
    joinAt: Number(row.join_at),
  };
}

/**
 * Writes one membership row through `db` (the store's, or a transaction of another repository);
 * `ifMissing` leaves an existing row as it is instead of rejecting with a UNIQUE violation.
 */
export async function insertMember(db: Db, member: MemberRecord, ifMissing = false): Promise<void> {
  const insert = db.insertInto('room_members').values({
    room_id: member.roomId,
    user_id: member.userId,
    status: member.status,
    role: member.role,
    permissions: member.permissions >>> 0,
    admin_permissions: member.adminPermissions >>> 0,
    join_at: member.joinAt,
  });
  await (ifMissing ? insert.onConflict((conflict) => conflict.doNothing()) : insert).execute();
}

/** The `room_members` table. */
export class MemberRepository {
  constructor(
    private readonly db: Db,
    private readonly dialect: SqlDialect,
  ) {}

  async find(roomId: string, userId: string): Promise<MemberRecord | null> {
    const row = await this.db.selectFrom('room_members').selectAll().where('room_id', '=', roomId).where('user_id', '=', userId).executeTakeFirst();
    return row ? toRecord(row) : null;
  }

  /** Inserts a membership unless one exists, and returns the stored row (load or create). */
  async insertIfMissing(member: MemberRecord): Promise<MemberRecord> {
    await insertMember(this.db, member, true);
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
    await this.db
      .updateTable('room_members')
      .set({ status: next.status, role: next.role, permissions: next.permissions >>> 0, admin_permissions: next.adminPermissions >>> 0 })
      .where('room_id', '=', roomId)
      .where('user_id', '=', userId)
      .execute();
    return next;
  }

  /** Removes a membership; returns whether a row existed. */
  async delete(roomId: string, userId: string): Promise<boolean> {
    const result = await this.db.deleteFrom('room_members').where('room_id', '=', roomId).where('user_id', '=', userId).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** One page of a room's members (any status) with usernames, plus the total count. */
  async list(filter: MemberListFilter): Promise<{ total: number; rows: MemberListRow[] }> {
    const { dialect } = this;
    let query = this.db.selectFrom('room_members as m').innerJoin('users as u', 'u.id', 'm.user_id').where('m.room_id', '=', filter.roomId);
    if (filter.role !== undefined) query = query.where('m.role', '=', filter.role);
    if (filter.status !== undefined) query = query.where('m.status', '=', filter.status);
    const { keyword } = filter;
    if (keyword) {
      query = query.where((eb) => nameOrIdContains(dialect, eb.ref('u.username'), eb.ref('u.id'), keyword, filter.search));
    }
    const total = asNumber((await query.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst())?.n);
    const rows = await paged(
      query
        .selectAll('m')
        .select('u.username')
        .orderBy(filter.sort === 'join' ? 'u.created_at' : 'u.username', filter.desc ? 'desc' : 'asc')
        .orderBy('u.id'),
      filter.limit,
      filter.offset,
    ).execute();
    return { total, rows: rows.map((row) => ({ ...toRecord(row), username: row.username ?? '' })) };
  }
}
