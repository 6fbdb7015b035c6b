/** @jest-environment node */
/**
 * Captchas and mailed codes (./verification.ts) over the in-process secret store
 * (../cluster/secret-store.ts); ../cluster.test.ts runs them over Redis with two instances.
 */
import { MemorySecretStore } from '../cluster/secret-store';
import { CaptchaStore, EmailCodeStore, VERIFICATION_TTL_MS } from './verification';

beforeEach(() => jest.useFakeTimers({ now: 1_000_000 }));
afterEach(() => jest.useRealTimers());

describe('mailed codes', () => {
  it('work once, case-insensitively and with spaces around them', async () => {
    const codes = new EmailCodeStore(new MemorySecretStore());
    const code = await codes.issue('signup', 'a@example.com');
    expect(code).toMatch(/^[A-HJ-NP-Z2-9]{6}$/);
    expect(await codes.consume('signup', 'a@example.com', ` ${code.toLowerCase()} `)).toBe(true);
    expect(await codes.consume('signup', 'a@example.com', code)).toBe(false);
  });

  it('are spent by the fifth wrong try, and a new code starts the count again', async () => {
    const codes = new EmailCodeStore(new MemorySecretStore());
    let code = await codes.issue('retrieve', 'b@example.com');
    for (let i = 0; i < 4; i++) expect(await codes.consume('retrieve', 'b@example.com', 'WRONG1')).toBe(false);
    code = await codes.issue('retrieve', 'b@example.com');
    for (let i = 0; i < 4; i++) expect(await codes.consume('retrieve', 'b@example.com', 'WRONG1')).toBe(false);
    expect(await codes.consume('retrieve', 'b@example.com', code)).toBe(true);

    code = await codes.issue('retrieve', 'b@example.com');
    for (let i = 0; i < 5; i++) expect(await codes.consume('retrieve', 'b@example.com', 'WRONG1')).toBe(false);
    expect(await codes.consume('retrieve', 'b@example.com', code)).toBe(false);
  });

  it('belong to one purpose and expire after five minutes', async () => {
    const codes = new EmailCodeStore(new MemorySecretStore());
    const code = await codes.issue('bind', 'u1:c@example.com');
    expect(await codes.consume('signup', 'u1:c@example.com', code)).toBe(false);
    jest.advanceTimersByTime(VERIFICATION_TTL_MS);
    expect(await codes.consume('bind', 'u1:c@example.com', code)).toBe(false);
  });
});

describe('image captchas', () => {
  it('are spent by their first check, right or wrong', async () => {
    const captchas = new CaptchaStore(new MemorySecretStore(), '12345');
    const first = await captchas.create();
    expect(first.captchaBase64).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(await captchas.verify(first.captchaId, '00000')).toBe(false);
    expect(await captchas.verify(first.captchaId, '12345')).toBe(false);
    const second = await captchas.create();
    expect(await captchas.verify(second.captchaId, ' 12345 ')).toBe(true);
    expect(await captchas.verify(second.captchaId, '12345')).toBe(false);
  });
});
