/**
 * `npm run bench:transcode`: what converting a film browsers cannot decode costs and how it plays
 * (a benchmark that prints figures, not a timed test; docs/transcode.md "Figures").
 *
 * Makes four one-minute films with ffmpeg (kept in the system's temporary folder between runs):
 * HEVC with E-AC-3 5.1 in MKV at 1080p and at 720p (the picture converted), H.264 1080p with TrueHD
 * in MKV and H.264 720p with AC-3 in MP4 (only the sound converted). For each:
 *
 * - **the conversion alone** (server/transcode/conversion.ts on the file): the real-time factor (film
 *   seconds written per second) and ffmpeg's CPU, as a share of one core, while it runs;
 * - **in two browsers** (the companion server over `out/`, two headless Chromium viewers in a room,
 *   the film on a host without Range, `convert: true`): the time between starting the film
 *   (POST /current) and each viewer's first frame, the two viewers' steady drift (p50/p95 over
 *   10 s), and the time from a seek to 45 s until both play past it.
 *
 * Targets (issue 50): a sound-only conversion ≤ 2 s to the first frame and ≤ 15 % of a core; a
 * 720p picture conversion faster than real time on 2 cores; steady drift p95 ≤ 33 ms. Writes
 * `bench/results/transcode-latest.json`.
 *
 *   npm run bench:transcode [-- --only hevc-720p]
 *
 * Exit code 0; 2 on a setup error (ffmpeg missing, out/ not built, a viewer that never plays).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Page } from '@playwright/test';
import { startServer } from '@/server/app';
import { SeedApi } from '@/e2e/support/api';
import { chromiumLaunchOptions } from '@/e2e/support/chromium';
import { openViewer } from './lib/viewer';
import { startPlainHost } from '@/e2e/support/plain-host';
import { Conversion } from '@/server/transcode/conversion';
import { segmentStarts } from '@/server/transcode/hls';
import { planConversion } from '@/server/transcode/plan';
import { probeKeyframes, probeMedia } from '@/server/transcode/probe';
import { cpuSeconds } from './lib/load-kit';

const repoRoot = path.resolve(__dirname, '..');
const webDir = path.join(repoRoot, 'out');
const PASSWORD = 'bench-transcode-12345';
const MEDIA_DIR = path.join(os.tmpdir(), 'synctv-bench-transcode-media');
const FILM_SEC = 60;
const SEEK_TO_SEC = 45;

/** The films: a name, the file, and ffmpeg's arguments after the two test inputs. */
const FILMS = [
  { name: 'hevc-1080p', file: 'hevc-eac3-1080p.mkv', size: '1920x1080', args: ['-c:v', 'libx265', '-preset', 'ultrafast', '-x265-params', 'log-level=none', '-c:a', 'eac3', '-ac', '6'] },
  { name: 'hevc-720p', file: 'hevc-eac3-720p.mkv', size: '1280x720', args: ['-c:v', 'libx265', '-preset', 'ultrafast', '-x265-params', 'log-level=none', '-c:a', 'eac3', '-ac', '6'] },
  { name: 'truehd-1080p', file: 'h264-truehd-1080p.mkv', size: '1920x1080', args: ['-c:v', 'libx264', '-preset', 'veryfast', '-g', '48', '-pix_fmt', 'yuv420p', '-c:a', 'truehd', '-strict', '-2'] },
  { name: 'ac3-mp4-720p', file: 'h264-ac3-720p.mp4', size: '1280x720', args: ['-c:v', 'libx264', '-preset', 'veryfast', '-g', '48', '-pix_fmt', 'yuv420p', '-c:a', 'ac3'] },
] as const;

/** Makes `film` under MEDIA_DIR unless it is there. */
function makeFilm(film: (typeof FILMS)[number]): string {
  const file = path.join(MEDIA_DIR, film.file);
  if (existsSync(file)) return file;
  mkdirSync(MEDIA_DIR, { recursive: true });
  console.log(`making ${film.file} …`);
  const inputs = ['-f', 'lavfi', '-i', `testsrc2=size=${film.size}:rate=24:duration=${FILM_SEC}`, '-f', 'lavfi', '-i', `sine=frequency=440:sample_rate=48000:duration=${FILM_SEC}`];
  execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...inputs, '-map', '0:v', '-map', '1:a', ...film.args, file], { stdio: 'inherit' });
  return file;
}

