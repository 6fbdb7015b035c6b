/**
 * Users' Emby and Jellyfin accounts (docs/vendors.md "Emby and Jellyfin"): binding one
 * (`/api/vendor/emby/login`: which of the two answers and under which prefix, then sign-in), the
 * list of bound servers, browsing them for the add-movie picker (libraries, folders, series, seasons,
 * episodes, search), and what a room needs to play an Emby movie with its creator's account: the
 * media sources of an item, cached for SOURCE_CACHE_MS. The access token and user id are sealed
 * (./credentials.ts); no password is kept. A token the server no longer takes is told as
 * EMBY_SESSION_EXPIRED: the user signs in again.
 */
import { LRUCache } from 'lru-cache';
import type { Store } from '../db';
import { badRequest } from '../errors';
import type { VendorCipher } from './credentials';
import { normalizeVendorHost } from './http';
import type { EmbyChoice, EmbyClient, EmbyItem, EmbyMediaSource, EmbySession } from './emby';

/** 400 when the path names a server the user has not bound (v0.9.11's text). */
export const EMBY_SERVER_NOT_FOUND = 'emby server not found';
/** How long (ms) an item's media sources are used before the server is asked again. */
export const SOURCE_CACHE_MS = 10 * 60 * 1000;
/** Items whose sources are kept at most (least recently used dropped first). */
const MAX_CACHED_SOURCES = 2000;
/** How long (ms) a transcode nobody fetched runs before this server stops it. */
export const TRANSCODE_IDLE_MS = 60_000;
/** Library types that are containers of the user's libraries, not crumbs of a path. */
const ROOT_TYPES = new Set(['UserRootFolder', 'AggregateFolder']);

/** An entry of the picker: `path` is `<serverId>/<itemId>`; `type` the server's (Movie, Series, Season, Episode, Folder, CollectionFolder …). */
export interface EmbyPickerItem {
  name: string;
  path: string;
  isDir: boolean;
  type: string;
}

/** `POST /api/vendor/emby/list`'s answer. */
export interface EmbyPickerList {
  paths: { name: string; path: string }[];
  items: EmbyPickerItem[];
  total: number;
}

/** What the sealed credentials hold. */
interface SealedEmby {
  token: string;
  userId: string;
  prefix: '' | '/emby';
}

/** Splits `<serverId>/<itemId>` (itemId "" = the libraries). Throws 400 `path is invalid`. */
export function splitEmbyPath(full: string): { serverId: string; itemId: string } {
  const parts = full.replace(/^\/+/, '').split('/');
  if (parts.length > 2 || !parts[0]) throw badRequest('path is invalid');
  return { serverId: parts[0], itemId: parts[1] ?? '' };
}

/** Users' Emby and Jellyfin accounts over one store. */
export class EmbyAccounts {
  /** Items' media sources by user, server and item (SOURCE_CACHE_MS). */
  private readonly sources = new LRUCache<string, EmbyMediaSource[]>({ max: MAX_CACHED_SOURCES, ttl: SOURCE_CACHE_MS });
  /** Items' ancestor ids by user, server and item (SOURCE_CACHE_MS): a library does not move often. */
  private readonly ancestorIds = new LRUCache<string, string[]>({ max: MAX_CACHED_SOURCES, ttl: SOURCE_CACHE_MS });
  /** Items' names by user, server and item (SOURCE_CACHE_MS). */
  private readonly names = new LRUCache<string, string>({ max: MAX_CACHED_SOURCES, ttl: SOURCE_CACHE_MS });

  /** The media servers' transcodes in use, by play session: whose, the sources' cache key, when last fetched (Unix ms). */
  private readonly transcodes = new Map<string, { session: EmbySession; cacheKey: string; usedMs: number }>();
  private readonly sweeper: NodeJS.Timeout;

  /** `transcodeIdleMs`: how long a transcode nobody fetched runs before it is stopped (TRANSCODE_IDLE_MS). */
  constructor(
    private readonly store: Store,
    private readonly cipher: VendorCipher,
    readonly client: EmbyClient,
    private readonly transcodeIdleMs = TRANSCODE_IDLE_MS,
  ) {
    this.sweeper = setInterval(() => void this.stopIdleTranscodes(Date.now()), Math.max(100, Math.min(transcodeIdleMs / 2, 30_000)));
    this.sweeper.unref();
  }

  /** Marks a transcode as started or fetched now (the proxy, for its master playlist), with the key of the sources that named it. */
  transcodeUsed(session: EmbySession, playSessionId: string, cacheKey: string): void {
    this.transcodes.set(playSessionId, { session, cacheKey, usedMs: Date.now() });
  }

