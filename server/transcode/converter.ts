/**
 * The server's conversions (docs/transcode.md): whether ffmpeg is there, what each source holds
 * (probed once, with its keyframes when its picture is copied), the plan for a viewer's choice, and
 * the shared Conversion that serves its segments (./registry.ts). The input is always a loopback URL
 * of this server's own proxy (routes/proxy.ts `…/input/…`), opened with the whitelists of ./input.ts,
 * so ffmpeg reaches only what the proxy's address guard lets through. Every probe, keyframe scan and
 * extraction runs in a slot of ./jobs.ts, taken before its process is spawned.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { LRUCache } from 'lru-cache';
import { ConversionError, type Conversion } from './conversion';
import { workingHardwareEncoders, type HardwareEncoder, type PictureEncoder } from './encoders';
import { SEGMENT_SEC, segmentStarts } from './hls';
import { planConversion, type ConversionChoice, type ConversionPlan } from './plan';
import { probeKeyframes, probeMedia, ProbeError, type MediaProbe } from './probe';
import { ConversionLimitError, ConversionRegistry, type RegistryLimits } from './registry';
import { inputOptions } from './input';
import { JobLimiter, type JobLimits } from './jobs';
import { reapToolsUnder, spawnTool } from './spawn';
import { settledWithin } from '../within';

/** 400 when a source is longer than the admin lets the server convert (companion text). */
export const TOO_LONG_TO_CONVERT = 'the movie is longer than this server converts';
/** 400 when a source's file is larger than the admin lets the server convert (companion text). */
export const TOO_LARGE_TO_CONVERT = 'the movie is larger than this server converts';
/** 400 when ffprobe cannot read a source as media (companion text). */
export const NOT_MEDIA = 'the source is not a film this server can read';
/** 400 when a source has no duration: a live stream (companion text). */
export const LIVE_NOT_CONVERTED = 'a live movie cannot be converted';

/** How long (ms) a viewer waits for a copied picture's keyframe list before the picture is converted instead. */
export const KEYFRAMES_BUDGET_MS = 5000;
/** How long (ms) what a source holds is remembered. */
const PROBE_TTL_MS = 10 * 60_000;

/** What a source holds: probed once for every viewer and choice. */
interface SourceFacts {
  probe: MediaProbe;
  /** The picture's keyframes, read when a plan first copies the picture. */
  keyframes: Promise<number[]> | null;
}

/** ffmpeg's input: gives a fresh input URL each call (its token expires), or a file path (tests, benchmarks). */
export type InputSource = () => string;

/** A plan for one source and choice, with where its segments start. */
export interface PreparedConversion {
  probe: MediaProbe;
  plan: ConversionPlan;
  starts: number[];
}

/** The admin's limits (site settings `convert_*`). */
export interface ConvertLimits extends RegistryLimits {
  maxHeight: number;
  maxMinutes: number;
  /** The largest source (GB, 10⁹ bytes) converted; a source whose size is not known is bounded by its duration only. */
  maxGigabytes: number;
  /** What makes a converted picture (`convert_encoder`): used when it works here (`hardwareEncoders`), else software. */
  encoder: PictureEncoder;
}

/** The ffprobe beside `ffmpegPath` (`ffmpeg` → `ffprobe`, `/opt/ff/bin/ffmpeg` → `/opt/ff/bin/ffprobe`). */
export function ffprobeBeside(ffmpegPath: string): string {
  const name = path.basename(ffmpegPath).replace(/ffmpeg/i, 'ffprobe');
  return ffmpegPath.includes('/') ? path.join(path.dirname(ffmpegPath), name) : name;
}

/** Largest subtitle (bytes) an extraction keeps. */
const MAX_SUBTITLE_BYTES = 8 * 1024 * 1024;
/** How long (ms) an extraction may take: it reads the whole source. */
const SUBTITLE_TIMEOUT_MS = 180_000;

/** Runs ffmpeg to write stream `index` of `input` as WebVTT or ASS to its standard output. Rejects with ConversionError. */
function extractSubtitle(ffmpegPath: string, input: string, index: number, format: 'vtt' | 'ass'): Promise<string> {
  return new Promise((resolve, reject) => {
    const args = ['-hide_banner', '-nostdin', '-loglevel', 'error', ...inputOptions(input), '-i', input, '-map', `0:${index}`, '-c:s', format === 'vtt' ? 'webvtt' : 'ass', '-f', format === 'vtt' ? 'webvtt' : 'ass', 'pipe:1'];
    const child = spawnTool(ffmpegPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    let size = 0;
    let errors = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), SUBTITLE_TIMEOUT_MS);
    child.stdout!.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_SUBTITLE_BYTES) child.kill('SIGKILL');
      else chunks.push(chunk);
    });
    child.stderr!.on('data', (chunk: Buffer) => (errors = `${errors}${chunk.toString()}`.slice(-2000)));
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(new ConversionError(`ffmpeg did not start: ${error.message}`));
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code !== 0) return reject(new ConversionError(errors.trim().split('\n').pop() || `ffmpeg exited with ${code}`));
      resolve(Buffer.concat(chunks).toString('utf8'));
    });
  });
}

