/**
 * A stand-in for bilibili, for tests (docs/vendors.md "bilibili", "Testing"): bilibili is on the
 * internet, so one server answers, on one origin, the calls the companion server makes to
 * api.bilibili.com, passport.bilibili.com, api.live.bilibili.com, comment.bilibili.com and b23.tv,
 * with the shapes of bilibili's public web API (`{code, message, data}`; `result` for series) and
 * its codes (86101 not scanned, 86090 scanned, 86038 expired; -101 signed out; -404 removed;
 * -10403 region or members only). Fixtures are our own:
 *
 * - a video `BV1St4nd1n01` of two pages, with a Chinese subtitle for signed-in users and a danmaku file;
 * - a region-locked video `BV1Reg1onL0k`, a removed `BV1Rem0ved00`;
 * - a series (season 4001) of three episodes (ep 5001–5003), the third for members only;
 * - a live room (short id 77, long id 7777) whose HLS loops the test clip and whose danmaku come over
 *   bilibili's live WebSocket protocol (`/sub`: join with the key, welcome, heartbeats, `DANMU_MSG`
 *   packets brotli-compressed as bilibili sends them), and one (8888) that is not broadcasting;
 * - short links `b23.tv/series` and `b23.tv/video`.
 *
 * Streams (./bilibili-media.ts: H.264 at two sizes, HEVC, AAC) are served at `/upos/…` with Range,
 * and only with bilibili's Referer (403 otherwise), as its CDN does. `playurl` checks the WBI
 * signature. A QR sign-in is confirmed by the test (`confirmScan`), as a phone would.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import path from 'node:path';
import zlib from 'node:zlib';
import send from '@fastify/send';
import { WebSocketServer, type WebSocket } from 'ws';
import { makeDecoder } from 'bilibili-live-ws/src/buffer';
import { signWbi } from '../../server/vendors/bilibili-wbi';
import { makeBilibiliMedia, type BilibiliMediaStream } from './bilibili-media';
import { listenOnLoopback } from './listen';

export interface BilibiliStandIn {
  origin: string;
  /** Paths asked for so far, oldest first. */
  calls: string[];
  /** The bilibili video, series, episodes and live room of the fixtures. */
  fixtures: typeof FIXTURES;
  /** Marks the newest QR code scanned (the phone shows "confirm"); `confirm` also signs in. */
  confirmScan(confirm?: boolean): void;
  /** Makes every QR code issued so far expired. */
  expireQrCodes(): void;
  /** Makes every sign-in so far refused (-101), as when the user signed out elsewhere. */
  expireSessions(): void;
  /** Sends a comment to everyone watching live room `roomId`'s danmaku; resolves with how many got it. */
  sendDanmaku(roomId: number, text: string): number;
  /** The live danmaku connections joined now. */
  danmakuViewers(): number;
  close(): Promise<void>;
}

export const FIXTURES = {
  video: { bvid: 'BV1St4nd1n01', aid: 170001, title: 'Stand-in video', owner: 'Stand-in uploader', pages: [{ cid: 3101, part: 'Part one' }, { cid: 3102, part: 'Part two' }] },
  regionLocked: { bvid: 'BV1Reg1onL0k', cid: 3201 },
  removed: { bvid: 'BV1Rem0ved00' },
  series: {
    seasonId: 4001,
    title: 'Stand-in series',
    actors: 'Voice A, Voice B',
    episodes: [
      { epid: 5001, bvid: 'BV1Ep1s0de01', cid: 3301, title: '1', longTitle: 'The beginning' },
      { epid: 5002, bvid: 'BV1Ep1s0de02', cid: 3302, title: '2', longTitle: 'The middle' },
      { epid: 5003, bvid: 'BV1Ep1s0de03', cid: 3303, title: '3', longTitle: 'For members' },
    ],
  },
  membersOnlyEpid: 5003,
  live: { shortId: 77, roomId: 7777, uid: 9001, title: 'Stand-in live', host: 'Stand-in streamer' },
  /** A live room that is not broadcasting. */
  offAir: { roomId: 8888, title: 'Stand-in off air' },
  subtitle: { name: '中文（自动生成）', lines: [{ from: 0.5, to: 3, content: '你好' }] },
  user: { uname: 'standin-bili', face: 'https://i0.hdslb.com/bfs/face/standin.jpg' },
} as const;

