import { createReadStream, statSync, type Stats } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import path from 'node:path';
import { listenOnLoopback } from './listen';

/** A running static host. `origin` is `http://127.0.0.1:<port>`, no trailing slash. */
export interface StaticHost {
  origin: string;
  close(): Promise<void>;
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
};

function statOrNull(file: string): Stats | null {
  try {
    return statSync(file);
  } catch {
    return null;
  }
}

/**
 * Serves `rootDir` at `/web` on 127.0.0.1 (random port) the way plain static hosts for preview
 * builds do (GitHub Pages, an object-store website): the file; a folder redirects to its slash form
 * and then serves its `index.html`; `<path>.html`; anything else is `404.html` with status 404.
 * No rewrites, no API: the page has to reach its API on another origin.
 */
export async function startStaticHost(rootDir: string): Promise<StaticHost> {
  const root = path.resolve(rootDir);
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405).end();
      return;
    }
    if (url.pathname === '/web') {
      res.writeHead(301, { Location: `/web/${url.search}` }).end();
      return;
    }
    let relative: string;
    try {
      relative = decodeURIComponent(url.pathname.slice('/web/'.length));
    } catch {
      relative = '\0';
    }
    const file = path.join(root, relative);
    if (!url.pathname.startsWith('/web/') || relative.includes('\0') || (file !== root && !file.startsWith(root + path.sep))) {
      send(res, path.join(root, '404.html'), 404, req.method === 'HEAD');
      return;
    }
    const info = statOrNull(file);
    if (info?.isDirectory()) {
      if (!url.pathname.endsWith('/')) {
        res.writeHead(301, { Location: `${url.pathname}/${url.search}` }).end();
        return;
      }
      const index = path.join(file, 'index.html');
      if (statOrNull(index)?.isFile()) return send(res, index, 200, req.method === 'HEAD');
    } else if (info?.isFile()) {
      return send(res, file, 200, req.method === 'HEAD');
    } else if (statOrNull(`${file}.html`)?.isFile()) {
      return send(res, `${file}.html`, 200, req.method === 'HEAD');
    }
    send(res, path.join(root, '404.html'), 404, req.method === 'HEAD');
  });
  return listenOnLoopback(server);
}

function send(res: ServerResponse, file: string, status: number, headOnly: boolean): void {
  const info = statOrNull(file);
  if (!info?.isFile()) {
    res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
    return;
  }
  res.writeHead(status, {
    'Content-Type': CONTENT_TYPES[path.extname(file)] ?? 'application/octet-stream',
    'Content-Length': info.size,
  });
  if (headOnly) res.end();
  else createReadStream(file).pipe(res);
}
