/**
 * The secret that signs user tokens, proxy target tokens and RTMP publish keys (./auth.ts), one for
 * every instance of a site (docs/deployment.md "The signing secret"):
 *
 * - by default it lives in the database (`signing_secrets`, ./db/signing-secrets.ts): the first
 *   instance to start on a new database creates it (or imports the `jwt-secret` file an older
 *   version kept in the data directory, so that sessions survive the upgrade), and every other
 *   instance reads that one, wherever it runs;
 * - or it comes from `JWT_SECRET` (at least 32 characters) on every instance; the database then
 *   keeps only its fingerprint.
 *
 * An instance whose secret disagrees with the database's (another `JWT_SECRET`, or none while the
 * others use one) does not become ready (`problem`, /readyz 503) and logs why: its tokens would be
 * refused by the others and theirs by it, logging people out at random.
 *
 * Rotation keeps the previous secret valid for ROTATION_GRACE_MS (a token's lifetime, so no session
 * ends early): `npm run admin -- rotate-secret` for a stored secret; for `JWT_SECRET`, the new one in
 * `JWT_SECRET` and the old one in `JWT_PREVIOUS_SECRET` on every instance, one after another (the
 * first such instance records the rotation; instances still on the old secret turn unready).
 * Every instance re-reads the table every KEYS_REFRESH_MS, and at once (at most once a second) when
 * a token does not verify, so a rotation reaches all of them within seconds.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Store, StoredSecret } from './db';

/** How long (ms) the previous secret is accepted after a rotation: a token's lifetime (48 h). */
export const ROTATION_GRACE_MS = 48 * 60 * 60 * 1000;
/** How often (ms) each instance re-reads the stored secrets. */
export const KEYS_REFRESH_MS = 10_000;
/** The shortest `JWT_SECRET` taken (characters): 32 random characters carry enough for HS256. */
export const MIN_JWT_SECRET_LENGTH = 32;
/** The file in which versions before the database kept the secret (imported once, then unused). */
export const LEGACY_SECRET_FILE = 'jwt-secret';

/** A secret's fingerprint: HMAC-SHA256 of a fixed label under it, 22 base64url characters. Says nothing of the secret. */
export function fingerprintOf(secret: string): string {
  return crypto.createHmac('sha256', secret).update('synctv signing secret fingerprint').digest('base64url').slice(0, 22);
}

/** Where the secret may come from besides the database. */
export interface SigningKeySources {
  /** The data directory, where an older version may have left `jwt-secret`. */
  dataDir: string;
  /** `JWT_SECRET`: the secret of every instance; unset = the database keeps it. */
  jwtSecret?: string;
  /** `JWT_PREVIOUS_SECRET`: during a rotation, the secret `JWT_SECRET` replaces. */
  jwtPreviousSecret?: string;
}

/** Throws a message that says what to set when a `JWT_SECRET`/`JWT_PREVIOUS_SECRET` is too short. */
export function checkSecretSources(sources: SigningKeySources): void {
  for (const [name, value] of [
    ['JWT_SECRET', sources.jwtSecret],
    ['JWT_PREVIOUS_SECRET', sources.jwtPreviousSecret],
  ] as const) {
    if (value !== undefined && value.length < MIN_JWT_SECRET_LENGTH) {
      throw new Error(`${name} must be at least ${MIN_JWT_SECRET_LENGTH} characters (e.g. the output of: openssl rand -base64 32), got ${value.length}`);
    }
  }
  if (sources.jwtPreviousSecret !== undefined && sources.jwtSecret === undefined) throw new Error('JWT_PREVIOUS_SECRET needs JWT_SECRET (the new secret it is being replaced with)');
}

const encode = (secret: string) => new TextEncoder().encode(secret);

/** The secrets this instance signs and verifies with, kept in step with the database. */
export class SigningKeys {
  private signing: Uint8Array;
  private verifying: Uint8Array[];
  private why: string | null = null;
  private lastRefreshMs = 0;
  private refreshing: Promise<void> | null = null;
  private listeners = new Set<(problem: string | null) => void>();

  private constructor(
    private readonly store: Pick<Store, 'signingSecrets'>,
    private readonly sources: SigningKeySources,
    private readonly now: () => number,
  ) {
    // Replaced by the first reconcile; never used to sign while `problem` is set.
    this.signing = crypto.randomBytes(32);
    this.verifying = [this.signing];
  }

  /**
   * The keys of `store`'s site, created there when it has none. Rejects when the database does not
   * answer. A disagreement does not reject: it is `problem`.
   */
  static async open(store: Pick<Store, 'signingSecrets'>, sources: SigningKeySources, now: () => number = Date.now): Promise<SigningKeys> {
    checkSecretSources(sources);
    const keys = new SigningKeys(store, sources, now);
    await keys.refresh();
    return keys;
  }

