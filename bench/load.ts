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
 *   npm run bench:load -- --instances 2 --viewers 1000 [--rolling-restart] [--postgres]
 *   npm run bench:load -- --markdown [--instances 2]   # the docs/benchmarks.md table from bench/results/load-latest.json
 *                                                      # (load-2-instances-latest.json)
 *
 * `--postgres` keeps the data in a throwaway PostgreSQL (Debian's, server/test-support/postgres.ts)
 * instead of the data directory's SQLite file (results in `load[-N-instances]-postgres-latest.json`).
 * With `--instances N` (2 or more) it starts a throwaway Redis and N servers on one data directory
 * (docs/deployment.md "Running more than one instance"), spreads each room's viewers over them in
 * turn, and reports CPU and RSS per instance and of Redis; the targets are then a fan-out p99 under
 * 100 ms and nothing lost. `--rolling-restart` adds a third scenario: one room, and halfway through
 * the last instance is stopped (its viewers are told 1012 and reconnect to the others) and started
 * again, while a writer pushes a movie every 100 ms to each instance in turn; it reports how long
 * the reconnects took (target: all within 5 s) and whether every push that was answered 200 is in the
 * room's list (target: all). Lines missed by a viewer while it reconnects are not counted as lost:
 * `lost` there counts the viewers that stayed connected.
 *
 * The viewers run in this one Node process, so a delivery's latency includes this process's own
 * delay in reading it: the figures are an upper bound of the server's.
 */
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { get, launch, post, tempDir, type TestServer } from '@/server/test-support/harness';
import { startPostgres, type TestPostgres } from '@/server/test-support/postgres';
import { startRedis, type TestRedis } from '@/server/test-support/redis';
import { benchChat, cpuSeconds, httpCanary, latencySummary, option, rssMb, roomWith, signUpMany, sleep, Viewer, writeResults, type LatencySummary } from './lib/load-kit';

const resultsFile = path.join(__dirname, 'results', 'load-latest.json');

/** Targets for a well-behaved user, the same as bench:abuse's. */
export const LOAD_TARGETS = { p99Ms: 250, rssMb: 300 };
/** Targets with more than one instance: the fan-out crosses Redis and must still be quick. */
export const CLUSTER_TARGETS = { p99Ms: 100, reconnectMs: 5000 };

/** CPU (% of one core over the scenario) and RSS (MB, before → after) of one process. */
interface ProcessFigures {
  name: string;
  cpuPercentOfOneCore: number;
  rssBeforeMb: number;
  rssAfterMb: number;
}

/** What a rolling restart showed (`--rolling-restart`). */
interface RestartFigures {
  /** Viewers that were told 1012 and came back. */
  reconnected: number;
  /** Of those, how long each took (close to greeting). */
  reconnect: LatencySummary | null;
  /** Movie pushes answered 200, and how many of them the room's list holds at the end. */
  pushesAcknowledged: number;
  pushesFound: number;
  /** Pushes that failed (the instance was down): not acknowledged, so not expected. */
  pushesRefused: number;
  /** Chat lines sent into a closing socket, which nobody got (not acknowledged, so not expected). */
  chatUnacknowledged: number;
}

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
  /** Every server process, and Redis, with more than one instance. */
  processes: ProcessFigures[];
  /** This benchmark's own process (every viewer's socket), % of one core: near 100 the figures are its limits. */
  viewersCpuPercentOfOneCore: number;
  restart?: RestartFigures;
}

/** The servers under test, and Redis when there is more than one. */
interface Cluster {
  servers: TestServer[];
  redis: TestRedis | null;
  /** Stops server `index` gracefully and starts it again on the same data (and Redis). */
  restart(index: number): Promise<void>;
  stop(): Promise<void>;
}

