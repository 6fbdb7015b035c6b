/**
 * One conversion of one source for one choice (docs/transcode.md "Segments on demand"): its
 * segments written by one ffmpeg run at a time into its own directory, and read by every viewer. A
 * segment already written is served at once; one the running ffmpeg will reach within AHEAD_SEGMENTS
 * is waited for; any other (a seek far ahead, or back before the run's start) stops the run and
 * starts one at that segment, so a seek never waits for everything before it. Each run names its own
 * files (./hls.ts `segmentPattern`) and lists each segment it finished, so a segment a stopped run
 * left half-written is never served.
 */
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { PictureEncoder } from './encoders';
import { ffmpegArgs, SEGMENT_SEC, segmentFile } from './hls';
import type { ConversionPlan } from './plan';
import { spawnTool } from './spawn';

/** How many segments ahead of the last one written a request waits for the running ffmpeg instead of restarting it. */
export const AHEAD_SEGMENTS = 3;
/**
 * How many segments (of 4 s: a minute) a run writes past the furthest one anybody asked for before
 * ffmpeg is paused (SIGSTOP) until a viewer comes closer: a room watching a two-hour film costs the
 * server what it watches, not the whole film at full speed.
 */
export const LEAD_SEGMENTS = 15;
/** How often (ms) a running conversion looks whether to pause or resume ffmpeg. */
const THROTTLE_EVERY_MS = 250;
/** How long (ms) a request waits for its segment before it fails. */
export const SEGMENT_WAIT_MS = 30_000;
/** How often (ms) a waiting request looks for its file. */
const POLL_MS = 50;

/** Thrown when a segment cannot be had: ffmpeg failed, took too long, or the conversion was closed. */
export class ConversionError extends Error {}

/** What a conversion converts and where. */
export interface ConversionOptions {
  /**
   * A file path, or a loopback URL of this server's proxy (never a user's URL: docs/transcode.md
   * "What ffmpeg reads"); a function gives a fresh one for each run (an input token expires).
   */
  input: string | (() => string);
  plan: ConversionPlan;
  /** Where each segment starts (s): ./hls.ts `segmentStarts`. */
  starts: readonly number[];
  /** Its own directory (created; removed by close()). */
  dir: string;
  ffmpegPath?: string;
  maxHeight?: number;
  /** What makes a converted picture (./encoders.ts); `software` unless given. */
  encoder?: PictureEncoder;
  segmentSec?: number;
  /** LEAD_SEGMENTS unless given (tests, benchmarks). */
  leadSegments?: number;
  /** How often (ms) to look whether to pause or resume ffmpeg; THROTTLE_EVERY_MS unless given (tests). */
  throttleEveryMs?: number;
}

/** One ffmpeg run: its number, the segment it started at, its segment list, and whether it has ended (and how). */
interface Run {
  id: number;
  start: number;
  child: ChildProcess;
  listPath: string;
  ended: boolean;
  /** ffmpeg exited with 0: every segment it listed is whole. */
  succeeded: boolean;
  failure: string | null;
  /** The furthest segment asked for since the run started. */
  furthest: number;
  /** ffmpeg is stopped (SIGSTOP) because it is LEAD_SEGMENTS ahead. */
  paused: boolean;
  throttle: NodeJS.Timeout;
}

/** One conversion; see the module comment. */
export class Conversion {
  /** How many segments the film has. */
  readonly segments: number;
  /** The segment each run started at, oldest first (what a test or the admin console may show). */
  readonly runStarts: number[] = [];
  /** Requests waiting for a file now: a conversion someone waits on is not idle. */
  pending = 0;
  /** When a request last started or ended (Unix ms). */
  lastUsedMs = Date.now();
  /** The whole segments written so far: segment number → file. */
  private readonly written = new Map<number, string>();
  private run: Run | null = null;
  private runs = 0;
  private closed = false;

  /** Where each segment starts (s): the playlist of this conversion. */
  get starts(): readonly number[] {
    return this.options.starts;
  }

  constructor(private readonly options: ConversionOptions) {
    this.segments = options.starts.length;
    fs.mkdirSync(options.dir, { recursive: true });
  }

  /**
   * The path of segment `n` (an MPEG-TS file) once written whole, starting or restarting ffmpeg as
   * needed. Viewers who seek to different places at once take turns: a run started for one viewer's
   * segment is not stopped for another's until it has written that segment, and a viewer whose run
   * was replaced by another's looks again (waits for the new run, or starts its own in turn), so no
   * viewer's request fails because of another's seek. Rejects with RangeError for a segment the
   * film does not have, ConversionError when it cannot be had (ffmpeg failed, too slow, or the
   * conversion was closed).
   */
  async segment(n: number): Promise<string> {
    if (!Number.isInteger(n) || n < 0 || n >= this.segments) throw new RangeError(`no segment ${n}`);
    return this.using(async () => {
      const deadline = Date.now() + SEGMENT_WAIT_MS;
      for (;;) {
        if (this.closed) throw new ConversionError('the conversion was closed');
        this.refresh();
        const file = this.written.get(n);
        if (file) return file;
        if (!this.reaches(n)) {
          const current = this.run;
          if (current && !current.ended && current.start !== n && !this.written.has(current.start)) {
            // Another viewer's seek, not served yet: its turn first.
            if (Date.now() > deadline) throw new ConversionError('the conversion is too slow');
            await new Promise((resolve) => setTimeout(resolve, POLL_MS));
            continue;
          }
          this.startAt(n);
        }
        const run = this.run!;
        if (n >= run.start && n > run.furthest) {
          run.furthest = n;
          this.throttle(run);
        }
        const written = await this.waitFor(run, n, deadline);
        if (written !== null) return written;
      }
    });
  }