  /**
   * Marks the transcode an entry URL of its playlists belongs to (its `PlaySessionId`) as fetched now;
   * one already stopped that a viewer still fetches (the media server starts it again) is watched again.
   */
  transcodeEntryUsed(session: EmbySession, entryUrl: string): void {
    const playSessionId = new URL(entryUrl).searchParams.get('PlaySessionId') ?? '';
    if (!playSessionId) return;
    const transcode = this.transcodes.get(playSessionId);
    if (transcode) transcode.usedMs = Date.now();
    else this.transcodes.set(playSessionId, { session, cacheKey: '', usedMs: Date.now() });
  }

  /**
   * Stops the transcodes nobody fetched for `transcodeIdleMs` (`DELETE /Videos/ActiveEncodings`) and
   * forgets their item's sources, so the next viewer starts a new play session. A server that cannot
   * be reached is left to stop its own (both Emby and Jellyfin end an unfetched transcode themselves).
   */
  async stopIdleTranscodes(nowMs: number): Promise<void> {
    for (const [playSessionId, transcode] of this.transcodes) {
      if (nowMs - transcode.usedMs < this.transcodeIdleMs) continue;
      this.transcodes.delete(playSessionId);
      this.sources.delete(transcode.cacheKey);
      await this.client.stopTranscode(transcode.session, playSessionId).catch(() => undefined);
    }
  }

  /** Stops the sweeper (the server is closing). */
  close(): void {
    clearInterval(this.sweeper);
  }

  private static context(userId: string, serverId: string): string {
    return `emby:${userId}:${serverId}`;
  }

  /**
   * Binds the account: finds the server at the host, signs in, stores the token sealed. Resolves
   * with the server's id. Throws 400 `host is required` / `host is invalid` / `emby: user name or
   * password is incorrect` / `local ip is not allowed`, 502 when no Emby or Jellyfin answers.
   */
  async bind(userId: string, hostInput: string, username: string, password: string, nowMs: number): Promise<string> {
    const host = normalizeVendorHost(hostInput);
    const server = await this.client.discover(host);
    const signedIn = await this.client.login(host, server.prefix, username, password);
    const serverId = signedIn.serverId || server.serverId;
    const sealed: SealedEmby = { token: signedIn.token, userId: signedIn.userId, prefix: server.prefix };
    await this.store.vendorBindings.save({ userId, vendor: 'emby', serverId, host, credentials: this.cipher.seal(JSON.stringify(sealed), EmbyAccounts.context(userId, serverId)) }, nowMs);
    this.forgetSources(userId, serverId);
    return serverId;
  }

  /** Removes the account. Throws 400 `emby server not found` when it was not bound. */
  async unbind(userId: string, serverId: string): Promise<void> {
    if (!(await this.store.vendorBindings.delete(userId, 'emby', serverId))) throw badRequest(EMBY_SERVER_NOT_FOUND);
    this.forgetSources(userId, serverId);
  }

  /** The user's bound servers, oldest first. */
  async binds(userId: string): Promise<{ serverId: string; host: string }[]> {
    return (await this.store.vendorBindings.ofUser(userId, 'emby')).map((binding) => ({ serverId: binding.serverId, host: binding.host }));
  }

  /** The session of the user on a bound server. Throws 400 `emby server not found`, CredentialsUnreadable. */
  async session(userId: string, serverId: string): Promise<EmbySession> {
    const binding = await this.store.vendorBindings.find(userId, 'emby', serverId);
    if (!binding) throw badRequest(EMBY_SERVER_NOT_FOUND);
    const sealed = JSON.parse(this.cipher.open(binding.credentials, EmbyAccounts.context(userId, serverId))) as SealedEmby;
    return { host: binding.host, prefix: sealed.prefix, userId: sealed.userId, token: sealed.token };
  }

  /** The user's account on a bound server. */
  async me(userId: string, serverId: string): Promise<{ id: string; name: string; serverId: string; isAdministrator: boolean }> {
    return await this.client.me(await this.session(userId, serverId));
  }

