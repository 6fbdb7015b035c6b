/**
 * HLS of the broadcasts pushed over RTMP (docs/live.md "HLS"), for players and CDNs that want
 * segments rather than one long HTTP-FLV response. No maintained Node library remuxes FLV into
 * HLS, so ffmpeg does it (`-c copy`: no transcoding, a few per cent of one core per broadcast),
 * reading the broadcast from the live hub exactly as an HTTP-FLV viewer does. ffmpeg is optional:
 * without it the server offers HTTP-FLV only.
 *
 * A remux starts when the first viewer asks for a broadcast's playlist, and stops when nobody has
 * asked for IDLE_STOP_MS or the broadcast ends (then ffmpeg closes the playlist with
 * `#EXT-X-ENDLIST`, kept for ENDED_KEEP_MS so players see the end). Segments live in a temporary
 * folder per broadcast, removed with the remux.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import type { LiveHub } from './live-hub';
import { spawnTool } from '../transcode/spawn';

/** Target segment length, s: segments are cut at the encoder's key frames, so they last at least one key-frame interval. */
const SEGMENT_SECONDS = 1;
/** Segments listed in the playlist (older ones are deleted). */
const PLAYLIST_SEGMENTS = 6;
/** How long a first request waits for ffmpeg's first playlist (one key-frame interval and its probing), ms. */
const FIRST_PLAYLIST_WAIT_MS = 10_000;
/** A remux nobody asked for a playlist for this long stops (players reload it every segment), ms. */
const IDLE_STOP_MS = 20_000;
/** A finished broadcast's last playlist (with its end mark) stays this long, ms. */
const ENDED_KEEP_MS = 10_000;
/** How often idle and finished remuxes are looked for, ms. */
const SWEEP_EVERY_MS = 5_000;
/** A segment's name as ffmpeg writes it (without extension). */
const SEGMENT_NAME = /^seg\d{1,9}$/;

/** One broadcast's remux. */
interface Remux {
  movieId: string;
  dir: string;
  ffmpeg: ChildProcess;
  /** Detaches ffmpeg's input from the hub. */
  unwatch: (() => void) | null;
  lastRequestMs: number;
  /** When ffmpeg exited (Unix ms), or null while it runs. */
  endedAtMs: number | null;
}

/** A playlist for one viewer: its segment URLs point at the public data route. */
export type SegmentUrl = (segmentName: string) => string;

/**
 * Every broadcast's HLS. `ffmpegPath` is the ffmpeg to run; `available()` says whether it ran
 * (checked once, at construction).
 */
export class HlsRemuxer {
  private readonly remuxes = new Map<string, Remux>();
  private readonly timer: NodeJS.Timeout;
  private readonly checked: Promise<boolean>;
  private usable = false;

  constructor(
    private readonly hub: LiveHub,
    private readonly ffmpegPath = 'ffmpeg',
  ) {
    this.checked = new Promise((resolve) => {
      const probe = spawn(ffmpegPath, ['-hide_banner', '-version'], { stdio: 'ignore' });
      probe.on('error', () => resolve(false));
      probe.on('exit', (code) => resolve(code === 0));
    });
    void this.checked.then((usable) => (this.usable = usable));
    this.timer = setInterval(() => this.sweep(), SWEEP_EVERY_MS);
    this.timer.unref();
  }

  /** Whether ffmpeg was found (false until its check has finished, a few ms after start). */
  available(): boolean {
    return this.usable;
  }

