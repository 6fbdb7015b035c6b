/**
 * Users' AList accounts (docs/vendors.md "AList"): binding one (`/api/vendor/alist/login`), the list
 * of bound servers, browsing them for the add-movie picker, and what a room needs to play an AList
 * movie with its creator's account: a folder's contents (dynamic folders) and a file's URL, cached
 * for FILE_CACHE_MS. The user's name and password hash are sealed (./credentials.ts); tokens live in
 * memory only, and a refused token is replaced by signing in again once.
 */
import { LRUCache } from 'lru-cache';
import type { Store, VendorBinding } from '../db';
import { badRequest } from '../errors';
import { AlistClient, AlistTokenRefused, alistServerId, type AlistFile, type AlistSession, type AlistUser } from './alist';
import type { VendorCipher } from './credentials';
import { normalizeVendorHost } from './http';

/** 400 when the path names a server the user has not bound (v0.9.11's text). */
export const ALIST_SERVER_NOT_FOUND = 'alist server not found';
/** What a movie's sealed AList folder password is bound to. */
const FOLDER_PASSWORD_CONTEXT = 'alist-folder-password';
/** How long (ms) a resolved file URL is used before AList is asked again (signed links expire). */
export const FILE_CACHE_MS = 10 * 60 * 1000;
/** Files resolved and kept at most (least recently used dropped first). */
const MAX_CACHED_FILES = 2000;

/** A crumb of the picker's path bar. */
export interface VendorPath {
  name: string;
  path: string;
}

/** An entry of the picker: `path` is `<serverId>/<path in AList>`. */
export interface AlistPickerItem {
  name: string;
  path: string;
  isDir: boolean;
  size: number;
  modified: string;
}

/** `POST /api/vendor/alist/list`'s answer. */
export interface AlistPickerList {
  paths: VendorPath[];
  items: AlistPickerItem[];
  total: number;
}

/** What the sealed credentials hold. */
interface SealedAlist {
  username: string;
  hashedPassword: string;
}

/** Splits `<serverId>/<path>` (a leading "/" allowed). Throws 400 `path is invalid`. */
export function splitAlistPath(full: string): { serverId: string; path: string } {
  const trimmed = full.replace(/^\/+/, '');
  const slash = trimmed.indexOf('/');
  if (slash <= 0) throw badRequest('path is invalid');
  return { serverId: trimmed.slice(0, slash), path: `/${trimmed.slice(slash + 1).replace(/^\/+|\/+$/g, '')}` };
}

/** `<serverId>/<path without its leading slash>`. */
export function joinAlistPath(serverId: string, path: string): string {
  return `${serverId}/${path.replace(/^\/+|\/+$/g, '')}`;
}

/** Joins `subPath` under `base`, refusing a result outside `base` (`..`). Throws 400 `sub path is not in parent path`. */
export function childPath(base: string, subPath: string): string {
  const parts: string[] = base.split('/').filter(Boolean);
  const depth = parts.length;
  for (const part of subPath.split('/')) {
    if (!part || part === '.') continue;
    if (part === '..') {
      if (parts.length <= depth) throw badRequest('sub path is not in parent path');
      parts.pop();
    } else parts.push(part);
  }
  return `/${parts.join('/')}`;
}

/** Users' AList accounts over one store. */
export class AlistAccounts {
  private readonly tokens = new Map<string, string>();
  /** Resolved files by user, server, path and folder password (signed links expire: FILE_CACHE_MS). */
  private readonly files = new LRUCache<string, AlistFile>({ max: MAX_CACHED_FILES, ttl: FILE_CACHE_MS });

  constructor(
    private readonly store: Store,
    private readonly cipher: VendorCipher,
    private readonly client: AlistClient,
  ) {}

  private static context(userId: string, serverId: string): string {
    return `alist:${userId}:${serverId}`;
  }

  /**
   * Binds the account: signs in (or, without a user name, checks that AList answers as a guest
   * would), then stores it sealed. `hashedPassword` as ./alist.ts alistPasswordHash makes it.
   * Throws 400 `host is required` / `host is invalid` / `alist: <AList's text>` (a wrong password), 400
   * `local ip is not allowed`, 502 when AList cannot be reached.
   */
  async bind(userId: string, hostInput: string, username: string, hashedPassword: string, nowMs: number): Promise<string> {
    const host = normalizeVendorHost(hostInput);
    const serverId = alistServerId(host);
    const token = username ? await this.client.login(host, username, hashedPassword) : '';
    if (!username) await this.client.me({ host, token });
    const sealed: SealedAlist = { username, hashedPassword };
    await this.store.vendorBindings.save({ userId, vendor: 'alist', serverId, host, credentials: this.cipher.seal(JSON.stringify(sealed), AlistAccounts.context(userId, serverId)) }, nowMs);
    this.tokens.set(AlistAccounts.context(userId, serverId), token);
    this.forgetFiles(userId, serverId);
    return serverId;
  }

