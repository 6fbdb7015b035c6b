/**
 * The HLS side of a conversion (docs/transcode.md "Segments"): where its segments start, the
 * complete VOD playlist, and the ffmpeg arguments of one run that writes MPEG-TS segments from
 * segment `startSegment` on. Every run keeps the source's clock (`-copyts`), so a run started at a
 * far seek writes the same timestamps as one started at 0 would, and cuts at the same times:
 *
 * - a converted picture gets a keyframe at every multiple of `segmentSec` (the grid);
 * - a copied picture is cut at its own keyframes: each segment starts at the first keyframe at least
 *   `segmentSec` after the previous segment's start (`segmentStarts` with the keyframe list).
 *
 * MPEG-TS segments carry their own timestamps and need no init segment, so segments of different
 * runs play one after the other as if one run had written them.
 */
import path from 'node:path';
import type { ConversionPlan } from './plan';
import { encoderArgs, type PictureEncoder } from './encoders';
import { inputOptions } from './input';

/** Seconds of one segment (at least; a copied picture's segments end at a keyframe). */
export const SEGMENT_SEC = 4;

/** The file name pattern of run `run`'s segments (`%d`: the segment's number in the film). */
export function segmentPattern(run: number): string {
  return `run${run}-seg%d.ts`;
}

/** The file a run writes for segment `n`. */
export function segmentFile(run: number, n: number): string {
  return segmentPattern(run).replace('%d', String(n));
}

/**
 * Where each segment starts (s, the first at 0), for a film of `durationSec`: on the grid of
 * `segmentSec` when the picture is converted (`keyframesSec` null), else at the first keyframe at
 * least `segmentSec` after the previous start. A start within 50 ms of the end is dropped. Throws
 * RangeError for a duration that is not a positive number (a live source).
 */
export function segmentStarts(durationSec: number, keyframesSec: readonly number[] | null, segmentSec = SEGMENT_SEC): number[] {
  if (!(durationSec > 0) || !Number.isFinite(durationSec)) throw new RangeError('a conversion needs a known duration');
  const last = durationSec - 0.05;
  const starts = [0];
  if (keyframesSec === null) {
    for (let n = 1; n * segmentSec < last; n += 1) starts.push(n * segmentSec);
    return starts;
  }
  for (const keyframe of [...keyframesSec].sort((a, b) => a - b)) {
    if (keyframe >= last) break;
    if (keyframe >= starts[starts.length - 1] + segmentSec - 1e-3) starts.push(keyframe);
  }
  return starts;
}

/**
 * The VOD playlist of a conversion: every segment from the start (`starts` from segmentStarts), the
 * last one up to `durationSec`, with `uri(n)` the address the player asks for segment n (with the
 * token and the room).
 */
export function vodPlaylist(starts: readonly number[], durationSec: number, uri: (n: number) => string): string {
  const lengths = starts.map((start, n) => (n + 1 < starts.length ? starts[n + 1] : durationSec) - start);
  const lines = ['#EXTM3U', '#EXT-X-VERSION:3', `#EXT-X-TARGETDURATION:${Math.ceil(Math.max(...lengths) - 1e-6)}`, '#EXT-X-MEDIA-SEQUENCE:0', '#EXT-X-PLAYLIST-TYPE:VOD'];
  lengths.forEach((length, n) => lines.push(`#EXTINF:${length.toFixed(6)},`, uri(n)));
  lines.push('#EXT-X-ENDLIST', '');
  return lines.join('\n');
}

/**
 * How long before a run's start a burned-in subtitle is read from (s): the longest a subtitle line
 * shown at a seek point may have begun before it.
 */
export const SUBTITLE_LEAD_SEC = 15;

/**
 * One ffmpeg run: its input (a path or a loopback URL of this server), where it writes, the
 * segments' starts, from which segment, its number (naming its files, segmentPattern), the list
 * file it appends each finished segment to, and the tallest picture.
 */
