import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import { listenOnLoopback } from './listen';

/** A running test-media server. `url` has no trailing slash, e.g. `http://127.0.0.1:41234`. */
export interface MediaServer {
  url: string;
  close(): Promise<void>;
}

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
 * playlists and segments cross-origin from the companion server's page.
 * GET and HEAD only; paths that leave `rootDir` or do not exist get 404.
 */
export async function startMediaServer(rootDir: string, host = '127.0.0.1'): Promise<MediaServer> {
  const root = path.resolve(rootDir);
  const server: Server = createServer(async (req, res) => {
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
    const pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://localhost').pathname);
    const file = path.join(root, pathname);
    if (!file.startsWith(root + path.sep)) {
      res.writeHead(404).end();
      return;
    }
    try {
      const info = await stat(file);
      if (!info.isFile()) throw new Error('not a file');
      res.writeHead(200, {
        'Content-Type': CONTENT_TYPES[path.extname(file)] ?? 'application/octet-stream',
        'Content-Length': info.size,
        'Cache-Control': 'no-cache',
      });
      if (req.method === 'HEAD') res.end();
      else createReadStream(file).pipe(res);
    } catch {
      res.writeHead(404).end();
    }
  });
  const { origin, close } = await listenOnLoopback(server, host);
  return { url: origin, close };
}
