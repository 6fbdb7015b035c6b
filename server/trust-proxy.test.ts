/** @jest-environment node */
/** `TRUST_PROXY` (./trust-proxy.ts): the proxies' addresses are taken, "any" is refused with what to set. */
import type { IncomingMessage } from 'node:http';
import { get, launch } from './test-support/harness';
import { clientAddressOf, trustProxyFromEnv, TRUST_PROXY_TRUE_REFUSED } from './trust-proxy';

jest.setTimeout(30_000);

/** Resolves once `check` holds (polled every 20 ms); rejects after 5 s. */
async function waitFor(check: () => boolean): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met within 5 s');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

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

describe('clientAddressOf', () => {
  const request = (remoteAddress: string, forwarded?: string) =>
    ({ socket: { remoteAddress }, connection: { remoteAddress }, headers: forwarded ? { 'x-forwarded-for': forwarded } : {} }) as unknown as IncomingMessage;

  it('takes the peer’s address unless the peer is a trusted proxy, and then the address before it', () => {
    expect(clientAddressOf(false)(request('127.0.0.1', '203.0.113.5'))).toBe('127.0.0.1');
    expect(clientAddressOf('127.0.0.1')(request('127.0.0.1', '203.0.113.5'))).toBe('203.0.113.5');
    expect(clientAddressOf('127.0.0.1')(request('198.51.100.2', '203.0.113.5'))).toBe('198.51.100.2');
    expect(clientAddressOf('127.0.0.1,10.0.0.0/8')(request('127.0.0.1', '203.0.113.5, 10.1.2.3'))).toBe('203.0.113.5');
  });
});

describe('a server behind a proxy without TRUST_PROXY', () => {
  it('says so once in its log, with what to set', async () => {
    const server = await launch({ logLevel: 'warn' });
    try {
      await get(server, '/api/public/settings', { headers: { 'X-Forwarded-For': '203.0.113.5' } });
      await get(server, '/api/public/settings', { headers: { 'X-Forwarded-For': '203.0.113.6' } });
      await waitFor(() => server.output().includes('TRUST_PROXY is not set'));
      expect(server.output().split('TRUST_PROXY is not set')).toHaveLength(2);
      expect(server.output()).toContain('set TRUST_PROXY=127.0.0.1');
    } finally {
      await server.stop();
    }
  });
});
