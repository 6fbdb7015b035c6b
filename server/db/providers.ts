/**
 * Links between users and OAuth2 provider accounts (docs/contract.md §4.2 `GET /api/user/providers`,
 * §4.7): one row per (provider, provider user id), at most one account per provider and user.
 * `createdAt` is Unix ms.
 */
import type { Sql } from './sql';

/** One bound provider account. */
export interface ProviderLink {
  provider: string;
  providerUserId: string;
  userId: string;
  createdAt: number;
}

interface LinkRow {
  provider: string;
  provider_user_id: string;
  user_id: string;
  created_at: number;
}

const toLink = (row: LinkRow): ProviderLink => ({
  provider: row.provider,
  providerUserId: row.provider_user_id,
  userId: row.user_id,
  createdAt: row.created_at,
});

/** Writes one provider link through `sql` (the store, or a transaction of another repository). */
export async function insertProviderLink(sql: Pick<Sql, 'run'>, link: ProviderLink): Promise<void> {
  await sql.run('INSERT INTO user_providers (provider, provider_user_id, user_id, created_at) VALUES (?, ?, ?, ?)', [link.provider, link.providerUserId, link.userId, link.createdAt]);
}

/** The `user_providers` table. */
export class ProviderRepository {
  constructor(private readonly sql: Sql) {}

  /** The link of a provider account, or null. */
  async find(provider: string, providerUserId: string): Promise<ProviderLink | null> {
    const row = await this.sql.get<LinkRow>('SELECT * FROM user_providers WHERE provider = ? AND provider_user_id = ?', [provider, providerUserId]);
    return row ? toLink(row) : null;
  }

  /** Every provider bound to `userId`. */
  async ofUser(userId: string): Promise<ProviderLink[]> {
    return (await this.sql.all<LinkRow>('SELECT * FROM user_providers WHERE user_id = ?', [userId])).map(toLink);
  }

  /** Binds a provider account. Rejects with a UNIQUE violation when it or the user's slot is taken. */
  async insert(link: ProviderLink): Promise<void> {
    await insertProviderLink(this.sql, link);
  }

  /** Unbinds `provider` from `userId`; false when it was not bound. */
  async delete(userId: string, provider: string): Promise<boolean> {
    return (await this.sql.run('DELETE FROM user_providers WHERE user_id = ? AND provider = ?', [userId, provider])).changes > 0;
  }
}
