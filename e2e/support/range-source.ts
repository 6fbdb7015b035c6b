import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * Answers `request` with `body` as a media host with HTTP Range does: 206 and `Content-Range` for
 * `bytes=a-b` / `bytes=a-`, 416 for a start past the end, 200 with the whole body otherwise. Returns
 * the bytes the answer carries.
 * For test and benchmark sources of in-memory files (server/proxy-cache.test.ts, bench/proxy.ts).
 */
export function sendWithRange(request: IncomingMessage, response: ServerResponse, body: Buffer, headers: Record<string, string> = {}): number {
  const range = /bytes=(\d+)-(\d+)?/.exec(request.headers.range ?? '');
  const start = range ? Number(range[1]) : 0;
  if (start >= body.length && body.length > 0) {
    // Past the end (RFC 9110 §15.5.17), as real hosts answer.
    response.writeHead(416, { 'Content-Range': `bytes */${body.length}`, 'Content-Length': 0 });
    response.end();
    return 0;
  }
  const end = range?.[2] ? Math.min(Number(range[2]), body.length - 1) : body.length - 1;
  response.writeHead(range ? 206 : 200, {
    'Content-Type': 'video/mp4',
    'Accept-Ranges': 'bytes',
    'Content-Length': end - start + 1,
    ...headers,
    ...(range ? { 'Content-Range': `bytes ${start}-${end}/${body.length}` } : {}),
  });
  response.end(body.subarray(start, end + 1));
  return end - start + 1;
}
