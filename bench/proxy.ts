/**
 * `npm run bench:proxy`: what the movie proxy costs a source when a room's viewers pull one file
 * through it (a benchmark that prints figures, not a timed test; docs/vendors.md "A proxy that
 * scales", docs/benchmarks.md).
 *
 * Starts the companion server in this process and a source on 127.0.0.2 that serves a 64 MiB file
 * with HTTP Range and counts every byte it sends. Twenty viewers join within two seconds of each
 * other, each asking the proxy for `bytes=0-` and reading the whole file, as a player does; then the
 * same without the shared slices (`proxyCacheBytes: 0`) for comparison. Prints, for each: bytes the
 * source sent as a multiple of the file (one viewer's worth), time to first byte p50/p95, the time
 * until the last viewer had everything, and the server's CPU. Writes `bench/results/proxy-latest.json`.
 * The target (issue 49): with the cache, the source sends ≤ 1.2 × one viewer's bytes.
 *
 *   npm run bench:proxy [-- --viewers 20] [--mib 64]
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startServer } from '@/server/app';
import { SeedApi } from '@/e2e/support/api';
import { sendWithRange } from '@/e2e/support/range-source';

const SOURCE_HOST = '127.0.0.2';
const PASSWORD = 'bench-proxy-12345';

function argument(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  const value = index >= 0 ? Number(process.argv[index + 1]) : fallback;
  if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} must be a positive number`);
  return value;
}

const VIEWERS = argument('viewers', 20);
const FILE = Buffer.alloc(argument('mib', 64) * 1024 * 1024, 7);

/** The p-th percentile (0–100) of `values`. */
function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** A source with Range that counts the bytes it sends. */
async function startSource(): Promise<{ url: string; sent: () => number; reset: () => void; close: () => Promise<void> }> {
  let sent = 0;
  const server = http.createServer((request, response) => {
    sent += sendWithRange(request, response, FILE);
  });
  await new Promise<void>((resolve) => server.listen(0, SOURCE_HOST, resolve));
  return {
    url: `http://${SOURCE_HOST}:${(server.address() as AddressInfo).port}/film.mp4`,
    sent: () => sent,
    reset: () => {
      sent = 0;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** One viewer: asks for `bytes=0-` after `delayMs`, reads everything; time to first byte and to the end (ms). */
async function view(url: string, delayMs: number): Promise<{ firstByteMs: number; doneMs: number; bytes: number }> {
  await new Promise((resolve) => setTimeout(resolve, delayMs));
  const started = performance.now();
  const response = await fetch(url, { headers: { Range: 'bytes=0-' } });
  const reader = response.body!.getReader();
  let firstByteMs = -1;
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (firstByteMs < 0) firstByteMs = performance.now() - started;
    bytes += value.length;
  }
  return { firstByteMs, doneMs: performance.now() - started + delayMs, bytes };
}

interface Run {
  cache: boolean;
  viewers: number;
  fileBytes: number;
  sourceBytes: number;
  /** Source bytes ÷ one viewer's bytes. */
  sourceRatio: number;
  firstByteP50Ms: number;
  firstByteP95Ms: number;
  lastViewerDoneMs: number;
  serverCpuSec: number;
}

async function run(cache: boolean, source: Awaited<ReturnType<typeof startSource>>): Promise<Run> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'synctv-bench-proxy-'));
  const server = await startServer({
    port: 0,
    host: '127.0.0.1',
    dataDir,
    webDir: path.join(dataDir, 'no-web'),
    rootPassword: PASSWORD,
    logLevel: 'silent',
    rateLimitScale: 0,
    proxyAllowAddresses: [SOURCE_HOST],
    proxyCacheBytes: cache ? undefined : 0,
  });
  try {
    const api = new SeedApi(server.url);
    const owner = await api.signup(`proxy-${Date.now().toString(36)}`, PASSWORD);
    const roomId = await api.createRoom(owner, 'proxy bench');
    const movieId = await api.pushMovie(owner, roomId, { name: 'film', url: source.url, proxy: true, type: 'mp4' });
    await api.setCurrent(owner, roomId, movieId);
    const url = `${server.url}/api/room/movie/proxy/${movieId}?token=${owner}&roomId=${roomId}`;
    source.reset();
    const cpuBefore = process.cpuUsage();
    const results = await Promise.all(Array.from({ length: VIEWERS }, (_, index) => view(url, (index * 2000) / VIEWERS)));
    const cpu = process.cpuUsage(cpuBefore);
    for (const result of results) if (result.bytes !== FILE.length) throw new Error(`a viewer got ${result.bytes} of ${FILE.length} bytes`);
    const firstBytes = results.map((result) => result.firstByteMs);
    return {
      cache,
      viewers: VIEWERS,
      fileBytes: FILE.length,
      sourceBytes: source.sent(),
      sourceRatio: source.sent() / FILE.length,
      firstByteP50Ms: percentile(firstBytes, 50),
      firstByteP95Ms: percentile(firstBytes, 95),
      lastViewerDoneMs: Math.max(...results.map((result) => result.doneMs)),
      // This process runs the server and the viewers: the figure includes both.
      serverCpuSec: (cpu.user + cpu.system) / 1e6,
    };
  } finally {
    await server.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const source = await startSource();
  try {
    const runs = [await run(true, source), await run(false, source)];
    console.log(`bench:proxy: ${VIEWERS} viewers of one ${FILE.length / 1024 / 1024} MiB file through the proxy, joining within 2 s`);
    console.log('cache  source bytes (× one viewer)  first byte p50 / p95  last viewer done  CPU (server + viewers)');
    for (const result of runs) {
      console.log(
        `${result.cache ? 'on ' : 'off'}    ${result.sourceRatio.toFixed(2).padStart(6)} ×                   ${result.firstByteP50Ms.toFixed(0).padStart(5)} / ${result.firstByteP95Ms.toFixed(0).padStart(5)} ms       ${(result.lastViewerDoneMs / 1000).toFixed(2)} s           ${result.serverCpuSec.toFixed(2)} s`,
      );
    }
    const target = runs[0].sourceRatio <= 1.2;
    console.log(`target: with the cache the source sends ≤ 1.2 × one viewer's bytes: ${target ? 'met' : 'NOT met'} (${runs[0].sourceRatio.toFixed(2)} ×)`);
    const results = path.join(__dirname, 'results');
    await mkdir(results, { recursive: true });
    await writeFile(path.join(results, 'proxy-latest.json'), `${JSON.stringify({ date: new Date().toISOString(), runs }, null, 2)}\n`);
  } finally {
    await source.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(2);
});
