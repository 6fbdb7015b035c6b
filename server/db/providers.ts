/**
 * Links between users and OAuth2 provider accounts (docs/contract.md §4.2 `GET /api/user/providers`,
 * §4.7): one row per (provider, provider user id), at most one account per provider and user.
 * `createdAt` is Unix ms.
 */
import type { Db } from './schema';

/** One bound provider account. */
export interface ProviderLink {
  provider: string;
  providerUserId: string;
  userId: string;
  createdAt: number;
}

const toLink = (row: { provider: string; provider_user_id: string; user_id: string; created_at: number }): ProviderLink => ({
  provider: row.provider,
  providerUserId: row.provider_user_id,
  userId: row.user_id,
  createdAt: Number(row.created_at),
});

/** Writes one provider link through `db` (the store's, or a transaction of another repository). */
export async function insertProviderLink(db: Db, link: ProviderLink): Promise<void> {
  await db.insertInto('user_providers').values({ provider: link.provider, provider_user_id: link.providerUserId, user_id: link.userId, created_at: link.createdAt }).execute();
}

/** The `user_providers` table. */
export class ProviderRepository {
  constructor(private readonly db: Db) {}

  /** The link of a provider account, or null. */
  async find(provider: string, providerUserId: string): Promise<ProviderLink | null> {
    const row = await this.db.selectFrom('user_providers').selectAll().where('provider', '=', provider).where('provider_user_id', '=', providerUserId).executeTakeFirst();
    return row ? toLink(row) : null;
  }

  /** Every provider bound to `userId`. */
  async ofUser(userId: string): Promise<ProviderLink[]> {
    return (await this.db.selectFrom('user_providers').selectAll().where('user_id', '=', userId).execute()).map(toLink);
  }

  /** Binds a provider account. Rejects with a UNIQUE violation when it or the user's slot is taken. */
  async insert(link: ProviderLink): Promise<void> {
    await insertProviderLink(this.db, link);
  }

  /** Unbinds `provider` from `userId`; false when it was not bound. */
  async delete(userId: string, provider: string): Promise<boolean> {
    const result = await this.db.deleteFrom('user_providers').where('user_id', '=', userId).where('provider', '=', provider).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
