/** @jest-environment node */
/**
 * What a pushed MovieBase may be on this server (./movie-base.ts), decided without a server or a
 * database: the contract's checks, name truncation, and the playability refusals with their texts.
 */
import { z } from 'zod/mini';
import { MovieBaseRequest } from '@/lib/contract/requests';
import { isLocalAddress, readMovieBase, type ProxyPolicy } from './movie-base';

const NO_PROXY: ProxyPolicy = { movieProxy: false, liveProxy: false, rtmp: false, convert: false, allowLocal: false, allowAddresses: [] };
const PROXY: ProxyPolicy = { movieProxy: true, liveProxy: true, rtmp: true, convert: true, allowLocal: false, allowAddresses: [] };

/** `body` decoded as a request would be, then checked under `policy`. */
const read = (body: Record<string, unknown>, policy = NO_PROXY) => readMovieBase(z.parse(MovieBaseRequest, body), policy);

describe('readMovieBase', () => {
  it('keeps an ordinary movie, trims its name and leaves empty maps out', () => {
    expect(read({ url: 'https://cdn.test/a.mp4', name: '  Clip  ', headers: {}, subtitles: {}, moreSources: [] })).toEqual({
      url: 'https://cdn.test/a.mp4',
      name: 'Clip',
      type: '',
      live: false,
      proxy: false,
      rtmpSource: false,
      headers: undefined,
      subtitles: undefined,
      moreSources: undefined,
      danmu: '',
      streamDanmu: '',
      isFolder: false,
      parentId: '',
    });
  });

  it('cuts a name past 256 bytes to 253 bytes and "...", without splitting a character', () => {
    const name = '影'.repeat(100); // 300 bytes
    const base = read({ url: 'https://cdn.test/a.mp4', name });
    expect(base.name).toBe(`${'影'.repeat(84)}...`); // 252 bytes: a 85th character would pass 253
  });

  it('refuses what the contract refuses, with its texts', () => {
    expect(() => read({ url: 'https://cdn.test/a.mp4', name: '   ' })).toThrow('empty name');
    expect(() => read({ url: 'https://cdn.test/a.mp4', name: 'x', parentId: 'short' })).toThrow('parent id length must be empty or 32');
  });

  it('refuses what this server cannot play, and says why', () => {
    const clip = { url: 'https://cdn.test/a.m3u8', name: 'Clip' };
    expect(() => read({ ...clip, vendorInfo: { vendor: 'youtube' } })).toThrow('vendor youtube is not supported by this server');
    expect(() => read({ ...clip, vendorInfo: { vendor: 'bilibili' } })).toThrow('bvid and epid are empty');
    expect(() => read({ ...clip, live: true, vendorInfo: { vendor: 'bilibili', bilibili: { bvid: 'BV1xx' } } })).toThrow('cid is empty');
    expect(() => read({ ...clip, isFolder: true, vendorInfo: { vendor: 'bilibili', bilibili: { bvid: 'BV1xx', cid: 1 } } })).toThrow('bilibili folder not support');
    expect(() => read({ ...clip, live: true, rtmpSource: true, proxy: true })).toThrow("rtmp source and proxy can't be true at the same time");
    expect(() => read({ ...clip, rtmpSource: true })).toThrow("rtmp source can't be true when movie is not live");
    expect(() => read({ ...clip, live: true, rtmpSource: true })).toThrow('rtmp is not enabled');
    // With RTMP on, the push is the source: a name is all it needs (the reference client sends url "").
    expect(read({ name: 'Live', url: '', live: true, rtmpSource: true, type: 'flv' }, PROXY)).toMatchObject({ name: 'Live', live: true, rtmpSource: true });
    expect(() => read({ ...clip, url: 'ftp://cdn.test/a.mp4' })).toThrow('unsupported scheme: ftp');
    expect(read({ ...clip, url: 'magnet:?xt=urn:btih:abc' }).url).toBe('magnet:?xt=urn:btih:abc');
  });

  it('lets a folder through without the playability checks', () => {
    expect(read({ name: 'Season 1', isFolder: true, vendorInfo: { vendor: '' } }).isFolder).toBe(true);
  });

  it('converts a film the server can fetch, when conversion is on, and nothing live or elsewhere converted', () => {
    const film = { url: 'https://cdn.test/film.mkv', name: 'Film', convert: true };
    expect(() => read(film)).toThrow('movie conversion is not enabled');
    expect(read(film, PROXY).convert).toBe(true);
    expect(read({ ...film, convert: false }, PROXY).convert).toBeUndefined();
    expect(() => read({ ...film, live: true }, PROXY)).toThrow('a live movie cannot be converted');
    expect(() => read({ ...film, isFolder: true }, PROXY)).toThrow('this movie cannot be converted');
    expect(() => read({ ...film, vendorInfo: { vendor: 'emby', emby: { path: 's/i' } } }, PROXY)).toThrow('this movie cannot be converted');
    expect(read({ ...film, vendorInfo: { vendor: 'alist', alist: { path: 's/film.mkv' } } }, PROXY)).toMatchObject({ convert: true, url: '' });
    expect(() => read({ ...film, url: 'magnet:?xt=urn:btih:abc' }, PROXY)).toThrow('unsupported scheme: magnet');
    expect(() => read({ ...film, url: 'http://10.0.0.2/film.mkv' }, PROXY)).toThrow('local ip is not allowed');
  });

  it('proxies only when the proxy is on, over http(s), to a public address unless local ones are allowed', () => {
    const proxied = { url: 'https://cdn.test/a.m3u8', name: 'Clip', proxy: true };
    expect(() => read(proxied)).toThrow('movie proxy is not enabled');
    expect(() => read({ ...proxied, live: true })).toThrow('live proxy is not enabled');
    expect(read(proxied, PROXY).proxy).toBe(true);
    expect(() => read({ ...proxied, url: 'rtsp://cdn.test/a' }, PROXY)).toThrow('unsupported scheme: rtsp');
    expect(() => read({ ...proxied, url: 'http://127.0.0.1/a.m3u8' }, PROXY)).toThrow('local ip is not allowed');
    expect(read({ ...proxied, url: 'http://127.0.0.1/a.m3u8' }, { ...PROXY, allowLocal: true }).url).toBe('http://127.0.0.1/a.m3u8');
  });
});

describe('isLocalAddress', () => {
  it('names this machine and private networks, unwraps IPv4-mapped IPv6, and honours the allow list', () => {
    for (const host of ['localhost', 'a.localhost', '127.0.0.1', '[::1]', '[::ffff:127.0.0.1]', '10.1.2.3', '192.168.0.1', '169.254.169.254', '0.0.0.0']) {
      expect([host, isLocalAddress(host, [])]).toEqual([host, true]);
    }
    for (const host of ['cdn.test', '93.184.216.34', '[2606:4700::1111]']) expect([host, isLocalAddress(host, [])]).toEqual([host, false]);
    expect(isLocalAddress('10.1.2.3', ['10.1.2.3'])).toBe(false);
  });
});
