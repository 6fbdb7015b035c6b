/** @jest-environment node */
/**
 * bilibili accounts and movies (docs/vendors.md "bilibili") against a real server process and the
 * bilibili stand-in (e2e/support/bilibili-stand-in.ts) on 127.0.0.2: binding by QR code (its
 * polling states) and by SMS, parsing every kind of link, a series' episodes pushed at once and
 * played through the proxy as a DASH manifest whose streams come with bilibili's Referer, whose
 * account plays what (shared or each viewer's own), subtitles as WebVTT, the danmaku file, a live
 * room as HLS with its danmaku over Server-Sent Events, the failures said in words, and who may
 * call each route.
 */
import path from 'node:path';
import { startBilibiliStandIn, type BilibiliStandIn } from '../e2e/support/bilibili-stand-in';
import { BILIBILI_MEMBERS_ONLY, BILIBILI_REGION_LOCKED, BILIBILI_REMOVED, BilibiliClient, BILIBILI_UNREACHABLE } from './vendors/bilibili';
import { BILIBILI_BIND_TO_WATCH } from './vendors/bilibili-movies';
import { expectUserLevel, type UserLevelRoute } from './test-support/user-level';
import { createRoom, get, launch, openServerDatabase, post, signUpUser, until, type TestDatabase, type TestServer, type TestUser } from './test-support/harness';

jest.setTimeout(90_000);

const HOST = '127.0.0.2';
const MEDIA = path.resolve(__dirname, '../e2e/media');

let server: TestServer;
let bilibili: BilibiliStandIn;
let db: TestDatabase;

beforeAll(async () => {
  bilibili = await startBilibiliStandIn({ mediaDir: MEDIA, host: HOST });
  server = await launch({ proxyAllowAddresses: [HOST], bilibiliOrigin: bilibili.origin });
  db = await openServerDatabase(server.dataDir);
});

afterAll(async () => {
  await db?.close();
  await server?.stop();
  await bilibili?.close();
});

/** Binds `user`'s bilibili account by QR code, as the user center does. */
async function bindByQr(user: TestUser): Promise<void> {
  const qr = (await get(server, '/api/vendor/bilibili/login/qr', { token: user.token })).body.data;
  bilibili.confirmScan();
  const polled = await post(server, '/api/vendor/bilibili/login/qr', { key: qr.key }, { token: user.token });
  expect(polled.body.data).toEqual({ status: 'success' });
}

