/**
 * Users' accounts on vendors' servers (docs/vendors.md): the `vendor_bindings` table, one row per
 * user, vendor (`alist`, `emby`, `bilibili`) and server id ("" for bilibili, which has one). `credentials` is sealed text (../vendors/credentials.ts);
 * this repository stores and returns it as it is. Times are Unix ms.
 */
import type { Db } from './schema';

/** The vendors whose accounts a user binds. */
export type BoundVendor = 'alist' | 'emby' | 'bilibili';

/** One bound account. */
export interface VendorBinding {
  userId: string;
  vendor: BoundVendor;
  serverId: string;
  host: string;
  /** Sealed credentials. */
  credentials: string;
  createdAt: number;
  updatedAt: number;
}

type Row = { user_id: string; vendor: string; server_id: string; host: string; credentials: string; created_at: number; updated_at: number };

const toBinding = (row: Row): VendorBinding => ({
  userId: row.user_id,
  vendor: row.vendor as BoundVendor,
  serverId: row.server_id,
  host: row.host,
  credentials: row.credentials,
  createdAt: Number(row.created_at),
  updatedAt: Number(row.updated_at),
});

/** The `vendor_bindings` table. */
export class VendorBindingRepository {
  constructor(private readonly db: Db) {}

  /** A user's accounts on one vendor, oldest first. */
  async ofUser(userId: string, vendor: BoundVendor): Promise<VendorBinding[]> {
    const rows = await this.db.selectFrom('vendor_bindings').selectAll().where('user_id', '=', userId).where('vendor', '=', vendor).orderBy('created_at').orderBy('server_id').execute();
    return rows.map(toBinding);
  }

  /** One account, or null. */
  async find(userId: string, vendor: BoundVendor, serverId: string): Promise<VendorBinding | null> {
    const row = await this.db.selectFrom('vendor_bindings').selectAll().where('user_id', '=', userId).where('vendor', '=', vendor).where('server_id', '=', serverId).executeTakeFirst();
    return row ? toBinding(row) : null;
  }

  /** Creates the account or replaces its host and credentials (signing in again keeps `createdAt`). */
  async save(binding: Omit<VendorBinding, 'createdAt' | 'updatedAt'>, nowMs: number): Promise<void> {
    await this.db
      .insertInto('vendor_bindings')
      .values({ user_id: binding.userId, vendor: binding.vendor, server_id: binding.serverId, host: binding.host, credentials: binding.credentials, created_at: nowMs, updated_at: nowMs })
      .onConflict((conflict) => conflict.columns(['user_id', 'vendor', 'server_id']).doUpdateSet({ host: binding.host, credentials: binding.credentials, updated_at: nowMs }))
      .execute();
  }

  /** Removes an account; false when there was none. */
  async delete(userId: string, vendor: BoundVendor, serverId: string): Promise<boolean> {
    const result = await this.db.deleteFrom('vendor_bindings').where('user_id', '=', userId).where('vendor', '=', vendor).where('server_id', '=', serverId).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
