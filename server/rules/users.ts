/**
 * User rules (docs/contract.md §3.1, §4.2, §5.1, §11 e/f): built-in users, sign-up, login,
 * rename, password change and account deletion. Token issuing stays in the transport layer.
 */
import crypto from 'node:crypto';
import type { UserInfo } from '@/lib/contract/types';
import { GUEST_USER_ID, Role } from '@/lib/contract/roles';
import { normalizeName, validateEmail, validateNewUserPassword, validateUsername, validateUserPassword } from '@/lib/contract/validation';
import type { Store, UserRecord } from '../db';
import { isUniqueViolation } from '../db/users';
import { badRequest, forbidden } from '../errors';
import { hashPassword, verifyPassword } from '../passwords';

/** The one built-in guest user shared by every visitor without a token (§3.4). */
export { GUEST_USER_ID };
export const GUEST_USERNAME = 'guest';
/** Username of the first-start administrator (§5.1, §11 e). */
export const ROOT_USERNAME = 'root';

/** A new id: UUIDv4 as 32 lowercase hex characters (§3.3). */
export function newId(): string {
  return crypto.randomUUID().replace(/-/g, '');
}

/** `GET /api/user/me` view (§4.2): `email` is "" when none is bound. */
export function userInfo(user: UserRecord): UserInfo {
  return { id: user.id, username: user.username, email: user.email, createdAt: user.createdAt, role: user.role };
}

/**
 * A free username from `wanted`: itself, or with `#NNNN` (four random digits) added when taken
 * (§4.2 email sign-up, §4.7 OAuth2 sign-up). Throws after 20 taken suffixes.
 */
export async function freeUsername(store: Store, wanted: string): Promise<string> {
  if (!await store.users.findByUsername(wanted)) return wanted;
  for (let attempt = 0; attempt < 20; attempt++) {
    const candidate = `${wanted}#${crypto.randomInt(0, 10_000).toString().padStart(4, '0')}`;
    if (!await store.users.findByUsername(candidate)) return candidate;
  }
  throw badRequest('user already exists');
}

/**
 * Inserts a new user with a unique name (see `freeUsername`), retrying when a concurrent sign-up
 * took the name between the check and the insert. Returns the stored record.
 */
export async function insertUserWithFreeName(
  store: Store,
  user: Omit<UserRecord, 'username'> & { username: string },
  provider?: { provider: string; providerUserId: string },
): Promise<UserRecord> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const record = { ...user, username: await freeUsername(store, user.username) };
    try {
      await store.users.insert(record, provider);
      return record;
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      if (user.email && await store.users.findByEmail(user.email)) throw badRequest('email already exists');
    }
  }
  throw badRequest('user already exists');
}

/**
 * Creates the built-in users on first start: the guest (role User, unusable password) and, when no
 * root user exists, `root` (role Root) with `rootPassword` or a random one. Returns the generated
 * password so the caller can print it once, or null when nothing was generated.
 */
export async function ensureBuiltinUsers(
  store: Store,
  rootPassword: string | undefined,
): Promise<{ created: boolean; password: string | null }> {
  const now = Date.now();
  if (!await store.users.findById(GUEST_USER_ID)) {
    await store.users.insert({
      id: GUEST_USER_ID,
      username: GUEST_USERNAME,
      // Random, never disclosed: nobody can log in as the guest.
      hashedPassword: await hashPassword(crypto.randomBytes(24).toString('base64url')),
      role: Role.User,
      createdAt: now,
    });
  }
  if (await store.users.countWithRole(Role.Root) > 0) return { created: false, password: null };
  const error = rootPassword ? validateUserPassword(rootPassword) : null;
  if (error) throw new Error(`ROOT_PASSWORD is not a valid password: ${error}`);
  const password = rootPassword || crypto.randomBytes(12).toString('base64url');
  await store.users.insert({
    id: newId(),
    username: ROOT_USERNAME,
    hashedPassword: await hashPassword(password),
    role: Role.Root,
    createdAt: now,
  });
  return { created: true, password: rootPassword ? null : password };
}