  /** The secret new tokens are signed with. */
  get current(): Uint8Array {
    return this.signing;
  }

  /** The secrets a token may be signed with: the current one, then the previous one during its grace period. */
  get accepted(): readonly Uint8Array[] {
    return this.verifying;
  }

  /** Why this instance's secret disagrees with the others' (it must not be ready), or null. */
  get problem(): string | null {
    return this.why;
  }

  /** Calls `listener` whenever `problem` changes. */
  onProblem(listener: (problem: string | null) => void): void {
    this.listeners.add(listener);
  }

  /** Re-reads the stored secrets (and records a `JWT_SECRET` rotation). Rejects when the database does not answer. */
  refresh(): Promise<void> {
    this.refreshing ??= this.reconcile().finally(() => {
      this.refreshing = null;
    });
    return this.refreshing;
  }

  /**
   * Re-reads the stored secrets when the last read is more than a second old (a token that did not
   * verify may be signed with a secret rotated in since); true when the accepted secrets changed.
   * Never rejects.
   */
  async refreshIfStale(): Promise<boolean> {
    if (this.now() - this.lastRefreshMs < 1000) return false;
    const before = this.verifying;
    await this.refresh().catch(() => undefined);
    return this.verifying !== before;
  }

  private async reconcile(): Promise<void> {
    this.lastRefreshMs = this.now();
    const { jwtSecret, jwtPreviousSecret } = this.sources;
    let { current, previous } = await this.store.signingSecrets.read();
    if (!current) {
      const secret = jwtSecret ?? this.legacySecret() ?? crypto.randomBytes(32).toString('base64url');
      current = await this.store.signingSecrets.createCurrent({ fingerprint: fingerprintOf(secret), secret: jwtSecret === undefined ? secret : null, since: this.now() });
    }
    if (jwtSecret !== undefined && jwtPreviousSecret !== undefined && current.fingerprint === fingerprintOf(jwtPreviousSecret)) {
      // The first instance with the new JWT_SECRET: it records the rotation (or another one just did).
      await this.store.signingSecrets.rotate(current.fingerprint, { fingerprint: fingerprintOf(jwtSecret), secret: null, since: this.now() });
      ({ current, previous } = await this.store.signingSecrets.read());
      if (!current) throw new Error('the signing secret disappeared');
    }
    const inGrace = previous !== null && this.now() < previous.since + ROTATION_GRACE_MS;
    const previousSecret = inGrace ? this.secretOf(previous!) : null;
    const ownSecret = jwtSecret ?? current.secret;
    let problem: string | null = null;
    if (ownSecret === null) {
      problem = `the other instances sign with JWT_SECRET (fingerprint ${current.fingerprint}) and this one has none: set the same JWT_SECRET here`;
    } else if (fingerprintOf(ownSecret) !== current.fingerprint) {
      problem =
        inGrace && previous!.fingerprint === fingerprintOf(ownSecret)
          ? `the other instances have moved to a new JWT_SECRET (fingerprint ${current.fingerprint}): set it here as JWT_SECRET, with this one as JWT_PREVIOUS_SECRET`
          : `JWT_SECRET (fingerprint ${fingerprintOf(ownSecret)}) differs from the secret the other instances sign with (fingerprint ${current.fingerprint}): set the same JWT_SECRET on every instance, or to rotate it set the old one as JWT_PREVIOUS_SECRET`;
    }
    if (problem === null) {
      const signing = encode(ownSecret!);
      const verifying = previousSecret ? [signing, encode(previousSecret)] : [signing];
      if (!sameKeys(verifying, this.verifying)) {
        this.signing = signing;
        this.verifying = verifying;
      }
    }
    if (problem !== this.why) {
      this.why = problem;
      for (const listener of this.listeners) listener(problem);
    }
  }

  /** The previous secret's value: stored, or this instance's `JWT_PREVIOUS_SECRET` when the fingerprints agree. */
  private secretOf(stored: StoredSecret): string | null {
    if (stored.secret !== null) return stored.secret;
    const { jwtPreviousSecret } = this.sources;
    return jwtPreviousSecret !== undefined && fingerprintOf(jwtPreviousSecret) === stored.fingerprint ? jwtPreviousSecret : null;
  }

  /** The secret an older version kept in `<dataDir>/jwt-secret`, or null. */
  private legacySecret(): string | null {
    try {
      return fs.readFileSync(path.join(this.sources.dataDir, LEGACY_SECRET_FILE), 'utf8').trim() || null;
    } catch {
      return null;
    }
  }
}

function sameKeys(a: readonly Uint8Array[], b: readonly Uint8Array[]): boolean {
  return a.length === b.length && a.every((key, index) => Buffer.from(key).equals(Buffer.from(b[index])));
}
