/**
 * `npm run bench:abuse`: what attacks on the server do to a well-behaved user. Not a timed test.
 *
 * Starts the companion server in its own process with its real rate limits, behind a trusted proxy
 * (so that an attacker can rotate X-Forwarded-For, the worst case behind nginx). A canary user sits in
 * a room: one GET /api/room/movie/current every 100 ms (HTTP latency), one GET /healthz every 100 ms
 * (what a balancer sees) and, from a second member, one
 * chat line every 500 ms that the canary's socket times (WebSocket latency). The bench measures 10 s
 * at rest, then runs each attack of ./lib/attacker.ts in its own process for `--seconds` and reports
 * the canary's p50/p99 during it, the server's peak RSS, and what the attacker got back.
 * Target: during every attack, HTTP (both) and WebSocket p99 < 250 ms and RSS < 300 MB.
 * Writes `bench/results/abuse-latest.json`.
 *
 *   npm run bench:abuse [-- --seconds 10] [--only chat-flood,login-storm]
 *   npm run bench:abuse -- --markdown    # the docs/benchmarks.md table from bench/results/abuse-latest.json
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { call, launch, type TestServer } from '@/server/test-support/harness';
import { benchChat, httpCanary, inParallel, latencySummary, option, sleep, Viewer, watchRss, writeResults, type LatencySummary } from './lib/load-kit';

const resultsFile = path.join(__dirname, 'results', 'abuse-latest.json');
const ATTACKS = ['large-bodies', 'unbounded-fields', 'bulk-push', 'login-storm', 'chat-flood', 'socket-flood', 'slow-readers'];
/** The targets for a well-behaved user during an attack. */
const TARGETS = { p99Ms: 250, rssMb: 300 };

interface PhaseResult {
  phase: string;
  seconds: number;
  http: LatencySummary | null;
  /** GET /healthz, what a balancer asks. */
  healthz?: LatencySummary | null;
  ws: LatencySummary | null;
  wsLost: number;
  rssPeakMb: number;
  attacker: Record<string, number>;
  met: boolean;
}


let address = 0;
/** A POST from its own forwarded address, so the setup's sign-ups and rooms do not meet the per-address limits. */
async function postAs(server: TestServer, urlPath: string, json: unknown, token?: string, roomId?: string) {
  address++;
  const answer = await call(server, 'POST', urlPath, { json, token, roomId, headers: { 'X-Forwarded-For': `192.168.${address >> 8}.${address & 255}` } });
  if (answer.status >= 300) throw new Error(`${urlPath}: ${answer.status} ${answer.text}`);
  return answer.body?.data;
}

async function signUp(server: TestServer, username: string): Promise<string> {
  return (await postAs(server, '/api/user/signup', { username, password: 'bench-password' })).token as string;
}