describe('binding', () => {
  it('follows a QR sign-in through its states, keeps the cookies sealed, and unbinds', async () => {
    const user = await signUpUser(server, 'bqr');
    expect((await get(server, '/api/vendor/bilibili/me', { token: user.token })).body.data).toEqual({ isLogin: false });
    const qr = (await get(server, '/api/vendor/bilibili/login/qr', { token: user.token })).body.data;
    expect(qr.url).toContain(qr.key);
    const poll = async () => (await post(server, '/api/vendor/bilibili/login/qr', { key: qr.key }, { token: user.token })).body.data.status;
    expect(await poll()).toBe('notScanned');
    bilibili.confirmScan(false);
    expect(await poll()).toBe('scanned');
    bilibili.confirmScan();
    expect(await poll()).toBe('success');
    const me = await get(server, '/api/vendor/bilibili/me', { token: user.token });
    expect(me.body.data).toEqual({ isLogin: true, info: { username: 'standin-bili', face: bilibili.fixtures.user.face, isVip: true } });
    const rows = await db.all<{ credentials: string; vendor: string }>('SELECT credentials, vendor FROM vendor_bindings WHERE user_id = ?', [user.id]);
    expect(rows.map((row) => [row.vendor, row.credentials.startsWith('v1.'), row.credentials.includes('SESSDATA')])).toEqual([['bilibili', true, false]]);
    expect((await post(server, '/api/vendor/bilibili/logout', {}, { token: user.token })).status).toBe(204);
    expect((await get(server, '/api/vendor/bilibili/me', { token: user.token })).body.data).toEqual({ isLogin: false });

    const old = (await get(server, '/api/vendor/bilibili/login/qr', { token: user.token })).body.data;
    bilibili.expireQrCodes();
    expect((await post(server, '/api/vendor/bilibili/login/qr', { key: old.key }, { token: user.token })).body.data).toEqual({ status: 'expired' });
    const empty = await post(server, '/api/vendor/bilibili/login/qr', { key: '' }, { token: user.token });
    expect([empty.status, empty.body.error]).toEqual([400, 'key is empty']);
  });

  it('signs in by SMS after the captcha, refuses a wrong code in words, and says when the sign-in expired', async () => {
    const user = await signUpUser(server, 'bsms');
    const captcha = (await get(server, '/api/vendor/bilibili/login/captcha', { token: user.token })).body.data;
    expect(captcha).toEqual({ token: 'captcha-token', gt: 'geetest-gt', challenge: 'geetest-challenge' });
    const missing = await post(server, '/api/vendor/bilibili/login/sms/send', { token: captcha.token, challenge: captcha.challenge, telephone: '13800000000' }, { token: user.token });
    expect([missing.status, missing.body.error]).toEqual([400, 'validate is empty']);
    const sent = await post(server, '/api/vendor/bilibili/login/sms/send', { token: captcha.token, challenge: captcha.challenge, validate: 'geetest-validate', telephone: '13800000000' }, { token: user.token });
    const captchaKey = sent.body.data.captchaKey as string;
    expect(captchaKey).toMatch(/^[0-9a-f]{16}$/);
    const wrong = await post(server, '/api/vendor/bilibili/login/sms/login', { telephone: '13800000000', captchaKey, code: '000000' }, { token: user.token });
    expect([wrong.status, wrong.body.error]).toEqual([400, 'bilibili: 请输入正确的短信验证码']);
    expect((await post(server, '/api/vendor/bilibili/login/sms/login', { telephone: '13800000000', captchaKey, code: '123456' }, { token: user.token })).status).toBe(204);
    expect((await get(server, '/api/vendor/bilibili/me', { token: user.token })).body.data.isLogin).toBe(true);
    bilibili.expireSessions();
    expect((await get(server, '/api/vendor/bilibili/me', { token: user.token })).body.data).toEqual({ isLogin: false, expired: true });
  });
});

describe('parsing', () => {
  it('reads BV and av ids, video links with p=, short links, episodes, seasons and live rooms, with or without an account', async () => {
    const user = await signUpUser(server, 'bparse');
    const parse = async (url: string) => {
      const response = await post(server, '/api/vendor/bilibili/parse', { url }, { token: user.token });
      return response.status === 200 ? response.body.data : [response.status, response.body.error];
    };
    const { video, series, live } = bilibili.fixtures;
    const pages = { title: video.title, actors: video.owner, videoInfos: video.pages.map((page) => ({ bvid: video.bvid, cid: page.cid, name: page.part, coverImage: `${bilibili.origin}/cover.jpg`, live: false })) };
    expect(await parse(video.bvid)).toEqual(pages);
    expect(await parse(`av${video.aid}`)).toEqual(pages);
    expect(await parse(`https://www.bilibili.com/video/${video.bvid}/?p=2&spm_id_from=333`)).toEqual(pages);
    expect(await parse('https://b23.tv/video')).toEqual(pages);
    const episodes = await parse(`https://www.bilibili.com/bangumi/play/ep${series.episodes[1].epid}`);
    expect([episodes.title, episodes.actors, episodes.videoInfos.map((info: { epid: number; cid: number; bvid: string }) => [info.epid, info.cid, info.bvid])]).toEqual([
      series.title,
      series.actors,
      series.episodes.map((episode) => [episode.epid, episode.cid, episode.bvid]),
    ]);
    expect(episodes.videoInfos[0].name).toBe('Stand-in series：第1话 The beginning');
    expect(await parse(`ss${series.seasonId}`)).toEqual(episodes);
    expect(await parse('b23.tv/series')).toEqual(episodes);
    expect(await parse(`https://live.bilibili.com/${live.shortId}?spm=1`)).toEqual({ title: live.title, actors: live.host, videoInfos: [{ cid: live.roomId, name: live.title, coverImage: `${bilibili.origin}/cover.jpg`, live: true }] });
    expect(await parse('https://example.com/watch?v=1')).toEqual([400, 'match failed']);
    expect(await parse('BV1Rem0ved00')).toEqual([400, BILIBILI_REMOVED]);
    expect(await parse('')).toEqual([400, 'url is empty']);
  });

  it('says in words when bilibili cannot be reached', async () => {
    await expect(new BilibiliClient(`http://${HOST}:9`).videoPage({ bvid: 'BV1St4nd1n01' }, {})).rejects.toMatchObject({ status: 502, message: BILIBILI_UNREACHABLE });
  });
});