/**
 * `POST /api/user/signup` (§4.2). Throws 400 `user signup disabled`, `password signup disabled`,
 * the validation texts, or `user already exists`. New users are Pending when sign-up review is on.
 */
export async function signUp(store: Store, rawUsername: string, password: string): Promise<UserRecord> {
  const username = normalizeName(rawUsername);
  const settings = await store.settings.get();
  if (settings.disable_user_signup) throw badRequest('user signup disabled');
  if (!settings.enable_password_signup) throw badRequest('password signup disabled');
  const invalid = validateUsername(username) ?? validateNewUserPassword(password);
  if (invalid) throw badRequest(invalid);
  if (await store.users.findByUsername(username)) throw badRequest('user already exists');
  const review = settings.signup_need_review || settings.password_signup_need_review;
  const user: UserRecord = {
    id: newId(),
    username,
    hashedPassword: await hashPassword(password),
    role: review ? Role.Pending : Role.User,
    createdAt: Date.now(),
    email: '',
  };
  try {
    await store.users.insert(user);
  } catch (error) {
    // Two sign-ups with one name racing past the check above.
    if (isUniqueViolation(error)) throw badRequest('user already exists');
    throw error;
  }
  return user;
}

/** Why a banned or pending user gets no token (§3.1: `data: {message, role}`), or null. */
export function tokenRefusal(user: UserRecord): string | null {
  if (user.role === Role.Banned) return 'user account has been banned';
  if (user.role === Role.Pending) return 'user account is pending approval';
  return null;
}

/**
 * A bcrypt hash of a random password, which an unknown user's sign-in is checked against, so that
 * it takes as long as a known user's (the answer's timing tells nothing either).
 */
let decoyHash: Promise<string> | null = null;

/**
 * `POST /api/user/login` (§4.2). Exactly one of username or email (the bound address). Throws 400
 * on validation, 403 `password incorrect` for a wrong password and for an unknown user alike (a
 * companion-server choice: v0.9.11 answers 404 `user not found`, which tells who has an account).
 */
export async function logIn(store: Store, rawUsername: string, email: string, password: string): Promise<UserRecord> {
  const username = normalizeName(rawUsername);
  if (username && email) throw badRequest('only one of username or email should be provided');
  if (!username && !email) throw badRequest('either username or email is required');
  if (email && validateEmail(email)) throw badRequest('invalid email format');
  const invalid = validateUserPassword(password);
  if (invalid) throw badRequest(invalid);
  const found = username ? await store.users.findByUsername(username) : await store.users.findByEmail(email);
  const user = found && found.id !== GUEST_USER_ID ? found : null;
  decoyHash ??= hashPassword(crypto.randomBytes(24).toString('base64url'));
  const matches = await verifyPassword(password, user ? user.hashedPassword : await decoyHash);
  if (!user || !matches) throw forbidden('password incorrect');
  return user;
}

/** `POST /api/user/username` (§4.2). Throws 400 on validation or a taken name. */
export async function rename(store: Store, user: UserRecord, rawUsername: string): Promise<void> {
  const username = normalizeName(rawUsername);
  const invalid = validateUsername(username);
  if (invalid) throw badRequest(invalid);
  if (username === user.username) return;
  try {
    await store.users.updateUsername(user.id, username);
  } catch (error) {
    if (isUniqueViolation(error)) throw badRequest('user already exists');
    throw error;
  }
}

/**
 * `POST /api/user/password` (§4.2). Returns the updated user (its new hash changes the token's
 * `uv`, so every older token now fails). Throws 400 on validation or `password is the same`.
 */
export async function changePassword(store: Store, user: UserRecord, password: string): Promise<UserRecord> {
  const invalid = validateNewUserPassword(password);
  if (invalid) throw badRequest(invalid);
  if (await verifyPassword(password, user.hashedPassword)) throw badRequest('password is the same');
  const hashedPassword = await hashPassword(password);
  await store.users.updatePassword(user.id, hashedPassword);
  return { ...user, hashedPassword };
}
