/**
 * bilibili's pure parts (docs/vendors.md "bilibili"): the WBI signature against the example of its
 * public documentation, which links name what, how bilibili's refusal codes read, the DASH manifest
 * built from a play-URL answer, and subtitles as WebVTT.
 */
import { matchLink, refusalText, BILIBILI_MEMBERS_ONLY, BILIBILI_REGION_LOCKED, BILIBILI_REMOVED, BILIBILI_LOGIN_EXPIRED, type BilibiliDash } from './bilibili';
import { bilibiliMpd, subtitleVtt } from './bilibili-mpd';
import { mixinKey, signWbi, wbiKeysOf } from './bilibili-wbi';

describe('the WBI signature', () => {
  it('gives the documented example’s mixin key and w_rid', () => {
    const keys = wbiKeysOf({ img_url: 'https://i0.hdslb.com/bfs/wbi/7cd084941338484aae1ad9425b84077c.png', sub_url: 'https://i0.hdslb.com/bfs/wbi/4932caff0ff746eab6f01bf08b70ac45.png' });
    expect(keys).toEqual({ imgKey: '7cd084941338484aae1ad9425b84077c', subKey: '4932caff0ff746eab6f01bf08b70ac45' });
    expect(mixinKey(keys.imgKey, keys.subKey)).toBe('ea1db124af3c7062474693fa704f4ff8');
    expect(signWbi({ foo: '114', bar: '514', zab: 1919810 }, keys, 1702204169)).toBe('bar=514&foo=114&wts=1702204169&zab=1919810&w_rid=8f6f2b5b3d485fe1886cec6a0be8c5d4');
    // Values lose !'()* and spaces are %20, as bilibili's web client sends them.
    expect(signWbi({ q: "a (b)!'*" }, keys, 1)).toMatch(/^q=a%20b&wts=1&w_rid=[0-9a-f]{32}$/);
  });
});

describe('links', () => {
  it('names videos, pages, series, live rooms and short links', () => {
    expect(matchLink('BV1xx411c7mD')).toEqual({ kind: 'bv', id: 'BV1xx411c7mD' });
    expect(matchLink('https://www.bilibili.com/video/bv1xx411c7mD/?p=3&spm_id_from=1')).toEqual({ kind: 'bv', id: 'BV1xx411c7mD' });
    expect(matchLink('https://m.bilibili.com/video/av170001')).toEqual({ kind: 'av', id: '170001' });
    expect(matchLink('https://www.bilibili.com/bangumi/play/ep5001?from=x')).toEqual({ kind: 'ep', id: '5001' });
    expect(matchLink('ss4001')).toEqual({ kind: 'ss', id: '4001' });
    expect(matchLink('https://live.bilibili.com/77?spm=1')).toEqual({ kind: 'live', id: '77' });
    expect(matchLink('https://b23.tv/AbC123')).toEqual({ kind: 'short', id: 'AbC123' });
    expect(matchLink('https://www.youtube.com/watch?v=x')).toBeNull();
  });
});

describe('refusals', () => {
  it('reads bilibili’s codes as what they mean', () => {
    expect(refusalText(-404, '啥都木有')).toBe(BILIBILI_REMOVED);
    expect(refusalText(62002, '稿件不可见')).toBe(BILIBILI_REMOVED);
    expect(refusalText(-10403, '抱歉您所在地区不可观看！')).toBe(BILIBILI_REGION_LOCKED);
    expect(refusalText(-10403, '大会员专享限制')).toBe(BILIBILI_MEMBERS_ONLY);
    expect(refusalText(-101, '账号未登录')).toBe(BILIBILI_LOGIN_EXPIRED);
    expect(refusalText(-400, '请求错误')).toBe('bilibili: 请求错误');
  });
});

describe('the DASH manifest', () => {
  const stream = (id: number, codecs: string, height: number) => ({
    id,
    baseUrl: `https://upos.test/${codecs}.m4s?a=1&b=2`,
    bandwidth: 1000 * id,
    mimeType: height ? 'video/mp4' : 'audio/mp4',
    codecs,
    width: (height * 16) / 9,
    height,
    frameRate: height ? '30.000' : '',
    sar: height ? '1:1' : '',
    startWithSap: 1,
    segmentBase: { initialization: '0-900', indexRange: '901-1200' },
  });
  const dash: BilibiliDash = { durationSec: 61.5, minBufferTimeSec: 1.5, video: [stream(80, 'avc1.640032', 1080), stream(80, 'hev1.1.6.L150.90', 1080), stream(32, 'avc1.64001F', 480)], audio: [stream(30280, 'mp4a.40.2', 0)] };

  it('holds H.264 in the main manifest and HEVC in the second, each stream at its number with its byte ranges', () => {
    const main = bilibiliMpd(dash, 'main', (index) => `/proxy/m?id=${index}&token=t`)!;
    expect(main).toContain('mediaPresentationDuration="PT61.50S"');
    expect([...main.matchAll(/<BaseURL>([^<]+)<\/BaseURL>/g)].map((match) => match[1])).toEqual(['/proxy/m?id=0&amp;token=t', '/proxy/m?id=2&amp;token=t', '/proxy/m?id=3&amp;token=t']);
    expect(main).toContain('<SegmentBase indexRange="901-1200"><Initialization range="0-900"/></SegmentBase>');
    const hevc = bilibiliMpd(dash, 'hevc', (index) => `/proxy/m?id=${index}`)!;
    expect([...hevc.matchAll(/codecs="([^"]+)"/g)].map((match) => match[1])).toEqual(['hev1.1.6.L150.90', 'mp4a.40.2']);
    expect(bilibiliMpd({ ...dash, video: [dash.video[0]] }, 'hevc', String)).toBeNull();
  });

  it('writes subtitles as WebVTT', () => {
    expect(subtitleVtt([{ from: 3725.5, to: 3727, content: 'a --> b' }])).toBe('WEBVTT\n\n01:02:05.500 --> 01:02:07.000\na -> b\n');
  });
});
