/** The movie proxy's DASH manifest rewriting (./mpd.ts): every base through the proxy, never out of it. */
import { isDashManifest, rewriteMpd, underBase } from './mpd';

const proxied = (base: string) => `/p/${encodeURIComponent(base)}/`;

describe('rewriteMpd', () => {
  it('adds the manifest folder as the base of a manifest without one', () => {
    const mpd = '<?xml version="1.0"?>\n<MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="static"><Period><AdaptationSet><SegmentTemplate media="chunk-$Number$.m4s"/></AdaptationSet></Period></MPD>';
    const out = rewriteMpd(mpd, 'http://host:8000/films/a/manifest.mpd', proxied);
    expect(out).toContain('type="static"><BaseURL>/p/http%3A%2F%2Fhost%3A8000%2Ffilms%2Fa%2F/</BaseURL><Period>');
    expect(out).toContain('media="chunk-$Number$.m4s"');
  });

  it("replaces the manifest's own base (resolved against the manifest) and absolute inner ones, keeps relative inner ones", () => {
    const mpd = [
      '<MPD><BaseURL>video/</BaseURL><Period>',
      '<AdaptationSet><BaseURL>720p/</BaseURL></AdaptationSet>',
      '<AdaptationSet><BaseURL serviceLocation="cdn">https://cdn.example/audio/</BaseURL></AdaptationSet>',
      '</Period></MPD>',
    ].join('');
    const out = rewriteMpd(mpd, 'http://host/films/manifest.mpd?x=1&amp;y=2', proxied);
    expect(out).toContain(`<MPD><BaseURL>${proxied('http://host/films/video/')}</BaseURL>`);
    expect(out).toContain('<BaseURL>720p/</BaseURL>');
    expect(out).toContain(`<BaseURL serviceLocation="cdn">${proxied('https://cdn.example/audio/')}</BaseURL>`);
    expect(out.match(/<BaseURL/g)).toHaveLength(3);
  });

  it('tells a manifest by its content type or its extension', () => {
    expect(isDashManifest('http://h/x', 'application/dash+xml')).toBe(true);
    expect(isDashManifest('http://h/a/manifest.mpd?t=1', 'application/octet-stream')).toBe(true);
    expect(isDashManifest('http://h/a/video.mp4', 'video/mp4')).toBe(false);
  });
});

describe('underBase', () => {
  it('resolves under the base and refuses what leaves it', () => {
    expect(underBase('http://host/films/a/', 'chunk-0-00001.m4s')).toBe('http://host/films/a/chunk-0-00001.m4s');
    expect(underBase('http://host/films/a/', '720p/init.m4s?t=1')).toBe('http://host/films/a/720p/init.m4s?t=1');
    expect(underBase('http://host/films/a/', '../b/secret')).toBeNull();
    expect(underBase('http://host/films/a/', '//evil.example/x')).toBeNull();
    expect(underBase('http://host/films/a/', 'http://127.0.0.1/x')).toBeNull();
  });
});
