/**
 * Users table (docs/contract.md §3.1, §5.1). Passwords are stored only as bcrypt hashes.
 * Times are Unix ms.
 */
import { insertProviderLink } from './providers';
import { likeOperator, limitOf, type Sql, type SqlValue } from './sql';

/** A stored user. `role` is the site role (§5.1); `createdAt` is Unix ms. */
export interface UserRecord {
  id: string;
  username: string;
  hashedPassword: string;
  role: number;
  createdAt: number;
  /** The bound email address, "" when none (§4.2 bind/unbind). */
  email: string;
}

/** Filters of the admin user list (§4.6 `GET /api/admin/user/list`). */
export interface UserListFilter {
  /** Only users with this role (§5.1). */
  role?: number;
  /** Never list this user (the built-in guest). */
  excludeId?: string;
  keyword?: string;
  /** Which columns `keyword` matches: all (name, id), name or id. */
  search?: 'all' | 'name' | 'id';
  sort: 'name' | 'createdAt';
  desc: boolean;
  limit: number;
  offset: number;
}

interface UserRow {
  id: string;
  username: string;
  hashed_password: string;
  role: number;
  created_at: number;
  email: string | null;
}

function toRecord(row: UserRow | undefined): UserRecord | null {
  if (!row) return null;
  return {
    id: row.id,
    username: row.username,
    hashedPassword: row.hashed_password,
    role: row.role,
    createdAt: row.created_at,
    email: row.email ?? '',
  };
}

/** The `users` table. */
export class UserRepository {
  constructor(private readonly sql: Sql) {}

  async findById(id: string): Promise<UserRecord | null> {
    return toRecord(await this.sql.get<UserRow>('SELECT * FROM users WHERE id = ?', [id]));
  }

  async findByUsername(username: string): Promise<UserRecord | null> {
    return toRecord(await this.sql.get<UserRow>('SELECT * FROM users WHERE username = ?', [username]));
  }

  /** The user with this bound email, or null. */
  async findByEmail(email: string): Promise<UserRecord | null> {
    return email ? toRecord(await this.sql.get<UserRow>('SELECT * FROM users WHERE email = ?', [email])) : null;
  }

  /**
   * Inserts a user (`email` "" = none), with the OAuth2 account it signed up through when given, in
   * one transaction. Rejects with a UNIQUE violation (`isUniqueViolation`) when the username, the
   * email or the provider account is taken (then nothing is written).
   */
  async insert(user: Omit<UserRecord, 'email'> & { email?: string }, provider?: { provider: string; providerUserId: string }): Promise<void> {
    await this.sql.transaction(async (tx) => {
      await tx.run('INSERT INTO users (id, username, hashed_password, role, created_at, updated_at, email) VALUES (?, ?, ?, ?, ?, ?, ?)', [
        user.id,
        user.username,
        user.hashedPassword,
        user.role,
        user.createdAt,
        user.createdAt,
        user.email || null,
      ]);
      if (provider) await insertProviderLink(tx, { ...provider, userId: user.id, createdAt: user.createdAt });
    });
  }

  /** Binds `email` ("" unbinds). Rejects with a UNIQUE violation when another user has it. */
  async updateEmail(id: string, email: string): Promise<void> {
    await this.sql.run('UPDATE users SET email = ?, updated_at = ? WHERE id = ?', [email || null, Date.now(), id]);
  }

  /** Renames a user. Rejects with a UNIQUE violation when the name is taken. */
  async updateUsername(id: string, username: string): Promise<void> {
    await this.sql.run('UPDATE users SET username = ?, updated_at = ? WHERE id = ?', [username, Date.now(), id]);
  }

  async updatePassword(id: string, hashedPassword: string): Promise<void> {
    await this.sql.run('UPDATE users SET hashed_password = ?, updated_at = ? WHERE id = ?', [hashedPassword, Date.now(), id]);
  }

  /** Deletes a user; rooms they created and their memberships go with them (ON DELETE CASCADE). */
  async delete(id: string): Promise<void> {
    await this.sql.run('DELETE FROM users WHERE id = ?', [id]);
  }

  /** Sets the site role (§5.1). */
  async updateRole(id: string, role: number): Promise<void> {
    await this.sql.run('UPDATE users SET role = ?, updated_at = ? WHERE id = ?', [role, Date.now(), id]);
  }

  /** One page of users matching `filter`, plus the total count of matches. */
  async list(filter: UserListFilter): Promise<{ total: number; rows: UserRecord[] }> {
    const where: string[] = [];
    const params: SqlValue[] = [];
    if (filter.role !== undefined) {
      where.push('role = ?');
      params.push(filter.role);
    }
    if (filter.excludeId) {
      where.push('id != ?');
      params.push(filter.excludeId);
    }
    if (filter.keyword) {
      const like = likePattern(filter.keyword);
      const op = likeOperator(this.sql);
      if (filter.search === 'name') where.push(`username ${op} ? ESCAPE '\\'`);
      else if (filter.search === 'id') where.push(`id ${op} ? ESCAPE '\\'`);
      else where.push(`(username ${op} ? ESCAPE '\\' OR id ${op} ? ESCAPE '\\')`);
      params.push(like);
      if (filter.search !== 'name' && filter.search !== 'id') params.push(like);
    }
    const from = ` FROM users${where.length ? ` WHERE ${where.join(' AND ')}` : ''}`;
    const order = `${filter.sort === 'createdAt' ? 'created_at' : 'username'} ${filter.desc ? 'DESC' : 'ASC'}, id`;
    const total = (await this.sql.get<{ n: number }>(`SELECT COUNT(*) AS n${from}`, params))?.n ?? 0;
    const rows = await this.sql.all<UserRow>(`SELECT *${from} ORDER BY ${order} LIMIT ? OFFSET ?`, [...params, limitOf(this.sql, filter.limit), filter.offset]);
    return { total, rows: rows.map((row) => toRecord(row)!) };
  }

  async countWithRole(role: number): Promise<number> {
    return (await this.sql.get<{ n: number }>('SELECT COUNT(*) AS n FROM users WHERE role = ?', [role]))?.n ?? 0;
  }

  /** Ids of users whose name contains `keyword` (case-insensitive). */
  async idsWithUsernameLike(keyword: string): Promise<string[]> {
    const rows = await this.sql.all<{ id: string }>(`SELECT id FROM users WHERE username ${likeOperator(this.sql)} ? ESCAPE '\\'`, [likePattern(keyword)]);
    return rows.map((row) => row.id);
  }
}

/** `%keyword%` with LIKE wildcards in the keyword escaped (escape char `\`). */
export function likePattern(keyword: string): string {
  return `%${keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export { isUniqueViolation } from './sql';
