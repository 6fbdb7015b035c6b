/**
 * A client of bilibili's web API (docs/vendors.md "bilibili"), the calls SyncTV's Go vendor client
 * makes: QR and SMS sign-in (passport), the signed-in user (`nav`, which also names the WBI keys),
 * a video's pages (`x/web-interface/view`), a series' episodes (`pgc/view/web/season`), DASH play
 * URLs of both (`x/player/wbi/playurl`, WBI-signed; `pgc/player/web/playurl`), subtitles
 * (`x/player/v2` and the subtitle JSON), the danmaku file (`comment.bilibili.com/<cid>.xml`), live
 * rooms (`room/v1/Room/get_info`, `room/v1/Room/playUrl`, `xlive/web-room/v1/index/getDanmuInfo`)
 * and short links (`b23.tv`, read without following). bilibili answers HTTP 200 with
 * `{code, message, data|result}`; a code other than 0 becomes one of the texts below.
 *
 * Hosts are bilibili's own unless `origin` names one server standing in for all of them (the
 * tests' stand-in, e2e/support/bilibili-stand-in.ts): the paths do not overlap.
 */
import type { BilibiliPage, BilibiliVideoInfo } from '@/lib/contract/types';
import { HttpError } from '../errors';
import { signWbi, wbiKeysOf } from './bilibili-wbi';

/** Time bilibili has for one call (ms). */
export const BILIBILI_TIMEOUT_MS = 10_000;
/** How long (ms) the server goes without device ids after asking for them failed. */
const DEVICE_RETRY_MS = 10 * 60_000;
/** The User-Agent sent to bilibili and its CDN: a desktop browser's, as its web client is one. */
const BILIBILI_USER_AGENT = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
/** The Referer bilibili's API and CDN ask for. */
const BILIBILI_REFERER = 'https://www.bilibili.com';

/** The headers bilibili's CDN asks of a stream's requests: its Referer and a browser's User-Agent. */
export function bilibiliCdnHeaders(): Record<string, string> {
  return { Referer: BILIBILI_REFERER, 'User-Agent': BILIBILI_USER_AGENT };
}

/** 502: bilibili could not be reached or did not answer in time (companion text). */
export const BILIBILI_UNREACHABLE = 'bilibili: bilibili cannot be reached from this server';
/** 400: the video was removed, is hidden or does not exist (bilibili codes -404, 62002, 62004, 62012). */
export const BILIBILI_REMOVED = 'bilibili: this video was removed or does not exist';
/** 400: bilibili does not offer the video where this server is (code 6002003, -10403 without membership). */
export const BILIBILI_REGION_LOCKED = 'bilibili: this video is not available in the region of this server';
/** 400: only bilibili's paying members (大会员) may watch it (code -10403 naming membership, 87007, 87008). */
export const BILIBILI_MEMBERS_ONLY = 'bilibili: this video is for bilibili members (大会员) only';
/** 400: the stored sign-in is no longer taken (code -101): the account must be bound again. */
export const BILIBILI_LOGIN_EXPIRED = 'bilibili: the bilibili sign-in expired, bind the account again';
/** 400: bilibili refused the server's request as a robot's (codes -352, -412). */
export const BILIBILI_RISK_CONTROL = 'bilibili: bilibili refused this server for now, try again later';
/** 400: a live room pushed into a room is not broadcasting now (companion text). */
export const BILIBILI_OFF_AIR = 'bilibili: this live room is not broadcasting';
/** 400: the link or id is none of bilibili's (v0.9.11's text). */
export const BILIBILI_MATCH_FAILED = 'match failed';

/** Cookies by name (`SESSDATA`, `bili_jct`, `DedeUserID`, …). */
export type BilibiliCookies = Record<string, string>;

/** A QR sign-in's state, as v0.9.11 names it. */
export type QrStatus = 'notScanned' | 'scanned' | 'expired' | 'success';

/** What a parse names (`POST /api/vendor/bilibili/parse`'s answer and its videos): the shared wire shapes. */
export type { BilibiliPage, BilibiliVideoInfo };

/** One stream of a DASH play-URL answer (bilibili's `dash.video[]` / `dash.audio[]`). */
export interface BilibiliDashStream {
  id: number;
  baseUrl: string;
  bandwidth: number;
  mimeType: string;
  codecs: string;
  width: number;
  height: number;
  frameRate: string;
  sar: string;
  startWithSap: number;
  segmentBase: { initialization: string; indexRange: string };
}