async function startCluster(instances: number, postgres: TestPostgres | null): Promise<Cluster> {
  // With a PostgreSQL, the harness gives the data directory its own database there (harness.ts `databaseFor`).
  if (postgres) process.env.TEST_DATABASE_URL = postgres.url;
  if (instances <= 1) {
    const server = await launch({ rateLimitScale: 0 });
    return { servers: [server], redis: null, restart: async () => undefined, stop: () => server.stop() };
  }
  const redis = await startRedis();
  const dataDir = tempDir('synctv-load-');
  const options = { dataDir, redisUrl: redis.url, rateLimitScale: 0 };
  const servers: TestServer[] = [];
  for (let i = 0; i < instances; i++) servers.push(await launch(options));
  return {
    servers,
    redis,
    async restart(index) {
      await servers[index].stop();
      servers[index] = await launch(options);
    },
    async stop() {
      for (const server of servers) await server.stop();
      await redis.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** CPU and RSS readings of every process of the cluster from now until `finish()`. */
function measureProcesses(cluster: Cluster) {
  const processes = [
    ...cluster.servers.map((server, i) => ({ name: `instance ${i + 1}`, pid: () => cluster.servers[i].pid })),
    ...(cluster.redis ? [{ name: 'redis', pid: () => cluster.redis!.pid }] : []),
  ].map((process) => ({ ...process, pidAtStart: process.pid(), rssBeforeMb: rssMb(process.pid()), cpuBefore: cpuSeconds(process.pid()) }));
  const started = performance.now();
  return {
    finish(): ProcessFigures[] {
      const seconds = (performance.now() - started) / 1000;
      return processes.map((process) => {
        const pid = process.pid();
        // A restarted instance is a new process: its CPU counts from its start.
        const cpu = cpuSeconds(pid) - (pid === process.pidAtStart ? process.cpuBefore : 0);
        return { name: process.name, cpuPercentOfOneCore: Math.round((cpu / seconds) * 1000) / 10, rssBeforeMb: process.rssBeforeMb, rssAfterMb: rssMb(pid) };
      });
    },
  };
}


async function scenario(
  cluster: Cluster,
  tokens: string[],
  name: string,
  rooms: number,
  perRoom: number,
  seconds: number,
  chatRate: number,
  rollingRestart = false,
): Promise<ScenarioResult> {
  const server = cluster.servers[0];
  const count = cluster.servers.length;
  const roomIds: string[] = [];
  for (let r = 0; r < rooms; r++) {
    const members = tokens.slice(r * perRoom, (r + 1) * perRoom);
    roomIds.push(await roomWith(server, members[0], `${name} ${r}`, members.slice(1)));
  }
  const viewers: Viewer[][] = [];
  for (let r = 0; r < rooms; r++) {
    // Viewer i of a room on instance i mod N; one told 1012 reconnects to another instance, in turn.
    let next = 0;
    const elsewhere = (from: number) => () => cluster.servers[(from + 1 + (next++ % (count - 1))) % count];
    const room = tokens
      .slice(r * perRoom, (r + 1) * perRoom)
      .map((token, i) => new Viewer(cluster.servers[i % count], roomIds[r], token, count > 1 ? elsewhere(i % count) : undefined));
    await Promise.all(room.map((viewer) => viewer.ready()));
    viewers.push(room);
  }
  await sleep(1000);
  const rssBeforeMb = rssMb(server.pid);
  const cpuBefore = cpuSeconds(server.pid);
  const measurement = measureProcesses(cluster);
  const ownCpuBefore = process.cpuUsage();
  const canary = httpCanary(server, '/api/room/movie/current', { token: tokens[0], roomId: roomIds[0] });
  const started = performance.now();

  // Each room sends `chatRate` lines a second, from its members in turn; its creator sends STATUS.
  let nextId = 0;
  const sentPerRoom = new Array<number>(rooms).fill(0);
  const sentIds: number[][] = Array.from({ length: rooms }, () => []);
  let statusSent = 0;
  const chatTimer = setInterval(() => {
    for (let r = 0; r < rooms; r++) {
      const sender = viewers[r][1 + (sentPerRoom[r] % (perRoom - 1))];
      sentIds[r].push(nextId);
      sender.chat(benchChat(nextId++));
      sentPerRoom[r]++;
    }
  }, 1000 / chatRate);
  const statusTimer = setInterval(() => {
    const elapsed = (performance.now() - started) / 1000;
    for (let r = 0; r < rooms; r++) viewers[r][0].status(elapsed);
    statusSent += rooms;
  }, 1000);
  const restart = rollingRestart ? rollRestart(cluster, tokens[0], roomIds[0], seconds) : null;
  await sleep(seconds * 1000);
  clearInterval(chatTimer);
  clearInterval(statusTimer);
  const writes = await restart;
  await sleep(2000); // let the last lines arrive
  const processes = cluster.redis ? measurement.finish() : [];
  const ownCpu = process.cpuUsage(ownCpuBefore);
  const viewersCpuPercentOfOneCore = Math.round(((ownCpu.user + ownCpu.system) / 1e6 / ((performance.now() - started) / 1000)) * 1000) / 10;
  const cpuPercentOfOneCore = Math.round(((cpuSeconds(server.pid) - cpuBefore) / ((performance.now() - started) / 1000)) * 1000) / 10;
  const rssAfterMb = rssMb(server.pid);
  const canaryResult = await canary.stop();

  const everyone = viewers.flat();
  // Viewers that reconnected miss the lines sent meanwhile; `lost` counts those that stayed.
  const all = everyone.filter((viewer) => viewer.reconnectsMs.length === 0 && !viewer.reconnecting());
  const stayed = viewers.map((room) => room.filter((viewer) => all.includes(viewer)).length);
  const chatSent = sentPerRoom.reduce((sum, n) => sum + n, 0);
  // Every member of the room receives every line, the sender included (§6.3: CHAT goes to the whole room).
  // In a rolling restart a line sent into a socket that the stopping instance is closing is dropped
  // unanswered (nobody, its sender included, ever gets it): it was not acknowledged, so it is not
  // expected. Elsewhere every line sent is expected.
  const accepted = sentIds.map((ids, r) => (rollingRestart ? ids.filter((id) => viewers[r].some((viewer) => viewer.seen.has(id))).length : ids.length));
  const deliveriesExpected = accepted.reduce((sum, n, r) => sum + n * stayed[r], 0);
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
    disconnects: everyone.filter((viewer) => viewer.closedCode !== null || viewer.reconnecting()).length,
    errors,
    fanOut: latencySummary(delays),
    statusReceived: all.reduce((sum, viewer) => sum + viewer.statusCount, 0),
    cpuPercentOfOneCore,
    rssBeforeMb,
    rssAfterMb,
    canary: latencySummary(canaryResult.latencies),
    processes,
    viewersCpuPercentOfOneCore,
    ...(writes
      ? {
          restart: {
            ...writes,
            chatUnacknowledged: chatSent - accepted.reduce((sum, n) => sum + n, 0),
            reconnected: everyone.filter((viewer) => viewer.reconnectsMs.length > 0).length,
            reconnect: latencySummary(everyone.flatMap((viewer) => viewer.reconnectsMs)),
          },
        }
      : {}),
  };
  for (const viewer of everyone) viewer.close();
  await sleep(500);
  return result;
}

/**
 * The rolling restart: at a third of the run the last instance stops (its sockets get 1012) and
 * starts again; meanwhile a writer pushes a movie every 100 ms to each instance in turn. Resolves,
 * once the writer has stopped at the end of the run, with what was pushed and what the room kept.
 */
async function rollRestart(
  cluster: Cluster,
  ownerToken: string,
  roomId: string,
  seconds: number,
): Promise<Omit<RestartFigures, 'reconnected' | 'reconnect' | 'chatUnacknowledged'>> {
  const acknowledged: string[] = [];
  let refused = 0;
  let running = true;
  const writer = (async () => {
    for (let n = 0; running; n++) {
      const server = cluster.servers[n % cluster.servers.length];
      const name = `rolling ${n}`;
      try {
        const answer = await post(server, '/api/room/movie/push', { url: `https://example.com/${n}.mp4`, name }, { token: ownerToken, roomId });
        if (answer.status === 200) acknowledged.push(name);
        else refused++;
      } catch {
        refused++;
      }
      await sleep(100);
    }
  })();
  await sleep((seconds * 1000) / 3);
  const last = cluster.servers.length - 1;
  console.log(`rolling restart: stopping instance ${last + 1}`);
  await cluster.restart(last);
  console.log(`rolling restart: instance ${last + 1} is back`);
  await sleep((seconds * 1000 * 2) / 3 - 1000);
  running = false;
  await writer;
  const names = new Set<string>();
  for (let page = 1; ; page++) {
    const list = await get(cluster.servers[0], `/api/room/movie/movies?page=${page}&max=100`, { token: ownerToken, roomId });
    const movies = (list.body?.data?.movies ?? []) as Array<{ base: { name: string } }>;
    for (const movie of movies) names.add(movie.base.name);
    if (movies.length < 100) break;
  }
  return { pushesAcknowledged: acknowledged.length, pushesFound: acknowledged.filter((name) => names.has(name)).length, pushesRefused: refused };
}

function table(results: ScenarioResult[]): string {
  const rows = results.map((r) => {
    const fan = r.fanOut ? `${r.fanOut.p50} / ${r.fanOut.p99}` : '–';
    const canary = r.canary ? `${r.canary.p50} / ${r.canary.p99}` : '–';
    // With more than one instance: every process, "instance 1 / instance 2 / redis".
    const cpu = r.processes?.length ? r.processes.map((p) => p.cpuPercentOfOneCore).join(' / ') : String(r.cpuPercentOfOneCore);
    const rss = r.processes?.length ? r.processes.map((p) => `${p.rssBeforeMb} → ${p.rssAfterMb}`).join(' / ') : `${r.rssBeforeMb} → ${r.rssAfterMb}`;
    return `| ${r.name} | ${r.rooms * r.viewersPerRoom} | ${r.deliveriesReceived.toLocaleString('en')} | ${fan} | ${r.lost} | ${r.disconnects} | ${cpu} | ${rss} | ${canary} |`;
  });
  const own = results.map((r) => `\n${r.name}: the viewers' process (this one) used ${r.viewersCpuPercentOfOneCore ?? '–'} % of a core`);
  const restarts = results.flatMap((r) =>
    r.restart
      ? [
          `\n${r.name}: ${r.restart.reconnected} viewers reconnected, p50 / p99 / max ${r.restart.reconnect?.p50} / ${r.restart.reconnect?.p99} / ${r.restart.reconnect?.max} ms; ` +
            `${r.restart.pushesFound} of ${r.restart.pushesAcknowledged} acknowledged pushes kept (${r.restart.pushesRefused} refused while the instance was down); ` +
            `${r.restart.chatUnacknowledged} chat lines sent into closing sockets, never acknowledged`,
        ]
      : [],
  );
  return [
    '| scenario | viewers | chat deliveries | fan-out p50 / p99 (ms) | lost | disconnects | server CPU (% of a core) | server RSS (MB) | HTTP canary p50 / p99 (ms) |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...rows,
    ...own,
    ...restarts,
  ].join('\n');
}

/** What missed its target in `r`. */
function missed(r: ScenarioResult, clustered: boolean): string[] {
  const p99Ms = clustered ? CLUSTER_TARGETS.p99Ms : LOAD_TARGETS.p99Ms;
  const rssOver = (r.processes.length ? r.processes.filter((p) => p.name !== 'redis') : [{ name: 'server', rssAfterMb: r.rssAfterMb }]).filter(
    (p) => p.rssAfterMb >= LOAD_TARGETS.rssMb,
  );
  return [
    ...(r.fanOut && r.fanOut.p99 < p99Ms ? [] : [`${r.name}: fan-out p99 ${r.fanOut?.p99} ms >= ${p99Ms}`]),
    ...(r.canary && r.canary.p99 < LOAD_TARGETS.p99Ms ? [] : [`${r.name}: canary p99 ${r.canary?.p99} ms >= ${LOAD_TARGETS.p99Ms}`]),
    ...rssOver.map((p) => `${r.name}: ${p.name} RSS ${p.rssAfterMb} MB >= ${LOAD_TARGETS.rssMb}`),
    ...(r.lost === 0 ? [] : [`${r.name}: ${r.lost} lost`]),
    ...(r.disconnects === 0 ? [] : [`${r.name}: ${r.disconnects} disconnects`]),
    ...(!r.restart || (r.restart.reconnect?.max ?? 0) < CLUSTER_TARGETS.reconnectMs
      ? []
      : [`${r.name}: a reconnect took ${r.restart.reconnect?.max} ms >= ${CLUSTER_TARGETS.reconnectMs}`]),
    ...(!r.restart || r.restart.pushesFound === r.restart.pushesAcknowledged
      ? []
      : [`${r.name}: ${r.restart.pushesAcknowledged - r.restart.pushesFound} acknowledged pushes missing`]),
  ];
}

async function main(): Promise<void> {
  const instances = Number(option('instances', '1'));
  const clustered = instances > 1;
  const onPostgres = process.argv.includes('--postgres');
  const name = `load${clustered ? `-${instances}-instances` : ''}${onPostgres ? '-postgres' : ''}-latest`;
  const file = resultsFile.replace('load-latest', name);
  if (process.argv.includes('--markdown')) {
    console.log(table((JSON.parse(readFileSync(file, 'utf8')) as { scenarios: ScenarioResult[] }).scenarios));
    return;
  }
  const viewers = Number(option('viewers', '500'));
  const [rooms, perRoom] = option('rooms', '20x50').split('x').map(Number);
  const seconds = Number(option('seconds', '30'));
  const chatRate = Number(option('chat-rate', '20'));
  const rollingRestart = process.argv.includes('--rolling-restart') && instances > 1;
  const need = Math.max(viewers, rooms * perRoom);

  const postgres = onPostgres ? await startPostgres() : null;
  const cluster = await startCluster(instances, postgres);
  try {
    const server = cluster.servers[0];
    const setupStarted = performance.now();
    const tokens = await signUpMany(server, `load${Date.now() % 100000}u`, need);
    console.log(`signed up ${need} viewers in ${Math.round((performance.now() - setupStarted) / 1000)} s; ${instances} instance(s) on ${onPostgres ? 'PostgreSQL' : 'SQLite'}`);
    const results: ScenarioResult[] = [];
    results.push(await scenario(cluster, tokens, 'one room', 1, viewers, seconds, chatRate));
    console.log(table(results));
    results.push(await scenario(cluster, tokens, `${rooms} rooms`, rooms, perRoom, seconds, chatRate / rooms));
    console.log(`\n${table(results.slice(1))}`);
    if (rollingRestart) {
      results.push(await scenario(cluster, tokens, 'one room, rolling restart', 1, viewers, seconds, chatRate, true));
      console.log(`\n${table(results.slice(2))}`);
    }
    const failures = results.flatMap((r) => missed(r, clustered));
    const p99Ms = clustered ? CLUSTER_TARGETS.p99Ms : LOAD_TARGETS.p99Ms;
    console.log(failures.length === 0 ? `\nall targets met (p99 < ${p99Ms} ms, RSS < ${LOAD_TARGETS.rssMb} MB, nothing lost, no disconnects)` : `\ntargets missed:\n${failures.join('\n')}`);
    writeResults(file, { options: { viewers, rooms, perRoom, seconds, chatRate, instances, rollingRestart, database: onPostgres ? 'postgres' : 'sqlite' }, targets: clustered ? CLUSTER_TARGETS : LOAD_TARGETS, scenarios: results, failures });
    process.exitCode = failures.length === 0 ? 0 : 1;
  } finally {
    await cluster.stop();
    await postgres?.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(2);
});