const WBI_KEYS = { imgKey: '7cd084941338484aae1ad9425b84077c', subKey: '4932caff0ff746eab6f01bf08b70ac45' };
const DANMAKU_TOKEN = 'stand-in-danmaku-key';
/** How long a QR code lasts (ms); bilibili's last 180 s. */
const QR_LIFETIME_MS = 180_000;

const json = (response: ServerResponse, body: unknown, headers: Record<string, string | string[]> = {}) =>
  void response.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', ...headers }).end(JSON.stringify(body));
const ok = (data: unknown) => ({ code: 0, message: '0', ttl: 1, data });
const refuse = (code: number, message: string) => ({ code, message, ttl: 1 });

/** A packet of bilibili's live protocol: a 16-byte header (length, header length, protocol, operation, sequence) and a body. */
function packet(operation: number, protocol: number, body: Buffer): Buffer {
  const head = Buffer.alloc(16);
  head.writeUInt32BE(16 + body.length, 0);
  head.writeUInt16BE(16, 4);
  head.writeUInt16BE(protocol, 6);
  head.writeUInt32BE(operation, 8);
  head.writeUInt32BE(1, 12);
  return Buffer.concat([head, body]);
}

const decodePackets = makeDecoder({ inflateAsync: (buffer) => zlib.inflateSync(buffer), brotliDecompressAsync: (buffer) => zlib.brotliDecompressSync(buffer), Buffer });

/**
 * Starts the stand-in on `host`; `mediaDir` is the test media folder (`e2e/media`). The streams are
 * made once per clip into the system's temporary directory and shared by every test process.
 */
