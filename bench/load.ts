/**
 * `npm run bench:load`: how the companion server carries many viewers. Not a timed test.
 *
 * Starts the server in its own process (rate limits off: every viewer signs up from this one
 * address), signs up the viewers, and runs two scenarios: N viewers in one room, and R rooms of M
 * viewers. In each, the room's members together send about `--chat-rate` chat lines a second
 * (each line carries its send time) and the room's creator one STATUS a second, for `--seconds`.
 * Every viewer times each chat line it receives. Reports per scenario: fan-out latency p50/p99/max
 * (send to receipt, over every delivery), messages lost (deliveries expected minus received),
 * disconnects, the server's CPU (% of one core) and RSS before and after, and an HTTP canary's
 * latency (GET /api/room/movie/current every 100 ms). Writes `bench/results/load-latest.json`.
 *
 *   npm run bench:load [-- --viewers 500] [--rooms 20x50] [--seconds 30] [--chat-rate 20]
 *   npm run bench:load -- --markdown    # the docs/benchmarks.md table from bench/results/load-latest.json
 *
 * The viewers run in this one Node process, so a delivery's latency includes this process's own
 * delay in reading it: the figures are an upper bound of the server's.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { launch, type TestServer } from '@/server/test-support/harness';
import { benchChat, cpuSeconds, httpCanary, latencySummary, option, rssMb, roomWith, signUpMany, sleep, Viewer, writeResults, type LatencySummary } from './lib/load-kit';

const resultsFile = path.join(__dirname, 'results', 'load-latest.json');

/** Targets for a well-behaved user, the same as bench:abuse's. */
export const LOAD_TARGETS = { p99Ms: 250, rssMb: 300 };

interface ScenarioResult {
  name: string;
  rooms: number;
  viewersPerRoom: number;
  seconds: number;
  chatSent: number;
  statusSent: number;
  deliveriesExpected: number;
  deliveriesReceived: number;
  lost: number;
  disconnects: number;
  errors: Record<string, number>;
  fanOut: LatencySummary | null;
  statusReceived: number;
  cpuPercentOfOneCore: number;
  rssBeforeMb: number;
  rssAfterMb: number;
  canary: LatencySummary | null;
}


async function scenario(server: TestServer, tokens: string[], name: string, rooms: number, perRoom: number, seconds: number, chatRate: number): Promise<ScenarioResult> {
  const roomIds: string[] = [];
  for (let r = 0; r < rooms; r++) {
    const members = tokens.slice(r * perRoom, (r + 1) * perRoom);
    roomIds.push(await roomWith(server, members[0], `${name} ${r}`, members.slice(1)));
  }
  const viewers: Viewer[][] = [];
  for (let r = 0; r < rooms; r++) {
    const room = tokens.slice(r * perRoom, (r + 1) * perRoom).map((token) => new Viewer(server, roomIds[r], token));
    await Promise.all(room.map((viewer) => viewer.ready()));
    viewers.push(room);
  }
  await sleep(1000);
  const rssBeforeMb = rssMb(server.pid);
  const cpuBefore = cpuSeconds(server.pid);
  const canary = httpCanary(server, '/api/room/movie/current', { token: tokens[0], roomId: roomIds[0] });
  const started = performance.now();

  // Each room sends `chatRate` lines a second, from its members in turn; its creator sends STATUS.
  let nextId = 0;
  const sentPerRoom = new Array<number>(rooms).fill(0);
  let statusSent = 0;
  const chatTimer = setInterval(() => {
    for (let r = 0; r < rooms; r++) {
      const sender = viewers[r][1 + (sentPerRoom[r] % (perRoom - 1))];
      sender.chat(benchChat(nextId++));
      sentPerRoom[r]++;
    }
  }, 1000 / chatRate);
  const statusTimer = setInterval(() => {
    const elapsed = (performance.now() - started) / 1000;
    for (let r = 0; r < rooms; r++) viewers[r][0].status(elapsed);
    statusSent += rooms;
  }, 1000);
  await sleep(seconds * 1000);
  clearInterval(chatTimer);
  clearInterval(statusTimer);
  await sleep(2000); // let the last lines arrive
  const cpuPercentOfOneCore = Math.round(((cpuSeconds(server.pid) - cpuBefore) / ((performance.now() - started) / 1000)) * 1000) / 10;
  const rssAfterMb = rssMb(server.pid);
  const canaryResult = await canary.stop();

  const all = viewers.flat();
  const chatSent = sentPerRoom.reduce((sum, n) => sum + n, 0);
  // Every member of the room receives every line, the sender included (§6.3: CHAT goes to the whole room).
  const deliveriesExpected = sentPerRoom.reduce((sum, n) => sum + n * perRoom, 0);
  const deliveriesReceived = all.reduce((sum, viewer) => sum + viewer.delaysMs.length, 0);
  const errors: Record<string, number> = {};
  for (const viewer of all) for (const error of viewer.errors) errors[error] = (errors[error] ?? 0) + 1;
  const delays = all.flatMap((viewer) => viewer.delaysMs);
  const result: ScenarioResult = {
    name,
    rooms,
    viewersPerRoom: perRoom,
    seconds,
    chatSent,
    statusSent,
    deliveriesExpected,
    deliveriesReceived,
    lost: deliveriesExpected - deliveriesReceived,
    disconnects: all.filter((viewer) => viewer.closedCode !== null).length,
    errors,
    fanOut: latencySummary(delays),
    statusReceived: all.reduce((sum, viewer) => sum + viewer.statusCount, 0),
    cpuPercentOfOneCore,
    rssBeforeMb,
    rssAfterMb,
    canary: latencySummary(canaryResult.latencies),
  };
  for (const viewer of all) viewer.close();
  await sleep(500);
  return result;
}

