/**
 * A client of the AList (and OpenList) HTTP API, v3.25 and later (docs/vendors.md "AList"): sign-in
 * with the hashed password, the signed-in user, and the file system calls a room needs (list, get,
 * search). Every answer is AList's envelope `{code, message, data}`, HTTP 200 even for a refusal; a
 * code other than 200 becomes 400 `alist: <message>` as in v0.9.11 (a token AList no longer takes is
 * told apart, so the caller signs in again). Calls go through ./http.ts (address guard, deadline).
 */
import crypto from 'node:crypto';
import { HttpError } from '../errors';
import type { UpstreamPolicy } from '../proxy/upstream';
import { callVendor, VENDOR_INVALID_ANSWER } from './http';

/** 400 when the host is an AList from before the hashed sign-in SyncTV uses (companion text). */
export const ALIST_TOO_OLD = 'alist: this AList is too old, update it';

/** What AList's web client appends to a password before hashing it (`/api/auth/login/hash`). */
export const ALIST_PASSWORD_SALT = '-https://github.com/alist-org/alist';

/** The lowercase hex SHA-256 of `password` + ALIST_PASSWORD_SALT: what `/api/auth/login/hash` takes. */
export function alistPasswordHash(password: string): string {
  return crypto.createHash('sha256').update(password + ALIST_PASSWORD_SALT).digest('hex');
}

/** RFC 4122's URL namespace, for name-based ids. */
const URL_NAMESPACE = Buffer.from('6ba7b8119dad11d180b400c04fd430c8', 'hex');

/**
 * The id of an AList server: the name-based (MD5, version 3) UUID of its normalized host in the URL
 * namespace, as v0.9.11 derives it, as 32 hex characters. The same host always gets the same id.
 */
export function alistServerId(host: string): string {
  const hash = crypto.createHash('md5').update(URL_NAMESPACE).update(host).digest();
  hash[6] = (hash[6] & 0x0f) | 0x30;
  hash[8] = (hash[8] & 0x3f) | 0x80;
  return hash.toString('hex');
}

/** A file or folder of a listing (`/api/fs/list` content). */
export interface AlistEntry {
  name: string;
  size: number;
  isDir: boolean;
  /** RFC 3339, as AList sends it. */
  modified: string;
}

/** One search hit (`/api/fs/search` content): `parent` is its folder's path. */
export interface AlistSearchHit extends AlistEntry {
  parent: string;
}

/** A file as `/api/fs/get` describes it. */
export interface AlistFile {
  name: string;
  size: number;
  isDir: boolean;
  /** The URL the file is fetched at (often signed, and expiring). */
  rawUrl: string;
  /** The storage driver (`Local`, `AliyundriveOpen`, `115 Cloud` …). */
  provider: string;
  /** Files AList relates to this one: the same name with another extension (subtitles, …). */
  related: { name: string; type: number }[];
}

/** The signed-in AList user (`/api/me`), as v0.9.11's `me` route shows it. */
export interface AlistUser {
  id: number;
  username: string;
  basePath: string;
  role: number;
  permission: number;
  disabled: boolean;
}

/** A refusal because AList no longer takes the token (expired, or the user's password changed). */
export class AlistTokenRefused extends HttpError {
  constructor(message: string) {
    super(400, `alist: ${message}`);
    this.name = 'AlistTokenRefused';
  }
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');
const count = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) ? value : 0);

/** A session on one AList server: its host and the token of the bound user ("" for AList's guest). */
export interface AlistSession {
  host: string;
  token: string;
}

/** The AList API, under the address guard `policy`. */
export class AlistClient {
  constructor(private readonly policy: () => Promise<UpstreamPolicy>) {}