export async function startBilibiliStandIn(options: { mediaDir: string; host?: string }): Promise<BilibiliStandIn> {
  const clip = path.join(options.mediaDir, 'mp4', 'clip.mp4');
  const media = makeBilibiliMedia(clip, path.join(os.tmpdir(), `synctv-bilibili-media-${fs.statSync(clip).size}`));
  const streams = new Map<string, BilibiliMediaStream>([...media.video, ...media.audio].map((stream) => [path.basename(stream.file), stream]));
  const calls: string[] = [];
  const qrCodes = new Map<string, { state: 'waiting' | 'scanned' | 'confirmed' | 'expired'; issuedMs: number }>();
  let newestQr = '';
  const sessions = new Set<string>();
  const smsKeys = new Map<string, string>();
  const liveStartMs = Date.now();
  let origin = '';

  const cookiesOf = (request: IncomingMessage) => Object.fromEntries((request.headers.cookie ?? '').split(/;\s*/).filter(Boolean).map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]));
  const signedIn = (request: IncomingMessage) => sessions.has(cookiesOf(request).SESSDATA ?? '');
  const signIn = () => {
    const session = crypto.randomBytes(12).toString('hex');
    sessions.add(session);
    const attributes = 'Path=/; Domain=.bilibili.com; Max-Age=15551000';
    return [`SESSDATA=${session}; ${attributes}; HttpOnly; Secure`, `bili_jct=${crypto.randomBytes(8).toString('hex')}; ${attributes}`, `DedeUserID=424242; ${attributes}`];
  };

  const dashOf = (quality: 'all' | 'low') => {
    const stream = (item: BilibiliMediaStream) => ({
      id: item.id,
      baseUrl: `${origin}/upos/${path.basename(item.file)}?deadline=${Math.floor(Date.now() / 1000) + 7200}&upsig=${crypto.randomBytes(8).toString('hex')}`,
      backupUrl: [],
      bandwidth: item.bandwidth,
      mimeType: item.mimeType,
      codecs: item.codecs,
      width: item.width,
      height: item.height,
      frameRate: item.width ? '30.000' : '',
      sar: item.width ? '1:1' : '',
      startWithSap: 1,
      SegmentBase: { Initialization: item.initialization, indexRange: item.indexRange },
      segment_base: { initialization: item.initialization, index_range: item.indexRange },
      codecid: item.codecs.startsWith('hev') ? 12 : 7,
    });
    // Signed out, bilibili offers the lowest quality only.
    const video = quality === 'all' ? media.video : media.video.filter((item) => item.id === 16);
    return {
      quality: video[0].id,
      format: 'mp4',
      accept_quality: [...new Set(video.map((item) => item.id))],
      support_formats: [
        { quality: 32, format: 'flv480', new_description: '480P 清晰', display_desc: '480P' },
        { quality: 16, format: 'mp4', new_description: '360P 流畅', display_desc: '360P' },
      ],
      dash: { duration: media.durationSec, minBufferTime: 1.5, min_buffer_time: 1.5, video: video.map(stream), audio: media.audio.map(stream) },
    };
  };

  const findVideo = (url: URL) => {
    const bvid = url.searchParams.get('bvid') ?? '';
    const aid = url.searchParams.get('aid') ?? '';
    if (bvid === FIXTURES.video.bvid || aid === String(FIXTURES.video.aid)) return { kind: 'video' as const };
    if (bvid === FIXTURES.regionLocked.bvid) return { kind: 'region' as const };
    const episode = FIXTURES.series.episodes.find((item) => item.bvid === bvid);
    if (episode) return { kind: 'episode' as const, episode };
    return null;
  };

  const livePlaylist = () => {
    // A sliding window of four 2-s segments over the looped clip (20 segments), as a live stream.
    const newest = Math.floor((Date.now() - liveStartMs) / 2000) + 3;
    const first = newest - 3;
    const lines = ['#EXTM3U', '#EXT-X-VERSION:3', '#EXT-X-TARGETDURATION:2', `#EXT-X-MEDIA-SEQUENCE:${first}`, `#EXT-X-DISCONTINUITY-SEQUENCE:${Math.floor(first / 20)}`];
    for (let index = first; index <= newest; index += 1) {
      if (index % 20 === 0 && index !== first) lines.push('#EXT-X-DISCONTINUITY');
      lines.push('#EXTINF:2.000,', `seg-${index}.ts`);
    }
    return `${lines.join('\n')}\n`;
  };

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://stand-in');
    const route = url.pathname;
    calls.push(route);
    let match: RegExpExecArray | null;
    if (route === '/x/frontend/finger/spi') return json(response, ok({ b_3: 'STANDIN-BUVID3infoc', b_4: 'STANDIN-BUVID4' }));
    if (route === '/x/passport-login/web/qrcode/generate') {
      const key = crypto.randomBytes(16).toString('hex');
      qrCodes.set(key, { state: 'waiting', issuedMs: Date.now() });
      newestQr = key;
      return json(response, ok({ url: `https://passport.bilibili.com/h5-app/passport/login/scan?navhide=1&qrcode_key=${key}&from=`, qrcode_key: key }));
    }
    if (route === '/x/passport-login/web/qrcode/poll') {
      const code = qrCodes.get(url.searchParams.get('qrcode_key') ?? '');
      if (!code || code.state === 'expired' || Date.now() - code.issuedMs > QR_LIFETIME_MS) return json(response, ok({ url: '', refresh_token: '', timestamp: 0, code: 86038, message: '二维码已失效' }));
      if (code.state === 'waiting') return json(response, ok({ url: '', refresh_token: '', timestamp: 0, code: 86101, message: '未扫码' }));
      if (code.state === 'scanned') return json(response, ok({ url: '', refresh_token: '', timestamp: 0, code: 86090, message: '二维码已扫码未确认' }));
      code.state = 'expired';
      return json(response, ok({ url: 'https://passport.biligame.com/crossDomain?…', refresh_token: 'refresh', timestamp: Date.now(), code: 0, message: '' }), { 'Set-Cookie': signIn() });
    }
    if (route === '/x/passport-login/captcha') return json(response, ok({ type: 'geetest', token: 'captcha-token', geetest: { challenge: 'geetest-challenge', gt: 'geetest-gt' } }));
    if (route === '/x/passport-login/web/sms/send' && request.method === 'POST') {
      const form = new URLSearchParams(await bodyText(request));
      if (form.get('token') !== 'captcha-token' || !form.get('validate')) return json(response, refuse(-105, '验证码错误'));
      const key = crypto.randomBytes(8).toString('hex');
      smsKeys.set(key, form.get('tel') ?? '');
      return json(response, ok({ captcha_key: key }));
    }
    if (route === '/x/passport-login/web/login/sms' && request.method === 'POST') {
      const form = new URLSearchParams(await bodyText(request));
      if (smsKeys.get(form.get('captcha_key') ?? '') !== form.get('tel') || form.get('code') !== '123456') return json(response, refuse(1006, '请输入正确的短信验证码'));
      return json(response, ok({ is_new: false, status: 0, url: '' }), { 'Set-Cookie': signIn() });
    }
    if (route === '/x/web-interface/nav') {
      const wbi_img = { img_url: `https://i0.hdslb.com/bfs/wbi/${WBI_KEYS.imgKey}.png`, sub_url: `https://i0.hdslb.com/bfs/wbi/${WBI_KEYS.subKey}.png` };
      if (!signedIn(request)) return json(response, { ...refuse(-101, '账号未登录'), data: { isLogin: false, wbi_img } });
      return json(response, ok({ isLogin: true, uname: FIXTURES.user.uname, face: FIXTURES.user.face, vipStatus: 1, mid: 424242, wbi_img }));
    }
    if (route === '/x/web-interface/view') {
      const found = findVideo(url);
      if (!found) return json(response, refuse(-404, '啥都木有'));
      if (found.kind === 'region') return json(response, ok({ bvid: FIXTURES.regionLocked.bvid, title: 'Locked', pic: '', owner: { name: 'x' }, pages: [{ cid: FIXTURES.regionLocked.cid, part: 'Locked' }] }));
      const video = FIXTURES.video;
      return json(response, ok({ bvid: video.bvid, aid: video.aid, title: video.title, pic: `${origin}/cover.jpg`, owner: { name: video.owner, mid: 1 }, pages: video.pages.map((page, index) => ({ ...page, page: index + 1, duration: 40 })) }));
    }
    if (route === '/x/player/wbi/playurl') {
      const params = Object.fromEntries([...url.searchParams].filter(([name]) => name !== 'w_rid' && name !== 'wts'));
      if (signWbi(params, WBI_KEYS, Number(url.searchParams.get('wts'))) !== url.search.slice(1)) return json(response, refuse(-403, '访问权限不足'));
      const found = findVideo(url);
      if (!found) return json(response, refuse(-404, '啥都木有'));
      if (found.kind === 'region') return json(response, refuse(-10403, '抱歉您所在地区不可观看！'));
      return json(response, ok(dashOf(signedIn(request) ? 'all' : 'low')));
    }
    if (route === '/x/player/v2') {
      const subtitles = signedIn(request) && url.searchParams.get('bvid') === FIXTURES.video.bvid ? [{ id: 1, lan: 'ai-zh', lan_doc: FIXTURES.subtitle.name, subtitle_url: `//${new URL(origin).host}/bfs/subtitle/standin.json` }] : [];
      return json(response, ok({ subtitle: { allow_submit: false, subtitles } }));
    }
    if (route === '/bfs/subtitle/standin.json') return json(response, { font_size: 0.4, body: FIXTURES.subtitle.lines.map((line, index) => ({ ...line, sid: index + 1, location: 2 })) });
    if ((match = /^\/(\d+)\.xml$/.exec(route))) {
      const xml = `<?xml version="1.0" encoding="UTF-8"?><i><chatserver>chat.bilibili.com</chatserver><chatid>${match[1]}</chatid><d p="1.000,1,25,16777215,0,0,0,0,1">first comment</d><d p="2.500,1,25,16711680,0,0,0,0,2">second comment</d></i>`;
      return void response.writeHead(200, { 'Content-Type': 'text/xml' }).end(xml);
    }
    if (route === '/pgc/view/web/season') {
      const series = FIXTURES.series;
      const known = url.searchParams.get('season_id') === String(series.seasonId) || series.episodes.some((episode) => url.searchParams.get('ep_id') === String(episode.epid));
      if (!known) return json(response, refuse(-404, '啥都木有'));
      return json(response, {
        code: 0,
        message: 'success',
        result: {
          season_id: series.seasonId,
          title: series.title,
          actors: series.actors,
          episodes: series.episodes.map((episode) => ({ id: episode.epid, ep_id: episode.epid, bvid: episode.bvid, cid: episode.cid, title: episode.title, long_title: episode.longTitle, share_copy: `${series.title}：第${episode.title}话 ${episode.longTitle}`, cover: `${origin}/cover.jpg` })),
        },
      });
    }
    if (route === '/pgc/player/web/playurl') {
      const epid = Number(url.searchParams.get('ep_id'));
      if (!FIXTURES.series.episodes.some((episode) => episode.epid === epid)) return json(response, refuse(-404, '啥都木有'));
      if (epid === FIXTURES.membersOnlyEpid) return json(response, refuse(-10403, '大会员专享限制'));
      return json(response, { code: 0, message: 'success', result: dashOf(signedIn(request) ? 'all' : 'low') });
    }
    if (route === '/room/v1/Room/get_info') {
      const id = Number(url.searchParams.get('room_id'));
      if (id === FIXTURES.offAir.roomId) return json(response, ok({ room_id: id, short_id: 0, uid: FIXTURES.live.uid, title: FIXTURES.offAir.title, live_status: 0, user_cover: '' }));
      if (id !== FIXTURES.live.shortId && id !== FIXTURES.live.roomId) return json(response, refuse(1, '房间不存在'));
      return json(response, ok({ room_id: FIXTURES.live.roomId, short_id: FIXTURES.live.shortId, uid: FIXTURES.live.uid, title: FIXTURES.live.title, live_status: 1, user_cover: `${origin}/cover.jpg` }));
    }
    if (route === '/live_user/v1/Master/info') return json(response, ok({ info: { uid: FIXTURES.live.uid, uname: FIXTURES.live.host, face: '' } }));
    if (route === '/room/v1/Room/playUrl') {
      if (Number(url.searchParams.get('cid')) === FIXTURES.offAir.roomId) return json(response, ok({ current_quality: 0, accept_quality: [], durl: [] }));
      if (Number(url.searchParams.get('cid')) !== FIXTURES.live.roomId) return json(response, refuse(19002003, '房间信息不存在'));
      return json(response, ok({ current_quality: 4, accept_quality: ['4'], durl: [{ url: `${origin}/live-hls/${FIXTURES.live.roomId}/index.m3u8?expires=${Date.now()}`, order: 1 }] }));
    }
    if (route === '/xlive/web-room/v1/index/getDanmuInfo') {
      const { hostname, port } = new URL(origin);
      return json(response, ok({ token: DANMAKU_TOKEN, host_list: [{ host: hostname, port: Number(port), wss_port: Number(port), ws_port: Number(port) }] }));
    }
    if (route === '/series' || route === '/video') {
      const target = route === '/series' ? `https://www.bilibili.com/bangumi/play/ss${FIXTURES.series.seasonId}?share_source=copy_web` : `https://www.bilibili.com/video/${FIXTURES.video.bvid}?p=2&share_medium=android`;
      return void response.writeHead(302, { Location: target }).end();
    }
    // The CDN: only with bilibili's Referer, as bilibili's does.
    const fromBilibili = (request.headers.referer ?? '').startsWith('https://www.bilibili.com');
    if ((match = /^\/upos\/([\w.-]+)$/.exec(route)) && streams.has(match[1])) {
      if (!fromBilibili) return void response.writeHead(403).end();
      const file = streams.get(match[1])!.file;
      const { statusCode, headers, stream } = await send(request, path.basename(file), { root: path.dirname(file) });
      response.writeHead(statusCode, { ...headers, 'Content-Type': 'video/mp4' });
      return void stream.pipe(response);
    }
    if (route === `/live-hls/${FIXTURES.live.roomId}/index.m3u8`) {
      if (!fromBilibili) return void response.writeHead(403).end();
      return void response.writeHead(200, { 'Content-Type': 'application/vnd.apple.mpegurl', 'Cache-Control': 'no-cache' }).end(livePlaylist());
    }
    if ((match = new RegExp(`^/live-hls/${FIXTURES.live.roomId}/seg-(\\d+)\\.ts$`).exec(route))) {
      if (!fromBilibili) return void response.writeHead(403).end();
      const segment = path.join(options.mediaDir, 'clip', `seg${String(Number(match[1]) % 20).padStart(3, '0')}.m2ts`);
      return void response.writeHead(200, { 'Content-Type': 'video/mp2t' }).end(fs.readFileSync(segment));
    }
    if (route === '/cover.jpg') return void response.writeHead(404).end();
    return void response.writeHead(404).end();
  };

  const server = createServer((request, response) => {
    handle(request, response).catch(() => {
      if (!response.headersSent) response.writeHead(500);
      response.end();
    });
  });

  // The live danmaku server: bilibili's protocol over a WebSocket at /sub.
  const sockets = new WebSocketServer({ server, path: '/sub' });
  const viewers = new Map<WebSocket, number>();
  sockets.on('connection', (socket) => {
    socket.on('message', (data: Buffer) => {
      void decodePackets(Buffer.from(data)).then(
        (packets) => {
          for (const item of packets) {
            const operation = item.buf.readUInt32BE(8);
            if (operation === 7) {
              // The join's body is JSON under protocol 1, which the library's decoder leaves unread.
              const join = JSON.parse(item.buf.subarray(16).toString('utf8')) as { roomid?: number; key?: string };
              if (join.key !== DANMAKU_TOKEN || join.roomid !== FIXTURES.live.roomId) return socket.close();
              viewers.set(socket, join.roomid);
              socket.send(packet(8, 1, Buffer.from('{"code":0}')));
            } else if (operation === 2) {
              const popularity = Buffer.alloc(4);
              popularity.writeUInt32BE(1234);
              socket.send(packet(3, 1, popularity));
            }
          }
        },
        () => socket.close(),
      );
    });
    socket.on('close', () => viewers.delete(socket));
  });

  const listening = await listenOnLoopback(server, options.host);
  origin = listening.origin;
  return {
    origin,
    calls,
    fixtures: FIXTURES,
    confirmScan(confirm = true) {
      const code = qrCodes.get(newestQr);
      if (code) code.state = confirm ? 'confirmed' : 'scanned';
    },
    expireQrCodes() {
      for (const code of qrCodes.values()) code.state = 'expired';
    },
    expireSessions() {
      sessions.clear();
    },
    sendDanmaku(roomId, text) {
      const message = { cmd: 'DANMU_MSG', info: [[0, 1, 25, 16777215, Date.now(), 0, 0, '', 0, 0, 0, '', 0, '{}', '{}', {}], text, [1, 'viewer', 0, 0, 0, 10000, 1, ''], [], [0, 0, 0, '>50000', 0], ['', ''], 0, 0, null, { ts: 0, ct: '' }, 0, 0, null, null, 0, 0] };
      const inner = packet(5, 0, Buffer.from(JSON.stringify(message)));
      const outer = packet(5, 3, zlib.brotliCompressSync(inner));
      let count = 0;
      for (const [socket, room] of viewers) {
        if (room !== roomId) continue;
        socket.send(outer);
        count += 1;
      }
      return count;
    },
    danmakuViewers: () => viewers.size,
    close: async () => {
      for (const socket of viewers.keys()) socket.terminate();
      sockets.close();
      await listening.close();
    },
  };
}

async function bodyText(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