  /**
   * `POST /api/vendor/emby/list` (v0.9.11's shape): with `path` "" the servers when there are several
   * (the one server's libraries when there is one); `<serverId>/` its libraries; `<serverId>/<itemId>`
   * one page of that folder (a library, a folder, a series' seasons, a season's episodes); `keyword`
   * searches under it (all libraries under `<serverId>/`). Throws 400 `emby server not found`.
   */
  async browse(userId: string, request: { path: string; keyword: string; page: number; max: number }): Promise<EmbyPickerList> {
    let full = request.path;
    if (!full) {
      const bound = await this.binds(userId);
      if (bound.length === 0) throw badRequest(EMBY_SERVER_NOT_FOUND);
      if (bound.length > 1) {
        if (request.keyword) throw badRequest('keywords is not supported when not choose server (server id is empty)');
        const page = bound.slice((request.page - 1) * request.max, request.page * request.max);
        return { paths: [{ name: '', path: '' }], items: page.map((server) => ({ name: server.host, path: `${server.serverId}/`, isDir: true, type: 'server' })), total: bound.length };
      }
      full = `${bound[0].serverId}/`;
    }
    const { serverId, itemId } = splitEmbyPath(full);
    const session = await this.session(userId, serverId);
    const paths = [
      { name: '', path: '' },
      { name: session.host, path: `${serverId}/` },
    ];
    if (itemId) {
      const [item, ancestors] = await Promise.all([this.client.item(session, itemId), this.client.ancestors(session, itemId)]);
      for (const ancestor of ancestors.reverse()) if (!ROOT_TYPES.has(ancestor.type)) paths.push({ name: ancestor.name, path: `${serverId}/${ancestor.id}` });
      paths.push({ name: item.name, path: `${serverId}/${itemId}` });
    }
    const startIndex = (request.page - 1) * request.max;
    const listed =
      !itemId && !request.keyword
        ? await this.client.views(session).then(({ items, total }) => ({ items: items.slice(startIndex, startIndex + request.max), total }))
        : await this.client.items(session, { parentId: itemId, startIndex, limit: request.max, searchTerm: request.keyword });
    return { paths, items: listed.items.map((item) => pickerItem(serverId, item)), total: listed.total };
  }

  /**
   * The media sources of an item of the user's server (with `choice`, one source converted as asked:
   * one play session per choice, shared by whoever asks the same), from the cache when younger than
   * SOURCE_CACHE_MS, and the cache key. Throws 400 `emby: …` for an item the server does not have.
   */
  async mediaSources(userId: string, serverId: string, itemId: string, choice?: EmbyChoice): Promise<{ session: EmbySession; sources: EmbyMediaSource[]; cacheKey: string }> {
    const session = await this.session(userId, serverId);
    const key = `${EmbyAccounts.context(userId, serverId)}:${itemId}${choice ? `:${choice.mediaSourceId}:${choice.audioStreamIndex}:${choice.maxBitrate}` : ''}`;
    const cached = this.sources.get(key);
    if (cached) return { session, sources: cached, cacheKey: key };
    const sources = await this.client.playbackInfo(session, itemId, choice);
    this.sources.set(key, sources);
    return { session, sources, cacheKey: key };
  }

  /**
   * Checks that `itemId` is `folderId` or lies under it on the user's server (its ancestors, from the
   * cache when younger than SOURCE_CACHE_MS): a dynamic folder plays nothing outside itself. Throws 400
   * `sub path is not in parent path`, `emby: not found`, `emby server not found`.
   */
  async requireUnder(userId: string, serverId: string, folderId: string, itemId: string): Promise<void> {
    if (itemId === folderId) return;
    const key = `${EmbyAccounts.context(userId, serverId)}:${itemId}`;
    let ids = this.ancestorIds.get(key);
    if (!ids) {
      ids = (await this.client.ancestors(await this.session(userId, serverId), itemId)).map((ancestor) => ancestor.id);
      this.ancestorIds.set(key, ids);
    }
    if (!ids.includes(folderId)) throw badRequest('sub path is not in parent path');
  }

  /** The name of an item of the user's server, from the cache when younger than SOURCE_CACHE_MS. Throws 400 `emby: not found`. */
  async itemName(userId: string, serverId: string, itemId: string): Promise<string> {
    const key = `${EmbyAccounts.context(userId, serverId)}:${itemId}`;
    const cached = this.names.get(key);
    if (cached !== undefined) return cached;
    const { name } = await this.client.item(await this.session(userId, serverId), itemId);
    this.names.set(key, name);
    return name;
  }

  /** Throws 400 `emby server not found` unless the user bound the server. */
  async requireBinding(userId: string, serverId: string): Promise<void> {
    if (!(await this.store.vendorBindings.find(userId, 'emby', serverId))) throw badRequest(EMBY_SERVER_NOT_FOUND);
  }

  private forgetSources(userId: string, serverId: string): void {
    const prefix = `${EmbyAccounts.context(userId, serverId)}:`;
    for (const cache of [this.sources, this.ancestorIds, this.names]) for (const key of [...cache.keys()]) if (key.startsWith(prefix)) cache.delete(key);
  }
}

function pickerItem(serverId: string, item: EmbyItem): EmbyPickerItem {
  return { name: item.name, path: `${serverId}/${item.id}`, isDir: item.isFolder, type: item.type };
}