  /** Removes the account. Throws 400 `alist server not found` when it was not bound. */
  async unbind(userId: string, serverId: string): Promise<void> {
    if (!(await this.store.vendorBindings.delete(userId, 'alist', serverId))) throw badRequest(ALIST_SERVER_NOT_FOUND);
    this.tokens.delete(AlistAccounts.context(userId, serverId));
    this.forgetFiles(userId, serverId);
  }

  /** The user's bound servers, oldest first. */
  async binds(userId: string): Promise<{ serverId: string; host: string }[]> {
    return (await this.store.vendorBindings.ofUser(userId, 'alist')).map((binding) => ({ serverId: binding.serverId, host: binding.host }));
  }

  /** The user's account on a server. Throws 400 `alist server not found`. */
  private async binding(userId: string, serverId: string): Promise<VendorBinding> {
    const binding = await this.store.vendorBindings.find(userId, 'alist', serverId);
    if (!binding) throw badRequest(ALIST_SERVER_NOT_FOUND);
    return binding;
  }

  /**
   * Runs `call` with a session on the user's server (`binding`, or the one looked up), signing in
   * again once when AList refuses the token. Throws 400 `alist server not found`, and what `call` throws.
   */
  private async withSession<T>(account: VendorBinding | { userId: string; serverId: string }, call: (session: AlistSession) => Promise<T>): Promise<T> {
    const binding = 'credentials' in account ? account : await this.binding(account.userId, account.serverId);
    const key = AlistAccounts.context(binding.userId, binding.serverId);
    const signIn = async () => {
      const sealed = JSON.parse(this.cipher.open(binding.credentials, key)) as SealedAlist;
      const token = sealed.username ? await this.client.login(binding.host, sealed.username, sealed.hashedPassword) : '';
      this.tokens.set(key, token);
      return token;
    };
    const cached = this.tokens.get(key);
    const token = cached ?? (await signIn());
    try {
      return await call({ host: binding.host, token });
    } catch (error) {
      if (!(error instanceof AlistTokenRefused) || cached === undefined) throw error;
      return await call({ host: binding.host, token: await signIn() });
    }
  }

  /** The AList user of a bound server. */
  async me(userId: string, serverId: string): Promise<AlistUser> {
    return await this.withSession({ userId, serverId }, (session) => this.client.me(session));
  }

  /**
   * `POST /api/vendor/alist/list` (v0.9.11's shape): with `path` "" the servers when there are several
   * (the one server's root when there is one); else one page of `<serverId>/<folder>`, or of a search
   * under it with `keyword`. Throws 400 `alist server not found` (none bound, or not this one).
   */
  async browse(userId: string, request: { path: string; password: string; keyword: string; refresh: boolean; page: number; max: number }): Promise<AlistPickerList> {
    let full = request.path;
    if (!full) {
      const bound = await this.binds(userId);
      if (bound.length === 0) throw badRequest(ALIST_SERVER_NOT_FOUND);
      if (bound.length > 1) {
        const page = bound.slice((request.page - 1) * request.max, request.page * request.max);
        return {
          paths: [{ name: '', path: '' }],
          items: page.map((server) => ({ name: server.host, path: `${server.serverId}/`, isDir: true, size: 0, modified: '' })),
          total: bound.length,
        };
      }
      full = `${bound[0].serverId}/`;
    }
    const { serverId, path } = splitAlistPath(full);
    const binding = await this.binding(userId, serverId);
    const crumbs = pathCrumbs([{ name: '', path: '' }, { name: binding.host, path: `${serverId}/` }], path);
    if (request.keyword) {
      const found = await this.withSession(binding, (session) =>
        this.client.search(session, { parent: path, keywords: request.keyword, password: request.password, page: request.page, perPage: request.max }),
      );
      return {
        paths: crumbs,
        items: found.content.map((hit) => ({ name: hit.name, path: joinAlistPath(serverId, `${hit.parent}/${hit.name}`), isDir: hit.isDir, size: hit.size, modified: hit.modified })),
        total: found.total,
      };
    }
    const listed = await this.withSession(binding, (session) =>
      this.client.list(session, { path, password: request.password, page: request.page, perPage: request.max, refresh: request.refresh }),
    );
    return {
      paths: crumbs,
      items: listed.content.map((entry) => ({ name: entry.name, path: joinAlistPath(serverId, `${path}/${entry.name}`), isDir: entry.isDir, size: entry.size, modified: entry.modified })),
      total: listed.total,
    };
  }

