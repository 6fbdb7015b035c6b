import type { Movie, MovieBase } from '@/lib/contract/types';
import { flvCodecName, mayConvert } from './problem-notice';

describe('flvCodecName', () => {
  it('names the FLV codec mpegts.js cannot play, in words a broadcaster knows', () => {
    expect(flvCodecName('Flv: Unsupported codec in video frame: 2')).toBe('Sorenson H.263');
    expect(flvCodecName('Flv: Unsupported codec in video frame: 12')).toBe('HEVC (H.265)');
    expect(flvCodecName('Flv: Unsupported audio codec idx: 11')).toBe('Speex');
    expect(flvCodecName('Flv: Unsupported audio codec: ac-3')).toBe('ac-3');
    expect(flvCodecName('Flv: Unsupported codec in video frame: vp09')).toBe('vp09');
    expect(flvCodecName('')).toBe('?');
  });
});

describe('mayConvert', () => {
  const movie = (base: Partial<MovieBase>): Movie => ({ id: 'm', creator: 'a', creatorId: 'a', subPath: '', createAt: 0, base: { url: 'https://cdn.test/film.mkv', name: 'Film', ...base } });

  it('offers conversion for a film the server fetches, on a server that converts', () => {
    expect(mayConvert(movie({}), true)).toBe(true);
    expect(mayConvert(movie({ vendorInfo: { vendor: '' } }), true)).toBe(true);
  });

  it('does not offer it where it cannot help or the server does not convert', () => {
    expect(mayConvert(movie({}), false)).toBe(false);
    expect(mayConvert(movie({ convert: true }), true)).toBe(false);
    expect(mayConvert(movie({ live: true }), true)).toBe(false);
    expect(mayConvert(movie({ rtmpSource: true, live: true }), true)).toBe(false);
    expect(mayConvert(movie({ vendorInfo: { vendor: 'emby' } }), true)).toBe(false);
    // An AList movie's URL and subtitles here carry the viewer's token: its edit dialog offers the switch.
    expect(mayConvert(movie({ url: '/api/room/movie/proxy/m?token=t', vendorInfo: { vendor: 'alist' } }), true)).toBe(false);
    // A proxied movie's URL here is the proxy's: its edit dialog offers the switch instead.
    expect(mayConvert(movie({ proxy: true, url: '/api/room/movie/proxy/m?token=t' }), true)).toBe(false);
  });
});
