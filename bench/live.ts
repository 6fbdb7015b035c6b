/**
 * `npm run bench:live`: glass-to-glass latency of a broadcast pushed over RTMP, and how far apart its
 * viewers are (a benchmark that prints figures, not a timed test; docs/live.md "Latency").
 *
 * Starts the companion server over the static export in `out/` and an encoder: this script draws
 * frames whose top strip is the wall clock (Unix ms) as black and white blocks, a burned-in clock a
 * page can read back exactly, and ffmpeg encodes them as OBS does by default for streaming (x264,
 * `zerolatency`, a key frame every 2 s, AAC audio) and pushes them over RTMP with the key the
 * publish-key route gives. Two headless Chromium viewers open the room; in each page, every frame the
 * <video> presents (`requestVideoFrameCallback`) is drawn to a canvas and its clock read, so
 * glass-to-glass = when the frame was shown − when it was drawn (one machine, one clock). The two
 * viewers' spread is the difference of their latencies at the same instant. Measured first on the
 * default source (HTTP-FLV through mpegts.js), then on the HLS remux (hls.js), each after a warm-up.
 * Writes `bench/results/live-latest.json`.
 *
 *   npm run bench:live [-- --seconds 20] [--warmup 8]
 *
 * Exit code 0; 2 on a setup error (ffmpeg missing, out/ not built, no frame decoded).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Page } from '@playwright/test';
import { startServer } from '@/server/app';
import { SeedApi } from '@/e2e/support/api';
import { chromiumLaunchOptions } from '@/e2e/support/chromium';
import { openViewer } from './lib/viewer';

const repoRoot = path.resolve(__dirname, '..');
const webDir = path.join(repoRoot, 'out');
const PASSWORD = 'bench-live-12345';
const WIDTH = 320;
const HEIGHT = 180;
const FPS = 30;
/** The clock strip: 40 blocks (36 bits of Unix ms modulo 2^36, then a 4-bit check), 2 rows of 20, each 16×32 px. */
const BLOCK_W = 16;
const BLOCK_H = 32;
const COLUMNS = 20;
const TIME_BITS = 36;
const CHECK_BITS = 4;

/** The 40 bits of `ms`: 36 of the time (most significant first), then the sum of its 9 nibbles modulo 16. */
function clockBits(ms: number): number[] {
  const time = ms % 2 ** TIME_BITS;
  const bits: number[] = [];
  for (let i = TIME_BITS - 1; i >= 0; i -= 1) bits.push(Math.floor(time / 2 ** i) % 2);
  let check = 0;
  for (let nibble = 0; nibble < TIME_BITS / 4; nibble += 1) check += Math.floor(time / 16 ** nibble) % 16;
  for (let i = CHECK_BITS - 1; i >= 0; i -= 1) bits.push(Math.floor((check % 16) / 2 ** i) % 2);
  return bits;
}

/** One gray frame (8 bits a pixel) showing `ms` in its top strip over a mid-gray picture. */
function frameAt(ms: number): Buffer {
  const frame = Buffer.alloc(WIDTH * HEIGHT, 128);
  clockBits(ms).forEach((bit, index) => {
    const x0 = (index % COLUMNS) * BLOCK_W;
    const y0 = Math.floor(index / COLUMNS) * BLOCK_H;
    for (let y = y0; y < y0 + BLOCK_H; y += 1) frame.fill(bit ? 235 : 16, y * WIDTH + x0, y * WIDTH + x0 + BLOCK_W);
  });
  return frame;
}

/** The encoder: frames drawn every 1/FPS s into ffmpeg, which pushes them to `url` as OBS would. */
function startEncoder(url: string): { ffmpeg: ChildProcess; stop: () => void } {
  const ffmpeg = spawn(
    'ffmpeg',
    [
      ...['-hide_banner', '-loglevel', 'error'],
      ...['-f', 'rawvideo', '-pix_fmt', 'gray', '-s', `${WIDTH}x${HEIGHT}`, '-framerate', String(FPS), '-use_wallclock_as_timestamps', '1', '-i', 'pipe:0'],
      ...['-re', '-f', 'lavfi', '-i', 'anullsrc=r=44100:cl=stereo'],
      ...['-c:v', 'libx264', '-preset', 'veryfast', '-tune', 'zerolatency', '-g', String(FPS * 2), '-pix_fmt', 'yuv420p', '-b:v', '1000k'],
      ...['-c:a', 'aac', '-b:a', '64k', '-f', 'flv', url],
    ],
    { stdio: ['pipe', 'ignore', 'inherit'] },
  );
  ffmpeg.stdin!.on('error', () => undefined);
  const timer = setInterval(() => ffmpeg.stdin!.write(frameAt(Date.now())), 1000 / FPS);
  return {
    ffmpeg,
    stop: () => {
      clearInterval(timer);
      ffmpeg.kill('SIGKILL');
    },
  };
}