export interface RunOptions {
  input: string;
  outDir: string;
  starts: readonly number[];
  startSegment: number;
  run: number;
  /** The run's segment list (CSV: `file,start,end` per finished segment), in `outDir`. */
  listName: string;
  segmentSec?: number;
  maxHeight?: number;
  /** What makes a converted picture: `software` (libx264) unless given (./encoders.ts). */
  encoder?: PictureEncoder;
}

/**
 * The ffmpeg arguments of one run of `plan`. A converted picture becomes H.264 (8-bit 4:2:0, a
 * keyframe at every segment start, scaled down to `maxHeight`, by `encoder`); a copied one is
 * seeked to the keyframe its segment starts at. The sound becomes stereo AAC unless copied; an image
 * subtitle is drawn over the picture when the plan burns one (read from SUBTITLE_LEAD_SEC before the
 * start). Output: MPEG-TS segments cut at `starts`.
 */
export function ffmpegArgs(plan: ConversionPlan, options: RunOptions): string[] {
  const startSec = options.starts[options.startSegment];
  if (startSec === undefined) throw new RangeError(`no segment ${options.startSegment}`);
  const copyPicture = plan.video?.action === 'copy';
  const segmentSec = options.segmentSec ?? SEGMENT_SEC;
  const encoder = encoderArgs(options.encoder ?? 'software', options.maxHeight ?? 0, segmentSec);
  const args = ['-hide_banner', '-nostdin', '-loglevel', 'error', '-y'];
  if (plan.video && !copyPicture) args.push(...encoder.device);
  // A copied picture: half a millisecond past its keyframe, so that the seek lands on that keyframe
  // even when ffprobe rounded its time up.
  if (startSec > 0) args.push('-ss', (copyPicture ? startSec + 0.0005 : startSec).toFixed(6));
  // The whitelists of ./input.ts: input options, so given before each `-i`.
  args.push(...inputOptions(options.input), '-i', options.input, '-copyts', '-avoid_negative_ts', 'disabled');
  if (plan.video && copyPicture) {
    args.push('-map', `0:${plan.video.index}`, '-c:v', 'copy');
  } else if (plan.video) {
    if (plan.burnSubtitleIndex !== null) {
      // A subtitle shown at the seek point began before it: the subtitle comes from a second
      // reading of the source that starts SUBTITLE_LEAD_SEC earlier (both keep the source's clock).
      const subtitleInput = startSec > 0 ? 1 : 0;
      if (subtitleInput) args.push('-ss', Math.max(0, startSec - SUBTITLE_LEAD_SEC).toFixed(6), ...inputOptions(options.input), '-i', options.input);
      const filter = `[0:${plan.video.index}][${subtitleInput}:${plan.burnSubtitleIndex}]overlay${encoder.filter ? `,${encoder.filter}` : ''}[picture]`;
      args.push('-filter_complex', filter, '-map', '[picture]');
    } else {
      args.push('-map', `0:${plan.video.index}`);
      if (encoder.filter) args.push('-vf', encoder.filter);
    }
    // Keyframes: `t` counts from this run's start, which is on the grid, so one at every segment start.
    args.push(...encoder.codec);
  }
  if (plan.audio) {
    args.push('-map', `0:${plan.audio.index}`);
    if (plan.audio.action === 'copy') args.push('-c:a', 'copy');
    else args.push('-c:a', 'aac', '-ac', '2', '-b:a', '192k');
  }
  // The times the remaining segments start at, a millisecond early: the segment muxer cuts at the
  // first keyframe at or after each.
  const cuts = options.starts.slice(options.startSegment + 1).map((start) => Math.max(0, start - 0.001).toFixed(6));
  args.push('-f', 'segment', '-segment_format', 'mpegts', '-segment_start_number', String(options.startSegment));
  // The last segment: no cut at all (the muxer's default would cut every 2 s).
  args.push(...(cuts.length > 0 ? ['-segment_times', cuts.join(',')] : ['-segment_time', '1000000000']));
  args.push('-segment_list', path.join(options.outDir, options.listName), '-segment_list_type', 'csv', path.join(options.outDir, segmentPattern(options.run)));
  return args;
}
