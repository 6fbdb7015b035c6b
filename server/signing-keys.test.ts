/** @jest-environment node */
/**
 * The signing secret the instances share (./signing-keys.ts), on the test database (SQLite, or
 * PostgreSQL under `npm run test:pg`): each `SigningKeys` here stands for one instance.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openStore, type Store } from './db';
import { databaseFor } from './test-support/harness';
import { fingerprintOf, LEGACY_SECRET_FILE, ROTATION_GRACE_MS, SigningKeys, type SigningKeySources } from './signing-keys';

const OLD = 'o'.repeat(40);
const NEW = 'n'.repeat(40);
const OTHER = 'x'.repeat(40);
const text = (key: Uint8Array) => new TextDecoder().decode(key);

let dataDir: string;
let store: Store;
let nowMs = 1_000_000;
const clock = () => nowMs;

beforeEach(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'keys-'));
  store = await openStore({ dataDir, databaseUrl: (await databaseFor(dataDir)) ?? undefined });
});

afterEach(async () => {
  await store.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const instance = (sources: Partial<SigningKeySources> = {}) => SigningKeys.open(store, { dataDir, ...sources }, clock);

describe('a secret the database keeps', () => {
  it('is created by the first instance and read by every other one, wherever its data directory is', async () => {
    const [first, second] = await Promise.all([instance(), instance({ dataDir: '/nonexistent/other-host' })]);
    expect(text(first.current)).toBe(text(second.current));
    expect(first.current.length).toBeGreaterThanOrEqual(32);
    expect([first.problem, second.problem]).toEqual([null, null]);
    const { current } = await store.signingSecrets.read();
    expect(current?.fingerprint).toBe(fingerprintOf(text(first.current)));
  });

  it('is the jwt-secret file an older version left in the data directory, so sessions survive the upgrade', async () => {
    fs.writeFileSync(path.join(dataDir, LEGACY_SECRET_FILE), 'legacy-secret-from-the-file\n');
    expect(text((await instance()).current)).toBe('legacy-secret-from-the-file');
  });

  it('rotates: the new one signs, the previous one verifies for 48 h, then no more', async () => {
    const keys = await instance();
    const before = text(keys.current);
    const { current } = await store.signingSecrets.read();
    await store.signingSecrets.rotate(current!.fingerprint, { fingerprint: fingerprintOf(NEW), secret: NEW, since: nowMs });
    // Not yet re-read: it signs with the old one, which every instance still accepts.
    expect(text(keys.current)).toBe(before);
    expect(await keys.refreshIfStale()).toBe(false); // read less than a second ago
    nowMs += 1000;
    expect(await keys.refreshIfStale()).toBe(true);
    expect(keys.accepted.map(text)).toEqual([NEW, before]);
    nowMs += ROTATION_GRACE_MS + 1;
    await keys.refresh();
    expect(keys.accepted.map(text)).toEqual([NEW]);
  });

  it('re-reads at most once a second after a failed verification', async () => {
    const keys = await instance();
    nowMs += 5000;
    expect(await keys.refreshIfStale()).toBe(false); // read, nothing changed
    const read = jest.spyOn(store.signingSecrets, 'read');
    expect(await keys.refreshIfStale()).toBe(false);
    expect(read).not.toHaveBeenCalled();
  });
});

describe('JWT_SECRET', () => {
  it('is stored as its fingerprint only; instances with the same one agree', async () => {
    const [a, b] = [await instance({ jwtSecret: OLD }), await instance({ jwtSecret: OLD })];
    expect([text(a.current), a.problem, text(b.current), b.problem]).toEqual([OLD, null, OLD, null]);
    expect((await store.signingSecrets.read()).current).toMatchObject({ fingerprint: fingerprintOf(OLD), secret: null });
  });

  it('keeps an instance with another one, or with none, unready, saying why and what to set', async () => {
    await instance({ jwtSecret: OLD });
    const other = await instance({ jwtSecret: OTHER });
    expect(other.problem).toMatch(/^JWT_SECRET \(fingerprint [\w-]{22}\) differs from the secret the other instances sign with \(fingerprint [\w-]{22}\): set the same JWT_SECRET on every instance/);
    expect(other.problem).not.toContain(OTHER);
    const none = await instance();
    expect(none.problem).toMatch(/the other instances sign with JWT_SECRET \(fingerprint [\w-]{22}\) and this one has none: set the same JWT_SECRET here/);
  });

  it('differs from a stored secret: unready, unless the stored one is given as JWT_PREVIOUS_SECRET (a move to JWT_SECRET)', async () => {
    const stored = await instance();
    expect((await instance({ jwtSecret: OTHER })).problem).toMatch(/differs from the secret the other instances sign with/);
    const moved = await instance({ jwtSecret: NEW, jwtPreviousSecret: text(stored.current) });
    expect([moved.problem, moved.accepted.map(text)]).toEqual([null, [NEW, text(stored.current)]]);
  });

  it('rotates one instance after another: the first with the new secret records it, the old ones turn unready, sessions of the old one stay valid', async () => {
    const old = await instance({ jwtSecret: OLD });
    const rotated = await instance({ jwtSecret: NEW, jwtPreviousSecret: OLD });
    expect([rotated.problem, rotated.accepted.map(text)]).toEqual([null, [NEW, OLD]]);
    expect((await store.signingSecrets.read()).previous).toMatchObject({ fingerprint: fingerprintOf(OLD), secret: null, since: nowMs });
    await old.refresh();
    expect(old.problem).toMatch(/the other instances have moved to a new JWT_SECRET \(fingerprint [\w-]{22}\): set it here as JWT_SECRET, with this one as JWT_PREVIOUS_SECRET/);
    // A second instance with the new pair agrees without rotating again.
    const alsoRotated = await instance({ jwtSecret: NEW, jwtPreviousSecret: OLD });
    expect([alsoRotated.problem, alsoRotated.accepted.map(text)]).toEqual([null, [NEW, OLD]]);
    const problems: (string | null)[] = [];
    old.onProblem((problem) => problems.push(problem));
    nowMs += ROTATION_GRACE_MS + 1;
    await rotated.refresh();
    expect(rotated.accepted.map(text)).toEqual([NEW]);
    expect(problems).toEqual([]);
  });

  it('refuses a short secret, or a previous one without a new one, with what to set', async () => {
    await expect(instance({ jwtSecret: 'short' })).rejects.toThrow('JWT_SECRET must be at least 32 characters (e.g. the output of: openssl rand -base64 32), got 5');
    await expect(instance({ jwtPreviousSecret: OLD })).rejects.toThrow('JWT_PREVIOUS_SECRET needs JWT_SECRET');
  });
});
