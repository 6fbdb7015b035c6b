/**
 * Vendor credentials at rest (docs/vendors.md "What the server keeps"): a bound AList or Emby
 * account's password hash and tokens are sealed with AES-256-GCM (node:crypto) under a key the
 * operator controls, and bound to the row they belong to, so a sealed value copied to another user's
 * row does not open. The key comes from `VENDOR_SECRET` (at least 32 characters; the same on every
 * instance of a site) or, without it, from the file `<dataDir>/vendor-secret`, created with 32 random
 * bytes on first start and readable by the owner only. Neither is in the database: a copy of the
 * database alone does not reveal a password.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { HttpError } from '../errors';

/** The file that holds the key when `VENDOR_SECRET` is not set. */
export const VENDOR_SECRET_FILE = 'vendor-secret';
/** The shortest `VENDOR_SECRET` taken (characters). */
export const MIN_VENDOR_SECRET_LENGTH = 32;
/** The format tag of a sealed value (`v1.<iv>.<tag>.<ciphertext>`, base64url parts). */
const FORMAT = 'v1';

/** 400 for a sealed value that does not open (another key, another row, damaged): the user binds the account again. */
export const CREDENTIALS_UNREADABLE = 'vendor credentials unreadable: sign in to the vendor again';

/** A sealed value that does not open: another key, another row, or damaged. */
export class CredentialsUnreadable extends HttpError {
  constructor() {
    super(400, CREDENTIALS_UNREADABLE);
    this.name = 'CredentialsUnreadable';
  }
}

/** Seals and opens vendor credentials. */
export class VendorCipher {
  private readonly key: Buffer;

  /** `secret`: any string of at least MIN_VENDOR_SECRET_LENGTH characters; the key is HKDF-SHA256 of it. */
  constructor(secret: string) {
    if (secret.length < MIN_VENDOR_SECRET_LENGTH) throw new Error(`VENDOR_SECRET must be at least ${MIN_VENDOR_SECRET_LENGTH} characters`);
    this.key = Buffer.from(crypto.hkdfSync('sha256', secret, 'synctv', 'vendor credentials v1', 32));
  }

  /**
   * The key from `secret` (`VENDOR_SECRET`) or the data directory's file, created when missing.
   * Throws when `secret` is too short or the file cannot be read or written.
   */
  static open(dataDir: string, secret?: string): VendorCipher {
    if (secret) return new VendorCipher(secret);
    const file = path.join(dataDir, VENDOR_SECRET_FILE);
    try {
      return new VendorCipher(fs.readFileSync(file, 'utf8').trim());
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    const created = crypto.randomBytes(32).toString('base64url');
    // `wx`: two processes starting at once on one directory keep the first one's key.
    try {
      fs.writeFileSync(file, `${created}\n`, { mode: 0o600, flag: 'wx' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      return new VendorCipher(fs.readFileSync(file, 'utf8').trim());
    }
    return new VendorCipher(created);
  }

  /** `plain` sealed for the row named by `context` (e.g. `alist:<userId>:<serverId>`). */
  seal(plain: string, context: string): string {
    const iv = crypto.randomBytes(12);
    const cipher = crypto.createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(context));
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return [FORMAT, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
  }

  /** The plain text of a value sealed for `context`. Throws CredentialsUnreadable when it does not open. */
  open(sealed: string, context: string): string {
    const [format, iv, tag, body] = sealed.split('.');
    if (format !== FORMAT || iv === undefined || tag === undefined || body === undefined) throw new CredentialsUnreadable();
    try {
      const decipher = crypto.createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
      decipher.setAAD(Buffer.from(context));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
    } catch {
      throw new CredentialsUnreadable();
    }
  }
}