/** What a page records: for each presented frame, when it was shown and the clock it carried (Unix ms). */
interface FrameSample {
  shownMs: number;
  clockMs: number;
}

/** Installs the clock reader in `page`: every presented frame's clock goes to `window.liveFrames`. */
async function readClock(page: Page): Promise<void> {
  await page.evaluate(
    ({ width, height, blockW, blockH, columns, timeBits, checkBits }) => {
      // Installed once per page: the element stays when the viewer switches sources.
      if ((window as unknown as { liveFrames?: unknown }).liveFrames) return;
      const video = document.querySelector<HTMLVideoElement>('[data-testid="player-video"]')!;
      const canvas = document.createElement('canvas');
      canvas.width = width;
      canvas.height = height;
      const context = canvas.getContext('2d', { willReadFrequently: true })!;
      const frames: { shownMs: number; clockMs: number }[] = [];
      (window as unknown as { liveFrames: typeof frames }).liveFrames = frames;
      const read = (): number | null => {
        context.drawImage(video, 0, 0, width, height);
        const { data } = context.getImageData(0, 0, width, blockH * 2);
        const bits: number[] = [];
        for (let index = 0; index < timeBits + checkBits; index += 1) {
          // The middle of the block, away from the edges the encoder blurs.
          const x = (index % columns) * blockW + blockW / 2;
          const y = Math.floor(index / columns) * blockH + blockH / 2;
          bits.push(data[(y * width + x) * 4] > 128 ? 1 : 0);
        }
        let time = 0;
        for (let i = 0; i < timeBits; i += 1) time = time * 2 + bits[i];
        let check = 0;
        for (let i = timeBits; i < timeBits + checkBits; i += 1) check = check * 2 + bits[i];
        let sum = 0;
        for (let nibble = 0; nibble < timeBits / 4; nibble += 1) sum += Math.floor(time / 16 ** nibble) % 16;
        return sum % 16 === check ? time : null;
      };
      const onFrame = (_now: number, metadata: VideoFrameCallbackMetadata) => {
        const clock = read();
        if (clock !== null) {
          const shownMs = performance.timeOrigin + metadata.expectedDisplayTime;
          // The clock is Unix ms modulo 2^36: put it back in this era.
          const era = shownMs - (shownMs % 2 ** timeBits);
          frames.push({ shownMs, clockMs: era + clock > shownMs + 60_000 ? era - 2 ** timeBits + clock : era + clock });
        }
        video.requestVideoFrameCallback(onFrame);
      };
      video.requestVideoFrameCallback(onFrame);
    },
    { width: WIDTH, height: HEIGHT, blockW: BLOCK_W, blockH: BLOCK_H, columns: COLUMNS, timeBits: TIME_BITS, checkBits: CHECK_BITS },
  );
}

