/**
 * One conversion of one source for one choice (docs/transcode.md "Segments on demand"): its
 * segments written by one ffmpeg run at a time into its own directory, and read by every viewer. A
 * segment already written is served at once; one the running ffmpeg will reach within AHEAD_SEGMENTS
 * is waited for; any other (a seek far ahead, or back before the run's start) stops the run and
 * starts one at that segment, so a seek never waits for everything before it. The first init
 * segment written is the one served (`init.mp4`); later runs write their own.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ffmpegArgs, INIT_SEGMENT, SEGMENT_SEC, segmentCount, segmentName } from './hls';
import type { ConversionPlan } from './plan';

/** How many segments ahead of the last one written a request waits for the running ffmpeg instead of restarting it. */
export const AHEAD_SEGMENTS = 3;
/** How long (ms) a request waits for its segment before it fails. */
export const SEGMENT_WAIT_MS = 30_000;
/** How often (ms) a waiting request looks for its file. */
const POLL_MS = 50;

/** Thrown when a segment cannot be had: ffmpeg failed, took too long, or the conversion was closed. */
export class ConversionError extends Error {}

/** What a conversion converts and where. */
export interface ConversionOptions {
  /** A file path, or a loopback URL of this server's proxy (never a user's URL: docs/transcode.md "Probe"). */
  input: string;
  plan: ConversionPlan;
  durationSec: number;
  /** Its own directory (created; removed by close()). */
  dir: string;
  ffmpegPath?: string;
  maxHeight?: number;
  segmentSec?: number;
}

/** One ffmpeg run: the segment it started at and whether it has ended (and how). */
interface Run {
  start: number;
  child: ChildProcess;
  ended: boolean;
  failure: string | null;
}

/** One conversion; see the module comment. */
export class Conversion {
  readonly segments: number;
  /** The segment each run started at, oldest first (what a test or the admin console may show). */
  readonly runStarts: number[] = [];
  /** Requests waiting for a file now: a conversion someone waits on is not idle. */
  pending = 0;
  /** When a request last started or ended (Unix ms). */
  lastUsedMs = Date.now();
  private run: Run | null = null;
  private closed = false;
  private readonly segmentSec: number;

  constructor(private readonly options: ConversionOptions) {
    this.segmentSec = options.segmentSec ?? SEGMENT_SEC;
    this.segments = segmentCount(options.durationSec, this.segmentSec);
    fs.mkdirSync(options.dir, { recursive: true });
  }

  /**
   * The path of segment `n` once written, starting or restarting ffmpeg as needed. Rejects with
   * RangeError for a segment the film does not have, ConversionError when it cannot be had.
   */
  async segment(n: number): Promise<string> {
    if (!Number.isInteger(n) || n < 0 || n >= this.segments) throw new RangeError(`no segment ${n}`);
    const file = path.join(this.options.dir, segmentName(n));
    return this.using(async () => {
      if (!fs.existsSync(file)) {
        if (!this.reaches(n)) this.startAt(n);
        await this.waitFor(file);
      }
      return file;
    });
  }

  /** The path of the init segment served to every viewer, once written (starting at segment 0 when nothing runs). */
  async init(): Promise<string> {
    const file = path.join(this.options.dir, INIT_SEGMENT);
    return this.using(async () => {
      if (!fs.existsSync(file)) {
        if (!this.run || this.run.ended) this.startAt(0);
        await this.waitFor(file);
      }
      return file;
    });
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

  /** Whether the running ffmpeg will write segment `n` soon: it started at or before it, and is at most AHEAD_SEGMENTS behind it. */
  private reaches(n: number): boolean {
    const run = this.run;
    if (!run || run.ended || n < run.start) return false;
    let written = run.start;
    while (written < this.segments && fs.existsSync(path.join(this.options.dir, segmentName(written)))) written += 1;
    return n - written <= AHEAD_SEGMENTS;
  }

  private startAt(n: number): void {
    if (this.closed) throw new ConversionError('the conversion was closed');
    this.stopRun();
    const initName = fs.existsSync(path.join(this.options.dir, INIT_SEGMENT)) ? `init-${n}.mp4` : INIT_SEGMENT;
    const args = ffmpegArgs(this.options.plan, { input: this.options.input, outDir: this.options.dir, startSegment: n, segmentSec: this.segmentSec, maxHeight: this.options.maxHeight, initName });
    const child = spawn(this.options.ffmpegPath ?? 'ffmpeg', args, { stdio: ['ignore', 'ignore', 'pipe'] });
    const run: Run = { start: n, child, ended: false, failure: null };
    let errors = '';
    child.stderr?.on('data', (chunk: Buffer) => (errors = `${errors}${chunk.toString()}`.slice(-2000)));
    child.on('error', (error) => {
      run.ended = true;
      run.failure = `ffmpeg did not start: ${error.message}`;
    });
    child.on('close', (code, signal) => {
      run.ended = true;
      if (code !== 0 && !signal) run.failure = errors.trim().split('\n').pop() || `ffmpeg exited with ${code}`;
    });
    this.run = run;
    this.runStarts.push(n);
  }

  private stopRun(): void {
    if (this.run && !this.run.ended) this.run.child.kill('SIGKILL');
    this.run = null;
  }

  /** Waits until `file` exists. Rejects when the run that was to write it failed or ended without it, or after SEGMENT_WAIT_MS. */
  private async waitFor(file: string): Promise<void> {
    const deadline = Date.now() + SEGMENT_WAIT_MS;
    const run = this.run;
    while (!fs.existsSync(file)) {
      if (this.closed) throw new ConversionError('the conversion was closed');
      if (run?.failure) throw new ConversionError(`conversion failed: ${run.failure}`);
      if (run?.ended && !fs.existsSync(file)) {
        // The run may have been replaced (another viewer's seek): a request still wanted keeps waiting on the new one.
        if (this.run === run) throw new ConversionError('the conversion ended without this segment');
        return this.waitFor(file);
      }
      if (Date.now() > deadline) throw new ConversionError('the conversion is too slow');
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }
}
