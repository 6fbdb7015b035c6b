import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import send from '@fastify/send';
import path from 'node:path';
import { listenOnLoopback } from './listen';

/** One request the media server got: its method, path (with query) and headers (names in lower case). */
export interface MediaRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
}

/** A running test-media server. `url` has no trailing slash, e.g. `http://127.0.0.1:41234`. */
export interface MediaServer {
  url: string;
  /** Every request so far, oldest first (the newest 5000), for tests of what the player sends. */
  requests: MediaRequest[];
  close(): Promise<void>;
}

/** Requests the media server remembers. */
const KEPT_REQUESTS = 5000;

const CONTENT_TYPES: Record<string, string> = {
  '.m3u8': 'application/vnd.apple.mpegurl',
  '.ts': 'video/mp2t',
  '.m2ts': 'video/mp2t',
  '.mp4': 'video/mp4',
  '.vtt': 'text/vtt',
  '.flv': 'video/x-flv',
  '.mpd': 'application/dash+xml',
  '.m4s': 'video/iso.segment',
};

/**
 * Serves the files under `rootDir` on `host` (127.0.0.1 by default) at a random port, the way a media host would:
 * HLS content types and `Access-Control-Allow-Origin: *`, because the player (hls.js) fetches
 * playlists and segments cross-origin from the companion server's page, and HTTP Range (through
 * @fastify/send, as @fastify/static serves files), without which a browser cannot seek an MP4.
 * GET and HEAD only; paths that leave `rootDir` or do not exist get 404.
 */
export async function startMediaServer(rootDir: string, host = '127.0.0.1'): Promise<MediaServer> {
  const root = path.resolve(rootDir);
  const requests: MediaRequest[] = [];
  const server: Server = createServer(async (req, res) => {
    requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers });
    if (requests.length > KEPT_REQUESTS) requests.shift();
    res.setHeader('Access-Control-Allow-Origin', '*');
    if (req.method === 'OPTIONS') {
      res.setHeader('Access-Control-Allow-Headers', '*');
      res.writeHead(204).end();
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405).end();
      return;
    }
    const pathname = new URL(req.url ?? '/', 'http://localhost').pathname;
    const { statusCode, headers, stream, type } = await send(req, pathname, { root, dotfiles: 'deny', index: false, cacheControl: false });
    if (type !== 'file') {
      stream.resume();
      res.writeHead(type === 'directory' ? 404 : statusCode).end();
      return;
    }
    res.writeHead(statusCode, {
      ...headers,
      'Content-Type': CONTENT_TYPES[path.extname(pathname)] ?? 'application/octet-stream',
      'Cache-Control': 'no-cache',
      'Access-Control-Expose-Headers': 'Content-Range, Accept-Ranges, Content-Length',
    });
    stream.pipe(res);
  });
  const { origin, close } = await listenOnLoopback(server, host);
  return { url: origin, requests, close };
}
