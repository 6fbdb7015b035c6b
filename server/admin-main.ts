/**
 * `npm run admin -- <command>`: what an operator does to the companion server's data from a shell,
 * with the server stopped or running (docs/deployment.md "When root's password is lost"). It opens
 * the same store as `npm start` (`DATA_DIR`, default `./data`, or `DATABASE_URL`).
 *
 * - `reset-password <username> [<new password>]`: sets the user's password (8–32 characters; without
 *   one, a random one is made) and prints it once. Every token the user had stops working. For a lost
 *   root password, `reset-password root`.
 *
 * Exits 1, having changed nothing, when the user does not exist or the password does not fit.
 */
import crypto from 'node:crypto';
import { validateNewUserPassword } from '@/lib/contract/validation';
import { openStore } from './db';
import { hashPassword } from './passwords';

const USAGE = 'usage: npm run admin -- reset-password <username> [<new password>]';

async function resetPassword(username: string | undefined, given: string | undefined): Promise<void> {
  if (!username) throw new Error(USAGE);
  const password = given ?? crypto.randomBytes(12).toString('base64url');
  const invalid = validateNewUserPassword(password);
  if (invalid) throw new Error(`the new password does not fit: ${invalid}`);
  const store = await openStore({ dataDir: process.env.DATA_DIR || './data', databaseUrl: process.env.DATABASE_URL?.trim() || undefined });
  try {
    const user = await store.users.findByUsername(username);
    if (!user) throw new Error(`no user named "${username}"`);
    await store.users.updatePassword(user.id, await hashPassword(password));
  } finally {
    await store.close();
  }
  console.log(`the password of "${username}" is now: ${password}`);
  console.log('every session of that user has ended; sign in with the new password.');
}

async function main(): Promise<void> {
  const [command, ...rest] = process.argv.slice(2);
  if (command === 'reset-password') return resetPassword(rest[0], rest[1]);
  throw new Error(USAGE);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