async function runAttack(server: TestServer, attack: string, seconds: number, job: Record<string, unknown>): Promise<Record<string, number>> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, 'lib', 'attacker.ts')], {
    env: { ...process.env, ATTACK: JSON.stringify({ ...job, attack, url: server.url, seconds }) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  const line = /RESULT (.*)/.exec(output);
  if (!line) throw new Error(`attacker ${attack} exited ${code} without a result:\n${output}`);
  return JSON.parse(line[1]) as Record<string, number>;
}

function table(results: PhaseResult[]): string {
  // A status with its error text (`429 too many requests`) stands for the bare count of that status.
  const outcome = (counts: Record<string, number>) =>
    Object.entries(counts)
      .filter(([key]) => !/^\d+$/.test(key) || !Object.keys(counts).some((other) => other.startsWith(`${key} `)))
      .sort(([, a], [, b]) => b - a)
      .slice(0, 3)
      .map(([key, n]) => `${key} ×${n.toLocaleString('en')}`)
      .join('; ') || '–';
  const pair = (s: LatencySummary | null) => (s ? `${s.p50} / ${s.p99}` : '–');
  return [
    '| phase | canary HTTP p50 / p99 (ms) | /healthz p50 / p99 (ms) | canary WebSocket p50 / p99 (ms) | server RSS peak (MB) | what the attacker got (top 3) | target met |',
    '| --- | ---: | ---: | ---: | ---: | --- | :---: |',
    ...results.map((r) => `| ${r.phase} | ${pair(r.http)} | ${pair(r.healthz ?? null)} | ${pair(r.ws)} | ${r.rssPeakMb} | ${outcome(r.attacker)} | ${r.met ? 'yes' : '**no**'} |`),
  ].join('\n');
}

async function main(): Promise<void> {
  if (process.argv.includes('--markdown')) {
    console.log(table((JSON.parse(readFileSync(resultsFile, 'utf8')) as { phases: PhaseResult[] }).phases));
    return;
  }
  const seconds = Number(option('seconds', '10'));
  const only = option('only', ATTACKS.join(',')).split(',');
  const server = await launch({ rateLimitScale: 1, trustProxy: '127.0.0.1' });
  try {
    const stamp = Date.now() % 100000;
    const [watcherToken, speakerToken, attackerToken, flooderToken] = await Promise.all(['watcher', 'speaker', 'attacker', 'flooder'].map((who) => signUp(server, `abuse${stamp}${who}`)));
    const stormUsers = Array.from({ length: 40 }, (_, n) => `abuse${stamp}storm${n}`);
    await inParallel(stormUsers, 4, (name) => signUp(server, name));
    const canaryRoomId = (await postAs(server, '/api/room/create', { roomName: `canary ${stamp}`, password: '', settings: { hidden: true } }, speakerToken)).roomId as string;
    for (const token of [watcherToken, attackerToken]) await postAs(server, '/api/room/login', { roomId: canaryRoomId, password: '' }, token);
    const attackRoomId = (await postAs(server, '/api/room/create', { roomName: `attacker ${stamp}`, password: '', settings: { hidden: true } }, attackerToken)).roomId as string;
    // The socket flood's account of its own, with a room of its own: the attacker's sockets were closed
    // for flooding by then, and a person closed for flooding may open none for 10 s.
    const flooderRoomId = (await postAs(server, '/api/room/create', { roomName: `flooder ${stamp}`, password: '', settings: { hidden: true } }, flooderToken)).roomId as string;
    const job = { token: attackerToken, roomId: attackRoomId, canaryRoomId, stormUsers, flooderToken, flooderRoomId };

    const watcher = new Viewer(server, canaryRoomId, watcherToken);
    const speaker = new Viewer(server, canaryRoomId, speakerToken);
    await Promise.all([watcher.ready(), speaker.ready()]);
    const http = httpCanary(server, '/api/room/movie/current', { token: watcherToken, roomId: canaryRoomId });
    const healthz = httpCanary(server, '/healthz');
    let chatId = 0;
    const chatTimer = setInterval(() => speaker.chat(benchChat(chatId++)), 500);

    const results: PhaseResult[] = [];
    const measure = async (phase: string, body: () => Promise<Record<string, number>>) => {
      await sleep(1000); // let the previous phase drain
      http.take();
      healthz.take();
      watcher.delaysMs.splice(0);
      const firstId = chatId;
      const rss = watchRss(server.pid);
      const attacker = await body();
      await sleep(1000); // lines sent at the end arrive
      const lastId = chatId;
      const rssPeakMb = rss.stop();
      const httpLatencies = http.take();
      let wsLost = 0;
      for (let id = firstId; id < lastId - 2; id++) if (!watcher.seen.has(id)) wsLost++;
      const result: PhaseResult = {
        phase,
        seconds,
        http: latencySummary(httpLatencies),
        healthz: latencySummary(healthz.take()),
        ws: latencySummary(watcher.delaysMs.splice(0)),
        wsLost,
        rssPeakMb,
        attacker,
        met: false,
      };
      result.met = Boolean(result.http && result.http.p99 < TARGETS.p99Ms && result.healthz && result.healthz.p99 < TARGETS.p99Ms && result.ws && result.ws.p99 < TARGETS.p99Ms && rssPeakMb < TARGETS.rssMb && wsLost === 0 && server.alive());
      results.push(result);
      console.log(`${phase}: HTTP p99 ${result.http?.p99} ms, /healthz p99 ${result.healthz?.p99} ms, WebSocket p99 ${result.ws?.p99} ms (lost ${wsLost}), RSS peak ${rssPeakMb} MB; attacker: ${JSON.stringify(attacker)}`);
    };

    await measure('at rest', async () => {
      await sleep(seconds * 1000);
      return {};
    });
    for (const attack of ATTACKS.filter((name) => only.includes(name))) {
      if (attack === 'slow-readers') {
        // The largest list there can be: a full room (room_max_movie_count) of movies with the longest danmu.
        await call(server, 'POST', '/api/room/movie/clear', { json: {}, token: attackerToken, roomId: attackRoomId });
        for (let batch = 0; batch < 4; batch++) {
          const movies = Array.from({ length: 250 }, (_, n) => ({ url: `https://media.test/${batch}-${n}.mp4`, name: `big ${batch}-${n}`, type: 'mp4', danmu: 'd'.repeat(8000) }));
          await postAs(server, '/api/room/movie/pushs', movies, attackerToken, attackRoomId);
        }
      }
      await measure(attack, () => runAttack(server, attack, seconds, job));
    }
    clearInterval(chatTimer);
    const httpTotals = await http.stop();
    await healthz.stop();
    watcher.close();
    speaker.close();

    console.log(`\n${table(results)}`);
    const failures = results.filter((r) => !r.met).map((r) => r.phase);
    console.log(failures.length === 0 ? `\nevery phase met the target (HTTP and WebSocket p99 < ${TARGETS.p99Ms} ms, RSS < ${TARGETS.rssMb} MB, no chat line lost)` : `\ntarget missed in: ${failures.join(', ')}`);
    writeResults(resultsFile, { targets: TARGETS, seconds, canaryStatuses: httpTotals.statuses, phases: results, failures });
    process.exitCode = failures.length === 0 && server.alive() ? 0 : 1;
  } finally {
    await server.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(2);
});