  /**
   * One page of a folder of the user's server, or of a search under it: what a dynamic folder shows.
   * `folder` is an AList path. Entries' `path` is the AList path of each.
   */
  async folder(userId: string, serverId: string, request: { folder: string; password: string; keyword: string; page: number; max: number }): Promise<{ entries: (AlistPickerItem & { parent: string })[]; total: number }> {
    if (request.keyword) {
      const found = await this.withSession({ userId, serverId }, (session) =>
        this.client.search(session, { parent: request.folder, keywords: request.keyword, password: request.password, page: request.page, perPage: request.max }),
      );
      return { entries: found.content.map((hit) => ({ ...hit, path: `${hit.parent.replace(/\/+$/, '')}/${hit.name}` })), total: found.total };
    }
    const listed = await this.withSession({ userId, serverId }, (session) =>
      this.client.list(session, { path: request.folder, password: request.password, page: request.page, perPage: request.max, refresh: false }),
    );
    const parent = request.folder.replace(/\/+$/, '');
    return { entries: listed.content.map((entry) => ({ ...entry, parent, path: `${parent}/${entry.name}` })), total: listed.total };
  }

  /**
   * A file of the user's server with its raw URL, from the cache when younger than FILE_CACHE_MS.
   * Throws 400 `path is dir: <path>` for a folder.
   */
  async file(userId: string, serverId: string, path: string, password: string): Promise<AlistFile> {
    const key = `${AlistAccounts.context(userId, serverId)}:${path}\n${password}`;
    const cached = this.files.get(key);
    if (cached) return cached;
    const file = await this.withSession({ userId, serverId }, (session) => this.client.get(session, { path, password }));
    if (file.isDir) throw badRequest(`path is dir: ${path}`);
    this.files.set(key, file);
    return file;
  }

  /** Subtitle files beside `path` (AList's related files of type 4 but XML danmaku), with their raw URLs. */
  async subtitles(userId: string, serverId: string, path: string, file: AlistFile, password: string): Promise<{ name: string; url: string; type: string }[]> {
    const folder = path.slice(0, path.lastIndexOf('/') + 1);
    const related = file.related.filter((item) => item.type === 4 && !/\.xml$/i.test(item.name));
    const found: { name: string; url: string; type: string }[] = [];
    for (const item of related) {
      const subtitle = await this.file(userId, serverId, `${folder}${item.name}`, password);
      found.push({ name: item.name, url: subtitle.rawUrl, type: extensionOf(item.name) });
    }
    return found;
  }

  /** A folder password as a movie stores it: sealed ("" stays ""). */
  sealFolderPassword(password: string): string {
    return password ? this.cipher.seal(password, FOLDER_PASSWORD_CONTEXT) : '';
  }

  /** A stored folder password in the clear. Throws CredentialsUnreadable (another server key). */
  openFolderPassword(sealed: string): string {
    return sealed ? this.cipher.open(sealed, FOLDER_PASSWORD_CONTEXT) : '';
  }

  /** Throws 400 `alist server not found` unless the user bound the server. */
  async requireBinding(userId: string, serverId: string): Promise<void> {
    await this.binding(userId, serverId);
  }

  private forgetFiles(userId: string, serverId: string): void {
    const prefix = `${AlistAccounts.context(userId, serverId)}:`;
    for (const key of [...this.files.keys()]) if (key.startsWith(prefix)) this.files.delete(key);
  }
}

/** A name's extension, lower case, without the dot ("" when none). */
export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
}

/** `base` followed by one crumb per folder of `path`, each crumb's path extending the last one's. */
function pathCrumbs(base: VendorPath[], path: string): VendorPath[] {
  const crumbs = [...base];
  for (const part of path.split('/').filter(Boolean)) {
    const last = crumbs[crumbs.length - 1];
    crumbs.push({ name: part, path: `${last.path.replace(/\/+$/, '')}/${part}` });
  }
  return crumbs;
}
