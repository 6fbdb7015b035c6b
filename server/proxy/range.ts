/**
 * HTTP Range for a source that ignores it (docs/hosting.md): a host such as `python3 -m http.server`
 * answers every request with the whole file (200), so a browser cannot seek in it. Through the movie
 * proxy, such an answer of known length is cut to the range the viewer asked for (206 with
 * `Content-Range`), and a whole answer says `Accept-Ranges: bytes`, so the browser seeks as with any
 * host. The source still sends everything before the range, which the proxy reads and drops: fine on
 * the local network such hosts serve, and no worse than the source allows. The `Range` header is
 * parsed by `range-parser` (the parser of Express's `send`).
 */
import { Transform, type TransformCallback } from 'node:stream';
import parseRange from 'range-parser';

/** How to answer a viewer's `Range` from a whole-file answer of `total` bytes. */
export type RangePlan =
  /** Send the whole file (no `Range`, several ranges, or one that cannot be read): 200. */
  | { status: 200 }
  /** Send bytes `start`–`end` (inclusive): 206 with `Content-Range: bytes start-end/total`. */
  | { status: 206; start: number; end: number }
  /** The range lies past the end: 416 with `Content-Range: bytes *\/total`. */
  | { status: 416 };

/**
 * Decides the answer to `rangeHeader` (the viewer's `Range`, e.g. `bytes=1000-`) over a body of
 * `total` bytes (RFC 9110 §14). Several ranges are answered whole, as many servers do.
 */
export function planRange(rangeHeader: string | undefined, total: number): RangePlan {
  if (!rangeHeader) return { status: 200 };
  const ranges = parseRange(total, rangeHeader, { combine: true });
  if (ranges === -1) return { status: 416 };
  if (ranges === -2 || ranges.type !== 'bytes' || ranges.length !== 1) return { status: 200 };
  return { status: 206, start: ranges[0].start, end: ranges[0].end };
}

/** Digits a position may have: 15 reach 999 TB, and stay exact in a JavaScript number. */
const POSITION = '(\\d{1,15})';
const ONE_RANGE = new RegExp(`^bytes=(?:${POSITION}-${POSITION}?|-${POSITION})$`);

/**
 * The one byte range of a viewer's `Range` header this server forwards: `bytes=a-`, `bytes=a-b` or
 * `bytes=-n` with each number at most 15 digits, white space around it ignored; `start` is null
 * for a suffix (`-n`), and Infinity for a start of 16 digits or more (past the end of any file).
 * Null for anything else (no header, several ranges, another unit, malformed): as RFC 9110 §14.2
 * allows, such a Range is ignored, never sent upstream.
 */
export function readRange(rangeHeader: string | undefined): { start: number | null } | null {
  const value = rangeHeader?.trim() ?? '';
  const match = ONE_RANGE.exec(value);
  if (match) return { start: match[3] !== undefined ? null : Number(match[1]) };
  // A start too long to be a position in any file: unsatisfiable, not malformed.
  if (/^bytes=\d{16,}-\d*$/.test(value)) return { start: Number.POSITIVE_INFINITY };
  return null;
}

/**
 * A stream that passes on only bytes `start`–`end` (inclusive, counted from the first byte written)
 * and ends once it has them (the caller then lets go of the source).
 */
export function byteSlice(start: number, end: number): Transform {
  let offset = 0;
  let complete = false;
  return new Transform({
    transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback) {
      if (complete) return done();
      const from = Math.max(0, start - offset);
      const to = Math.min(chunk.length, end + 1 - offset);
      offset += chunk.length;
      if (to > from) this.push(chunk.subarray(from, to));
      if (offset > end) {
        complete = true;
        this.push(null);
      }
      done();
    },
  });
}
