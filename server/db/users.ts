/**
 * Users table (docs/contract.md §3.1, §5.1). Passwords are stored only as bcrypt hashes.
 * Times are Unix ms.
 */
import { StatementCache, type Sqlite } from './database';

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

/** Prepared statements over `users`. */
export class UserRepository {
  private readonly byId;
  private readonly byName;
  private readonly insertStmt;
  private readonly insertProviderStmt;
  private readonly db: Sqlite;
  private readonly updateNameStmt;
  private readonly updatePasswordStmt;
  private readonly deleteStmt;
  private readonly countRoleStmt;
  private readonly idsByNameLikeStmt;
  private readonly byEmail;
  private readonly updateEmailStmt;
  private readonly updateRoleStmt;
  private readonly listStatements: StatementCache;

  constructor(db: Sqlite) {
    this.db = db;
    this.insertProviderStmt = db.prepare('INSERT INTO user_providers (provider, provider_user_id, user_id, created_at) VALUES (?, ?, ?, ?)');
    this.byId = db.prepare<[string], UserRow>('SELECT * FROM users WHERE id = ?');
    this.byName = db.prepare<[string], UserRow>('SELECT * FROM users WHERE username = ?');
    this.insertStmt = db.prepare(
      'INSERT INTO users (id, username, hashed_password, role, created_at, updated_at, email) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    this.listStatements = new StatementCache(db);
    this.updateRoleStmt = db.prepare('UPDATE users SET role = ?, updated_at = ? WHERE id = ?');
    this.byEmail = db.prepare<[string], UserRow>('SELECT * FROM users WHERE email = ?');
    this.updateEmailStmt = db.prepare('UPDATE users SET email = ?, updated_at = ? WHERE id = ?');
    this.updateNameStmt = db.prepare('UPDATE users SET username = ?, updated_at = ? WHERE id = ?');
    this.updatePasswordStmt = db.prepare('UPDATE users SET hashed_password = ?, updated_at = ? WHERE id = ?');
    this.deleteStmt = db.prepare('DELETE FROM users WHERE id = ?');
    this.countRoleStmt = db.prepare<[number], { n: number }>('SELECT COUNT(*) AS n FROM users WHERE role = ?');
    this.idsByNameLikeStmt = db.prepare<[string], { id: string }>(
      "SELECT id FROM users WHERE username LIKE ? ESCAPE '\\'",
    );
  }

  async findById(id: string): Promise<UserRecord | null> {
    return toRecord(this.byId.get(id));
  }

  async findByUsername(username: string): Promise<UserRecord | null> {
    return toRecord(this.byName.get(username));
  }

  /** The user with this bound email, or null. */
  async findByEmail(email: string): Promise<UserRecord | null> {
    return email ? toRecord(this.byEmail.get(email)) : null;
  }

  /**
   * Inserts a user (`email` "" = none), with the OAuth2 account it signed up through when given, in
   * one transaction. Throws a SQLite UNIQUE error when the username, the email or the provider
   * account is taken (then nothing is written).
   */
  async insert(user: Omit<UserRecord, 'email'> & { email?: string }, provider?: { provider: string; providerUserId: string }): Promise<void> {
    this.db.transaction(() => {
      this.insertStmt.run(user.id, user.username, user.hashedPassword, user.role, user.createdAt, user.createdAt, user.email || null);
      if (provider) this.insertProviderStmt.run(provider.provider, provider.providerUserId, user.id, user.createdAt);
    })();
  }

  /** Binds `email` ("" unbinds). Throws a SQLite UNIQUE error when another user has it. */
  async updateEmail(id: string, email: string): Promise<void> {
    this.updateEmailStmt.run(email || null, Date.now(), id);
  }

  /** Renames a user. Throws a SQLite UNIQUE error when the name is taken. */
  async updateUsername(id: string, username: string): Promise<void> {
    this.updateNameStmt.run(username, Date.now(), id);
  }

  async updatePassword(id: string, hashedPassword: string): Promise<void> {
    this.updatePasswordStmt.run(hashedPassword, Date.now(), id);
  }

  /** Deletes a user; rooms they created and their memberships go with them (ON DELETE CASCADE). */
  async delete(id: string): Promise<void> {
    this.deleteStmt.run(id);
  }

  /** Sets the site role (§5.1). */
  async updateRole(id: string, role: number): Promise<void> {
    this.updateRoleStmt.run(role, Date.now(), id);
  }

  /** One page of users matching `filter`, plus the total count of matches. */
  async list(filter: UserListFilter): Promise<{ total: number; rows: UserRecord[] }> {
    const where: string[] = [];
    const params: (string | number)[] = [];
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
      if (filter.search === 'name') where.push("username LIKE ? ESCAPE '\\'");
      else if (filter.search === 'id') where.push("id LIKE ? ESCAPE '\\'");
      else where.push("(username LIKE ? ESCAPE '\\' OR id LIKE ? ESCAPE '\\')");
      params.push(like);
      if (filter.search !== 'name' && filter.search !== 'id') params.push(like);
    }
    const from = ` FROM users${where.length ? ` WHERE ${where.join(' AND ')}` : ''}`;
    const order = `${filter.sort === 'createdAt' ? 'created_at' : 'username'} ${filter.desc ? 'DESC' : 'ASC'}, id`;
    const total = (this.listStatements.get(`SELECT COUNT(*) AS n${from}`).get(...params) as { n: number }).n;
    const rows = this.listStatements
      .get(`SELECT *${from} ORDER BY ${order} LIMIT ? OFFSET ?`)
      .all(...params, filter.limit, filter.offset) as UserRow[];
    return { total, rows: rows.map((row) => toRecord(row)!) };
  }

  async countWithRole(role: number): Promise<number> {
    return this.countRoleStmt.get(role)?.n ?? 0;
  }

  /** Ids of users whose name contains `keyword` (case-insensitive for ASCII). */
  async idsWithUsernameLike(keyword: string): Promise<string[]> {
    return this.idsByNameLikeStmt.all(likePattern(keyword)).map((row) => row.id);
  }
}

/** `%keyword%` with LIKE wildcards in the keyword escaped (escape char `\`). */
export function likePattern(keyword: string): string {
  return `%${keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** True for the SQLite error raised by a UNIQUE constraint. */
export function isUniqueViolation(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    'code' in error &&
    (error as { code: unknown }).code === 'SQLITE_CONSTRAINT_UNIQUE'
  );
}
