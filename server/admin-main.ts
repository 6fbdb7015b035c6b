/**
 * `npm run admin -- <command>`: what an operator does to the companion server's data from a shell,
 * with the server stopped or running (docs/deployment.md "When root's password is lost"). It opens
 * the same store as `npm start` (`DATA_DIR`, default `./data`, or `DATABASE_URL`).
 *
 * - `reset-password <username> [<new password>]`: sets the user's password (8–32 characters; without
 *   one, a random one is made) and prints it once. Every token the user had stops working. For a lost
 *   root password, `reset-password root`.
 *
 * - `rotate-secret`: replaces the signing secret the database keeps (./signing-keys.ts) with
 *   a new random one. Running instances take it within 10 s; tokens, proxy links and RTMP publish
 *   keys signed with the old one stay valid for 48 h. Refused when the instances use `JWT_SECRET`
 *   (rotate that in their environment instead).
 *
 * Exits 1, having changed nothing, when the user does not exist, the password does not fit, or
 * there is no stored secret to rotate.
 */
import crypto from 'node:crypto';
import { validateNewUserPassword } from '@/lib/contract/validation';
import { openStore } from './db';
import { hashPassword } from './passwords';
import { fingerprintOf, ROTATION_GRACE_MS } from './signing-keys';

const USAGE = 'usage: npm run admin -- reset-password <username> [<new password>] | rotate-secret';

/** The store `npm start` would open with this environment. */
const openSiteStore = () => openStore({ dataDir: process.env.DATA_DIR || './data', databaseUrl: process.env.DATABASE_URL?.trim() || undefined });

async function rotateSecret(): Promise<void> {
  const store = await openSiteStore();
  let fingerprint: string;
  try {
    const { current } = await store.signingSecrets.read();
    if (!current) throw new Error('there is no signing secret yet: start the server once, it creates one');
    if (current.secret === null) {
      throw new Error('the instances sign with JWT_SECRET: to rotate it, give every instance the new secret as JWT_SECRET and the old one as JWT_PREVIOUS_SECRET, one instance after another');
    }
    const secret = crypto.randomBytes(32).toString('base64url');
    fingerprint = fingerprintOf(secret);
    if (!(await store.signingSecrets.rotate(current.fingerprint, { fingerprint, secret, since: Date.now() }))) throw new Error('the secret changed while rotating it: run the command again');
  } finally {
    await store.close();
  }
  console.log(`the signing secret is rotated (new fingerprint ${fingerprint}); running instances take it within 10 s.`);
  console.log(`sessions, proxy links and RTMP publish keys signed with the old one stay valid for ${ROTATION_GRACE_MS / 3_600_000} h.`);
}

async function resetPassword(username: string | undefined, given: string | undefined): Promise<void> {
  if (!username) throw new Error(USAGE);
  const password = given ?? crypto.randomBytes(12).toString('base64url');
  const invalid = validateNewUserPassword(password);
  if (invalid) throw new Error(`the new password does not fit: ${invalid}`);
  const store = await openSiteStore();
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
  if (command === 'rotate-secret' && rest.length === 0) return rotateSecret();
  throw new Error(USAGE);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
