/**
 * The JWT signing secret every instance of a site shares (../signing-keys.ts; docs/deployment.md
 * "The signing secret"): the `signing_secrets` table, slot `current` and, during a rotation's grace
 * period, slot `previous`. `secret` is the secret itself (base64url text) when the database keeps
 * it, or null when it comes from the instances' `JWT_SECRET` (the row then holds only its
 * fingerprint, so that an instance with another one can tell). `since` is Unix ms.
 */
import type { Db } from './schema';

/** Which secret a row holds. */
export type SecretSlot = 'current' | 'previous';

/** One stored secret. */
export interface StoredSecret {
  fingerprint: string;
  /** The secret, or null when it comes from `JWT_SECRET`. */
  secret: string | null;
  /** When it took this slot (Unix ms). */
  since: number;
}

const toStored = (row: { fingerprint: string; secret: string | null; since: number }): StoredSecret => ({
  fingerprint: row.fingerprint,
  secret: row.secret,
  since: Number(row.since),
});

/** The `signing_secrets` table. */
export class SigningSecretRepository {
  constructor(private readonly db: Db) {}

  /** Both slots (absent ones are null). */
  async read(): Promise<{ current: StoredSecret | null; previous: StoredSecret | null }> {
    const rows = await this.db.selectFrom('signing_secrets').select(['slot', 'fingerprint', 'secret', 'since']).execute();
    const of = (slot: SecretSlot) => {
      const row = rows.find((candidate) => candidate.slot === slot);
      return row ? toStored(row) : null;
    };
    return { current: of('current'), previous: of('previous') };
  }

  /**
   * Stores `secret` as the current one unless there already is one, and resolves the current one
   * after that: of instances starting together on a new database, the first insert wins and every
   * one reads the same row.
   */
  async createCurrent(secret: StoredSecret): Promise<StoredSecret> {
    await this.db
      .insertInto('signing_secrets')
      .values({ slot: 'current', fingerprint: secret.fingerprint, secret: secret.secret, since: secret.since })
      .onConflict((conflict) => conflict.column('slot').doNothing())
      .execute();
    const { current } = await this.read();
    if (!current) throw new Error('the signing secret could not be stored');
    return current;
  }

  /**
   * Makes `next` the current secret and the current one (when its fingerprint is still
   * `expectedCurrent`) the previous one, with `since` = `next.since`, in one transaction. Resolves
   * false, changing nothing, when another instance rotated first (the current one is no longer
   * `expectedCurrent`).
   */
  async rotate(expectedCurrent: string, next: StoredSecret): Promise<boolean> {
    return this.db.transaction().execute(async (tx) => {
      const current = await tx.selectFrom('signing_secrets').select('fingerprint').where('slot', '=', 'current').executeTakeFirst();
      if (current?.fingerprint !== expectedCurrent) return false;
      await tx.deleteFrom('signing_secrets').where('slot', '=', 'previous').execute();
      await tx.updateTable('signing_secrets').set({ slot: 'previous', since: next.since }).where('slot', '=', 'current').execute();
      await tx.insertInto('signing_secrets').values({ slot: 'current', fingerprint: next.fingerprint, secret: next.secret, since: next.since }).execute();
      return true;
    });
  }
}
