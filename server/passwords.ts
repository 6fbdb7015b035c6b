/**
 * bcrypt hashing of user and room passwords (docs/contract.md §3.1, §3.6), through the native
 * `bcrypt` package: its async hash and compare run on libuv's thread pool, so a storm of logins
 * does not block rooms, chat or other requests on the event loop (bcryptjs did, ~86 ms a check).
 * Hashes made earlier by bcryptjs or by SyncTV's Go bcrypt (`$2a$`/`$2b$`, cost 10) keep working.
 * At most `BCRYPT_PARALLELISM` run at once (p-limit; the rest wait in order), so that a login storm
 * leaves a core to the event loop instead of filling every core with bcrypt rounds.
 * Kept apart from the token code so that rules using it load without jose.
 */
import zlib from 'node:zlib';
import os from 'node:os';
import bcrypt from 'bcrypt';
import pLimit from 'p-limit';

/** bcrypt cost of new hashes unless BCRYPT_COST says otherwise: Go's bcrypt.DefaultCost, as SyncTV. */
export const BCRYPT_COST = 10;

/**
 * The cost of new hashes: env BCRYPT_COST (an integer from 4 to 31, bcrypt's range), else
 * BCRYPT_COST (10). Each step doubles the work: 10 is about 72 ms a hash on this project's machine,
 * 4 about 2 ms (the tests' setting: jest.setup.ts, playwright.config.ts). A check reads the cost from
 * the stored hash, so hashes of any cost keep working when it changes.
 * Throws on any other value; server/main.ts asks at start, so a bad value stops the server there.
 */
export function bcryptCost(env: Record<string, string | undefined> = process.env): number {
  const raw = env.BCRYPT_COST?.trim();
  if (!raw) return BCRYPT_COST;
  const cost = Number(raw);
  if (!Number.isInteger(cost) || cost < 4 || cost > 31) throw new Error(`BCRYPT_COST must be an integer from 4 to 31, got ${raw}`);
  return cost;
}

/** bcrypt computations that may run at once: every core but one (at least one). */
export const BCRYPT_PARALLELISM = Math.max(1, os.availableParallelism() - 1);
const bcryptSlot = pLimit(BCRYPT_PARALLELISM);

/** bcrypt hash of `password` (`$2b$10$…` at the default cost), computed off the event loop. */
export function hashPassword(password: string): Promise<string> {
  const cost = bcryptCost();
  return bcryptSlot(() => bcrypt.hash(password, cost));
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

/** The "user version" claim of a token (./auth.ts): CRC32-IEEE of the bcrypt hash, as uint32 (§3.1); a new password changes it. */
export function userVersion(hashedPassword: string): number {
  return zlib.crc32(hashedPassword) >>> 0;
}