function table(results: ScenarioResult[]): string {
  const rows = results.map((r) => {
    const fan = r.fanOut ? `${r.fanOut.p50} / ${r.fanOut.p99}` : '–';
    const canary = r.canary ? `${r.canary.p50} / ${r.canary.p99}` : '–';
    return `| ${r.name} | ${r.rooms * r.viewersPerRoom} | ${r.deliveriesReceived.toLocaleString('en')} | ${fan} | ${r.lost} | ${r.disconnects} | ${r.cpuPercentOfOneCore} | ${r.rssBeforeMb} → ${r.rssAfterMb} | ${canary} |`;
  });
  return [
    '| scenario | viewers | chat deliveries | fan-out p50 / p99 (ms) | lost | disconnects | server CPU (% of a core) | server RSS (MB) | HTTP canary p50 / p99 (ms) |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...rows,
  ].join('\n');
}

async function main(): Promise<void> {
  if (process.argv.includes('--markdown')) {
    console.log(table((JSON.parse(readFileSync(resultsFile, 'utf8')) as { scenarios: ScenarioResult[] }).scenarios));
    return;
  }
  const viewers = Number(option('viewers', '500'));
  const [rooms, perRoom] = option('rooms', '20x50').split('x').map(Number);
  const seconds = Number(option('seconds', '30'));
  const chatRate = Number(option('chat-rate', '20'));
  const need = Math.max(viewers, rooms * perRoom);

  const server = await launch({ rateLimitScale: 0 });
  try {
    const setupStarted = performance.now();
    const tokens = await signUpMany(server, `load${Date.now() % 100000}u`, need);
    console.log(`signed up ${need} viewers in ${Math.round((performance.now() - setupStarted) / 1000)} s; server RSS ${rssMb(server.pid)} MB`);
    const results: ScenarioResult[] = [];
    results.push(await scenario(server, tokens, 'one room', 1, viewers, seconds, chatRate));
    console.log(table(results));
    results.push(await scenario(server, tokens, `${rooms} rooms`, rooms, perRoom, seconds, chatRate / rooms));
    console.log(`\n${table(results.slice(1))}`);
    const failures = results.flatMap((r) => [
      ...(r.fanOut && r.fanOut.p99 < LOAD_TARGETS.p99Ms ? [] : [`${r.name}: fan-out p99 ${r.fanOut?.p99} ms >= ${LOAD_TARGETS.p99Ms}`]),
      ...(r.canary && r.canary.p99 < LOAD_TARGETS.p99Ms ? [] : [`${r.name}: canary p99 ${r.canary?.p99} ms >= ${LOAD_TARGETS.p99Ms}`]),
      ...(r.rssAfterMb < LOAD_TARGETS.rssMb ? [] : [`${r.name}: RSS ${r.rssAfterMb} MB >= ${LOAD_TARGETS.rssMb}`]),
      ...(r.lost === 0 ? [] : [`${r.name}: ${r.lost} lost`]),
      ...(r.disconnects === 0 ? [] : [`${r.name}: ${r.disconnects} disconnects`]),
    ]);
    console.log(failures.length === 0 ? `\nall targets met (p99 < ${LOAD_TARGETS.p99Ms} ms, RSS < ${LOAD_TARGETS.rssMb} MB, nothing lost, no disconnects)` : `\ntargets missed:\n${failures.join('\n')}`);
    writeResults(resultsFile, { options: { viewers, rooms, perRoom, seconds, chatRate }, targets: LOAD_TARGETS, scenarios: results, failures });
    process.exitCode = failures.length === 0 ? 0 : 1;
  } finally {
    await server.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(2);
});
