/**
 * Shared parts of `npm run bench:load` and `npm run bench:abuse`: the server process's CPU
 * and memory read from /proc, room sockets that time the chat lines they receive, an HTTP canary,
 * and the setup of users and rooms through the API.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { decodeMessage, encodeMessage, MessageType } from '@/lib/contract/message';
import { reconnectDelayMs } from '@/lib/ws/room-socket';
import { call, post, type TestServer } from '@/server/test-support/harness';
import { percentile } from './analysis';

const CLOCK_TICKS_PER_SEC = 100;

/** CPU time (seconds, user + system) that process `pid` has used so far; Linux /proc only. */
export function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // Fields 14 and 15 of proc(5) (utime, stime), counted from after the command name (field 3 is index 0).
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SEC;
}

/** Resident memory of process `pid` in MB (VmRSS). */
export function rssMb(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Math.round(Number(match[1]) / 102.4) / 10 : NaN;
}

/** Samples a process's RSS every `everyMs` until stopped; reports the highest (MB). */
export function watchRss(pid: number, everyMs = 200): { stop(): number } {
  let peak = rssMb(pid);
  const timer = setInterval(() => {
    try {
      peak = Math.max(peak, rssMb(pid));
    } catch {
      // the process is gone; keep the last peak
    }
  }, everyMs);
  return {
    stop() {
      clearInterval(timer);
      return peak;
    },
  };
}

/** Latency figures (ms) of a set of samples. */
export interface LatencySummary {
  count: number;
  p50: number;
  p99: number;
  max: number;
}

/** p50/p99/max (ms, one decimal) of `values`, or null when there are none. */
export function latencySummary(values: number[]): LatencySummary | null {
  if (values.length === 0) return null;
  const round = (x: number) => Math.round(x * 10) / 10;
  return { count: values.length, p50: round(percentile(values, 50)), p99: round(percentile(values, 99)), max: round(values.reduce((a, b) => Math.max(a, b), -Infinity)) };
}

/** A chat line that carries its send time: `bench <id> <sentMs>` (ms since the epoch, this process's clock). */
export function benchChat(id: number, sentMs = performance.timeOrigin + performance.now()): string {
  return `bench ${id} ${sentMs.toFixed(3)}`;
}

const CHAT_LINE = /^bench (\d+) ([\d.]+)/;

/**
 * A room socket that records, for every `bench` chat line it receives, the delay from its send time
 * (ms), and counts STATUS messages, errors and its own close. Given `reconnectTo`, a socket closed
 * with 1012 (server restarting) opens again, after the web client's first backoff wait, to the server
 * that `reconnectTo` names, and `reconnectsMs` records how long each took (close to the new socket's
 * first VIEWER_COUNT, the wait included).
 */
export class Viewer {
  ws!: WebSocket;
  readonly delaysMs: number[] = [];
  readonly seen = new Set<number>();
  /** Close-to-greeting times of the reconnects (ms). */
  readonly reconnectsMs: number[] = [];
  statusCount = 0;
  errors: string[] = [];
  closedCode: number | null = null;
  private opened!: Promise<void>;
  private closedAt: number | null = null;

  constructor(
    server: Pick<TestServer, 'url'>,
    private readonly roomId: string,
    private readonly token: string,
    private readonly reconnectTo?: () => TestServer,
  ) {
    this.connect(server);
  }

  private connect(server: Pick<TestServer, 'url'>): void {
    const url = new URL(`${server.url.replace('http', 'ws')}/api/room/ws`);
    url.searchParams.set('roomId', this.roomId);
    const ws = new WebSocket(url, [this.token], { perMessageDeflate: false });
    this.ws = ws;
    this.opened = new Promise((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
      ws.once('unexpected-response', (_request, response) => reject(new Error(`socket refused: ${response.statusCode}`)));
    });
    this.opened.catch((error: Error) => this.errors.push(error.message));
    ws.on('close', (code) => {
      if (code === 1012 && this.reconnectTo) {
        // As the web client does (lib/ws/room-socket.ts): the first try after 0.2–0.4 s, so that a
        // restarted instance's viewers do not all arrive at once.
        this.closedAt = performance.now();
        const to = this.reconnectTo;
        setTimeout(() => this.connect(to()), reconnectDelayMs(1));
      } else {
        this.closedCode = code;
      }
    });
    ws.on('message', (data: Buffer) => {
      const now = performance.timeOrigin + performance.now();
      let message;
      try {
        message = decodeMessage(new Uint8Array(data));
      } catch {
        this.errors.push('undecodable frame');
        return;
      }
      if (message.type === MessageType.CHAT && message.payload.case === 'chatContent') {
        const line = CHAT_LINE.exec(message.payload.value);
        if (line && !this.seen.has(Number(line[1]))) {
          this.seen.add(Number(line[1]));
          this.delaysMs.push(now - Number(line[2]));
        }
      } else if (message.type === MessageType.STATUS) {
        this.statusCount++;
      } else if (message.type === MessageType.VIEWER_COUNT && this.closedAt !== null) {
        this.reconnectsMs.push(performance.now() - this.closedAt);
        this.closedAt = null;
      } else if (message.type === MessageType.ERROR && message.payload.case === 'errorMessage') {
        this.errors.push(message.payload.value);
      }
    });
  }