  /** Whether the running ffmpeg is paused, far enough ahead of every viewer. */
  get paused(): boolean {
    return Boolean(this.run?.paused);
  }

  /** Pauses ffmpeg once it is the lead ahead of the furthest segment asked for, and resumes it when a viewer comes closer. */
  private throttle(run: Run): void {
    if (run.ended || this.run !== run) return;
    this.refresh();
    let next = run.start;
    while (next < this.segments && this.written.has(next)) next += 1;
    const ahead = next - run.furthest > (this.options.leadSegments ?? LEAD_SEGMENTS);
    if (ahead !== run.paused) {
      run.paused = ahead;
      run.child.kill(ahead ? 'SIGSTOP' : 'SIGCONT');
    }
  }

  /** Runs a request, counted in `pending` and `lastUsedMs` while it lasts. */
  private async using<T>(request: () => Promise<T>): Promise<T> {
    this.pending += 1;
    this.lastUsedMs = Date.now();
    try {
      return await request();
    } finally {
      this.pending -= 1;
      this.lastUsedMs = Date.now();
    }
  }

  /** Stops ffmpeg and removes the directory. Waiting requests fail. */
  close(): void {
    this.closed = true;
    this.stopRun();
    fs.rmSync(this.options.dir, { recursive: true, force: true });
  }

  /**
   * Reads the running ffmpeg's segment list. A listed segment is whole once the run has opened the
   * next one (the muxer lists a segment just before closing it) or has ended well.
   */
  private refresh(): void {
    const run = this.run;
    if (!run) return;
    let list = '';
    try {
      list = fs.readFileSync(run.listPath, 'utf8');
    } catch {
      return;
    }
    for (const line of list.split('\n')) {
      const match = /^run\d+-seg(\d+)\.ts,/.exec(line);
      if (!match) continue;
      const n = Number(match[1]);
      const whole = run.succeeded || fs.existsSync(path.join(this.options.dir, segmentFile(run.id, n + 1)));
      if (whole) this.written.set(n, path.join(this.options.dir, segmentFile(run.id, n)));
    }
  }

  /** Whether the running ffmpeg will write segment `n` soon: it started at or before it, and is at most AHEAD_SEGMENTS behind it. */
  private reaches(n: number): boolean {
    const run = this.run;
    if (!run || run.ended || n < run.start) return false;
    let next = run.start;
    while (next < this.segments && this.written.has(next)) next += 1;
    return n - next <= AHEAD_SEGMENTS;
  }

  private startAt(n: number): void {
    if (this.closed) throw new ConversionError('the conversion was closed');
    this.stopRun();
    this.runs += 1;
    const id = this.runs;
    const listPath = path.join(this.options.dir, `run${id}.csv`);
    const args = ffmpegArgs(this.options.plan, {
      input: typeof this.options.input === 'function' ? this.options.input() : this.options.input,
      outDir: this.options.dir,
      starts: this.options.starts,
      startSegment: n,
      run: id,
      listName: path.basename(listPath),
      segmentSec: this.options.segmentSec ?? SEGMENT_SEC,
      maxHeight: this.options.maxHeight,
      encoder: this.options.encoder,
    });
    const child = spawnTool(this.options.ffmpegPath ?? 'ffmpeg', args, { stdio: ['ignore', 'ignore', 'pipe'] });
    const run: Run = { id, start: n, child, listPath, ended: false, succeeded: false, failure: null, furthest: n, paused: false, throttle: setInterval(() => this.throttle(run), this.options.throttleEveryMs ?? THROTTLE_EVERY_MS) };
    run.throttle.unref();
    let errors = '';
    child.stderr?.on('data', (chunk: Buffer) => (errors = `${errors}${chunk.toString()}`.slice(-2000)));
    child.on('error', (error) => {
      run.ended = true;
      clearInterval(run.throttle);
      run.failure = `ffmpeg did not start: ${error.message}`;
    });
    child.on('close', (code, signal) => {
      run.ended = true;
      clearInterval(run.throttle);
      run.succeeded = code === 0;
      if (code !== 0 && !signal) run.failure = errors.trim().split('\n').pop() || `ffmpeg exited with ${code}`;
    });
    this.run = run;
    this.runStarts.push(n);
  }

  private stopRun(): void {
    this.refresh();
    if (this.run) clearInterval(this.run.throttle);
    if (this.run && !this.run.ended) this.run.child.kill('SIGKILL');
    this.run = null;
  }

  /**
   * Waits until segment `n` is whole, written by `run`; null when `run` was replaced meanwhile (the
   * caller looks again). Rejects when `run` failed or ended without it, or after `deadline` (Unix ms).
   */
  private async waitFor(run: Run, n: number, deadline: number): Promise<string | null> {
    for (;;) {
      if (this.closed) throw new ConversionError('the conversion was closed');
      if (this.run !== run) return null;
      this.refresh();
      const file = this.written.get(n);
      if (file) return file;
      if (run.failure) throw new ConversionError(`conversion failed: ${run.failure}`);
      if (run.ended) throw new ConversionError('the conversion ended without this segment');
      if (Date.now() > deadline) throw new ConversionError('the conversion is too slow');
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }
}
