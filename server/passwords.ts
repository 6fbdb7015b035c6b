/**
 * bcrypt hashing of user and room passwords (docs/contract.md §3.1, §3.6), through the native
 * `bcrypt` package: its async hash and compare run on libuv's thread pool, so a storm of logins
 * does not block rooms, chat or other requests on the event loop (bcryptjs did, ~86 ms a check).
 * Hashes made earlier by bcryptjs or by SyncTV's Go bcrypt (`$2a$`/`$2b$`, cost 10) keep working.
 * At most `BCRYPT_PARALLELISM` run at once (p-limit; the rest wait in order), so that a login storm
 * leaves a core to the event loop instead of filling every core with bcrypt rounds.
 * Kept apart from the token code so that rules using it load without jose.
 */
import os from 'node:os';
import bcrypt from 'bcrypt';
import pLimit from 'p-limit';

/** bcrypt cost, as Go's bcrypt.DefaultCost. */
export const BCRYPT_COST = 10;

/** bcrypt computations that may run at once: every core but one (at least one). */
export const BCRYPT_PARALLELISM = Math.max(1, os.availableParallelism() - 1);
const bcryptSlot = pLimit(BCRYPT_PARALLELISM);

/** bcrypt hash of `password` (`$2b$10$…`), computed off the event loop. */
export function hashPassword(password: string): Promise<string> {
  return bcryptSlot(() => bcrypt.hash(password, BCRYPT_COST));
}

/** True when `password` matches the bcrypt `hash`; false for an empty or malformed hash. Off the event loop. */
export async function verifyPassword(password: string, hash: string): Promise<boolean> {
  if (!hash) return false;
  try {
    return await bcryptSlot(() => bcrypt.compare(password, hash));
  } catch {
    return false;
  }
}