  ready(): Promise<void> {
    return this.opened;
  }

  /** Whether a reconnect is under way (closed with 1012, not yet greeted again). */
  reconnecting(): boolean {
    return this.closedAt !== null;
  }

  chat(content: string): void {
    if (this.ws.readyState === WebSocket.OPEN) this.ws.send(encodeMessage({ type: MessageType.CHAT, payload: { case: 'chatContent', value: content } }));
  }

  status(currentTime: number, isPlaying = true): void {
    if (this.ws.readyState !== WebSocket.OPEN) return;
    this.ws.send(
      encodeMessage({
        type: MessageType.STATUS,
        timestamp: BigInt(Date.now()),
        payload: { case: 'playbackStatus', value: { isPlaying, currentTime, playbackRate: 1 } },
      }),
    );
  }

  close(): void {
    this.closedAt = null;
    this.ws.removeAllListeners('close');
    this.ws.terminate();
  }
}

/**
 * Calls GET `path` every `everyMs` (one at a time) and records each answer's latency (ms) and status.
 */
export function httpCanary(server: TestServer, path: string, options: { token?: string; roomId?: string; everyMs?: number } = {}) {
  const latencies: number[] = [];
  const statuses = new Map<number, number>();
  let running = true;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      try {
        const response = await call(server, 'GET', path, { token: options.token, roomId: options.roomId });
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      } catch {
        statuses.set(0, (statuses.get(0) ?? 0) + 1);
      }
      latencies.push(performance.now() - started);
      await sleep(options.everyMs ?? 100);
    }
  })();
  return {
    /** Stops, and returns the latencies so far and the count per status (0 = network error). */
    async stop() {
      running = false;
      await loop;
      return { latencies, statuses: Object.fromEntries(statuses) as Record<number, number> };
    },
    /** Takes the latencies so far (and starts a new window). */
    take(): number[] {
      return latencies.splice(0);
    },
  };
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Runs `task` over `items` with at most `limit` at a time. */
export async function inParallel<T, R>(items: T[], limit: number, task: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await task(items[index], index);
      }
    }),
  );
  return results;
}

/** Signs up `count` users named `<prefix><n>` (password `bench-password`) and returns their tokens. */
export async function signUpMany(server: TestServer, prefix: string, count: number): Promise<string[]> {
  return inParallel(
    Array.from({ length: count }, (_, n) => n),
    8,
    async (n) => {
      const answer = await post(server, '/api/user/signup', { username: `${prefix}${n}`, password: 'bench-password' });
      if (answer.status !== 200) throw new Error(`sign-up ${prefix}${n}: ${answer.status} ${answer.text}`);
      return answer.body.data.token as string;
    },
  );
}

/** Creates a room owned by `ownerToken`, lets members chat and push, joins `memberTokens` to it, returns its id. */
export async function roomWith(server: TestServer, ownerToken: string, name: string, memberTokens: string[]): Promise<string> {
  const created = await post(server, '/api/room/create', { roomName: name, password: '', settings: { hidden: true } }, { token: ownerToken });
  if (created.status !== 201) throw new Error(`create room: ${created.status} ${created.text}`);
  const roomId = created.body.data.roomId as string;
  await inParallel(memberTokens, 8, async (token) => {
    const joined = await post(server, '/api/room/login', { roomId, password: '' }, { token });
    if (joined.status !== 200) throw new Error(`join room: ${joined.status} ${joined.text}`);
  });
  return roomId;
}

/** The machine, for the results file. */
export function machine() {
  return { cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model ?? '', loadAverage: os.loadavg().map((x) => Math.round(x * 100) / 100), node: process.version };
}

/** The value after `--<name>` on the command line, or `fallback`. */
export function option(name: string, fallback: string): string {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? process.argv[index + 1] : fallback;
}

/**
 * Writes a results file (pretty JSON) with the date, the short commit (empty outside a git checkout)
 * and the machine before `figures`; prints its path.
 */
export function writeResults(file: string, figures: Record<string, unknown>): void {
  let commit = '';
  try {
    commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  } catch {
    // not a git checkout
  }
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify({ date: new Date().toISOString(), commit, machine: machine(), ...figures }, null, 2)}\n`);
  console.log(`wrote ${path.relative(process.cwd(), file)}`);
}
