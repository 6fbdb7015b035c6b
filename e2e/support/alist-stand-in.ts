/**
 * A stand-in for an AList (v3) server, for tests (docs/vendors.md "Testing"): no AList can be
 * installed here, so this answers the calls the companion server makes, with the shapes of AList's
 * API documentation (the envelope `{code, message, data}` with HTTP 200 even for a refusal):
 * `/api/auth/login/hash`, `/api/me`, `/api/fs/list`, `/api/fs/get`, `/api/fs/search`; and it serves
 * the files of a real folder on disk at their `raw_url` (`/d/<path>?sign=…`) with HTTP Range, as
 * AList's local storage does. Folders named in `passwords` are password-protected (AList's "meta").
 * Tests may expire every token (`expireTokens`) or read which calls came (`calls`).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import path from 'node:path';
import send from '@fastify/send';
import { listenOnLoopback, readJsonBody } from './listen';

/** One AList user: name, password, and the folder they see as `/` (default the whole root). */
export interface AlistStandInUser {
  username: string;
  password: string;
  basePath?: string;
}

export interface AlistStandInOptions {
  /** The folder served as AList's storage. */
  rootDir: string;
  users: AlistStandInUser[];
  /** Whether a caller without a token acts as AList's guest (sees the whole root). */
  guest?: boolean;
  /** Passwords of folders (paths as AList shows them, e.g. `/Locked`). */
  passwords?: Record<string, string>;
  /** Loopback address to listen on (default 127.0.0.1). */
  host?: string;
  /**
   * An AList from before the hashed sign-in: `/api/auth/login/hash` is not there (AList's web page
   * answers, as for any unknown path), `/api/public/settings` still answers with its version.
   */
  tooOld?: boolean;
}

export interface AlistStandIn {
  url: string;
  /** The API paths called so far, oldest first (`/api/fs/get`, …), and the files fetched (`/d/…`). */
  calls: string[];
  /** Makes every token issued so far refused with code 401, as after AList's token lifetime. */
  expireTokens(): void;
  close(): Promise<void>;
}

/** AList's salt of `/api/auth/login/hash`. */
const SALT = '-https://github.com/alist-org/alist';
/** AList's object types: folder 1, video 2, audio 3, text 4 (subtitles), image 5, other 0. */
function typeOf(name: string, isDir: boolean): number {
  if (isDir) return 1;
  const extension = path.extname(name).toLowerCase();
  if (['.mp4', '.mkv', '.webm', '.m3u8', '.flv'].includes(extension)) return 2;
  if (['.mp3', '.flac', '.m4a'].includes(extension)) return 3;
  if (['.srt', '.ass', '.vtt', '.txt', '.xml'].includes(extension)) return 4;
  if (['.jpg', '.png'].includes(extension)) return 5;
  return 0;
}

const envelope = (code: number, message: string, data: unknown = null) => JSON.stringify({ code, message, data });