/** Removes the folders under `root` of processes that no longer run, killing any ffmpeg they left running there. */
function removeLeftovers(root: string): void {
  let names: string[] = [];
  try {
    names = fs.readdirSync(root);
  } catch {
    return;
  }
  for (const name of names) {
    const pid = Number(name);
    if (Number.isSafeInteger(pid) && pid > 0 && pid !== process.pid && isRunning(pid)) continue;
    if (pid === process.pid) continue;
    reapToolsUnder(path.join(root, name));
    fs.rmSync(path.join(root, name), { recursive: true, force: true });
  }
}

/** Whether process `pid` runs (signal 0 only asks). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** See the module comment. */
export class Converter {
  readonly registry: ConversionRegistry;
  private readonly found: Promise<string>;
  private hardware: Promise<HardwareEncoder[]> | null = null;
  private readonly facts = new LRUCache<string, Promise<SourceFacts>>({ max: 200, ttl: PROBE_TTL_MS });
  private readonly subtitles = new LRUCache<string, Promise<string>>({ max: 50, ttl: PROBE_TTL_MS });
  /** The slots of probes, keyframe scans and extractions (./jobs.ts). */
  private readonly jobs: JobLimiter;

  /**
   * `root`: where conversions write, in a folder of this process (`<root>/<pid>`; what processes that
   * are gone left there is removed now, so instances may share a data directory); `ffmpegPath`: the
   * ffmpeg to run (its ffprobe beside it); `idleCloseMs`: how long a conversion nobody asks anything
   * of is kept (tests shorten it); `keyframesBudgetMs`: how long a first viewer waits for a copied
   * picture's keyframes before the picture is converted instead (KEYFRAMES_BUDGET_MS); `jobLimits`:
   * the slots of probes, scans and extractions (./jobs.ts defaults).
   */
  constructor(
    root: string,
    private readonly ffmpegPath = 'ffmpeg',
    idleCloseMs?: number,
    private readonly keyframesBudgetMs = KEYFRAMES_BUDGET_MS,
    jobLimits?: JobLimits,
  ) {
    removeLeftovers(root);
    this.jobs = new JobLimiter(jobLimits);
    this.registry = new ConversionRegistry(path.join(root, String(process.pid)), { maxConversions: 2, maxPerUser: 1, idleCloseMs });
    this.found = new Promise((resolve) => {
      const probe = spawn(ffmpegPath, ['-hide_banner', '-version'], { stdio: ['ignore', 'pipe', 'ignore'] });
      let out = '';
      probe.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
      probe.on('error', () => resolve(''));
      probe.on('close', (code) => resolve(code === 0 ? (/^ffmpeg version (\S+)/.exec(out)?.[1] ?? 'unknown') : ''));
    });
  }

  /**
   * The hardware encoders that work on this machine (./encoders.ts `workingHardwareEncoders`), tried
   * once, when first asked (the admin console, a conversion); empty without ffmpeg.
   */
  hardwareEncoders(): Promise<HardwareEncoder[]> {
    this.hardware ??= this.found.then((version) => (version ? workingHardwareEncoders(this.ffmpegPath) : []));
    return this.hardware;
  }

  /** Whether ffmpeg was found on this machine. */
  async available(): Promise<boolean> {
    return (await this.found) !== '';
  }

  /** The version of the ffmpeg found (`5.1.9-0+deb12u1`), "" when there is none. */
  version(): Promise<string> {
    return this.found;
  }

  /**
   * The plan for `sourceKey` (the movie and its source) read from `input`, for `choice`, any reading
   * charged to `userId`. Rejects with ProbeError NOT_MEDIA, RangeError LIVE_NOT_CONVERTED,
   * TOO_LONG_TO_CONVERT or TOO_LARGE_TO_CONVERT, PlanError, or ConversionLimitError (./jobs.ts, or
   * what `admit` throws: it is called once the plan is known, before any further reading).
   */
  async prepare(sourceKey: string, input: InputSource, choice: ConversionChoice, limits: ConvertLimits, userId: string, admit: () => void = () => undefined): Promise<PreparedConversion> {
    const known = await this.factsOf(sourceKey, input, userId);
    const { probe } = known;
    if (!(probe.durationSec > 0)) throw new RangeError(LIVE_NOT_CONVERTED);
    if (probe.durationSec > limits.maxMinutes * 60) throw new RangeError(TOO_LONG_TO_CONVERT);
    if (probe.sizeBytes > limits.maxGigabytes * 1e9) throw new RangeError(TOO_LARGE_TO_CONVERT);
    const plan = planConversion(probe, { ...choice, maxHeight: limits.maxHeight });
    admit();
    if (plan.video?.action !== 'copy') return { probe, plan, starts: segmentStarts(probe.durationSec, null, SEGMENT_SEC) };
    // A copied picture is cut at its keyframes, whose list means reading every packet of it: from a
    // slow host, a long read. Past the budget the picture is converted instead, while the list is
    // read on for the next conversion of this source.
    const videoIndex = plan.video.index;
    const reading = (known.keyframes ??= this.jobs.run(userId, () => probeKeyframes(input(), videoIndex, ffprobeBeside(this.ffmpegPath))));
    reading.catch(() => {
      if (known.keyframes === reading) known.keyframes = null;
    });
    const keyframes = await settledWithin(
      reading.catch((error: unknown) => {
        // No slot to read them now: as if they took too long (the picture is converted instead).
        if (error instanceof ConversionLimitError) return null;
        throw error instanceof ProbeError ? new ProbeError(NOT_MEDIA) : error;
      }),
      this.keyframesBudgetMs,
      null,
    );
    if (keyframes) return { probe, plan, starts: segmentStarts(probe.durationSec, keyframes, SEGMENT_SEC) };
    return { probe, plan: planConversion(probe, { ...choice, maxHeight: limits.maxHeight, convertPicture: true }), starts: segmentStarts(probe.durationSec, null, SEGMENT_SEC) };
  }

