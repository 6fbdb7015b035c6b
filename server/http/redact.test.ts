/** Tokens in URLs never reach the log. */
import { redactUrl } from './redact';

describe('redactUrl', () => {
  it('replaces the value of every token parameter, whatever its case or escaping, and keeps the rest', () => {
    expect(redactUrl('/api/room/ws?roomId=abc&token=eyJhbGciOi.x.y')).toBe('/api/room/ws?roomId=abc&token=[redacted]');
    expect(redactUrl('/api/room/movie/proxy/m?TOKEN=secret&token=again&t=1')).toBe('/api/room/movie/proxy/m?TOKEN=[redacted]&token=[redacted]&t=1');
    expect(redactUrl('/x?%74oken=secret')).toBe('/x?%74oken=[redacted]');
    expect(redactUrl('/x?%zz=1&token')).toBe('/x?%zz=1&token=[redacted]');
  });

  it('leaves URLs without a query as they are', () => {
    expect(redactUrl('/api/user/me')).toBe('/api/user/me');
    expect(redactUrl('/web/?')).toBe('/web/?');
  });
});
