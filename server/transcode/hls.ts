/**
 * The HLS side of a conversion (docs/transcode.md "Segments"): the complete VOD playlist of a
 * conversion whose picture is converted (keyframes forced every `segmentSec`, so segment n covers
 * `[n·segmentSec, (n+1)·segmentSec)`), and the ffmpeg arguments of one run that writes fMP4
 * segments from segment `startSegment` on, keeping the source's timestamps so that a run started
 * at a far seek writes the same decode times as one started at 0 would (`frag_discont`).
 */
import path from 'node:path';
import type { ConversionPlan } from './plan';

/** Seconds of one segment. */
export const SEGMENT_SEC = 4;
/** The init segment's file name, shared by every run of a conversion. */
export const INIT_SEGMENT = 'init.mp4';

/** Segment n's file name. */
export function segmentName(n: number): string {
  return `seg${n}.m4s`;
}

/** How many segments a conversion of `durationSec` has. Throws for a duration that is not a positive number (a live source). */
export function segmentCount(durationSec: number, segmentSec = SEGMENT_SEC): number {
  if (!(durationSec > 0) || !Number.isFinite(durationSec)) throw new RangeError('a conversion needs a known duration');
  return Math.ceil(durationSec / segmentSec - 1e-9);
}

/**
 * The VOD playlist of a conversion: every segment from the start, the last one shorter, with
 * `uri(name)` making each file name into the address the player asks (the token, the room).
 */
export function vodPlaylist(durationSec: number, uri: (name: string) => string, segmentSec = SEGMENT_SEC): string {
  const count = segmentCount(durationSec, segmentSec);
  const lines = ['#EXTM3U', '#EXT-X-VERSION:7', `#EXT-X-TARGETDURATION:${Math.ceil(segmentSec)}`, '#EXT-X-MEDIA-SEQUENCE:0', '#EXT-X-PLAYLIST-TYPE:VOD', '#EXT-X-INDEPENDENT-SEGMENTS', `#EXT-X-MAP:URI="${uri(INIT_SEGMENT)}"`];
  for (let n = 0; n < count; n += 1) {
    const length = Math.min(segmentSec, durationSec - n * segmentSec);
    lines.push(`#EXTINF:${length.toFixed(6)},`, uri(segmentName(n)));
  }
  lines.push('#EXT-X-ENDLIST', '');
  return lines.join('\n');
}

/**
 * One ffmpeg run: its input (a path or a loopback URL of this server), where it writes, from which
 * segment, the tallest picture, and the name of its init segment. A run started at a far seek writes
 * its own init (its sound's edit list differs by the AAC encoder's priming, docs/transcode.md) and
 * the conversion keeps serving the first one.
 */
export interface RunOptions {
  input: string;
  outDir: string;
  startSegment: number;
  segmentSec?: number;
  maxHeight?: number;
  /** Default INIT_SEGMENT. */
  initName?: string;
}

/**
 * The ffmpeg arguments of one run of `plan` (whose picture is converted or absent: a copied picture
 * is cut at its own keyframes, which this playlist does not follow). The picture becomes H.264
 * (`veryfast`, keyframes at every segment boundary of the source's clock, scaled down to
 * `maxHeight`), the sound stereo AAC unless copied, an image subtitle drawn over the picture when the
 * plan burns one. Output: the init segment and `seg<n>.m4s` in `outDir`, n from `startSegment`.
 * Throws RangeError for a plan that copies the picture.
 */
export function ffmpegArgs(plan: ConversionPlan, options: RunOptions): string[] {
  const segmentSec = options.segmentSec ?? SEGMENT_SEC;
  if (plan.video?.action === 'copy') throw new RangeError('a copied picture is cut at its own keyframes');
  const startSec = options.startSegment * segmentSec;
  const args = ['-hide_banner', '-nostdin', '-loglevel', 'error', '-y'];
  if (startSec > 0) args.push('-ss', String(startSec));
  args.push('-i', options.input, '-copyts', '-avoid_negative_ts', 'disabled');
  if (plan.video) {
    const scale = options.maxHeight ? `scale=-2:'min(ih,${options.maxHeight})'` : '';
    if (plan.burnSubtitleIndex !== null) {
      const filter = `[0:${plan.video.index}][0:${plan.burnSubtitleIndex}]overlay${scale ? `,${scale}` : ''}[picture]`;
      args.push('-filter_complex', filter, '-map', '[picture]');
    } else {
      args.push('-map', `0:${plan.video.index}`);
      if (scale) args.push('-vf', scale);
    }
    args.push('-c:v', 'libx264', '-preset', 'veryfast', '-pix_fmt', 'yuv420p', '-force_key_frames', `expr:gte(t,n_forced*${segmentSec})`);
  }
  if (plan.audio) {
    args.push('-map', `0:${plan.audio.index}`);
    if (plan.audio.action === 'copy') args.push('-c:a', 'copy');
    else args.push('-c:a', 'aac', '-ac', '2', '-b:a', '192k');
  }
  args.push(
    '-f', 'hls',
    '-hls_time', String(segmentSec),
    '-hls_segment_type', 'fmp4',
    // Segments appear whole (written aside, then renamed): a file that exists is complete.
    '-hls_flags', 'independent_segments+temp_file',
    '-hls_segment_options', 'movflags=+frag_discont',
    '-hls_playlist_type', 'vod',
    '-start_number', String(options.startSegment),
    '-hls_fmp4_init_filename', options.initName ?? INIT_SEGMENT,
    '-hls_segment_filename', path.join(options.outDir, 'seg%d.m4s'),
    path.join(options.outDir, 'run.m3u8'),
  );
  return args;
}