/** Starts the stand-in on a random port. */
export async function startAlistStandIn(options: AlistStandInOptions): Promise<AlistStandIn> {
  const root = path.resolve(options.rootDir);
  const tokens = new Map<string, AlistStandInUser | null>();
  const calls: string[] = [];
  const signKey = crypto.randomBytes(16);
  const sign = (file: string) => crypto.createHmac('sha256', signKey).update(file).digest('base64url').slice(0, 16);
  let origin = '';

  const userOf = (request: IncomingMessage): AlistStandInUser | null | undefined => {
    const token = request.headers.authorization;
    if (!token) return options.guest ? null : undefined;
    return tokens.has(token) ? tokens.get(token) : undefined;
  };
  /** The path on disk of an AList path as `user` sees it, or null when it leaves the storage. */
  const onDisk = (user: AlistStandInUser | null, alistPath: string): string | null => {
    const full = path.posix.join('/', user?.basePath ?? '/', alistPath);
    const resolved = path.join(root, full);
    return resolved === root || resolved.startsWith(`${root}${path.sep}`) ? resolved : null;
  };
  /** Whether `alistPath` (as the user sees it) lies in a locked folder whose password was not given. */
  const locked = (user: AlistStandInUser | null, alistPath: string, password: string): boolean => {
    const full = path.posix.join('/', user?.basePath ?? '/', alistPath);
    return Object.entries(options.passwords ?? {}).some(([folder, secret]) => (full === folder || full.startsWith(`${folder}/`)) && password !== secret);
  };
  const describe = (file: string, name: string) => {
    const stat = fs.statSync(file);
    return { name, size: stat.isDirectory() ? 0 : stat.size, is_dir: stat.isDirectory(), modified: stat.mtime.toISOString(), created: stat.birthtime.toISOString(), sign: '', thumb: '', type: typeOf(name, stat.isDirectory()) };
  };

  const api = async (request: IncomingMessage, response: ServerResponse, route: string, body: Record<string, unknown>) => {
    const reply = (code: number, message: string, data: unknown = null) => response.writeHead(200, { 'Content-Type': 'application/json' }).end(envelope(code, message, data));
    if (route === '/api/public/settings') return reply(200, 'success', { version: options.tooOld ? 'v3.7.4' : 'v3.40.0', site_title: 'AList' });
    if (route === '/api/auth/login/hash' && options.tooOld) return response.writeHead(200, { 'Content-Type': 'text/html' }).end('<!doctype html><title>AList</title>');
    if (route === '/api/auth/login/hash') {
      const user = options.users.find((candidate) => candidate.username === body.username);
      const expected = user && crypto.createHash('sha256').update(user.password + SALT).digest('hex');
      if (!user || body.password !== expected) return reply(400, 'password is incorrect');
      const token = crypto.randomBytes(24).toString('base64url');
      tokens.set(token, user);
      return reply(200, 'success', { token });
    }
    const user = userOf(request);
    if (user === undefined) return reply(401, request.headers.authorization ? 'token is expired' : 'Guest user is disabled, login please');
    if (route === '/api/me') {
      return reply(200, 'success', { id: user ? options.users.indexOf(user) + 1 : 2, username: user?.username ?? 'guest', password: '', base_path: user?.basePath ?? '/', role: user ? 2 : 1, disabled: false, permission: 0, sso_id: '', otp: false });
    }
    const password = typeof body.password === 'string' ? body.password : '';
    if (route === '/api/fs/list' || route === '/api/fs/get') {
      const alistPath = typeof body.path === 'string' ? body.path : '/';
      const file = onDisk(user, alistPath);
      if (!file || !fs.existsSync(file)) return reply(500, 'failed get objs: object not found');
      if (locked(user, alistPath, password)) return reply(403, 'password is incorrect or you have no permission');
      if (route === '/api/fs/get') {
        const name = path.basename(file);
        const described = describe(file, name);
        const stem = name.replace(/\.[^.]+$/, '');
        const related = described.is_dir
          ? []
          : fs.readdirSync(path.dirname(file)).filter((other) => other !== name && other.replace(/\.[^.]+$/, '') === stem).map((other) => describe(path.join(path.dirname(file), other), other));
        const rawPath = path.posix.join('/', user?.basePath ?? '/', alistPath);
        return reply(200, 'success', { ...described, raw_url: described.is_dir ? '' : `${origin}/d${encodeURI(rawPath)}?sign=${sign(rawPath)}`, readme: '', header: '', provider: 'Local', related });
      }
      if (!fs.statSync(file).isDirectory()) return reply(500, 'not a folder');
      const names = fs.readdirSync(file).sort();
      const perPage = Number(body.per_page) || names.length || 1;
      const page = Math.max(1, Number(body.page) || 1);
      const content = names.slice((page - 1) * perPage, page * perPage).map((name) => describe(path.join(file, name), name));
      return reply(200, 'success', { content, total: names.length, readme: '', header: '', write: false, provider: 'Local' });
    }
    if (route === '/api/fs/search') {
      const parent = typeof body.parent === 'string' ? body.parent : '/';
      const keywords = typeof body.keywords === 'string' ? body.keywords.toLowerCase() : '';
      const start = onDisk(user, parent);
      if (!start || !fs.existsSync(start)) return reply(500, 'failed get objs: object not found');
      const hits: { parent: string; name: string; is_dir: boolean; size: number; type: number }[] = [];
      const walk = (dir: string, alistDir: string) => {
        for (const name of fs.readdirSync(dir).sort()) {
          const file = path.join(dir, name);
          const stat = fs.statSync(file);
          if (name.toLowerCase().includes(keywords) && !locked(user, `${alistDir}/${name}`, password)) hits.push({ parent: alistDir || '/', name, is_dir: stat.isDirectory(), size: stat.isDirectory() ? 0 : stat.size, type: typeOf(name, stat.isDirectory()) });
          if (stat.isDirectory()) walk(file, `${alistDir}/${name}`);
        }
      };
      walk(start, parent.replace(/\/+$/, ''));
      const perPage = Number(body.per_page) || hits.length || 1;
      const page = Math.max(1, Number(body.page) || 1);
      return reply(200, 'success', { content: hits.slice((page - 1) * perPage, page * perPage), total: hits.length });
    }
    return reply(404, 'not found');
  };

  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://stand-in');
    calls.push(url.pathname);
    if (url.pathname.startsWith('/d/') && (request.method === 'GET' || request.method === 'HEAD')) {
      const filePath = decodeURI(url.pathname.slice(2));
      if (url.searchParams.get('sign') !== sign(filePath)) {
        response.writeHead(401).end('sign mismatch');
        return;
      }
      void send(request, filePath, { root, dotfiles: 'deny', index: false }).then(({ statusCode, headers, stream }) => {
        response.writeHead(statusCode, { ...headers, 'Access-Control-Allow-Origin': '*', 'Access-Control-Expose-Headers': 'Content-Range, Accept-Ranges, Content-Length' });
        stream.pipe(response);
      });
      return;
    }
    if (request.method !== 'POST' && request.method !== 'GET') {
      response.writeHead(405).end();
      return;
    }
    void readJsonBody(request).then((body) => {
      if (!body) response.writeHead(200, { 'Content-Type': 'application/json' }).end(envelope(400, 'invalid json'));
      else void api(request, response, url.pathname, body);
    });
  });
  const listening = await listenOnLoopback(server, options.host);
  origin = listening.origin;
  return {
    url: origin,
    calls,
    expireTokens: () => {
      for (const token of tokens.keys()) tokens.delete(token);
    },
    close: listening.close,
  };
}

/** A storage folder for the stand-in, made from the test media: films with subtitles, a series, a locked folder. */
export function makeAlistLibrary(dir: string, mediaDir: string): void {
  const clip = path.join(mediaDir, 'mp4', 'clip.mp4');
  const put = (relative: string, source: string) => {
    fs.mkdirSync(path.dirname(path.join(dir, relative)), { recursive: true });
    fs.copyFileSync(source, path.join(dir, relative));
  };
  put('Movies/Clip.mp4', clip);
  put('Movies/Clip.srt', path.join(mediaDir, 'subs', 'clip.srt'));
  put('Movies/Other Clip.mp4', clip);
  put('Series/Season 1/Episode 1.mp4', clip);
  put('Series/Season 1/Episode 2.mp4', clip);
  put('Locked/Secret.mp4', clip);
}
