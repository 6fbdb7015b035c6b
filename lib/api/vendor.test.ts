/** @jest-environment node */
/** The AList password hash the client sends (./vendor.ts): what AList's own web client computes. */
import { alistPasswordHash } from './vendor';

describe('alistPasswordHash', () => {
  it('is the lowercase hex SHA-256 of the password followed by AList salt', async () => {
    // printf 'secret-https://github.com/alist-org/alist' | sha256sum
    expect(await alistPasswordHash('secret')).toBe('8a119a191d7f34278647d21217ff550a9f6748d48a6952379405487747a840c3');
  });
});
