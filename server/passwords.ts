/**
 * bcrypt hashing of user and room passwords (server-contract.md §3.1, §3.6), through bcryptjs.
 * Kept apart from the token code so that rules using it load without jose.
 */
import bcrypt from 'bcryptjs';

/** bcrypt cost, as Go's bcrypt.DefaultCost. */
export const BCRYPT_COST = 10;

/** bcrypt hash of `password` (async, so hashing does not block the event loop). */
export function hashPassword(password: string): Promise<string> {
  return bcrypt.hash(password, BCRYPT_COST);
}

/** True when `password` matches the bcrypt `hash`; false for an empty or malformed hash. */
export async function verifyPassword(password: string, hash: string): Promise<boolean> {
  if (!hash) return false;
  try {
    return await bcrypt.compare(password, hash);
  } catch {
    return false;
  }
}
