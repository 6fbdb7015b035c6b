import { createReadStream, readdirSync, statSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect, type Socket } from 'node:net';
import path from 'node:path';
import { listenOnLoopback } from './listen';

/**
 * How SyncTV v0.9.x finds files under `/web` (synctv-org/synctv `server/static/static.go`):
 * - `embedded` (the default build, files compiled in): the set of every file and folder path, taken
 *   once at start-up, decides; a path outside the set is served as the root folder, i.e. `index.html`;
 * - `web-path` (`--web-path <dir>`): the path, trimmed of slashes, is opened on disk; if that fails,
 *   the root folder is served.
 */
export type SyncTvWebMode = 'embedded' | 'web-path';

/** A running imitation of a SyncTV server's web and API front. */
export interface SyncTvStaticServer {
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  origin: string;
  close(): Promise<void>;
}

/** Content types as Go's `mime.TypeByExtension` gives them on Debian (built-in table plus /etc/mime.types). */
const GO_CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.htm': 'text/html; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/vnd.microsoft.icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.map': 'application/json',
};

/**
 * Starts an HTTP server on 127.0.0.1 (random port) that answers like an unmodified SyncTV v0.9.x
 * server (docs/contract.md §1.2–1.4) in front of `webDir`:
 * - `GET /` → 301 `/web/`; `/web` → 301 `/web/` (gin's trailing-slash redirect);
 * - `GET|HEAD /web/*filepath` → the SPA handler of `mode`, then Go's `http.FileServer` rules: a path
 *   ending in `/index.html` → 301 `./`; a folder without trailing slash → 301 `<name>/`; a folder with
 *   one → its `index.html`; a file → the file. Every unknown path is the home page with 200;
 * - no Cache-Control, ETag or Last-Modified, no compression;
 * - `/api/**` and `/oauth2/**`, WebSocket upgrades included, are passed to `apiOrigin` (the companion
 *   server) unchanged; anything else is gin's `404 page not found`.
 */
export async function startSyncTvStaticServer(opts: { webDir: string; apiOrigin: string; mode?: SyncTvWebMode }): Promise<SyncTvStaticServer> {
  const root = path.resolve(opts.webDir);
  const mode = opts.mode ?? 'embedded';
  const known = mode === 'embedded' ? walk(root) : null;
  const api = new URL(opts.apiOrigin);

  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    let pathname: string;
    try {
      pathname = decodeURIComponent(url.pathname);
    } catch {
      res.writeHead(400).end();
      return;
    }
    if (pathname.startsWith('/api/') || pathname.startsWith('/oauth2/')) {
      proxy(req, res, api);
      return;
    }
    const method = req.method ?? 'GET';
    if (pathname === '/' && method === 'GET') {
      redirect(res, '/web/');
      return;
    }
    if (pathname === '/web') {
      // gin's RedirectTrailingSlash: 301 for GET, 307 for other methods; the query survives.
      redirect(res, `/web/${url.search}`, method === 'GET' ? 301 : 307);
      return;
    }
    if (!pathname.startsWith('/web/') || (method !== 'GET' && method !== 'HEAD')) {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('404 page not found');
      return;
    }
    const filepath = pathname.slice('/web'.length);
    let served: string;
    if (known) {
      served = known.has(filepath) ? filepath : '';
    } else {
      const trimmed = filepath.replace(/^\/+|\/+$/g, '');
      served = opensOnDisk(root, trimmed) ? trimmed : '';
    }
    fileServer(root, served, url.search, method === 'HEAD', res);
  });

  server.on('upgrade', (req: IncomingMessage, socket: Socket, head: Buffer) => {
    if (!(req.url ?? '').startsWith('/api/')) {
      socket.destroy();
      return;
    }
    const upstream = connect(Number(api.port), api.hostname, () => {
      const lines = [`${req.method} ${req.url} HTTP/1.1`];
      for (let i = 0; i < req.rawHeaders.length; i += 2) lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
      upstream.write(`${lines.join('\r\n')}\r\n\r\n`);
      if (head.length) upstream.write(head);
      upstream.pipe(socket);
      socket.pipe(upstream);
    });
    upstream.on('error', () => socket.destroy());
    socket.on('error', () => upstream.destroy());
  });

  return listenOnLoopback(server);
}

/** `fs.WalkDir(fsys, ".")` keyed as static.go does: `/` + path, so the root is `/.` and folders have no slash. */
function walk(root: string): Set<string> {
  const paths = new Set<string>(['/.']);
  const visit = (relative: string) => {
    for (const entry of readdirSync(path.join(root, relative), { withFileTypes: true })) {
      const child = relative ? `${relative}/${entry.name}` : entry.name;
      paths.add(`/${child}`);
      if (entry.isDirectory()) visit(child);
    }
  };
  visit('');
  return paths;
}

/** `os.DirFS(root).Open(name)` succeeds: a valid fs path (no empty, `.` or `..` element) that exists. */
function opensOnDisk(root: string, name: string): boolean {
  if (name === '' || name.split('/').some((part) => part === '' || part === '.' || part === '..')) return false;
  try {
    statSync(path.join(root, name));
    return true;
  } catch {
    return false;
  }
}

/**
 * gin's `ctx.FileFromFS(served, fs)`: sets the request path to `served` and runs Go's
 * `http.FileServer` (net/http fs.go `serveFile` with redirects on). Relative `Location`s are
 * resolved by the browser against the original URL, exactly as with the real server.
 */
function fileServer(root: string, served: string, search: string, headOnly: boolean, res: ServerResponse): void {
  const urlPath = served.startsWith('/') ? served : `/${served}`;
  if (urlPath.endsWith('/index.html')) {
    redirect(res, `./${search}`);
    return;
  }
  const name = path.posix.normalize(urlPath);
  const file = path.join(root, name);
  let info;
  try {
    info = statSync(file);
  } catch {
    res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' }).end('404 page not found\n');
    return;
  }
  let target = file;
  if (info.isDirectory()) {
    if (!urlPath.endsWith('/')) {
      redirect(res, `${path.posix.basename(urlPath)}/${search}`);
      return;
    }
    target = path.join(file, 'index.html');
    try {
      info = statSync(target);
    } catch {
      // Go lists the folder; the export has an index.html wherever this can be reached.
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end('<pre>\n</pre>\n');
      return;
    }
  } else if (urlPath.endsWith('/')) {
    redirect(res, `../${path.posix.basename(urlPath)}${search}`);
    return;
  }
  res.writeHead(200, {
    'Content-Type': GO_CONTENT_TYPES[path.extname(target)] ?? 'application/octet-stream',
    'Content-Length': info.size,
    'Accept-Ranges': 'bytes',
  });
  if (headOnly) res.end();
  else createReadStream(target).pipe(res);
}

/** Go's `localRedirect` / `http.Redirect`: 301 with the given (possibly relative) Location. */
function redirect(res: ServerResponse, location: string, status = 301): void {
  res.writeHead(status, { Location: location }).end();
}

function proxy(req: IncomingMessage, res: ServerResponse, api: URL): void {
  const upstream = httpRequest(
    { host: api.hostname, port: api.port, method: req.method, path: req.url, headers: req.headers },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    },
  );
  upstream.on('error', () => {
    if (!res.headersSent) res.writeHead(502);
    res.end();
  });
  req.pipe(upstream);
}
