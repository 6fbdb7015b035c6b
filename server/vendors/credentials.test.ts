/** @jest-environment node */
/** Sealing vendor credentials (./credentials.ts): round trip, bound to the row, to the key, and the key file. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CREDENTIALS_UNREADABLE, VENDOR_SECRET_FILE, VendorCipher } from './credentials';

const SECRET = 'a-vendor-secret-of-at-least-32-characters';

describe('VendorCipher', () => {
  it('opens what it sealed for the same row only, and never shows the plain text', () => {
    const cipher = new VendorCipher(SECRET);
    const sealed = cipher.seal('{"username":"alice"}', 'alist:u1:s1');
    expect(sealed).not.toContain('alice');
    expect(cipher.open(sealed, 'alist:u1:s1')).toBe('{"username":"alice"}');
    expect(cipher.seal('same', 'c')).not.toBe(cipher.seal('same', 'c'));
    expect(() => cipher.open(sealed, 'alist:u2:s1')).toThrow(CREDENTIALS_UNREADABLE);
    expect(() => new VendorCipher(`${SECRET}-other`).open(sealed, 'alist:u1:s1')).toThrow(CREDENTIALS_UNREADABLE);
    expect(() => cipher.open(`${sealed.slice(0, -2)}AA`, 'alist:u1:s1')).toThrow(CREDENTIALS_UNREADABLE);
    expect(() => cipher.open('garbage', 'alist:u1:s1')).toThrow(CREDENTIALS_UNREADABLE);
  });

  it('refuses a short secret', () => {
    expect(() => new VendorCipher('short')).toThrow('VENDOR_SECRET must be at least 32 characters');
  });

  it('creates the key file once, readable by the owner only, and keeps using it', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vendor-key-'));
    try {
      const sealed = VendorCipher.open(dir).seal('x', 'c');
      const file = path.join(dir, VENDOR_SECRET_FILE);
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      expect(VendorCipher.open(dir).open(sealed, 'c')).toBe('x');
      // VENDOR_SECRET wins over the file.
      expect(() => VendorCipher.open(dir, SECRET).open(sealed, 'c')).toThrow(CREDENTIALS_UNREADABLE);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