/** The CPU seconds that this process's ffmpeg children have used, sampled: each pid's largest reading. */
function watchFfmpegCpu(everyMs = 200): { stop(): number } {
  const seen = new Map<number, number>();
  const sample = () => {
    for (const name of readdirSync('/proc')) {
      const pid = Number(name);
      if (!Number.isInteger(pid)) continue;
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        const command = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
        const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        if (command === 'ffmpeg' && parent === process.pid) seen.set(pid, Math.max(seen.get(pid) ?? 0, cpuSeconds(pid)));
      } catch {
        /* gone meanwhile */
      }
    }
  };
  sample();
  const timer = setInterval(sample, everyMs);
  return {
    stop() {
      sample();
      clearInterval(timer);
      return [...seen.values()].reduce((sum, value) => sum + value, 0);
    },
  };
}

/** The conversion alone: real-time factor and ffmpeg's share of a core until the last segment is written. */
async function convertAlone(file: string): Promise<{ work: string; realTimeFactor: number; cpuShare: number; seconds: number }> {
  const probe = await probeMedia(file);
  const plan = planConversion(probe, { maxHeight: 1080 });
  const keyframes = plan.video?.action === 'copy' ? await probeKeyframes(file, plan.video.index) : null;
  const starts = segmentStarts(probe.durationSec, keyframes);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'synctv-bench-conversion-'));
  const conversion = new Conversion({ input: file, plan, starts, dir: path.join(dir, 'c'), maxHeight: 1080, leadSegments: Number.POSITIVE_INFINITY });
  const cpu = watchFfmpegCpu();
  const started = performance.now();
  try {
    await conversion.segment(0);
    // The run goes on to the end by itself; the last segment is whole once it is listed and ffmpeg ended.
    const last = path.join(dir, 'c', `run1-seg${starts.length - 1}.ts`);
    while (!existsSync(last)) await new Promise((resolve) => setTimeout(resolve, 50));
    await conversion.segment(starts.length - 1);
  } finally {
    conversion.close();
  }
  const seconds = (performance.now() - started) / 1000;
  const cpuSec = cpu.stop();
  await rm(dir, { recursive: true, force: true });
  return { work: plan.work, realTimeFactor: probe.durationSec / seconds, cpuShare: cpuSec / seconds, seconds };
}

/** The viewer's <video>: position (s), whether it plays with data, Unix ms of the reading. */
async function sample(page: Page): Promise<{ currentTime: number; playing: boolean; atMs: number }> {
  return page.evaluate(() => {
    const video = document.querySelector<HTMLVideoElement>('video[data-testid="player-video"]');
    if (!video) return { currentTime: 0, playing: false, atMs: Date.now() };
    return { currentTime: video.currentTime, playing: !video.paused && video.readyState >= 3 && !video.seeking, atMs: Date.now() };
  });
}