/** A DASH play-URL answer: duration (s) and the video and audio streams. */
export interface BilibiliDash {
  durationSec: number;
  minBufferTimeSec: number;
  video: BilibiliDashStream[];
  audio: BilibiliDashStream[];
}

/** One subtitle of a video: its language's name and where its JSON is. */
export interface BilibiliSubtitle {
  name: string;
  url: string;
}

/** The text of a bilibili refusal `{code, message}`. */
export function refusalText(code: number, message: string): string {
  if ([-404, 62002, 62004, 62012].includes(code)) return BILIBILI_REMOVED;
  if (code === -101) return BILIBILI_LOGIN_EXPIRED;
  if (code === -352 || code === -412) return BILIBILI_RISK_CONTROL;
  if (code === 87007 || code === 87008 || (code === -10403 && /会员|vip/i.test(message))) return BILIBILI_MEMBERS_ONLY;
  if (code === 6002003 || code === -10403) return BILIBILI_REGION_LOCKED;
  return `bilibili: ${message || `error ${code}`}`;
}

interface Envelope {
  code?: number;
  message?: string;
  data?: unknown;
  result?: unknown;
}

/** The video links bilibili's own pages use (docs/vendors.md "Parsing a link"). */
const LINKS: [RegExp, 'bv' | 'av' | 'ss' | 'ep' | 'live'][] = [
  [/^(?:https?:\/\/(?:www\.|m\.)?bilibili\.com\/video\/)?(bv[0-9a-z]{10})(?:[/?#].*)?$/i, 'bv'],
  [/^(?:https?:\/\/(?:www\.|m\.)?bilibili\.com\/video\/)?av(\d+)(?:[/?#].*)?$/i, 'av'],
  [/^(?:https?:\/\/(?:www\.|m\.)?bilibili\.com\/bangumi\/play\/)?ss(\d+)(?:[/?#].*)?$/i, 'ss'],
  [/^(?:https?:\/\/(?:www\.|m\.)?bilibili\.com\/bangumi\/play\/)?ep(\d+)(?:[/?#].*)?$/i, 'ep'],
  [/^(?:https?:\/\/live\.bilibili\.com\/(?:h5\/)?)?(\d+)(?:[/?#].*)?$/i, 'live'],
];

/** What a link names: its kind and id. Short links (`b23.tv/…`) are `short`, to be resolved. */
export function matchLink(input: string): { kind: 'bv' | 'av' | 'ss' | 'ep' | 'live' | 'short'; id: string } | null {
  const text = input.trim();
  const short = /^(?:https?:\/\/)?(?:b23\.tv|bili2233\.cn)\/([0-9a-z]+)\/?$/i.exec(text);
  if (short) return { kind: 'short', id: short[1] };
  for (const [pattern, kind] of LINKS) {
    const match = pattern.exec(text);
    if (match) return { kind, id: kind === 'bv' ? `BV${match[1].slice(2)}` : match[1] };
  }
  return null;
}

/** The bilibili API for the server. */
export class BilibiliClient {
  private wbiKeys: { imgKey: string; subKey: string; atMs: number } | null = null;
  private buvid: { b3: string; b4: string; atMs: number } | null = null;

  /** `origin`: one server standing in for every bilibili host ("" for bilibili itself). */
  constructor(readonly origin = '') {}

  /** The URL of `path` on bilibili's `host` (or the stand-in). */
  url(host: 'api' | 'passport' | 'live' | 'comment' | 'short', path: string): string {
    if (this.origin) return `${this.origin}${path}`;
    const hosts = { api: 'api.bilibili.com', passport: 'passport.bilibili.com', live: 'api.live.bilibili.com', comment: 'comment.bilibili.com', short: 'b23.tv' };
    return `https://${hosts[host]}${path}`;
  }

  /** Headers of every call: a browser's User-Agent, bilibili's Referer, and `cookies` with the device ids. */
  private async headers(cookies: BilibiliCookies): Promise<Record<string, string>> {
    const all = { ...(await this.deviceCookies()), ...cookies };
    const cookie = Object.entries(all)
      .map(([name, value]) => `${name}=${value}`)
      .join('; ');
    return { 'User-Agent': BILIBILI_USER_AGENT, Referer: BILIBILI_REFERER, ...(cookie ? { Cookie: cookie } : {}) };
  }

  /**
   * The device ids (`buvid3`, `buvid4`) bilibili's web client carries, asked once
   * (`x/frontend/finger/spi`); without them bilibili refuses some calls as a robot's. None when
   * asking fails, and not asked again for DEVICE_RETRY_MS, so that a slow answer does not slow every call.
   */
  private async deviceCookies(): Promise<BilibiliCookies> {
    if (!this.buvid || (!this.buvid.b3 && Date.now() - this.buvid.atMs > DEVICE_RETRY_MS)) {
      this.buvid = { b3: '', b4: '', atMs: Date.now() };
      try {
        const response = await fetch(this.url('api', '/x/frontend/finger/spi'), { headers: { 'User-Agent': BILIBILI_USER_AGENT }, signal: AbortSignal.timeout(BILIBILI_TIMEOUT_MS) });
        const body = (await response.json()) as { data?: { b_3?: string; b_4?: string } };
        this.buvid = { b3: body.data?.b_3 ?? '', b4: body.data?.b_4 ?? '', atMs: Date.now() };
      } catch {
        return {};
      }
    }
    return this.buvid.b3 ? { buvid3: this.buvid.b3, buvid4: this.buvid.b4 } : {};
  }

  /**
   * One call; resolves with the answer's `data` (or `result`, for the series calls) and the
   * response. Throws 502 BILIBILI_UNREACHABLE, 400 refusalText for a code other than 0.
   */
  private async call<T>(url: string, cookies: BilibiliCookies, init: { method?: 'GET' | 'POST'; form?: Record<string, string> } = {}): Promise<{ data: T; response: Response }> {
    let response: Response;
    let body: Envelope;
    try {
      const headers = await this.headers(cookies);
      response = await fetch(url, {
        method: init.method ?? 'GET',
        headers: init.form ? { ...headers, 'Content-Type': 'application/x-www-form-urlencoded' } : headers,
        body: init.form ? new URLSearchParams(init.form).toString() : undefined,
        redirect: 'manual',
        signal: AbortSignal.timeout(BILIBILI_TIMEOUT_MS),
      });
      body = (await response.json()) as Envelope;
    } catch {
      throw new HttpError(502, BILIBILI_UNREACHABLE);
    }
    if (typeof body?.code !== 'number') throw new HttpError(502, BILIBILI_UNREACHABLE);
    if (body.code !== 0) throw new HttpError(400, refusalText(body.code, body.message ?? ''));
    return { data: (body.data ?? body.result) as T, response };
  }

  /** A new QR sign-in: the URL the QR code shows (bilibili's app opens it) and its key. */
  async newQr(): Promise<{ url: string; key: string }> {
    const { data } = await this.call<{ url: string; qrcode_key: string }>(this.url('passport', '/x/passport-login/web/qrcode/generate'), {});
    return { url: data.url, key: data.qrcode_key };
  }

  /** The state of the QR sign-in `key`, with the account's cookies once it succeeded. */
  async pollQr(key: string): Promise<{ status: QrStatus; cookies?: BilibiliCookies }> {
    const { data, response } = await this.call<{ code: number; message?: string }>(this.url('passport', `/x/passport-login/web/qrcode/poll?qrcode_key=${encodeURIComponent(key)}`), {});
    if (data.code === 86038) return { status: 'expired' };
    if (data.code === 86090) return { status: 'scanned' };
    if (data.code === 86101) return { status: 'notScanned' };
    if (data.code !== 0) throw new HttpError(400, refusalText(data.code, data.message ?? ''));
    return { status: 'success', cookies: this.cookiesOf(response) };
  }

  /** The cookies a sign-in set; throws 502 when it set no `SESSDATA`. */
  private cookiesOf(response: Response): BilibiliCookies {
    const cookies: BilibiliCookies = {};
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair.indexOf('=');
      if (at > 0) cookies[pair.slice(0, at).trim()] = pair.slice(at + 1).trim();
    }
    if (!cookies.SESSDATA) throw new HttpError(502, BILIBILI_UNREACHABLE);
    return cookies;
  }

  /** A Geetest captcha for the SMS sign-in: bilibili's token and Geetest's `gt` and `challenge`. */
  async captcha(): Promise<{ token: string; gt: string; challenge: string }> {
    const { data } = await this.call<{ token: string; geetest?: { gt: string; challenge: string } }>(this.url('passport', '/x/passport-login/captcha?source=main_web'), {});
    return { token: data.token, gt: data.geetest?.gt ?? '', challenge: data.geetest?.challenge ?? '' };
  }

  /** Sends the sign-in code to `telephone` (a mainland number, country code 86) after the captcha; resolves with bilibili's `captcha_key`. */
  async sendSms(request: { telephone: string; token: string; challenge: string; validate: string }): Promise<string> {
    const { data } = await this.call<{ captcha_key: string }>(this.url('passport', '/x/passport-login/web/sms/send'), {}, {
      method: 'POST',
      form: { cid: '86', tel: request.telephone, source: 'main_web', token: request.token, challenge: request.challenge, validate: request.validate, seccode: `${request.validate}|jordan` },
    });
    return data.captcha_key;
  }

  /** Signs in with the code sent by SMS; resolves with the account's cookies. */
  async smsLogin(request: { telephone: string; captchaKey: string; code: string }): Promise<BilibiliCookies> {
    const { response } = await this.call<unknown>(this.url('passport', '/x/passport-login/web/login/sms'), {}, {
      method: 'POST',
      form: { cid: '86', tel: request.telephone, code: request.code, source: 'main_web', captcha_key: request.captchaKey },
    });
    return this.cookiesOf(response);
  }

  /**
   * The `nav` answer for `cookies`: signed out (code -101), bilibili still names the WBI keys, which
   * are kept. Throws 502 BILIBILI_UNREACHABLE, 400 for another refusal.
   */
  private async nav(cookies: BilibiliCookies): Promise<NavData> {
    let body: Envelope;
    try {
      const response = await fetch(this.url('api', '/x/web-interface/nav'), { headers: await this.headers(cookies), signal: AbortSignal.timeout(BILIBILI_TIMEOUT_MS) });
      body = (await response.json()) as Envelope;
    } catch {
      throw new HttpError(502, BILIBILI_UNREACHABLE);
    }
    const data = (body?.data ?? {}) as NavData;
    if (data.wbi_img?.img_url) this.wbiKeys = { ...wbiKeysOf(data.wbi_img), atMs: Date.now() };
    if (body?.code !== 0 && body?.code !== -101) throw new HttpError(typeof body?.code === 'number' ? 400 : 502, typeof body?.code === 'number' ? refusalText(body.code, body.message ?? '') : BILIBILI_UNREACHABLE);
    return body.code === 0 ? data : { ...data, isLogin: false };
  }

  /** The signed-in user of `cookies` (`x/web-interface/nav`): `isLogin` false for cookies bilibili no longer takes. */
  async me(cookies: BilibiliCookies): Promise<{ isLogin: boolean; username: string; face: string; isVip: boolean }> {
    const data = await this.nav(cookies);
    if (!data.isLogin) return { isLogin: false, username: '', face: '', isVip: false };
    return { isLogin: true, username: data.uname ?? '', face: data.face ?? '', isVip: data.vipStatus === 1 };
  }

  /** The WBI keys, asked again every 10 minutes (bilibili changes them daily). */
  private async wbi(): Promise<{ imgKey: string; subKey: string }> {
    if (!this.wbiKeys || Date.now() - this.wbiKeys.atMs > 10 * 60_000) await this.nav({});
    if (!this.wbiKeys) throw new HttpError(502, BILIBILI_UNREACHABLE);
    return this.wbiKeys;
  }

  /** Where a short link leads (its `Location`), without following it. Throws 400 BILIBILI_MATCH_FAILED. */
  async resolveShort(id: string): Promise<string> {
    try {
      const response = await fetch(this.url('short', `/${id}`), { headers: { 'User-Agent': BILIBILI_USER_AGENT }, redirect: 'manual', signal: AbortSignal.timeout(BILIBILI_TIMEOUT_MS) });
      await response.body?.cancel();
      const location = response.headers.get('location');
      if (location) return location;
    } catch {
      throw new HttpError(502, BILIBILI_UNREACHABLE);
    }
    throw new HttpError(400, BILIBILI_MATCH_FAILED);
  }

  /** A video's pages (`x/web-interface/view`), by BV id or av number; one page takes the video's title. */
  async videoPage(id: { bvid?: string; aid?: string }, cookies: BilibiliCookies): Promise<BilibiliPage> {
    const query = id.bvid ? `bvid=${encodeURIComponent(id.bvid)}` : `aid=${encodeURIComponent(id.aid ?? '')}`;
    const { data } = await this.call<ViewData>(this.url('api', `/x/web-interface/view?${query}`), cookies);
    const pages = data.pages ?? [];
    return {
      title: data.title,
      actors: data.owner?.name ?? '',
      videoInfos: pages.map((page) => ({ bvid: data.bvid, cid: page.cid, name: pages.length === 1 ? data.title : page.part, coverImage: data.pic ?? '', live: false })),
    };
  }

  /** A series' episodes (`pgc/view/web/season`), by an episode's or the season's id. */
  async seasonPage(id: { epid?: string; ssid?: string }, cookies: BilibiliCookies): Promise<BilibiliPage> {
    const query = id.epid ? `ep_id=${encodeURIComponent(id.epid)}` : `season_id=${encodeURIComponent(id.ssid ?? '')}`;
    const { data } = await this.call<SeasonData>(this.url('api', `/pgc/view/web/season?${query}`), cookies);
    return {
      title: data.title,
      actors: data.actors ?? '',
      videoInfos: (data.episodes ?? []).map((episode) => ({
        bvid: episode.bvid,
        cid: episode.cid,
        epid: episode.ep_id ?? episode.id,
        name: episode.share_copy || episode.long_title || episode.title,
        coverImage: episode.cover ?? '',
        live: false,
      })),
    };
  }

  /** A live room (`room/v1/Room/get_info`) and its host's name (`live_user/v1/Master/info`); `cid` is the room's long id. */
  async livePage(roomId: string, cookies: BilibiliCookies): Promise<BilibiliPage> {
    const { data } = await this.call<{ room_id: number; uid: number; title: string; user_cover?: string; keyframe?: string }>(this.url('live', `/room/v1/Room/get_info?room_id=${encodeURIComponent(roomId)}`), cookies);
    const master = await this.call<{ info?: { uname?: string } }>(this.url('live', `/live_user/v1/Master/info?uid=${data.uid}`), cookies).catch(() => null);
    return { title: data.title, actors: master?.data.info?.uname ?? '', videoInfos: [{ cid: data.room_id, name: data.title, coverImage: data.user_cover || data.keyframe || '', live: true }] };
  }

  /**
   * The DASH streams of a video page (`x/player/wbi/playurl`, WBI-signed) or of a series' episode
   * (`pgc/player/web/playurl`), as many qualities as the account may watch (`fnval` 16 DASH | 128 4K).
   */
  async dash(target: { bvid?: string; cid?: number; epid?: number }, cookies: BilibiliCookies): Promise<BilibiliDash> {
    let answer: PlayUrlData;
    if (target.epid) {
      answer = (await this.call<PlayUrlData>(this.url('api', `/pgc/player/web/playurl?ep_id=${target.epid}&fnval=144&fourk=1`), cookies)).data;
    } else {
      const signed = signWbi({ bvid: target.bvid ?? '', cid: target.cid ?? 0, fnval: 144, fnver: 0, fourk: 1, platform: 'pc' }, await this.wbi(), Math.floor(Date.now() / 1000));
      answer = (await this.call<PlayUrlData>(this.url('api', `/x/player/wbi/playurl?${signed}`), cookies)).data;
    }
    if (!answer?.dash) throw new HttpError(400, BILIBILI_MEMBERS_ONLY);
    const stream = (raw: RawDashStream): BilibiliDashStream => ({
      id: raw.id,
      baseUrl: raw.baseUrl ?? raw.base_url ?? '',
      bandwidth: raw.bandwidth,
      mimeType: raw.mimeType ?? raw.mime_type ?? '',
      codecs: raw.codecs,
      width: raw.width ?? 0,
      height: raw.height ?? 0,
      frameRate: raw.frameRate ?? raw.frame_rate ?? '',
      sar: raw.sar ?? '',
      startWithSap: raw.startWithSap ?? raw.start_with_sap ?? 1,
      segmentBase: { initialization: raw.SegmentBase?.Initialization ?? raw.segment_base?.initialization ?? '', indexRange: raw.SegmentBase?.indexRange ?? raw.segment_base?.index_range ?? '' },
    });
    return {
      durationSec: answer.dash.duration,
      minBufferTimeSec: answer.dash.minBufferTime ?? answer.dash.min_buffer_time ?? 1.5,
      video: (answer.dash.video ?? []).map(stream),
      audio: (answer.dash.audio ?? []).map(stream),
    };
  }

  /** A video page's subtitles (`x/player/v2`; bilibili lists them to signed-in users only). */
  async subtitles(target: { bvid: string; cid: number }, cookies: BilibiliCookies): Promise<BilibiliSubtitle[]> {
    const { data } = await this.call<{ subtitle?: { subtitles?: { lan_doc: string; subtitle_url: string }[] } }>(this.url('api', `/x/player/v2?bvid=${encodeURIComponent(target.bvid)}&cid=${target.cid}`), cookies);
    return (data.subtitle?.subtitles ?? []).filter((subtitle) => subtitle.subtitle_url).map((subtitle) => ({ name: subtitle.lan_doc, url: subtitle.subtitle_url }));
  }

  /** A subtitle's lines (its JSON `body`: `from`/`to` in seconds, `content`). `url` may start with `//`. */
  async subtitleLines(url: string): Promise<{ from: number; to: number; content: string }[]> {
    const absolute = this.origin ? `${this.origin}${new URL(url, 'https://x').pathname}` : url.startsWith('//') ? `https:${url}` : url;
    try {
      const response = await fetch(absolute, { headers: { 'User-Agent': BILIBILI_USER_AGENT, Referer: BILIBILI_REFERER }, signal: AbortSignal.timeout(BILIBILI_TIMEOUT_MS) });
      const body = (await response.json()) as { body?: { from: number; to: number; content: string }[] };
      return body.body ?? [];
    } catch {
      throw new HttpError(502, BILIBILI_UNREACHABLE);
    }
  }

  /** A video page's danmaku file (XML), inflated when bilibili sent it deflated. */
  async danmakuXml(cid: number): Promise<string> {
    try {
      const response = await fetch(this.url('comment', `/${cid}.xml`), { headers: { 'User-Agent': BILIBILI_USER_AGENT, Referer: BILIBILI_REFERER, 'Accept-Encoding': 'deflate, gzip' }, signal: AbortSignal.timeout(BILIBILI_TIMEOUT_MS) });
      if (!response.ok) throw new Error(String(response.status));
      return await response.text();
    } catch {
      throw new HttpError(502, BILIBILI_UNREACHABLE);
    }
  }

  /** A live room's HLS playlist URL (`room/v1/Room/playUrl`, platform h5) at the best quality offered. */
  async liveHls(roomId: number, cookies: BilibiliCookies): Promise<string> {
    const { data } = await this.call<{ durl?: { url: string }[] }>(this.url('live', `/room/v1/Room/playUrl?cid=${roomId}&quality=4&platform=h5`), cookies);
    const url = data.durl?.[0]?.url;
    if (!url) throw new HttpError(400, BILIBILI_OFF_AIR);
    return url;
  }

  /**
   * Where a live room's danmaku come from (`xlive/web-room/v1/index/getDanmuInfo`): the WebSocket
   * address (`wss://host:port/sub`; `ws://` on a stand-in served over http) and the key to join with.
   */
  async liveDanmakuHost(roomId: number, cookies: BilibiliCookies): Promise<{ address: string; key: string }> {
    const { data } = await this.call<{ token: string; host_list?: { host: string; wss_port: number; ws_port: number }[] }>(this.url('live', `/xlive/web-room/v1/index/getDanmuInfo?id=${roomId}&type=0`), cookies);
    const host = data.host_list?.[0];
    if (!host) throw new HttpError(502, BILIBILI_UNREACHABLE);
    const plain = this.origin.startsWith('http:');
    return { address: `${plain ? 'ws' : 'wss'}://${host.host}:${plain ? host.ws_port : host.wss_port}/sub`, key: data.token };
  }
}

interface NavData {
  isLogin?: boolean;
  uname?: string;
  face?: string;
  vipStatus?: number;
  wbi_img?: { img_url?: string; sub_url?: string };
}

interface ViewData {
  bvid: string;
  title: string;
  pic?: string;
  owner?: { name?: string };
  pages?: { cid: number; part: string }[];
}

interface SeasonData {
  title: string;
  actors?: string;
  episodes?: { id?: number; ep_id?: number; bvid?: string; cid?: number; title: string; long_title?: string; share_copy?: string; cover?: string }[];
}

interface RawDashStream {
  id: number;
  baseUrl?: string;
  base_url?: string;
  bandwidth: number;
  mimeType?: string;
  mime_type?: string;
  codecs: string;
  width?: number;
  height?: number;
  frameRate?: string;
  frame_rate?: string;
  sar?: string;
  startWithSap?: number;
  start_with_sap?: number;
  SegmentBase?: { Initialization?: string; indexRange?: string };
  segment_base?: { initialization?: string; index_range?: string };
}

interface PlayUrlData {
  dash?: { duration: number; minBufferTime?: number; min_buffer_time?: number; video?: RawDashStream[]; audio?: RawDashStream[] };
}

