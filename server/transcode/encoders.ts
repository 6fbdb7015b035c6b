/**
 * The encoders a converted picture may be made with (docs/transcode.md "Hardware encoders"): x264 in
 * software, always there with Debian's ffmpeg, or a hardware H.264 encoder that ffmpeg offers (VA-API
 * on Intel and AMD graphics, NVENC on NVIDIA, Quick Sync on Intel). An ffmpeg build lists hardware
 * encoders whether or not the machine has the device, so each one whose device is there is tried
 * once: a second of a test picture encoded with the very arguments a conversion uses
 * (`encoderArgs`). Only those that succeeded are offered to the admin (site setting
 * `convert_encoder`).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';

/** A picture encoder: `software` (libx264) or one of the hardware ones. */
export type PictureEncoder = 'software' | HardwareEncoder;
export type HardwareEncoder = 'vaapi' | 'nvenc' | 'qsv';

/** The hardware encoders tried, in the order offered. */
export const HARDWARE_ENCODERS: readonly HardwareEncoder[] = ['vaapi', 'nvenc', 'qsv'];

/** The choices of `convert_encoder`. */
export const PICTURE_ENCODERS: readonly PictureEncoder[] = ['software', ...HARDWARE_ENCODERS];

/** The arguments that make a picture with `encoder`: before the first input, the filter after the picture's own, and the encoder's. */
export interface EncoderArgs {
  /** Global options: the device a hardware encoder opens. */
  device: string[];
  /** Appended to the picture's filter chain (scaling, and the upload to the device). */
  filter: string;
  codec: string[];
}

/**
 * Whether the device `encoder` needs is on this machine: a DRM render node (`/dev/dri/renderD*`)
 * for VA-API and Quick Sync, the NVIDIA driver's control device (`/dev/nvidiactl`) for NVENC.
 * Without it the encoder cannot work, and is not tried.
 */
export function hasDevice(encoder: HardwareEncoder): boolean {
  if (encoder === 'nvenc') return fs.existsSync('/dev/nvidiactl');
  try {
    return fs.readdirSync('/dev/dri').some((name) => name.startsWith('renderD'));
  } catch {
    return false;
  }
}

/** The first VA-API render node of this machine (`/dev/dri/renderD128` on most), or the usual name when there is none. */
function renderNode(): string {
  try {
    const node = fs.readdirSync('/dev/dri').filter((name) => name.startsWith('renderD')).sort()[0];
    if (node) return `/dev/dri/${node}`;
  } catch {
    // No /dev/dri: VA-API's test fails, and it is not offered.
  }
  return '/dev/dri/renderD128';
}

/**
 * The arguments of `encoder` for a picture at most `maxHeight` px tall (0: as it is), H.264 in
 * 8-bit 4:2:0 with a keyframe every `segmentSec` seconds from the run's start (a segment starts at
 * each).
 */
export function encoderArgs(encoder: PictureEncoder, maxHeight: number, segmentSec: number): EncoderArgs {
  const scale = maxHeight ? `scale=-2:'min(ih,${maxHeight})'` : '';
  const keyframes = ['-force_key_frames', `expr:gte(t,n_forced*${segmentSec})`];
  const chain = (...filters: string[]) => filters.filter(Boolean).join(',');
  switch (encoder) {
    case 'vaapi':
      return { device: ['-vaapi_device', renderNode()], filter: chain(scale, 'format=nv12', 'hwupload'), codec: ['-c:v', 'h264_vaapi', ...keyframes] };
    case 'nvenc':
      return { device: [], filter: chain(scale, 'format=yuv420p'), codec: ['-c:v', 'h264_nvenc', '-preset', 'p4', '-forced-idr', '1', ...keyframes] };
    case 'qsv':
      return {
        device: ['-init_hw_device', 'qsv=qsv', '-filter_hw_device', 'qsv'],
        filter: chain(scale, 'format=nv12', 'hwupload=extra_hw_frames=64'),
        codec: ['-c:v', 'h264_qsv', '-preset', 'veryfast', '-forced_idr', '1', ...keyframes],
      };
    default:
      return { device: [], filter: scale, codec: ['-c:v', 'libx264', '-preset', 'veryfast', '-pix_fmt', 'yuv420p', ...keyframes] };
  }
}

/** How long (ms) one encoder's test may take. */
const TEST_TIMEOUT_MS = 15_000;

/** Runs `ffmpegPath` with `args`; resolves with its exit status (-1 when it did not start or was stopped after TEST_TIMEOUT_MS) and standard output. */
function runFfmpeg(ffmpegPath: string, args: string[]): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(ffmpegPath, args, { stdio: ['ignore', 'pipe', 'ignore'] });
    let output = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), TEST_TIMEOUT_MS);
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', () => {
      clearTimeout(timer);
      resolve({ code: -1, output: '' });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, output });
    });
  });
}

/**
 * The hardware encoders that work on this machine with `ffmpegPath`: those its build lists
 * (`-encoders`) whose device is there (`deviceThere`, `hasDevice` unless given) and whose test encode
 * (a second of 640×360 test picture, scaled to 360 px, through `encoderArgs`) succeeds. Empty
 * without ffmpeg or a device; without a device it costs one run of `ffmpeg -encoders`.
 */
export async function workingHardwareEncoders(ffmpegPath: string, deviceThere: (encoder: HardwareEncoder) => boolean = hasDevice): Promise<HardwareEncoder[]> {
  const listed = await runFfmpeg(ffmpegPath, ['-hide_banner', '-encoders']);
  if (listed.code !== 0) return [];
  const working: HardwareEncoder[] = [];
  for (const encoder of HARDWARE_ENCODERS) {
    if (!new RegExp(`\\bh264_${encoder}\\b`).test(listed.output) || !deviceThere(encoder)) continue;
    const args = encoderArgs(encoder, 360, 1);
    const test = await runFfmpeg(ffmpegPath, [
      '-hide_banner', '-nostdin', '-loglevel', 'error', ...args.device,
      '-f', 'lavfi', '-i', 'testsrc2=size=640x360:rate=25:duration=1',
      ...(args.filter ? ['-vf', args.filter] : []), ...args.codec, '-f', 'null', '-',
    ]);
    if (test.code === 0) working.push(encoder);
  }
  return working;
}