async function framesOf(page: Page): Promise<FrameSample[]> {
  return page.evaluate(() => (window as unknown as { liveFrames: FrameSample[] }).liveFrames.splice(0));
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** Figures of one source: each viewer's glass-to-glass latency and the two viewers' spread, ms. */
interface SourceFigures {
  source: string;
  viewers: { frames: number; p50: number; p95: number; max: number }[];
  spread: { pairs: number; p50: number; p95: number; max: number };
}

function figuresOf(source: string, a: FrameSample[], b: FrameSample[]): SourceFigures {
  const viewer = (frames: FrameSample[]) => {
    const latencies = frames.map((frame) => frame.shownMs - frame.clockMs);
    return { frames: frames.length, p50: Math.round(percentile(latencies, 50)), p95: Math.round(percentile(latencies, 95)), max: Math.round(Math.max(...latencies)) };
  };
  // At each of A's frames, what B showed at that moment (its last frame shown before): the clocks' difference.
  const spreads: number[] = [];
  let j = 0;
  for (const frame of a) {
    while (j + 1 < b.length && b[j + 1].shownMs <= frame.shownMs) j += 1;
    if (b[j] && b[j].shownMs <= frame.shownMs && frame.shownMs - b[j].shownMs < 100) spreads.push(Math.abs(frame.clockMs - b[j].clockMs));
  }
  const spread = spreads.length
    ? { pairs: spreads.length, p50: Math.round(percentile(spreads, 50)), p95: Math.round(percentile(spreads, 95)), max: Math.round(Math.max(...spreads)) }
    : { pairs: 0, p50: NaN, p95: NaN, max: NaN };
  return { source, viewers: [viewer(a), viewer(b)], spread };
}

/** How long the stalled viewer's network is starved, ms. */
const STALL_MS = 3000;
/** The stalled viewer is recovered when within this of its steady p95 latency, ms. */
const STALL_TOLERANCE_MS = 150;

/** A stall and the catch-up after it: the worst latency, when it was back, and whether it skipped (a jump in the clock between frames) or sped up. */
interface StallFigures {
  peakMs: number;
  toleranceMs: number;
  recoveredAfterMs: number | null;
  largestJumpMs: number;
  topRate: number;
}

/**
 * Freezes `page`'s main thread for STALL_MS (as a slow phone or a busy tab does): the player appends
 * nothing meanwhile, so the picture runs dry; then records 25 s of frames: how far behind it fell
 * and how it came back (a speed-up shows as a rate over 1 and no jump; a seek as a jump in the clock
 * between two frames).
 */
async function measureStall(page: Page, steadyP95Ms: number): Promise<StallFigures> {
  await framesOf(page);
  await page.evaluate((ms) => {
    const end = Date.now() + ms;
    while (Date.now() < end);
  }, STALL_MS);
  const restoredMs = Date.now();
  let topRate = 1;
  const rateWatch = setInterval(() => {
    void page
      .getByTestId('player-video')
      .evaluate((video: HTMLVideoElement) => video.playbackRate)
      .then((rate) => (topRate = Math.max(topRate, rate)))
      .catch(() => undefined);
  }, 250);
  await new Promise((resolve) => setTimeout(resolve, 25_000));
  clearInterval(rateWatch);
  const frames = await framesOf(page);
  const latencies = frames.map((frame) => ({ shownMs: frame.shownMs, latencyMs: frame.shownMs - frame.clockMs }));
  const toleranceMs = Math.round(steadyP95Ms + STALL_TOLERANCE_MS);
  const peakMs = Math.round(Math.max(...latencies.map((item) => item.latencyMs)));
  const lastOut = [...latencies].reverse().find((item) => item.latencyMs > toleranceMs);
  let largestJumpMs = 0;
  for (let i = 1; i < frames.length; i += 1) largestJumpMs = Math.max(largestJumpMs, frames[i].clockMs - frames[i - 1].clockMs);
  return {
    peakMs,
    toleranceMs,
    recoveredAfterMs: !lastOut ? 0 : lastOut === latencies[latencies.length - 1] ? null : Math.round(lastOut.shownMs - restoredMs),
    largestJumpMs: Math.round(largestJumpMs),
    topRate,
  };
}

/** Waits until `page` presents frames whose clock it can read. */
async function waitForClock(page: Page, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if ((await page.evaluate(() => (window as unknown as { liveFrames?: unknown[] }).liveFrames?.length ?? 0)) > 10) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error('no readable frame: the viewer does not play the broadcast');
}

function parseArgs(argv: string[]): { seconds: number; warmup: number } {
  const options = { seconds: 20, warmup: 8 };
  for (let i = 0; i < argv.length; i += 1) {
    if (argv[i] === '--seconds') options.seconds = Number(argv[++i]);
    else if (argv[i] === '--warmup') options.warmup = Number(argv[++i]);
    else throw new Error(`unknown option ${argv[i]}`);
  }
  if (!(options.seconds > 0) || !(options.warmup >= 0)) throw new Error('--seconds and --warmup take positive numbers');
  return options;
}

async function main(): Promise<number> {
  const options = parseArgs(process.argv.slice(2));
  if (!existsSync(path.join(webDir, 'index.html'))) {
    console.error('out/index.html is missing: run `npm run build` first.');
    return 2;
  }
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'synctv-bench-live-'));
  const server = await startServer({ port: 0, host: '127.0.0.1', dataDir, webDir, rootPassword: PASSWORD, logLevel: 'silent' });
  const origin = `http://127.0.0.1:${server.port}`;
  const browser = await chromium.launch(chromiumLaunchOptions);
  let encoder: ReturnType<typeof startEncoder> | null = null;
  const results: SourceFigures[] = [];
  let stall: StallFigures | null = null;
  try {
    const api = new SeedApi(origin);
    const host = await api.signup(`live-${Date.now().toString(36)}`, PASSWORD);
    const guest = await api.signup(`view-${Date.now().toString(36)}`, PASSWORD);
    const roomId = await api.createRoom(host, 'latency');
    await api.joinRoom(guest, roomId);
    const movieId = await api.pushMovie(host, roomId, { name: 'Clock', url: '', live: true, rtmpSource: true, type: 'flv' });
    await api.setCurrent(host, roomId, movieId);
    const key = await api.request('POST', '/api/room/movie/live/publishKey', { token: host, roomId, json: { id: movieId } });
    const publish = (key.body as { data: { host: string; app: string; token: string } }).data;
    encoder = startEncoder(`rtmp://${publish.host}/${publish.app}/${publish.token}`);

    const viewers = [await openViewer(browser, origin, roomId, host), await openViewer(browser, origin, roomId, guest)];
    for (const source of ['HTTP-FLV', 'HLS']) {
      if (source === 'HLS') for (const page of viewers) await page.getByTestId('source-select').selectOption({ label: 'HLS' });
      for (const page of viewers) {
        await page.getByTestId('player-video').waitFor();
        await readClock(page);
      }
      for (const page of viewers) await waitForClock(page);
      await new Promise((resolve) => setTimeout(resolve, options.warmup * 1000));
      for (const page of viewers) await framesOf(page);
      await new Promise((resolve) => setTimeout(resolve, options.seconds * 1000));
      const [a, b] = await Promise.all(viewers.map(framesOf));
      const figures = figuresOf(source, a, b);
      results.push(figures);
      if (source === 'HTTP-FLV') stall = await measureStall(viewers[1], figures.viewers[1].p95);
      console.log(
        `${source.padEnd(8)} glass-to-glass p50 ${figures.viewers.map((v) => v.p50).join(' / ')} ms, p95 ${figures.viewers.map((v) => v.p95).join(' / ')} ms, max ${figures.viewers.map((v) => v.max).join(' / ')} ms (${figures.viewers.map((v) => v.frames).join(' / ')} frames); spread p50 ${figures.spread.p50} ms, p95 ${figures.spread.p95} ms, max ${figures.spread.max} ms`,
      );
    }
    if (stall) {
      console.log(
        `stall    HTTP-FLV viewer frozen for ${STALL_MS / 1000} s: ${stall.peakMs} ms behind at worst, back within ${stall.toleranceMs} ms ${stall.recoveredAfterMs === null ? 'never' : `${(stall.recoveredAfterMs / 1000).toFixed(1)} s after it thawed`}; largest jump in the picture ${stall.largestJumpMs} ms, top rate ${stall.topRate}×`,
      );
    }
  } finally {
    encoder?.stop();
    await browser.close();
    await server.close();
    await rm(dataDir, { recursive: true, force: true });
  }
  const load = os.loadavg().map((value) => value.toFixed(2)).join(' ');
  console.log(`(${new Date().toISOString().slice(0, 16)} UTC, ${os.cpus().length} cores, load ${load}; two viewers, ${options.seconds} s each after a ${options.warmup} s warm-up; encoder x264 zerolatency, key frame every 2 s)`);
  await writeFile(path.join(__dirname, 'results', 'live-latest.json'), `${JSON.stringify({ date: new Date().toISOString(), load: os.loadavg(), cpus: os.cpus().length, options, results, stall }, null, 2)}\n`);
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(2);
  },
);
