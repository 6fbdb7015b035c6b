/**
 * DASH streams as bilibili's CDN serves them, made by ffmpeg from the test clip for the bilibili
 * stand-in (./bilibili-stand-in.ts): each stream one fragmented MP4 file with one `sidx` covering
 * all its fragments, so that a player reads it by HTTP Range from the byte ranges of its init
 * segment (ftyp + moov) and index (sidx), as bilibili's play-URL answer gives them.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** One stream file and what bilibili's answer says of it. */
export interface BilibiliMediaStream {
  file: string;
  /** bilibili's quality id (video: 16 = 360P, 32 = 480P; audio: 30216 = 64K). */
  id: number;
  codecs: string;
  width: number;
  height: number;
  bandwidth: number;
  mimeType: string;
  /** Byte ranges `start-end`: the init segment and the index. */
  initialization: string;
  indexRange: string;
}

/** The streams of the test clip (40 s): H.264 at 320×180 and 160×90, HEVC at 320×180, AAC. */
export interface BilibiliMedia {
  durationSec: number;
  video: BilibiliMediaStream[];
  audio: BilibiliMediaStream[];
}

const FRAGMENTED = ['-movflags', 'frag_keyframe+empty_moov+global_sidx+default_base_moof', '-f', 'mp4'];

/** The byte ranges of the init segment (up to the end of `moov`) and of the `sidx` box of a file. */
function ranges(file: string): { initialization: string; indexRange: string } {
  const data = fs.readFileSync(file);
  let offset = 0;
  let initEnd = -1;
  while (offset + 8 <= data.length) {
    const size = data.readUInt32BE(offset);
    const type = data.toString('latin1', offset + 4, offset + 8);
    if (type === 'moov') initEnd = offset + size - 1;
    if (type === 'sidx') return { initialization: `0-${initEnd}`, indexRange: `${offset}-${offset + size - 1}` };
    if (size < 8) break;
    offset += size;
  }
  throw new Error(`${file} has no sidx`);
}

const FILES = ['avc-320.m4s', 'avc-160.m4s', 'hevc-320.m4s', 'aac.m4s'];

/**
 * The streams of `clip` (e2e/media/mp4/clip.mp4), made once into `dir`: several processes may ask
 * at once (test workers), so each makes them in a directory of its own and moves it into place in
 * one rename; whoever comes second uses the first one's.
 */
export function makeBilibiliMedia(clip: string, dir: string): BilibiliMedia {
  if (!FILES.every((name) => fs.existsSync(path.join(dir, name)))) {
    fs.mkdirSync(path.dirname(dir), { recursive: true });
    const own = fs.mkdtempSync(`${dir}-making-`);
    const make = (name: string, args: string[]) => execFileSync('ffmpeg', ['-v', 'error', '-y', '-i', clip, ...args, ...FRAGMENTED, path.join(own, name)]);
    const keyframes = ['-g', '60', '-keyint_min', '60', '-sc_threshold', '0'];
    make('avc-320.m4s', ['-map', '0:v', '-c', 'copy']);
    make('avc-160.m4s', ['-map', '0:v', '-vf', 'scale=160:90', '-c:v', 'libx264', '-preset', 'ultrafast', '-profile:v', 'baseline', ...keyframes]);
    make('hevc-320.m4s', ['-map', '0:v', '-c:v', 'libx265', '-preset', 'ultrafast', '-tag:v', 'hev1', '-x265-params', 'log-level=error', ...keyframes]);
    make('aac.m4s', ['-map', '0:a', '-c', 'copy']);
    try {
      fs.renameSync(own, dir);
    } catch {
      fs.rmSync(own, { recursive: true, force: true });
    }
  }
  const out = (name: string) => path.join(dir, name);
  const stream = (file: string, id: number, codecs: string, width: number, height: number, mimeType: string): BilibiliMediaStream => ({
    file: out(file),
    id,
    codecs,
    width,
    height,
    mimeType,
    bandwidth: Math.round((fs.statSync(out(file)).size * 8) / 40),
    ...ranges(out(file)),
  });
  return {
    durationSec: 40,
    video: [
      stream('avc-320.m4s', 32, 'avc1.4d400d', 320, 180, 'video/mp4'),
      stream('hevc-320.m4s', 32, 'hev1.1.6.L60.90', 320, 180, 'video/mp4'),
      stream('avc-160.m4s', 16, 'avc1.42c00b', 160, 90, 'video/mp4'),
    ],
    audio: [stream('aac.m4s', 30216, 'mp4a.40.2', 0, 0, 'audio/mp4')],
  };
}
