/**
 * Files browsers cannot play as they are, made by ffmpeg for the conversion tests (docs/transcode.md
 * "Testing"): a second or two of a test picture and tones, small, in the codecs people's films come
 * in. Made once per directory; each call returns the paths.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** The files, by what they hold. */
export interface ConversionMedia {
  /** HEVC picture; E-AC-3 5.1 (eng, default) and AC-3 stereo (jpn) sounds; SubRip (eng) and ASS (jpn) subtitles; MKV. */
  hevcEac3: string;
  /** H.264 picture, TrueHD sound; MKV. */
  trueHd: string;
  /** H.264 picture, AC-3 sound; MP4. */
  ac3Mp4: string;
  /** H.264 picture, DTS sound; MKV. */
  dts: string;
  /** H.264 in 10 bits (High 10), AAC; MKV. */
  h264TenBit: string;
  /** H.264 and AAC in MKV: only the container is wrong. */
  h264AacMkv: string;
  /** Twelve seconds of HEVC picture and AC-3 sound in MKV: long enough to seek in. */
  hevcLong: string;
  /** Twelve seconds of H.264 picture (a keyframe every 2.4 s) and AC-3 sound in MKV: the picture is copied, cut at its keyframes. */
  h264Ac3Long: string;
  /**
   * A minute of a black 160×90 H.264 picture with AAC and an image subtitle (PGS, eng): a white box
   * at IMAGE_SUBTITLE_BOX during IMAGE_SUBTITLE_LINES (3 s of every 4); MKV.
   */
  imageSubtitle: string;
  /** H.264 and AAC in MP4: what every browser plays as it is. */
  h264AacMp4: string;
  /** A text file named like a film. */
  notMedia: string;
}

const SRT = '1\n00:00:00,000 --> 00:00:01,500\nHello\n';
const ASS = `[Script Info]
ScriptType: v4.00+

[V4+ Styles]
Format: Name, Fontname, Fontsize, PrimaryColour, Bold, Italic, Alignment, MarginL, MarginR, MarginV
Style: Default,Arial,24,&H00FFFFFF,0,0,2,10,10,10

[Events]
Format: Layer, Start, End, Style, Text
Dialogue: 0,0:00:00.00,0:00:01.50,Default,{\\i1}こんにちは{\\i0}
`;

/** Where the image subtitle of `imageSubtitle` draws its white box (px of the 160×90 picture). */
export const IMAGE_SUBTITLE_BOX = { x: 40, y: 50, width: 80, height: 20 };
/** When it shows the box (s): 3 s of every 4, as subtitle lines come and go, from 0.5 s to 59.5 s. */
export const IMAGE_SUBTITLE_LINES: readonly (readonly [number, number])[] = Array.from({ length: 15 }, (_, line) => [4 * line + 0.5, 4 * line + 3.5] as const);

/** One PGS segment: "PG", its presentation time (90 kHz), a decoding time of 0, its type and payload. */
function pgsSegment(type: number, atSec: number, payload: Buffer): Buffer {
  const header = Buffer.alloc(13);
  header.write('PG', 0, 'latin1');
  header.writeUInt32BE(Math.round(atSec * 90_000), 2);
  header.writeUInt8(type, 10);
  header.writeUInt16BE(payload.length, 11);
  return Buffer.concat([header, payload]);
}

const u16 = (value: number) => Buffer.from([value >> 8, value & 0xff]);

/**
 * A Blu-ray image subtitle (PGS, a `.sup` file) that shows a white box over a picture of `video`'s
 * size during each of `lines` (`[start, end]` in s), written here because ffmpeg encodes no PGS.
 * Two display sets a line: the box (composition, window, palette, object, end) and an empty
 * composition that clears it. Each row of the object is run-length coded as `00 C0|len>>8 len 01`
 * and `00 00` (width ≥ 64).
 */
