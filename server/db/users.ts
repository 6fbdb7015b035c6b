/**
 * Users table (docs/contract.md §3.1, §5.1). Passwords are stored only as bcrypt hashes.
 * Times are Unix ms.
 */
import { insertProviderLink } from './providers';
import type { Db, SqlDialect, UserRow } from './schema';
import { asNumber, contains, nameOrIdContains, paged, type NameOrIdSearch } from './sql';

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
  search?: NameOrIdSearch;
  sort: 'name' | 'createdAt';
  desc: boolean;
  limit: number;
  offset: number;
}

function toRecord(row: UserRow | undefined): UserRecord | null {
  if (!row) return null;
  return {
    id: row.id,
    username: row.username,
    hashedPassword: row.hashed_password,
    role: row.role,
    createdAt: Number(row.created_at),
    email: row.email ?? '',
  };
}

/** The `users` table. */
export class UserRepository {
  constructor(
    private readonly db: Db,
    private readonly dialect: SqlDialect,
  ) {}

  async findById(id: string): Promise<UserRecord | null> {
    return toRecord(await this.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst());
  }

  async findByUsername(username: string): Promise<UserRecord | null> {
    return toRecord(await this.db.selectFrom('users').selectAll().where('username', '=', username).executeTakeFirst());
  }

  /** The user with this bound email, or null. */
  async findByEmail(email: string): Promise<UserRecord | null> {
    return email ? toRecord(await this.db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst()) : null;
  }

  /**
   * Inserts a user (`email` "" = none), with the OAuth2 account it signed up through when given, in
   * one transaction. Rejects with a UNIQUE violation (`isUniqueViolation`) when the username, the
   * email or the provider account is taken (then nothing is written).
   */
  async insert(user: Omit<UserRecord, 'email'> & { email?: string }, provider?: { provider: string; providerUserId: string }): Promise<void> {
    await this.db.transaction().execute(async (tx) => {
      await tx
        .insertInto('users')
        .values({
          id: user.id,
          username: user.username,
          hashed_password: user.hashedPassword,
          role: user.role,
          created_at: user.createdAt,
          updated_at: user.createdAt,
          email: user.email || null,
        })
        .execute();
      if (provider) await insertProviderLink(tx, { ...provider, userId: user.id, createdAt: user.createdAt });
    });
  }

  /** Binds `email` ("" unbinds). Rejects with a UNIQUE violation when another user has it. */
  async updateEmail(id: string, email: string): Promise<void> {
    await this.db.updateTable('users').set({ email: email || null, updated_at: Date.now() }).where('id', '=', id).execute();
  }

  /** Renames a user. Rejects with a UNIQUE violation when the name is taken. */
  async updateUsername(id: string, username: string): Promise<void> {
    await this.db.updateTable('users').set({ username, updated_at: Date.now() }).where('id', '=', id).execute();
  }

  async updatePassword(id: string, hashedPassword: string): Promise<void> {
    await this.db.updateTable('users').set({ hashed_password: hashedPassword, updated_at: Date.now() }).where('id', '=', id).execute();
  }

  /** Deletes a user; rooms they created and their memberships go with them (ON DELETE CASCADE). */
  async delete(id: string): Promise<void> {
    await this.db.deleteFrom('users').where('id', '=', id).execute();
  }

  /** Sets the site role (§5.1). */
  async updateRole(id: string, role: number): Promise<void> {
    await this.db.updateTable('users').set({ role, updated_at: Date.now() }).where('id', '=', id).execute();
  }

  /** One page of users matching `filter`, plus the total count of matches. */
  async list(filter: UserListFilter): Promise<{ total: number; rows: UserRecord[] }> {
    const { dialect } = this;
    let query = this.db.selectFrom('users');
    if (filter.role !== undefined) query = query.where('role', '=', filter.role);
    if (filter.excludeId) query = query.where('id', '!=', filter.excludeId);
    const { keyword } = filter;
    if (keyword) {
      query = query.where((eb) => nameOrIdContains(dialect, eb.ref('username'), eb.ref('id'), keyword, filter.search));
    }
    const total = asNumber((await query.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst())?.n);
    const rows = await paged(
      query
        .selectAll()
        .orderBy(filter.sort === 'createdAt' ? 'created_at' : 'username', filter.desc ? 'desc' : 'asc')
        .orderBy('id'),
      filter.limit,
      filter.offset,
    ).execute();
    return { total, rows: rows.map((row) => toRecord(row)!) };
  }

  async countWithRole(role: number): Promise<number> {
    return asNumber((await this.db.selectFrom('users').select((eb) => eb.fn.countAll().as('n')).where('role', '=', role).executeTakeFirst())?.n);
  }

  /** Ids of users whose name contains `keyword` (case-insensitive). */
  async idsWithUsernameLike(keyword: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('users')
      .select('id')
      .where((eb) => contains(this.dialect, eb.ref('username'), keyword))
      .execute();
    return rows.map((row) => row.id);
  }
}

export { isUniqueViolation, likePattern } from './sql';
