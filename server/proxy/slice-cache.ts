/**
 * The movie proxy's shared slice cache (docs/vendors.md "A proxy that scales"; docs/security.md): a
 * file that many viewers pull through the proxy is fetched from its source about once. Each file is
 * cut into SLICE_BYTES slices, fetched with HTTP Range and kept in memory (lru-cache, bounded in
 * bytes, least recently used dropped first); viewers' ranges are served from the slices, and viewers
 * asking for one slice at the same moment share its one fetch. A source that does not answer a Range
 * with 206 and the file's size (a host without Range, a playlist, a live stream) is not sliced: the
 * caller streams it through as before. A fetch nobody waits for any more (every viewer who asked
 * for it went away) is cancelled: the source stops sending.
 */
import { Readable } from 'node:stream';
import type { IncomingMessage } from 'node:http';
import { LRUCache } from 'lru-cache';

/** Size of one slice (bytes), as v0.9.11's proxy cuts files. */
export const SLICE_BYTES = 2 * 1024 * 1024;

/** One cached slice: its bytes, the file's size, and headers that describe the file. */
export interface Slice {
  data: Buffer;
  /** The whole file's size (bytes). */
  total: number;
  contentType: string | undefined;
  etag: string | undefined;
  lastModified: string | undefined;
}

/** Opens the source with the given request headers (the proxy's guarded upstream, ./upstream.ts). */
export type OpenSource = (headers: Record<string, string>) => Promise<{ response: IncomingMessage; url: string }>;

/** `bytes a-b/total` of a 206 answer, or null. */
function contentRange(value: string | undefined): { start: number; end: number; total: number } | null {
  const match = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(value ?? '');
  if (!match) return null;
  const [start, end, total] = match.slice(1).map(Number);
  return Number.isSafeInteger(total) && start <= end && end < total ? { start, end, total } : null;
}

/** The proxy's slices, shared by every viewer of every room on this instance. */
/** A slice being fetched: its answer, how many wait for it, and what stops the fetch. */
interface PendingSlice {
  slice: Promise<Slice | null>;
  waiters: number;
  stop: AbortController;
}

/** The rejection of a wait whose asker went away. */
export class SliceAbandoned extends Error {}

export class SliceCache {
  private readonly slices: LRUCache<string, Slice>;
  private readonly pending = new Map<string, PendingSlice>();
  /** Each source's size (bytes), as a slice or a 416 `bytes *\/N` told it. */
  private readonly totals = new LRUCache<string, number>({ max: 2000, ttl: 10 * 60 * 1000 });
  /** Sources found not to answer Range with 206: not asked again for a while. */
  private readonly unsliceable = new LRUCache<string, true>({ max: 2000, ttl: 10 * 60 * 1000 });

  /** `maxBytes`: the memory the slices may take together (> SLICE_BYTES). */
  constructor(maxBytes: number) {
    this.slices = new LRUCache<string, Slice>({ maxSize: maxBytes, sizeCalculation: (slice) => Math.max(1, slice.data.length) });
  }

  /**
   * Whether the source `key` (its URL and request headers) was found not to answer Range with 206,
   * or its host (`origin`) answered a Range with the whole file (a host without Range: each of its
   * files, e.g. every HLS segment, would otherwise be asked twice).
   */
  isUnsliceable(key: string, origin: string): boolean {
    return this.unsliceable.has(key) || this.unsliceable.has(origin);
  }

  /** The size (bytes) of the source `key`, when a slice or a 416 of it told it. */
  totalOf(key: string): number | undefined {
    return this.totals.get(key);
  }

  /**
   * Slice `index` of the source `key`, from memory, from a fetch under way, or fetched now with
   * `open`. Resolves null when the source cannot be sliced (no 206 with the file's size, or a
   * playlist, or a range past its end: `totalOf` then says its size); rejects with the source's
   * error (an HttpError of ./upstream.ts, or 502), or SliceAbandoned once `signal` aborts (the
   * viewer went away). A fetch whose every waiter went away is cancelled. `origin` is the source's
   * host, remembered when it answers a Range with the whole file.
   */
  async slice(key: string, index: number, open: OpenSource, origin: string, signal?: AbortSignal): Promise<Slice | null> {
    const id = `${key}\n${index}`;
    const known = this.slices.get(id);
    if (known) return known;
    if (signal?.aborted) throw new SliceAbandoned('the viewer went away');
    const pending = this.pending.get(id) ?? this.startFetch(id, key, index, open, origin);
    pending.waiters += 1;
    return new Promise<Slice | null>((resolve, reject) => {
      let settled = false;
      const settle = (finish: () => void) => {
        if (settled) return;
        settled = true;
        signal?.removeEventListener('abort', leave);
        pending.waiters -= 1;
        finish();
      };
      const leave = () =>
        settle(() => {
          // The last one waiting went away: the source stops sending.
          if (pending.waiters === 0) {
            pending.stop.abort();
            if (this.pending.get(id) === pending) this.pending.delete(id);
          }
          reject(new SliceAbandoned('the viewer went away'));
        });
      signal?.addEventListener('abort', leave, { once: true });
      pending.slice.then(
        (slice) => settle(() => resolve(slice)),
        (error: unknown) => settle(() => reject(error)),
      );
    });
  }