function pgsBox(video: { width: number; height: number }, box: typeof IMAGE_SUBTITLE_BOX, lines: readonly (readonly [number, number])[]): Buffer {
  const composition = (state: number, number: number, objects: 0 | 1) =>
    Buffer.concat([u16(video.width), u16(video.height), Buffer.from([0x10]), u16(number), Buffer.from([state, 0, 0, objects]), ...(objects ? [u16(0), Buffer.from([0, 0]), u16(box.x), u16(box.y)] : [])]);
  const window = Buffer.concat([Buffer.from([1, 0]), u16(box.x), u16(box.y), u16(box.width), u16(box.height)]);
  // Palette entry 1: white (Y 235, Cr 128, Cb 128), opaque.
  const palette = Buffer.from([0, 0, 1, 235, 128, 128, 255]);
  const row = Buffer.from([0x00, 0xc0 | (box.width >> 8), box.width & 0xff, 0x01, 0x00, 0x00]);
  const rle = Buffer.concat(Array.from({ length: box.height }, () => row));
  const length = rle.length + 4;
  const object = Buffer.concat([u16(0), Buffer.from([0, 0xc0, (length >> 16) & 0xff, (length >> 8) & 0xff, length & 0xff]), u16(box.width), u16(box.height), rle]);
  const [PALETTE, OBJECT, COMPOSITION, WINDOW, END] = [0x14, 0x15, 0x16, 0x17, 0x80];
  return Buffer.concat(
    lines.flatMap(([startSec, endSec], line) => [
      pgsSegment(COMPOSITION, startSec, composition(0x80, 2 * line, 1)),
      pgsSegment(WINDOW, startSec, window),
      pgsSegment(PALETTE, startSec, palette),
      pgsSegment(OBJECT, startSec, object),
      pgsSegment(END, startSec, Buffer.alloc(0)),
      pgsSegment(COMPOSITION, endSec, composition(0x00, 2 * line + 1, 0)),
      pgsSegment(WINDOW, endSec, window),
      pgsSegment(END, endSec, Buffer.alloc(0)),
    ]),
  );
}

/** A picture and a tone of `seconds`, as ffmpeg inputs. */
function sources(seconds: number): string[] {
  return ['-f', 'lavfi', '-i', `testsrc2=size=160x90:rate=25:duration=${seconds}`, '-f', 'lavfi', '-i', `sine=frequency=440:sample_rate=48000:duration=${seconds}`];
}

const X264 = ['-c:v', 'libx264', '-preset', 'ultrafast', '-g', '25'];