describe('playing', () => {
  let owner: TestUser;
  let viewer: TestUser;
  let roomId = '';
  const as = (user: TestUser) => ({ token: user.token, roomId });
  const push = async (items: Record<string, unknown>[]) => {
    const pushed = await post(server, '/api/room/movie/pushs', items, as(owner));
    expect(pushed.status).toBe(200);
    return pushed.body.data as { id: string }[];
  };
  const play = async (id: string) => expect((await post(server, '/api/room/movie/current', { id }, as(owner))).status).toBe(204);
  const current = async (user: TestUser) => get(server, '/api/room/movie/current', as(user));

  beforeAll(async () => {
    owner = await signUpUser(server, 'bown');
    viewer = await signUpUser(server, 'bview');
    await bindByQr(owner);
    ({ roomId } = await createRoom(server, owner));
    expect((await post(server, '/api/room/login', { roomId, password: '' }, { token: viewer.token })).status).toBe(200);
  });

  it('plays two pushed episodes of a series with the creator’s account: a DASH manifest whose streams come through the proxy with bilibili’s Referer', async () => {
    const episodes = bilibili.fixtures.series.episodes;
    const added = await push(episodes.slice(0, 2).map((episode) => ({ name: episode.longTitle, proxy: true, live: false, vendorInfo: { vendor: 'bilibili', backend: '', bilibili: { bvid: episode.bvid, cid: episode.cid, epid: episode.epid, shared: true } } })));
    expect(added).toHaveLength(2);
    await play(added[1].id);
    const base = (await current(viewer)).body.data.movie.base;
    const query = `token=${viewer.token}&roomId=${roomId}`;
    expect(base).toEqual(
      expect.objectContaining({
        name: 'The middle',
        type: 'mpd',
        url: `/api/room/movie/proxy/${added[1].id}?${query}`,
        moreSources: [{ name: 'HEVC', type: 'mpd', url: `/api/room/movie/proxy/${added[1].id}?t=hevc&${query}` }],
        danmu: `/api/room/movie/proxy/${added[1].id}?t=danmu&${query}`,
        vendorInfo: { vendor: 'bilibili', backend: '', bilibili: { bvid: episodes[1].bvid, cid: episodes[1].cid, epid: episodes[1].epid, shared: true } },
      }),
    );
    const manifest = await fetch(`${server.url}${base.url}`);
    expect(manifest.headers.get('content-type')).toContain('application/dash+xml');
    const mpd = await manifest.text();
    // The creator is signed in: both H.264 qualities; HEVC only in the second manifest.
    expect([...mpd.matchAll(/codecs="([^"]+)"/g)].map((match) => match[1])).toEqual(['avc1.4d400d', 'avc1.42c00b', 'mp4a.40.2']);
    const streamUrl = /<BaseURL>([^<]+)<\/BaseURL>/.exec(mpd)![1].replace(/&amp;/g, '&');
    expect(streamUrl).toBe(`/api/room/movie/proxy/${added[1].id}?id=0&${query}`);
    const init = /<Initialization range="(\d+)-(\d+)"/.exec(mpd)!;
    const bytes = await fetch(`${server.url}${streamUrl}`, { headers: { Range: `bytes=${init[1]}-${init[2]}` } });
    const body = Buffer.from(await bytes.arrayBuffer());
    expect([bytes.status, body.length, body.toString('latin1', 4, 8)]).toEqual([206, Number(init[2]) - Number(init[1]) + 1, 'ftyp']);
    expect(bilibili.calls).toContain('/upos/avc-320.m4s');
    const hevc = await (await fetch(`${server.url}${base.moreSources[0].url}`)).text();
    expect([...hevc.matchAll(/codecs="([^"]+)"/g)].map((match) => match[1])).toEqual(['hev1.1.6.L60.90', 'mp4a.40.2']);
    const danmaku = await (await fetch(`${server.url}${base.danmu}`)).text();
    expect(danmaku).toContain('<d p="1.000,1,25,16777215');
    const outOfRange = await get(server, `/api/room/movie/proxy/${added[1].id}?id=99&${query}`);
    expect([outOfRange.status, outOfRange.body.error]).toEqual([400, 'stream id out of range']);
  });

  it('plays an unshared video with each viewer’s own account, tells a viewer without one to bind it, and converts subtitles to WebVTT', async () => {
    const { video } = bilibili.fixtures;
    const [added] = await push([{ name: video.pages[0].part, vendorInfo: { vendor: 'bilibili', bilibili: { bvid: video.bvid, cid: video.pages[0].cid, shared: false } } }]);
    await play(added.id);
    const refused = await current(viewer);
    expect([refused.status, refused.body.error]).toEqual([400, BILIBILI_BIND_TO_WATCH]);
    const mine = (await current(owner)).body.data.movie.base;
    expect(Object.keys(mine.subtitles)).toEqual([bilibili.fixtures.subtitle.name]);
    const vtt = await (await fetch(`${server.url}${mine.subtitles[bilibili.fixtures.subtitle.name].url}`)).text();
    expect(vtt).toBe('WEBVTT\n\n00:00:00.500 --> 00:00:03.000\n你好\n');
    await bindByQr(viewer);
    const theirs = (await current(viewer)).body.data.movie.base;
    expect(theirs.url).toContain(`token=${viewer.token}`);
    const stream = await fetch(`${server.url}${theirs.url.replace('?', '?id=0&')}`, { headers: { Range: 'bytes=0-99' } });
    expect(stream.status).toBe(206);
  });

  it('says in words that a video is region-locked, members-only or removed, and a live room off air', async () => {
    const { regionLocked, series } = bilibili.fixtures;
    const [locked, members, removed] = await push([
      { name: 'Locked', vendorInfo: { vendor: 'bilibili', bilibili: { bvid: regionLocked.bvid, cid: regionLocked.cid, shared: true } } },
      { name: 'Members', vendorInfo: { vendor: 'bilibili', bilibili: { epid: series.episodes[2].epid, cid: series.episodes[2].cid, shared: true } } },
      { name: 'Removed', vendorInfo: { vendor: 'bilibili', bilibili: { bvid: 'BV1Rem0ved00', cid: 1, shared: true } } },
    ]);
    const said = [];
    for (const movie of [locked, members, removed]) {
      await play(movie.id);
      const response = await current(viewer);
      said.push([response.status, response.body.error]);
    }
    expect(said).toEqual([
      [400, BILIBILI_REGION_LOCKED],
      [400, BILIBILI_MEMBERS_ONLY],
      [400, BILIBILI_REMOVED],
    ]);
    const [offAir] = await push([{ name: 'Off air', live: true, vendorInfo: { vendor: 'bilibili', bilibili: { cid: bilibili.fixtures.offAir.roomId, shared: true } } }]);
    await play(offAir.id);
    const notBroadcasting = await current(viewer);
    expect([notBroadcasting.status, notBroadcasting.body.error]).toEqual([400, 'bilibili: this live room is not broadcasting']);
    const incomplete = await post(server, '/api/room/movie/push', { name: 'x', vendorInfo: { vendor: 'bilibili', bilibili: { shared: true } } }, as(owner));
    expect([incomplete.status, incomplete.body.error]).toEqual([400, 'bvid and epid are empty']);
  });

  it('plays a live room as HLS through the proxy and streams its danmaku as Server-Sent Events', async () => {
    const { live } = bilibili.fixtures;
    const [added] = await push([{ name: live.title, live: true, vendorInfo: { vendor: 'bilibili', bilibili: { cid: live.roomId, shared: true } } }]);
    await play(added.id);
    const base = (await current(viewer)).body.data.movie.base;
    const query = `token=${viewer.token}&roomId=${roomId}`;
    expect([base.type, base.live, base.url, base.streamDanmu]).toEqual(['m3u8', true, `/api/room/movie/proxy/${added.id}?${query}`, `/api/room/movie/danmu/${added.id}?${query}`]);
    const playlist = await (await fetch(`${server.url}${base.url}`)).text();
    const segment = playlist.split('\n').find((line) => line.startsWith('/api/'))!;
    expect(segment).toMatch(new RegExp(`^/api/room/movie/proxy/${added.id}/m3u8/`));
    expect((await fetch(`${server.url}${segment}`)).status).toBe(200);

    const controller = new AbortController();
    const events = await fetch(`${server.url}${base.streamDanmu}`, { signal: controller.signal });
    expect(events.headers.get('content-type')).toContain('text/event-stream');
    await until(() => bilibili.danmakuViewers() === 1, 'the server joins the room’s danmaku');
    const reader = events.body!.getReader();
    let received = '';
    const reading = (async () => {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        received += Buffer.from(value).toString('utf8');
      }
    })().catch(() => undefined);
    await until(() => {
      bilibili.sendDanmaku(live.roomId, '弹幕 from the room');
      return received.includes('event: danmu\ndata: 弹幕 from the room\n\n');
    }, 'a comment arrives as an event');
    controller.abort();
    await reading;
    await until(() => bilibili.danmakuViewers() === 0, 'the last viewer gone, the server leaves the room');
    const notLive = await get(server, `/api/room/movie/danmu/${(await push([{ name: 'v', vendorInfo: { vendor: 'bilibili', bilibili: { bvid: 'BV1St4nd1n01', cid: 3101, shared: true } } }]))[0].id}?${query}`);
    expect([notLive.status, notLive.body.error]).toEqual([400, 'movie is not live']);
  });
});

describe('authorization matrix of the /api/vendor/bilibili routes (user level)', () => {
  it('refuses visitors, pending and banned users; answers users, admins and root for themselves', async () => {
    const routes: UserLevelRoute[] = [
      ['GET', '/api/vendor/backends/bilibili', undefined],
      ['GET', '/api/vendor/bilibili/me', undefined],
      ['GET', '/api/vendor/bilibili/login/captcha', undefined],
      ['POST', '/api/vendor/bilibili/login/qr', { key: '' }],
      ['POST', '/api/vendor/bilibili/login/sms/send', {}],
      ['POST', '/api/vendor/bilibili/login/sms/login', {}],
      ['POST', '/api/vendor/bilibili/parse', { url: '' }],
      ['POST', '/api/vendor/bilibili/logout', {}],
    ];
    await expectUserLevel(server, db, 'bm', routes, [[200, undefined], [200, undefined], [200, undefined], [400, 'key is empty'], [400, 'token is empty'], [400, 'telephone is empty'], [400, 'url is empty'], [204, undefined]]);
  });
});