  private async call(session: AlistSession, path: string, body?: unknown): Promise<Record<string, unknown>> {
    const headers: Record<string, string> = { Origin: session.host, Referer: `${session.host}/` };
    if (session.token) headers.Authorization = session.token;
    const answer = await callVendor({ method: body === undefined ? 'GET' : 'POST', url: `${session.host}${path}`, headers, body }, await this.policy());
    const envelope = answer.body as { code?: unknown; message?: unknown; data?: unknown } | null;
    if (!envelope || typeof envelope !== 'object' || typeof envelope.code !== 'number') throw new HttpError(502, VENDOR_INVALID_ANSWER);
    if (envelope.code === 401) throw new AlistTokenRefused(text(envelope.message) || 'unauthorized');
    if (envelope.code !== 200) throw new HttpError(400, `alist: ${text(envelope.message) || `code ${envelope.code}`}`);
    return envelope.data && typeof envelope.data === 'object' ? (envelope.data as Record<string, unknown>) : {};
  }

  /**
   * Signs in with the hashed password (`/api/auth/login/hash`); resolves with the token. Throws 400
   * ALIST_TOO_OLD when the host answers as AList (`/api/public/settings`) without that sign-in,
   * 502 VENDOR_INVALID_ANSWER when it does not answer as AList at all.
   */
  async login(host: string, username: string, hashedPassword: string): Promise<string> {
    let data: Record<string, unknown>;
    try {
      data = await this.call({ host, token: '' }, '/api/auth/login/hash', { username, password: hashedPassword });
    } catch (error) {
      if (error instanceof HttpError && error.message === VENDOR_INVALID_ANSWER && (await this.answersAsAlist(host))) throw new HttpError(400, ALIST_TOO_OLD);
      throw error;
    }
    const token = text(data.token);
    if (!token) throw new HttpError(502, VENDOR_INVALID_ANSWER);
    return token;
  }

  /** Whether `host` answers AList's public settings in its envelope (any version). */
  private async answersAsAlist(host: string): Promise<boolean> {
    return this.call({ host, token: '' }, '/api/public/settings').then(
      () => true,
      () => false,
    );
  }

  /** The user the session acts as. */
  async me(session: AlistSession): Promise<AlistUser> {
    const data = await this.call(session, '/api/me');
    return {
      id: count(data.id),
      username: text(data.username),
      basePath: text(data.base_path),
      role: count(data.role),
      permission: count(data.permission),
      disabled: data.disabled === true,
    };
  }

  /** One page (1-based) of a folder. `password`: the folder's, "" when it has none. */
  async list(session: AlistSession, request: { path: string; password: string; page: number; perPage: number; refresh: boolean }): Promise<{ content: AlistEntry[]; total: number }> {
    const data = await this.call(session, '/api/fs/list', { path: request.path, password: request.password, page: request.page, per_page: request.perPage, refresh: request.refresh });
    const content = Array.isArray(data.content) ? (data.content as Record<string, unknown>[]) : [];
    return { content: content.map(entryOf), total: count(data.total) };
  }

  /** One page of a search under `parent` (AList's search index must be on). */
  async search(session: AlistSession, request: { parent: string; keywords: string; password: string; page: number; perPage: number }): Promise<{ content: AlistSearchHit[]; total: number }> {
    const data = await this.call(session, '/api/fs/search', { parent: request.parent, keywords: request.keywords, password: request.password, scope: 0, page: request.page, per_page: request.perPage });
    const content = Array.isArray(data.content) ? (data.content as Record<string, unknown>[]) : [];
    return { content: content.map((item) => ({ ...entryOf(item), parent: text(item.parent) })), total: count(data.total) };
  }

  /** A file (or folder) with its raw URL and related files. */
  async get(session: AlistSession, request: { path: string; password: string }): Promise<AlistFile> {
    const data = await this.call(session, '/api/fs/get', { path: request.path, password: request.password });
    const related = Array.isArray(data.related) ? (data.related as Record<string, unknown>[]) : [];
    return {
      name: text(data.name),
      size: count(data.size),
      isDir: data.is_dir === true,
      rawUrl: text(data.raw_url),
      provider: text(data.provider),
      related: related.map((item) => ({ name: text(item.name), type: count(item.type) })),
    };
  }
}

function entryOf(item: Record<string, unknown>): AlistEntry {
  return { name: text(item.name), size: count(item.size), isDir: item.is_dir === true, modified: text(item.modified) };
}
