/** @jest-environment node */
/** `TRUST_PROXY` (./trust-proxy.ts): the proxies' addresses are taken, "any" is refused with what to set. */
import { trustProxyFromEnv, TRUST_PROXY_TRUE_REFUSED } from './trust-proxy';

describe('trustProxyFromEnv', () => {
  it('takes no proxy when unset, empty or false, and the listed addresses and ranges otherwise', () => {
    expect(trustProxyFromEnv(undefined)).toBe(false);
    expect(trustProxyFromEnv('  ')).toBe(false);
    expect(trustProxyFromEnv('False')).toBe(false);
    expect(trustProxyFromEnv('127.0.0.1')).toBe('127.0.0.1');
    expect(trustProxyFromEnv(' 127.0.0.1 , 10.0.0.0/8,,')).toBe('127.0.0.1,10.0.0.0/8');
  });

  it('refuses true, saying what to set', () => {
    expect(() => trustProxyFromEnv('true')).toThrow(TRUST_PROXY_TRUE_REFUSED);
    expect(() => trustProxyFromEnv(' TRUE ')).toThrow(/set the addresses of your proxies instead, e\.g\. TRUST_PROXY=127\.0\.0\.1/);
  });
});
