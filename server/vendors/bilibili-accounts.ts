/**
 * Users' bilibili accounts (docs/vendors.md "bilibili"): the cookies of a QR or SMS sign-in,
 * sealed in `vendor_bindings` (vendor `bilibili`, server id ""), and what a room needs to play a
 * bilibili video with someone's account: its DASH streams and subtitles, cached for
 * BILIBILI_CACHE_MS (bilibili's stream URLs last about two hours), and its danmaku file.
 */
import { LRUCache } from 'lru-cache';
import type { Store } from '../db';
import type { VendorCipher } from './credentials';
import type { BilibiliClient, BilibiliCookies, BilibiliDash, BilibiliSubtitle } from './bilibili';
import { BilibiliDanmaku } from './bilibili-danmaku';

/** How long (ms) a video's streams and subtitles are used before bilibili is asked again. */
export const BILIBILI_CACHE_MS = 20 * 60 * 1000;
/** How long (ms) a live room's HLS address is used: players reload the playlist every few seconds, bilibili's addresses last an hour. */
export const LIVE_URL_CACHE_MS = 5 * 60 * 1000;
/** Entries kept per cache at most (least recently used dropped first). */
const MAX_CACHED = 2000;
/** The host column of a binding (bilibili has one). */
const HOST = 'bilibili.com';

/** What a video is to bilibili: a page (bvid, cid) or a series' episode (epid). */
export interface BilibiliTarget {
  bvid?: string;
  cid?: number;
  epid?: number;
}

/** Users' bilibili accounts over one store. */
export class BilibiliAccounts {
  private readonly dashes = new LRUCache<string, BilibiliDash>({ max: MAX_CACHED, ttl: BILIBILI_CACHE_MS });
  private readonly subtitleLists = new LRUCache<string, BilibiliSubtitle[]>({ max: MAX_CACHED, ttl: BILIBILI_CACHE_MS });
  private readonly danmakuFiles = new LRUCache<number, string>({ max: 200, ttl: BILIBILI_CACHE_MS });
  private readonly liveUrls = new LRUCache<string, string>({ max: 500, ttl: LIVE_URL_CACHE_MS });
  /** Live rooms' danmaku, one connection per room on this instance. */
  readonly liveDanmaku: BilibiliDanmaku;

  constructor(
    private readonly store: Store,
    private readonly cipher: VendorCipher,
    readonly client: BilibiliClient,
  ) {
    this.liveDanmaku = new BilibiliDanmaku(client);
  }

  /** Closes the live rooms' danmaku connections (the server is closing). */
  close(): void {
    this.liveDanmaku.close();
  }

  private static context(userId: string): string {
    return `bilibili:${userId}:`;
  }

  /** Stores the cookies of a sign-in as the user's account (replacing one bound before). */
  async bind(userId: string, cookies: BilibiliCookies, nowMs: number): Promise<void> {
    await this.store.vendorBindings.save({ userId, vendor: 'bilibili', serverId: '', host: HOST, credentials: this.cipher.seal(JSON.stringify(cookies), BilibiliAccounts.context(userId)) }, nowMs);
    this.forget(userId);
  }

  /** Removes the account (nothing when there is none, as v0.9.11). */
  async unbind(userId: string): Promise<void> {
    await this.store.vendorBindings.delete(userId, 'bilibili', '');
    this.forget(userId);
  }

  /** The user's cookies, or null without an account. Throws CredentialsUnreadable. */
  async cookies(userId: string): Promise<BilibiliCookies | null> {
    const binding = await this.store.vendorBindings.find(userId, 'bilibili', '');
    return binding ? (JSON.parse(this.cipher.open(binding.credentials, BilibiliAccounts.context(userId))) as BilibiliCookies) : null;
  }

  /**
   * `GET /api/vendor/bilibili/me`: `{isLogin: false}` without an account; `{isLogin: false, expired:
   * true}` (a companion extension) when one is bound but bilibili no longer takes its sign-in.
   */
  async me(userId: string): Promise<{ isLogin: boolean; expired?: boolean; info?: { username: string; face: string; isVip: boolean } }> {
    const cookies = await this.cookies(userId);
    if (!cookies) return { isLogin: false };
    const { isLogin, ...info } = await this.client.me(cookies);
    return isLogin ? { isLogin, info } : { isLogin: false, expired: true };
  }

  /** The DASH streams of `target` as `userId`'s account sees it ("" = no account), from the cache when younger than BILIBILI_CACHE_MS. */
  async dash(userId: string, target: BilibiliTarget): Promise<BilibiliDash> {
    const key = `${userId}:${target.bvid ?? ''}:${target.cid ?? 0}:${target.epid ?? 0}`;
    const cached = this.dashes.get(key);
    if (cached) return cached;
    const dash = await this.client.dash(target, (userId && (await this.cookies(userId))) || {});
    this.dashes.set(key, dash);
    return dash;
  }

  /** A video page's subtitles as `userId`'s account sees them (bilibili lists none without one). */
  async subtitles(userId: string, target: BilibiliTarget): Promise<BilibiliSubtitle[]> {
    const cookies = userId ? await this.cookies(userId) : null;
    if (!cookies || !target.bvid || !target.cid) return [];
    const key = `${userId}:${target.bvid}:${target.cid}`;
    const cached = this.subtitleLists.get(key);
    if (cached) return cached;
    const subtitles = await this.client.subtitles({ bvid: target.bvid, cid: target.cid }, cookies);
    this.subtitleLists.set(key, subtitles);
    return subtitles;
  }

  /**
   * Live room `roomId`'s HLS playlist address as `userId`'s account gets it ("" = none), cached
   * LIVE_URL_CACHE_MS. Throws 400 `bilibili: this live room is not broadcasting` and the client's texts.
   */
  async liveHls(userId: string, roomId: number): Promise<string> {
    const key = `${userId}:${roomId}`;
    const cached = this.liveUrls.get(key);
    if (cached) return cached;
    const url = await this.client.liveHls(roomId, (userId && (await this.cookies(userId))) || {});
    this.liveUrls.set(key, url);
    return url;
  }

  /** A video page's danmaku file (bilibili's XML), cached BILIBILI_CACHE_MS. */
  async danmakuXml(cid: number): Promise<string> {
    const cached = this.danmakuFiles.get(cid);
    if (cached !== undefined) return cached;
    const xml = await this.client.danmakuXml(cid);
    this.danmakuFiles.set(cid, xml);
    return xml;
  }

  private forget(userId: string): void {
    for (const cache of [this.dashes, this.subtitleLists]) for (const key of [...cache.keys()]) if (key.startsWith(`${userId}:`)) cache.delete(key);
  }
}
