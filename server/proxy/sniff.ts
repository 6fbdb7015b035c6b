/**
 * What a body is by its first bytes, as ffmpeg's probes would take it (docs/transcode.md "What ffmpeg
 * reads"): an HLS playlist or a DASH manifest, whatever the content type or the address says. The
 * input route serves ffmpeg a playlist only once it has rewritten it, and a manifest never.
 */
import { PassThrough, type Readable } from 'node:stream';

/** What a body's start says it is. `more`: an ID3 tag runs past what was read, so read on. */
export type Sniffed = 'hls' | 'dash' | 'more' | null;

/** How much of a body decides (bytes): enough for an XML prolog and comments before `<MPD`. */
export const SNIFF_BYTES = 64 * 1024;

/**
 * What `head` (a body's first bytes; `complete` when it is the whole body) is. Skips what ffmpeg
 * skips before it reads a playlist: a UTF-8 byte order mark and ID3v2 tags (it reads their dictionary
 * first), then white space. `#EXTM3U` next is HLS (ffmpeg's HLS probe asks for it at the start);
 * XML with an `<MPD` element is DASH.
 */
export function sniffPlaylist(head: Buffer, complete: boolean): Sniffed {
  let offset = 0;
  for (;;) {
    if (head[offset] === 0xef && head[offset + 1] === 0xbb && head[offset + 2] === 0xbf) {
      offset += 3;
      continue;
    }
    if (head.length - offset >= 3 && head.toString('latin1', offset, offset + 3) === 'ID3') {
      if (head.length - offset < 10) return complete ? null : 'more';
      // The size is four 7-bit bytes ("syncsafe"); a footer of 10 bytes follows when flag 0x10 is set.
      const size = ((head[offset + 6] & 0x7f) << 21) | ((head[offset + 7] & 0x7f) << 14) | ((head[offset + 8] & 0x7f) << 7) | (head[offset + 9] & 0x7f);
      offset += 10 + size + (head[offset + 5] & 0x10 ? 10 : 0);
      if (offset >= head.length) return complete ? null : 'more';
      continue;
    }
    break;
  }
  const text = head.toString('latin1', offset, offset + SNIFF_BYTES).replace(/^[\s\0]+/, '');
  if (text.startsWith('#EXTM3U')) return 'hls';
  if (text.startsWith('<') && /<mpd[\s>]/i.test(text)) return 'dash';
  if (!complete && text.length < 8) return 'more';
  return null;
}

/**
 * Reads at least `size` bytes of `stream` (fewer when it ends first). Resolves with them, whether
 * the body ended, and `body`: the whole body again (what was read, then the rest of `stream`), for
 * whoever sends it on; destroying `body` destroys `stream`. Rejects with the stream's error.
 */
export async function peekStream(stream: Readable, size: number): Promise<{ head: Buffer; ended: boolean; body: Readable }> {
  const chunks: Buffer[] = [];
  let length = 0;
  let ended = false;
  let failure: Error | null = null;
  const onEnd = () => (ended = true);
  const onError = (error: Error) => (failure = error);
  stream.on('end', onEnd);
  stream.on('error', onError);
  try {
    while (length < size && !ended) {
      if (failure) throw failure;
      const chunk = stream.read() as Buffer | null;
      if (chunk) {
        chunks.push(chunk);
        length += chunk.length;
        continue;
      }
      await new Promise<void>((resolve) => {
        const done = () => {
          stream.off('readable', done);
          stream.off('end', done);
          stream.off('error', done);
          stream.off('close', done);
          resolve();
        };
        stream.on('readable', done);
        stream.on('end', done);
        stream.on('error', done);
        stream.on('close', done);
      });
      if (failure) throw failure;
      if (stream.destroyed && !ended) throw new Error('the source closed the connection');
    }
  } finally {
    stream.off('end', onEnd);
    stream.off('error', onError);
  }
  const head = Buffer.concat(chunks);
  const body = new PassThrough();
  body.write(head);
  if (ended) body.end();
  else {
    stream.on('error', (error) => body.destroy(error));
    stream.pipe(body);
  }
  body.on('close', () => stream.destroy());
  return { head, ended, body };
}