/** Waits until `check` holds for `page` (polled every 50 ms); its wait in ms. Throws after `timeoutMs`. */
async function until(page: Page, check: (s: Awaited<ReturnType<typeof sample>>) => boolean, what: string, timeoutMs = 60_000): Promise<number> {
  const started = performance.now();
  while (performance.now() - started < timeoutMs) {
    if (check(await sample(page))) return performance.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${what}: not within ${timeoutMs / 1000} s`);
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** Both viewers' drift (ms, |A − B| at the same instant) over `seconds`. */
async function drift(a: Page, b: Page, seconds: number): Promise<{ p50: number; p95: number; samples: number }> {
  const values: number[] = [];
  const end = Date.now() + seconds * 1000;
  while (Date.now() < end) {
    const [x, y] = await Promise.all([sample(a), sample(b)]);
    if (x.playing && y.playing) values.push(Math.abs(x.currentTime + (y.atMs - x.atMs) / 1000 - y.currentTime) * 1000);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return { p50: Math.round(percentile(values, 50)), p95: Math.round(percentile(values, 95)), samples: values.length };
}

async function main(): Promise<number> {
  const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : null;
  if (!existsSync(path.join(webDir, 'index.html'))) {
    console.error('out/index.html is missing: run `npm run build` first.');
    return 2;
  }
  const films = FILMS.filter((film) => !only || film.name === only);
  const files = films.map(makeFilm);
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'synctv-bench-transcode-'));
  const host = await startPlainHost(MEDIA_DIR, '127.0.0.2');
  const server = await startServer({ port: 0, host: '127.0.0.1', dataDir, webDir, rootPassword: PASSWORD, logLevel: 'silent', proxyAllowAddresses: ['127.0.0.2'] });
  const origin = `http://127.0.0.1:${server.port}`;
  const browser = await chromium.launch(chromiumLaunchOptions);
  const results: Record<string, unknown>[] = [];
  try {
    const api = new SeedApi(origin);
    const owner = await api.signup(`conv-${Date.now().toString(36)}`, PASSWORD);
    const friend = await api.signup(`friend-${Date.now().toString(36)}`, PASSWORD);
    const roomId = await api.createRoom(owner, 'convert');
    await api.joinRoom(friend, roomId);
    for (const [index, film] of films.entries()) {
      // Nothing plays (which stops the last film's conversion): the conversion alone has the machine.
      await api.setCurrent(owner, roomId, '');
      const alone = await convertAlone(files[index]);
      const viewers = [await openViewer(browser, origin, roomId, owner), await openViewer(browser, origin, roomId, friend)];
      for (const page of viewers) await page.getByTestId('ws-state').and(page.locator('[data-state="open"]')).waitFor();
      const movieId = await api.pushMovie(owner, roomId, { name: film.name, url: `${host.url}/${film.file}`, convert: true });
      const cpu = watchFfmpegCpu();
      const cpuStarted = performance.now();
      await api.setCurrent(owner, roomId, movieId);
      const firstFrameMs = await Promise.all(viewers.map((page, n) => until(page, (s) => s.currentTime > 0 && s.playing, `viewer ${n + 1}'s first frame`)));
      await new Promise((resolve) => setTimeout(resolve, 3000));
      const steady = await drift(viewers[0], viewers[1], 10);
      const cpuShare = cpu.stop() / ((performance.now() - cpuStarted) / 1000);
      await viewers[0].getByTestId('player-video').evaluate((video: HTMLVideoElement, to: number) => (video.currentTime = to), SEEK_TO_SEC);
      const seekMs = Math.max(...(await Promise.all(viewers.map((page, n) => until(page, (s) => s.currentTime > SEEK_TO_SEC && s.playing, `viewer ${n + 1} after the seek`)))));
      const figures = { film: film.name, work: alone.work, realTimeFactor: Number(alone.realTimeFactor.toFixed(1)), cpuShareAlone: Number(alone.cpuShare.toFixed(2)), firstFrameMs: firstFrameMs.map(Math.round), cpuShareWatched: Number(cpuShare.toFixed(2)), drift: steady, seekMs: Math.round(seekMs) };
      results.push(figures);
      console.log(
        `${film.name.padEnd(13)} ${alone.work.padEnd(5)} alone: ${figures.realTimeFactor}× real time, ${Math.round(alone.cpuShare * 100)} % of a core | watched: first frame ${figures.firstFrameMs.join(' / ')} ms, ffmpeg ${Math.round(cpuShare * 100)} % of a core over the first ${Math.round((performance.now() - cpuStarted) / 1000)} s, drift p50 ${steady.p50} ms p95 ${steady.p95} ms (${steady.samples} samples), seek to ${SEEK_TO_SEC} s ${figures.seekMs} ms`,
      );
      for (const page of viewers) await page.context().close();
    }
  } finally {
    await browser.close();
    await server.close();
    await host.close();
    await rm(dataDir, { recursive: true, force: true });
  }
  const load = os.loadavg().map((value) => value.toFixed(2)).join(' ');
  console.log(`(${new Date().toISOString().slice(0, 16)} UTC, ${os.cpus().length} cores, load ${load}; one-minute films, 4 s segments, libx264 veryfast; two viewers)`);
  await writeFile(path.join(__dirname, 'results', 'transcode-latest.json'), `${JSON.stringify({ date: new Date().toISOString(), load: os.loadavg(), cpus: os.cpus().length, results }, null, 2)}\n`);
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(2);
  },
);