  /**
   * The live playlist of `movieId`'s broadcast with each segment's URL made by `segmentUrl`, or
   * null when nobody broadcasts it (or ffmpeg is missing or produced nothing within
   * FIRST_PLAYLIST_WAIT_MS). Starts the remux on the first request.
   */
  async playlist(movieId: string, segmentUrl: SegmentUrl): Promise<string | null> {
    if (!(await this.checked)) return null;
    let remux = this.remuxes.get(movieId);
    if (remux && remux.endedAtMs !== null && this.hub.isPublishing(movieId)) {
      // A new push of the same movie after the last one ended: start over.
      this.stop(remux);
      remux = undefined;
    }
    remux ??= this.start(movieId) ?? undefined;
    if (!remux) return null;
    remux.lastRequestMs = Date.now();
    const file = path.join(remux.dir, 'index.m3u8');
    const deadline = Date.now() + FIRST_PLAYLIST_WAIT_MS;
    while (!existsSync(file)) {
      if (remux.endedAtMs !== null || Date.now() > deadline) return null;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const text = await readFile(file, 'utf8').catch(() => null);
    if (text === null) return null;
    return text
      .split('\n')
      .map((line) => (line && !line.startsWith('#') ? segmentUrl(line.trim().replace(/\.ts$/, '')) : line))
      .join('\n');
  }

  /** The MPEG-TS bytes of segment `name` (e.g. `seg12`) of `movieId`'s broadcast, or null when there is no such segment (any more). */
  async segment(movieId: string, name: string): Promise<Buffer | null> {
    const remux = this.remuxes.get(movieId);
    if (!remux || !SEGMENT_NAME.test(name)) return null;
    return readFile(path.join(remux.dir, `${name}.ts`)).catch(() => null);
  }

  /** Stops every remux and removes its files (the server stops). */
  close(): void {
    clearInterval(this.timer);
    for (const remux of [...this.remuxes.values()]) this.stop(remux);
  }

  private start(movieId: string): Remux | null {
    if (!this.hub.isPublishing(movieId)) return null;
    const dir = mkdtempSync(path.join(os.tmpdir(), 'synctv-hls-'));
    // Killed by the kernel with the server (../transcode/spawn.ts): a remux must not outlive it.
    const ffmpeg = spawnTool(
      this.ffmpegPath,
      [
        ...['-hide_banner', '-loglevel', 'error', '-probesize', '1000000', '-analyzeduration', '1000000', '-f', 'flv', '-i', 'pipe:0', '-c', 'copy'],
        ...['-f', 'hls', '-hls_time', String(SEGMENT_SECONDS), '-hls_list_size', String(PLAYLIST_SEGMENTS)],
        // Segments appear only once complete (temp_file), old ones are deleted, each starts at a key frame.
        ...['-hls_flags', 'delete_segments+temp_file+independent_segments', '-hls_segment_filename', path.join(dir, 'seg%d.ts'), path.join(dir, 'index.m3u8')],
      ],
      { stdio: ['pipe', 'ignore', 'ignore'] },
    );
    const remux: Remux = { movieId, dir, ffmpeg, unwatch: null, lastRequestMs: Date.now(), endedAtMs: null };
    const input = ffmpeg.stdin!;
    // ffmpeg gone (or killed): its input's errors are expected, not the server's.
    input.on('error', () => undefined);
    ffmpeg.on('error', () => (remux.endedAtMs ??= Date.now()));
    ffmpeg.on('exit', () => {
      remux.endedAtMs ??= Date.now();
      remux.unwatch?.();
    });
    remux.unwatch = this.hub.watch(movieId, {
      write: (chunk) => {
        if (input.writable) input.write(chunk);
        return input.writableLength;
      },
      // The broadcast ended: ffmpeg finishes the last segment and marks the playlist ended.
      end: () => input.end(),
    });
    this.remuxes.set(movieId, remux);
    return remux;
  }

  private stop(remux: Remux): void {
    remux.unwatch?.();
    remux.ffmpeg.kill('SIGKILL');
    rmSync(remux.dir, { recursive: true, force: true });
    if (this.remuxes.get(remux.movieId) === remux) this.remuxes.delete(remux.movieId);
  }

  private sweep(): void {
    const now = Date.now();
    for (const remux of [...this.remuxes.values()]) {
      if (now - remux.lastRequestMs > IDLE_STOP_MS || (remux.endedAtMs !== null && now - remux.endedAtMs > ENDED_KEEP_MS)) this.stop(remux);
    }
  }
}

/**
 * The PNG a disguised segment starts with (docs/live.md, v0.9.11's `ts_disguised_as_png`): a
 * complete 1×1 8-bit grayscale image whose one pixel is random, 67 bytes. Players strip it before
 * parsing the MPEG-TS that follows; to a CDN the response is an image.
 */
export function disguisePng(): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(body) >>> 0);
    return Buffer.concat([length, body, crc]);
  };
  // Width 1, height 1, bit depth 8, colour type 0 (grayscale), compression, filter, interlace 0.
  const header = Buffer.from([0, 0, 0, 1, 0, 0, 0, 1, 8, 0, 0, 0, 0]);
  // One scanline: filter type 0, then the pixel.
  const pixels = zlib.deflateSync(Buffer.from([0, randomInt(256)]));
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', pixels), chunk('IEND', Buffer.alloc(0))]);
}
