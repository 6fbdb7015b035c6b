/** What the DASH adapter adds to dash.js's requests (./dash.ts `withCredentials`). */
import { withCredentials } from './dash';

const MANIFEST = 'http://site.test/api/room/movie/proxy/m1?token=jwt&roomId=r1';

describe('withCredentials', () => {
  it("gives a request under the proxied manifest's segment folder the manifest's token and room", () => {
    const request = withCredentials({ url: 'http://site.test/api/room/movie/proxy/m1/dash/sig/chunk-1.m4s' }, MANIFEST, {});
    expect(request.url).toBe('http://site.test/api/room/movie/proxy/m1/dash/sig/chunk-1.m4s?token=jwt&roomId=r1');
  });

  it('leaves other requests alone, and never sends the token to another host', () => {
    expect(withCredentials({ url: 'https://cdn.test/chunk-1.m4s' }, MANIFEST, {}).url).toBe('https://cdn.test/chunk-1.m4s');
    expect(withCredentials({ url: 'https://evil.test/api/room/movie/proxy/m1/dash/sig/x' }, MANIFEST, {}).url).toBe('https://evil.test/api/room/movie/proxy/m1/dash/sig/x');
    expect(withCredentials({ url: MANIFEST }, MANIFEST, {}).url).toBe(MANIFEST);
  });

  it("adds the movie's headers to every request", () => {
    expect(withCredentials({ url: 'https://cdn.test/a.m4s', headers: { Accept: '*/*' } }, 'https://cdn.test/a.mpd', { Referer: 'https://site.test/' }).headers).toEqual({
      Accept: '*/*',
      Referer: 'https://site.test/',
    });
  });
});