/** Makes the files under `dir` (once: kept files are reused) with `ffmpegPath`. */
export function makeConversionMedia(dir: string, ffmpegPath = 'ffmpeg'): ConversionMedia {
  fs.mkdirSync(dir, { recursive: true });
  const media: ConversionMedia = {
    hevcEac3: path.join(dir, 'hevc-eac3.mkv'),
    trueHd: path.join(dir, 'truehd.mkv'),
    ac3Mp4: path.join(dir, 'ac3.mp4'),
    dts: path.join(dir, 'dts.mkv'),
    h264TenBit: path.join(dir, 'h264-10bit.mkv'),
    h264AacMkv: path.join(dir, 'h264-aac.mkv'),
    hevcLong: path.join(dir, 'hevc-long.mkv'),
    h264Ac3Long: path.join(dir, 'h264-ac3-long.mkv'),
    h264AacMp4: path.join(dir, 'h264-aac.mp4'),
    imageSubtitle: path.join(dir, 'image-subtitle.mkv'),
    notMedia: path.join(dir, 'not-media.mkv'),
  };
  const make = (file: string, args: string[]) => {
    if (fs.existsSync(file)) return;
    execFileSync(ffmpegPath, ['-hide_banner', '-loglevel', 'error', '-y', ...args, file], { stdio: ['ignore', 'ignore', 'pipe'] });
  };
  fs.writeFileSync(path.join(dir, 'eng.srt'), SRT);
  fs.writeFileSync(path.join(dir, 'jpn.ass'), ASS);
  make(media.hevcEac3, [
    ...sources(2),
    '-i', path.join(dir, 'eng.srt'),
    '-i', path.join(dir, 'jpn.ass'),
    '-map', '0:v', '-map', '1:a', '-map', '1:a', '-map', '2', '-map', '3',
    '-c:v', 'libx265', '-preset', 'ultrafast', '-x265-params', 'log-level=none',
    '-c:a:0', 'eac3', '-ac:a:0', '6', '-c:a:1', 'ac3', '-ac:a:1', '2',
    '-c:s:0', 'srt', '-c:s:1', 'ass',
    '-metadata:s:a:0', 'language=eng', '-metadata:s:a:0', 'title=English 5.1',
    '-metadata:s:a:1', 'language=jpn', '-metadata:s:a:1', 'title=Japanese',
    '-metadata:s:s:0', 'language=eng', '-metadata:s:s:1', 'language=jpn',
    '-disposition:a:0', 'default', '-disposition:a:1', '0',
  ]);
  make(media.trueHd, [...sources(2), ...X264, '-c:a', 'truehd', '-strict', '-2']);
  make(media.ac3Mp4, [...sources(2), ...X264, '-c:a', 'ac3']);
  make(media.dts, [...sources(2), ...X264, '-c:a', 'dca', '-strict', '-2']);
  make(media.h264TenBit, [...sources(2), ...X264, '-pix_fmt', 'yuv420p10le', '-c:a', 'aac']);
  make(media.h264AacMkv, [...sources(2), ...X264, '-pix_fmt', 'yuv420p', '-c:a', 'aac']);
  make(media.hevcLong, [...sources(12), '-c:v', 'libx265', '-preset', 'ultrafast', '-x265-params', 'log-level=none', '-c:a', 'ac3']);
  make(media.h264Ac3Long, [...sources(12), '-c:v', 'libx264', '-preset', 'ultrafast', '-g', '60', '-pix_fmt', 'yuv420p', '-c:a', 'ac3']);
  fs.writeFileSync(path.join(dir, 'box.sup'), pgsBox({ width: 160, height: 90 }, IMAGE_SUBTITLE_BOX, IMAGE_SUBTITLE_LINES));
  make(media.imageSubtitle, [
    '-f', 'lavfi', '-i', 'color=c=black:size=160x90:rate=25:duration=60', '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000:duration=60',
    '-i', path.join(dir, 'box.sup'),
    '-map', '0:v', '-map', '1:a', '-map', '2', ...X264, '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-c:s', 'copy', '-metadata:s:s:0', 'language=eng',
  ]);
  make(media.h264AacMp4, [...sources(2), ...X264, '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-movflags', '+faststart']);
  if (!fs.existsSync(media.notMedia)) fs.writeFileSync(media.notMedia, 'this is not a film\n'.repeat(100));
  return media;
}

/**
 * A minute of 320×180 HEVC picture with E-AC-3 5.1 (eng, default) and AC-3 stereo (jpn) sounds in
 * MKV, made once under `dir` (about 2 s): a film long enough to watch together, seek in and switch
 * sounds in, which Chromium can neither demux nor decode. Returns its path.
 */
export function makeConversionFilm(dir: string, ffmpegPath = 'ffmpeg'): string {
  const file = path.join(dir, 'film-hevc-eac3.mkv');
  if (fs.existsSync(file)) return file;
  fs.mkdirSync(dir, { recursive: true });
  const inputs = ['-f', 'lavfi', '-i', 'testsrc2=size=320x180:rate=25:duration=60', '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000:duration=60'];
  execFileSync(
    ffmpegPath,
    [
      '-hide_banner', '-loglevel', 'error', '-y', ...inputs,
      '-map', '0:v', '-map', '1:a', '-map', '1:a',
      '-c:v', 'libx265', '-preset', 'ultrafast', '-x265-params', 'log-level=none',
      '-c:a:0', 'eac3', '-ac:a:0', '6', '-c:a:1', 'ac3', '-ac:a:1', '2',
      '-metadata:s:a:0', 'language=eng', '-metadata:s:a:1', 'language=jpn',
      '-disposition:a:0', 'default', '-disposition:a:1', '0',
      file,
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  return file;
}