  /** Starts fetching slice `index` of `key` as `id`, shared by whoever asks for it until it settles. */
  private startFetch(id: string, key: string, index: number, open: OpenSource, origin: string): PendingSlice {
    const stop = new AbortController();
    const entry: PendingSlice = {
      slice: this.fetch(key, index, open, origin, stop.signal).finally(() => {
        if (this.pending.get(id) === entry) this.pending.delete(id);
      }),
      waiters: 0,
      stop,
    };
    // A stopped fetch's failure is nobody's.
    entry.slice.catch(() => undefined);
    this.pending.set(id, entry);
    return entry;
  }

  private async fetch(key: string, index: number, open: OpenSource, origin: string, stopped: AbortSignal): Promise<Slice | null> {
    const start = index * SLICE_BYTES;
    const { response } = await open({ Range: `bytes=${start}-${start + SLICE_BYTES - 1}` });
    if (stopped.aborted) {
      response.destroy();
      throw new SliceAbandoned('nobody waits for this slice');
    }
    stopped.addEventListener('abort', () => response.destroy(), { once: true });
    const range = contentRange(response.headers['content-range']);
    const type = response.headers['content-type'];
    if (response.statusCode === 416) {
      // Past the end: the source says its size (RFC 9110 §15.5.17), and the file stays sliceable.
      response.destroy();
      const total = /^bytes \*\/(\d{1,15})$/.exec(String(response.headers['content-range'] ?? ''));
      if (total) this.totals.set(key, Number(total[1]));
      return null;
    }
    if (response.statusCode !== 206 || !range || range.start !== start || /mpegurl|dash\+xml/i.test(type ?? '')) {
      response.destroy();
      if ((response.statusCode ?? 0) < 400) this.unsliceable.set(key, true);
      if (response.statusCode === 200) this.unsliceable.set(origin, true);
      return null;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of response) {
      size += (chunk as Buffer).length;
      if (size > SLICE_BYTES) {
        response.destroy();
        this.unsliceable.set(key, true);
        return null;
      }
      chunks.push(chunk as Buffer);
    }
    const slice: Slice = { data: Buffer.concat(chunks), total: range.total, contentType: type, etag: header(response, 'etag'), lastModified: header(response, 'last-modified') };
    if (slice.data.length !== range.end - range.start + 1) throw new Error('the movie source sent a short slice');
    this.slices.set(`${key}\n${index}`, slice);
    this.totals.set(key, slice.total);
    return slice;
  }

  /**
   * The bytes `start`–`end` (inclusive) of the source as a stream of slices, fetching the next slice
   * while the current one is written. `first` is the slice holding `start`, already fetched; `signal`
   * aborts when the viewer goes, and with it a fetch only this viewer waited for.
   */
  stream(key: string, origin: string, first: Slice, start: number, end: number, open: OpenSource, signal?: AbortSignal): Readable {
    const nextSlice = (index: number) => this.slice(key, index, open, origin, signal);
    async function* bytes() {
      let index = Math.floor(start / SLICE_BYTES);
      let slice: Slice | null = first;
      while (slice) {
        const sliceStart = index * SLICE_BYTES;
        const last = Math.floor(end / SLICE_BYTES);
        const next = index < last ? nextSlice(index + 1) : null;
        // Not awaited yet: a failure is taken when the slice is needed.
        next?.catch(() => undefined);
        yield slice.data.subarray(Math.max(0, start - sliceStart), Math.min(slice.data.length, end - sliceStart + 1));
        if (!next) return;
        slice = await next;
        if (!slice) throw new Error('the movie source stopped answering ranges');
        index += 1;
      }
    }
    return Readable.from(bytes(), { objectMode: false });
  }
}

function header(response: IncomingMessage, name: string): string | undefined {
  const value = response.headers[name];
  return typeof value === 'string' ? value : undefined;
}
