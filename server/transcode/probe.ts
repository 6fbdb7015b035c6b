/**
 * What a media file holds, as ffprobe reads it (docs/transcode.md "Probe"): its duration and
 * container, and each stream's kind, codec, language, title and the facts the plan reads (size and
 * pixel format of a picture, channels of a sound). ffprobe runs as a child process with a deadline;
 * its JSON (`-show_format -show_streams`) is read here, nothing else of its output.
 */
import { inputOptions } from './input';
import { spawnTool } from './spawn';

/** One stream of a file, numbered as ffprobe numbers them (`index`, the `0:<index>` of an ffmpeg map). */
export interface ProbedStream {
  index: number;
  kind: 'video' | 'audio' | 'subtitle' | 'other';
  /** ffprobe's `codec_name` (`h264`, `hevc`, `aac`, `eac3`, `truehd`, `dts`, `subrip`, `ass`, `hdmv_pgs_subtitle` …). */
  codec: string;
  /** ffprobe's `profile` (`High`, `High 10`, `Main 10` …), "" when it gives none. */
  profile: string;
  /** ISO 639-2 language tag, "" when untagged. */
  language: string;
  title: string;
  isDefault: boolean;
  /** Pictures: size (px) and pixel format (`yuv420p`, `yuv420p10le` …); 0 and "" otherwise. */
  width: number;
  height: number;
  pixelFormat: string;
  /** Sounds: channels; 0 otherwise. */
  channels: number;
  /** A cover picture (`attached_pic`), not a video to play. */
  isCoverArt: boolean;
}

/** A probed file: its duration (s, 0 when unknown, as for a live stream), size, container and streams. */
export interface MediaProbe {
  durationSec: number;
  /** The file's size in bytes as the source told it; 0 when unknown. */
  sizeBytes: number;
  /** ffprobe's `format_name` (`matroska,webm`, `mov,mp4,m4a,3gp,3g2,mj2`, `mpegts` …). */
  container: string;
  streams: ProbedStream[];
}

/** Thrown when ffprobe cannot read the input as media (not media, gone, refused) or takes too long. */
export class ProbeError extends Error {}

/** How long ffprobe may take (ms) before it is stopped. */
export const PROBE_TIMEOUT_MS = 20_000;

const text = (value: unknown): string => (typeof value === 'string' ? value : '');
const number = (value: unknown): number => {
  const parsed = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : NaN;
  return Number.isFinite(parsed) ? parsed : 0;
};

/**
 * Reads ffprobe's JSON (`-print_format json -show_format -show_streams`) into a MediaProbe. Throws
 * ProbeError when it holds no stream.
 */
export function readProbe(json: string): MediaProbe {
  let raw: { format?: Record<string, unknown>; streams?: Record<string, unknown>[] };
  try {
    raw = JSON.parse(json) as typeof raw;
  } catch {
    throw new ProbeError('not media');
  }
  const streams = (Array.isArray(raw.streams) ? raw.streams : []).map((stream): ProbedStream => {
    const type = text(stream.codec_type);
    const tags = (stream.tags ?? {}) as Record<string, unknown>;
    const disposition = (stream.disposition ?? {}) as Record<string, unknown>;
    return {
      index: number(stream.index),
      kind: type === 'video' || type === 'audio' || type === 'subtitle' ? type : 'other',
      codec: text(stream.codec_name),
      profile: text(stream.profile),
      language: text(tags.language),
      title: text(tags.title),
      isDefault: number(disposition.default) === 1,
      width: number(stream.width),
      height: number(stream.height),
      pixelFormat: text(stream.pix_fmt),
      channels: number(stream.channels),
      isCoverArt: number(disposition.attached_pic) === 1,
    };
  });
  if (streams.length === 0) throw new ProbeError('not media');
  return { durationSec: number(raw.format?.duration), sizeBytes: number(raw.format?.size), container: text(raw.format?.format_name), streams };
}

/**
 * Runs `ffprobePath` with `args` and a deadline; resolves with what it printed. Rejects with
 * ProbeError: ffprobe's last line (not media, gone, refused), `probing took too long` after
 * `timeoutMs`, or `ffprobe did not start`.
 */
function runFfprobe(ffprobePath: string, args: string[], timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawnTool(ffprobePath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let errors = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.stdout!.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr!.on('data', (chunk: Buffer) => (errors = `${errors}${chunk.toString()}`.slice(-2000)));
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(new ProbeError(`ffprobe did not start: ${error.message}`));
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (signal) return reject(new ProbeError('probing took too long'));
      if (code !== 0) return reject(new ProbeError(errors.trim().split('\n').pop() || 'not media'));
      resolve(Buffer.concat(out).toString());
    });
  });
}

/**
 * Probes `input` (a file path, or this server's input route: ./input.ts, whose whitelists it is opened with) with
 * `ffprobePath`. Resolves with what it holds; rejects with ProbeError when it is not media, cannot be
 * read, or ffprobe takes longer than `timeoutMs`.
 */
export async function probeMedia(input: string, ffprobePath = 'ffprobe', timeoutMs = PROBE_TIMEOUT_MS): Promise<MediaProbe> {
  return readProbe(await runFfprobe(ffprobePath, ['-v', 'error', ...inputOptions(input), '-print_format', 'json', '-show_format', '-show_streams', '--', input], timeoutMs));
}

/** How long (ms) reading a film's keyframes may take: it reads every packet of the picture. */
export const KEYFRAMES_TIMEOUT_MS = 120_000;

/**
 * The times (s, the source's clock) of the keyframes of the picture stream `videoIndex` of `input`,
 * read from its packets without decoding them (`-show_entries packet=pts_time,flags`), for cutting a
 * copied picture into segments (./hls.ts `segmentStarts`). Rejects with ProbeError as probeMedia does.
 */
export async function probeKeyframes(input: string, videoIndex: number, ffprobePath = 'ffprobe', timeoutMs = KEYFRAMES_TIMEOUT_MS): Promise<number[]> {
  const out = await runFfprobe(ffprobePath, ['-v', 'error', ...inputOptions(input), '-select_streams', String(videoIndex), '-show_entries', 'packet=pts_time,flags', '-of', 'csv=p=0', '--', input], timeoutMs);
  const keyframes: number[] = [];
  for (const line of out.split('\n')) {
    const [time, flags] = line.split(',');
    if (flags?.includes('K') && time !== 'N/A') keyframes.push(Number(time));
  }
  return keyframes.filter(Number.isFinite);
}
