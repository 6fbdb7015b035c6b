/** @jest-environment node */
/** The movie proxy's playlist rewriting (docs/contract.md §4.5). */
import { isPlaylist, rewritePlaylist } from './playlist';

const proxied = (url: string, playlist: boolean) => `/p/${playlist ? 'list' : 'seg'}?u=${encodeURIComponent(url)}`;

describe('rewritePlaylist', () => {
  it('sends segments, keys and init sections through the proxy, resolved against the playlist', () => {
    const text = [
      '#EXTM3U',
      '#EXT-X-KEY:METHOD=AES-128,URI="../keys/k1.bin",IV=0x01',
      '#EXT-X-MAP:URI="init.mp4"',
      '#EXTINF:2.0,',
      'seg-0.ts',
      '#EXTINF:2.0,',
      'https://cdn.test/other/seg-1.ts?sig=a',
      '#EXT-X-ENDLIST',
    ].join('\n');
    expect(rewritePlaylist(text, 'https://media.test/show/ep1/index.m3u8', proxied).split('\n')).toEqual([
      '#EXTM3U',
      `#EXT-X-KEY:METHOD=AES-128,URI="/p/seg?u=${encodeURIComponent('https://media.test/show/keys/k1.bin')}",IV=0x01`,
      `#EXT-X-MAP:URI="/p/seg?u=${encodeURIComponent('https://media.test/show/ep1/init.mp4')}"`,
      '#EXTINF:2.0,',
      `/p/seg?u=${encodeURIComponent('https://media.test/show/ep1/seg-0.ts')}`,
      '#EXTINF:2.0,',
      `/p/seg?u=${encodeURIComponent('https://cdn.test/other/seg-1.ts?sig=a')}`,
      '#EXT-X-ENDLIST',
    ]);
  });

  it('marks variant playlists and alternate renditions as playlists', () => {
    const text = ['#EXTM3U', '#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",URI="audio/en.m3u8"', '#EXT-X-STREAM-INF:BANDWIDTH=800000', 'low/index.m3u8', 'not-a-playlist.ts'].join('\r\n');
    const lines = rewritePlaylist(text, 'http://media.test/master.m3u8', proxied).split('\n');
    expect(lines[1]).toContain('/p/list?u=');
    expect(lines[3]).toBe(`/p/list?u=${encodeURIComponent('http://media.test/low/index.m3u8')}`);
    expect(lines[4]).toBe(`/p/seg?u=${encodeURIComponent('http://media.test/not-a-playlist.ts')}`);
  });

  it('leaves no address of the source in the playlist, however its lines are broken or its attributes quoted', () => {
    // A lone CR and a NUL end a line for ffmpeg; an unquoted URI is read by ffmpeg too.
    const text = '#EXTM3U\n#EXT-X-FOO:x\rhttp://10.0.0.1/cr.ts\n#EXT-X-KEY:METHOD=AES-128,URI=http://10.0.0.1/key?a=1,IV=0x1\n#EXTINF:2,\u0000http://10.0.0.1/nul.ts#.ts\n#EXT-X-MAP:uri="init.mp4"\nhttp://[bad\n';
    const rewritten = rewritePlaylist(text, 'http://media.test/x.m3u8', proxied);
    const left = rewritten.replace(/\/p\/(seg|list)\?u=[^"\n]*/g, '');
    expect(left).not.toMatch(/10\.0\.0\.1|init\.mp4|\[bad/);
    expect(rewritten.split('\n')).toEqual([
      '#EXTM3U',
      '#EXT-X-FOO:x',
      `/p/seg?u=${encodeURIComponent('http://10.0.0.1/cr.ts')}`,
      `#EXT-X-KEY:METHOD=AES-128,URI="/p/seg?u=${encodeURIComponent('http://10.0.0.1/key?a=1')}",IV=0x1`,
      '#EXTINF:2,',
      `/p/seg?u=${encodeURIComponent('http://10.0.0.1/nul.ts#.ts')}`,
      `#EXT-X-MAP:URI="/p/seg?u=${encodeURIComponent('http://media.test/init.mp4')}"`,
      `/p/seg?u=${encodeURIComponent('about:invalid')}`,
      '',
    ]);
  });

  it('recognises playlists by content type or extension', () => {
    expect(isPlaylist('https://x.test/a', 'application/vnd.apple.mpegurl')).toBe(true);
    expect(isPlaylist('https://x.test/a.m3u8?x=1', 'application/octet-stream')).toBe(true);
    expect(isPlaylist('https://x.test/a.mp4', 'video/mp4')).toBe(false);
  });
});