  /**
   * What `sourceKey` (read from `input`) holds: probed once, shared; a probe it starts is charged to
   * `userId`. Rejects with ProbeError NOT_MEDIA, or ConversionLimitError when no slot is free.
   */
  probe(sourceKey: string, input: InputSource, userId: string): Promise<MediaProbe> {
    return this.factsOf(sourceKey, input, userId).then((facts) => facts.probe);
  }

  private factsOf(sourceKey: string, input: InputSource, userId: string): Promise<SourceFacts> {
    let facts = this.facts.get(sourceKey);
    if (!facts) {
      facts = this.jobs.run(userId, () => probeMedia(input(), ffprobeBeside(this.ffmpegPath))).then(
        (probe): SourceFacts => ({ probe, keyframes: null }),
        (error: unknown) => {
          throw error instanceof ProbeError ? new ProbeError(NOT_MEDIA) : error;
        },
      );
      this.facts.set(sourceKey, facts);
      // A failure is not remembered: the source may be back in a moment.
      facts.catch(() => this.facts.delete(sourceKey));
    }
    return facts;
  }

  /**
   * The text subtitle stream `index` of `sourceKey` (read from `input`) as WebVTT or ASS, extracted
   * once by ffmpeg (which reads the whole source) and shared by every viewer. Rejects with
   * ConversionError when ffmpeg fails, RangeError for a stream the plan does not offer as text, or
   * ConversionLimitError when no slot is free for `userId`.
   */
  async subtitle(sourceKey: string, input: InputSource, index: number, userId: string): Promise<{ text: string; format: 'vtt' | 'ass' }> {
    const probe = await this.probe(sourceKey, input, userId);
    const offered = planConversion(probe).subtitles.find((subtitle) => subtitle.index === index);
    if (!offered) throw new RangeError('id out of range');
    const key = `${sourceKey}\n${index}`;
    let text = this.subtitles.get(key);
    if (!text) {
      text = this.jobs.run(userId, () => extractSubtitle(this.ffmpegPath, input(), index, offered.format));
      this.subtitles.set(key, text);
      text.catch(() => this.subtitles.delete(key));
    }
    return { text: await text, format: offered.format };
  }

  /**
   * The shared conversion of `key` (the source key and the choice), made for `userId` with what
   * `prepare` plans when there is none yet. Rejects with ConversionLimitError (./registry.ts) past a
   * limit, checked by the `admit` given to `prepare` once its plan is known (its probe is bounded by
   * ./jobs.ts), and with what `prepare` rejects with.
   */
  async conversion(key: string, userId: string, input: InputSource, prepare: (admit: () => void) => Promise<PreparedConversion>, limits: ConvertLimits): Promise<Conversion> {
    // An existing conversion keeps the plan it was made with (its playlist with it).
    const existing = this.registry.find(key);
    if (existing) return existing;
    this.registry.limits = { ...this.registry.limits, maxConversions: limits.maxConversions, maxPerUser: limits.maxPerUser };
    const prepared = await prepare(() => this.registry.admit(userId));
    const encoder = limits.encoder !== 'software' && (await this.hardwareEncoders()).includes(limits.encoder) ? limits.encoder : 'software';
    return this.registry.get(key, userId, () => ({ input, plan: prepared.plan, starts: prepared.starts, ffmpegPath: this.ffmpegPath, maxHeight: limits.maxHeight, encoder }));
  }

  /**
   * Stops the conversions of room `roomId` but those of `movieId` (the room's current movie; "" for
   * none). Keys start with `<room> <movie> ` (routes/convert.ts).
   */
  keepOnly(roomId: string, movieId: string): void {
    this.registry.closeWhere((key) => key.startsWith(`${roomId} `) && !(movieId && key.startsWith(`${roomId} ${movieId} `)));
  }

  /** Stops every conversion (the server is closing). */
  close(): void {
    this.registry.close();
  }
}
