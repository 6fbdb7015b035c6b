/** Tokens in URLs never reach the log. */
import { redactUrl } from './redact';

describe('redactUrl', () => {
  it('replaces the value of every token parameter, whatever its case or escaping, and keeps the rest', () => {
    expect(redactUrl('/api/room/ws?roomId=abc&token=eyJhbGciOi.x.y')).toBe('/api/room/ws?roomId=abc&token=[redacted]');
    expect(redactUrl('/api/room/movie/proxy/m?TOKEN=secret&token=again&t=1')).toBe('/api/room/movie/proxy/m?TOKEN=[redacted]&token=[redacted]&t=1');
    expect(redactUrl('/x?%74oken=secret')).toBe('/x?%74oken=[redacted]');
    expect(redactUrl('/x?%zz=1&token')).toBe('/x?%zz=1&token=[redacted]');
  });

  it('replaces the tokens of the proxy\'s paths: input, playlist entries, DASH bases, live segments', () => {
    const movie = 'a'.repeat(32);
    expect(redactUrl(`/api/room/movie/proxy/${movie}/input/WyJyIiwibSJd.c2lnbmF0dXJl.m3u8`)).toBe(`/api/room/movie/proxy/${movie}/input/[redacted].m3u8`);
    expect(redactUrl(`/api/room/movie/proxy/${movie}/m3u8/eyJhbGciOiJIUzI1NiJ9.eyJyIjoiMSJ9.sig?token=t&roomId=r`)).toBe(`/api/room/movie/proxy/${movie}/m3u8/[redacted]?token=[redacted]&roomId=r`);
    expect(redactUrl(`/api/room/movie/proxy/${movie}/dash/eyJhbGciOiJIUzI1NiJ9.eyJyIjoiMSJ9.sig/video/1.m4s`)).toBe(`/api/room/movie/proxy/${movie}/dash/[redacted]/video/1.m4s`);
    expect(redactUrl(`/api/room/movie/live/hls/data/r/${movie}/eyJhbGciOiJIUzI1NiJ9.eyJyIjoiMSJ9.sig.ts`)).toBe(`/api/room/movie/live/hls/data/r/${movie}/[redacted].ts`);
    // A push's segment names are no tokens.
    expect(redactUrl(`/api/room/movie/live/hls/data/r/${movie}/seg12.png`)).toBe(`/api/room/movie/live/hls/data/r/${movie}/seg12.png`);
  });

  it('leaves URLs without a query or a token as they are', () => {
    expect(redactUrl('/api/user/me')).toBe('/api/user/me');
    expect(redactUrl('/web/?')).toBe('/web/?');
  });
});
