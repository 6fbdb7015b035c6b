/**
 * Test harness for the companion server: starts `startServer` in a child process (see serve.ts),
 * calls the HTTP API with real fetch and opens room sockets with the `ws` client.
 */
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import WebSocket from 'ws';
import { watchChild } from './child';
import { decodeMessage, encodeMessage, MessageType, type Message } from '@/lib/contract/message';
import type { StartServerOptions } from '../app';
import { DATABASE_FILE } from '../db/database';
import { CompiledQuery } from 'kysely';
import { postgresConnection, postgresPool, sqliteConnection, type Connection } from '../db/sql';

const ROOT = path.resolve(__dirname, '../..');
const SERVE = path.join(__dirname, 'serve.ts');

/** Password of `root` in test servers. */
export const TEST_ROOT_PASSWORD = 'root-test-pw';

export interface TestServer {
  url: string;
  port: number;
  /** The server process's id (for CPU and memory readings in the benchmarks). */
  pid: number;
  dataDir: string;
  /** Whether the server process is still running. */
  alive(): boolean;
  /** Everything the process wrote to stdout and stderr. */
  output(): string;
  /** SIGTERM, then wait for the exit (SIGKILL after 5 s). Removes the data directory if launch made it. */
  stop(): Promise<void>;
  /** Kills the process with SIGKILL (no shutdown at all, as a crash or `kill -9`); keeps the data directory. */
  kill(): Promise<void>;
}

/** A fresh temporary data directory. */
export function tempDir(prefix = 'synctv-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/**
 * The PostgreSQL database that stands for `dataDir` when the tests run against PostgreSQL
 * (TEST_DATABASE_URL, set by server/test-support/jest-global-setup.ts): one database per data
 * directory, created on first use, so that a server restarted, or a second instance started, on the
 * same directory finds the same data. Null when the tests run on SQLite.
 */
export async function databaseFor(dataDir: string): Promise<string | null> {
  const maintenance = process.env.TEST_DATABASE_URL;
  if (!maintenance) return null;
  const name = `synctv_${crypto.createHash('sha256').update(path.resolve(dataDir)).digest('hex').slice(0, 24)}`;
  const client = new pg.Client({ connectionString: maintenance });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } catch (error) {
    // 42P04: it exists (this data directory's server ran before).
    if ((error as { code?: string }).code !== '42P04') throw error;
  } finally {
    await client.end();
  }
  const url = new URL(maintenance);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Whether this run keeps the servers' data in PostgreSQL (`npm run test:pg`) rather than SQLite files. */
export function testsOnPostgres(): boolean {
  return Boolean(process.env.TEST_DATABASE_URL);
}

/** A value bound to a `?` of a test's SQL. */
export type TestSqlValue = string | number | null;

/**
 * Plain SQL on a server's database, for arranging what the API cannot: `?` placeholders (numbered
 * `$1…$n` for PostgreSQL), rows as plain objects, `changes` as the rows written.
 */
export interface TestDatabase {
  all<T>(text: string, params?: readonly TestSqlValue[]): Promise<T[]>;
  get<T>(text: string, params?: readonly TestSqlValue[]): Promise<T | undefined>;
  run(text: string, params?: readonly TestSqlValue[]): Promise<{ changes: number }>;
  close(): Promise<void>;
}

/** `text` with its `?` placeholders numbered as PostgreSQL's `$1…$n` (none sits inside a string literal in the tests). */
export function numberPlaceholders(text: string): string {
  let n = 0;
  return text.replace(/'(?:[^']|'')*'|\?/g, (match) => (match === '?' ? `$${++n}` : match));
}

/** A TestDatabase over one of the store's connections (../db/sql.ts). */
export function testDatabase(connection: Connection): TestDatabase {
  const compiled = (text: string, params: readonly TestSqlValue[] = []) =>
    CompiledQuery.raw(connection.dialect === 'postgres' ? numberPlaceholders(text) : text, [...params]);
  const all = async <T>(text: string, params?: readonly TestSqlValue[]) => (await connection.db.executeQuery<T>(compiled(text, params))).rows as T[];
  return {
    all,
    get: async <T>(text: string, params?: readonly TestSqlValue[]) => (await all<T>(text, params))[0],
    run: async (text, params) => ({ changes: Number((await connection.db.executeQuery(compiled(text, params))).numAffectedRows ?? 0) }),
    close: () => connection.close(),
  };
}

/**
 * Opens the database of the server on `dataDir` beside it: its SQLite file, or its PostgreSQL
 * database when the tests run against PostgreSQL. For arranging what the API cannot (a role, a room's
 * status, a setting changed behind the server's back); assertions go through the API.
 */
export async function openServerDatabase(dataDir: string): Promise<TestDatabase> {
  const url = await databaseFor(dataDir);
  if (url) return testDatabase(postgresConnection(postgresPool(url, 1)));
  return testDatabase(sqliteConnection(new Database(path.join(dataDir, DATABASE_FILE))));
}

/** How long a first start may stay silent before it is taken for hung (ready in about 1.2 s here). */
const FIRST_START_DEADLINE_MS = 20_000;
/** How long the second start may take. */
const SECOND_START_DEADLINE_MS = 30_000;

interface StartAttempt {
  child: ReturnType<typeof spawn>;
  watched: ReturnType<typeof watchChild>;
  /** The READY line's address; 'silent' when the deadline passed with nothing on stdout or stderr. Rejects when the process exits first or prints anything else until the deadline. */
  ready: Promise<{ url: string; port: number } | 'silent'>;
  output(): string;
  /** Node's diagnostic report of the process (its JavaScript stack and pending handles), for a hung start. */
  report(): Promise<string>;
  kill(): Promise<void>;
}

/** Spawns serve.ts once; see `launch`. */
function startProcess(serveOptions: StartServerOptions, dataDir: string, deadlineMs: number): StartAttempt {
  // Made only when a report is asked for: node needs the directory when the signal comes, not before.
  const reportDir = path.join(os.tmpdir(), `synctv-report-${crypto.randomUUID()}`);
  // One process (tsx as a loader, not its CLI, which would run the server in a grandchild that a SIGKILL misses).
  const child = spawn(process.execPath, ['--report-on-signal', `--report-directory=${reportDir}`, '--import', 'tsx', SERVE], {
    cwd: ROOT,
    env: { ...process.env, SERVE_OPTIONS: JSON.stringify(serveOptions) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const watched = watchChild(child, (error) => (output += String(error)));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const ready = new Promise<{ url: string; port: number } | 'silent'>((resolve, reject) => {
    const timer = setTimeout(() => (output === '' ? resolve('silent') : reject(new Error(`server did not start:\n${output}`))), deadlineMs);
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const line = /READY (.*)\n/.exec(output);
      if (line) {
        clearTimeout(timer);
        resolve(JSON.parse(line[1]) as { url: string; port: number });
      }
    });
    void watched.exit.then(() => {
      clearTimeout(timer);
      reject(new Error(`server exited before it was ready:\n${output}`));
    });
  });
  return {
    child,
    watched,
    ready,
    output: () => output,
    async report() {
      fs.mkdirSync(reportDir, { recursive: true });
      child.kill('SIGUSR2');
      for (let waited = 0; waited < 3000; waited += 100) {
        const files = fs.readdirSync(reportDir);
        if (files.length > 0) {
          await new Promise((resolve) => setTimeout(resolve, 200));
          const text = fs.readFileSync(path.join(reportDir, files[0]), 'utf8');
          fs.rmSync(reportDir, { recursive: true, force: true });
          const report = JSON.parse(text) as { javascriptStack?: { message?: string; stack?: string[] }; libuv?: { type: string; is_active: boolean }[] };
          const handles = (report.libuv ?? []).filter((handle) => handle.is_active).map((handle) => handle.type);
          return `its JavaScript stack: ${report.javascriptStack?.message || 'none (the event loop was waiting)'}\n  ${(report.javascriptStack?.stack ?? []).join('\n  ')}\nits active handles: ${handles.join(', ')}`;
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      fs.rmSync(reportDir, { recursive: true, force: true });
      return 'it wrote no diagnostic report within 3 s';
    },
    async kill() {
      if (!watched.exited()) {
        child.kill('SIGKILL');
        await watched.exit;
      }
    },
  };
}

/**
 * Starts a server process on a random port with a temporary (or the given) data directory; its data
 * in that directory's SQLite file, or in its PostgreSQL database (`databaseFor`) when the tests run
 * against PostgreSQL.
 */
export async function launch(options: Partial<StartServerOptions> = {}): Promise<TestServer> {
  const ownsDataDir = !options.dataDir;
  const dataDir = options.dataDir ?? tempDir();
  const databaseUrl = options.databaseUrl ?? (await databaseFor(dataDir)) ?? undefined;
  // Rate limits are off unless a test asks for them (server/limits.test.ts): the tests sign up many users from one address.
  const serveOptions = { rootPassword: TEST_ROOT_PASSWORD, webDir: path.join(dataDir, 'no-web'), rateLimitScale: 0, ...options, dataDir, databaseUrl };
  let attempt = startProcess(serveOptions, dataDir, FIRST_START_DEADLINE_MS);
  let ready = await attempt.ready;
  if (ready === 'silent') {
    // Once in a CI run (2026-12-08) a server printed nothing for 30 s, where it is ready in about
    // 1.2 s. Say where it stood, then try once more on the same data directory, as a restart would.
    process.stderr.write(`launch: the server printed nothing for ${FIRST_START_DEADLINE_MS / 1000} s; starting it again\n${await attempt.report()}\n`);
    await attempt.kill();
    attempt = startProcess(serveOptions, dataDir, SECOND_START_DEADLINE_MS);
    ready = await attempt.ready;
  }
  if (ready === 'silent') {
    await attempt.kill();
    throw new Error(`server did not start within ${SECOND_START_DEADLINE_MS / 1000} s, twice:\n${attempt.output()}`);
  }
  const { child, watched, output } = attempt;
  return {
    ...ready,
    pid: child.pid ?? -1,
    dataDir,
    alive: () => !watched.exited(),
    output,
    kill: attempt.kill,
    async stop() {
      await watched.stop();
      if (ownsDataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A response: status, parsed JSON body (or null), raw text and headers. */
export interface ApiResponse {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  text: string;
  headers: Headers;
}

export interface CallOptions {
  token?: string;
  roomId?: string;
  json?: unknown;
  /** Raw request body (sent as is, with `contentType`). */
  rawBody?: string;
  contentType?: string;
  headers?: Record<string, string>;
  redirect?: RequestRedirect;
}

/** One HTTP call; `path` may carry a query string. */
export async function call(server: TestServer, method: string, urlPath: string, options: CallOptions = {}): Promise<ApiResponse> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.Authorization = options.token;
  if (options.roomId) headers['X-Room-Id'] = options.roomId;
  let body: string | undefined;
  if (options.json !== undefined) {
    body = JSON.stringify(options.json);
    headers['Content-Type'] = 'application/json';
  } else if (options.rawBody !== undefined) {
    body = options.rawBody;
    if (options.contentType) headers['Content-Type'] = options.contentType;
  } else if (options.contentType) {
    headers['Content-Type'] = options.contentType;
  }
  const response = await fetch(`${server.url}${urlPath}`, { method, headers, body, redirect: options.redirect ?? 'manual' });
  const text = await response.text();
  let parsed: unknown = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = null;
  }
  return { status: response.status, body: parsed, text, headers: response.headers };
}

export const get = (server: TestServer, urlPath: string, options?: CallOptions) => call(server, 'GET', urlPath, options);
export const post = (server: TestServer, urlPath: string, json?: unknown, options: CallOptions = {}) =>
  call(server, 'POST', urlPath, { ...options, json });

let userCounter = 0;

/** A signed-up user: token, id and name. */
export interface TestUser {
  token: string;
  id: string;
  username: string;
  password: string;
}

/** Signs up a fresh user (unique name) and returns its token and id. */
export async function signUpUser(server: TestServer, prefix = 'user'): Promise<TestUser> {
  const username = `${prefix}${process.pid % 1000}x${++userCounter}`;
  const password = 'secret-pw';
  const signup = await post(server, '/api/user/signup', { username, password });
  if (signup.status !== 200) throw new Error(`signup failed: ${signup.text}`);
  const me = await get(server, '/api/user/me', { token: signup.body.data.token });
  return { token: signup.body.data.token, id: me.body.data.id, username, password };
}

let roomCounter = 0;

/** Creates a room owned by `owner`; returns its id. */
export async function createRoom(server: TestServer, owner: TestUser, options: { password?: string; hidden?: boolean; name?: string } = {}) {
  const roomName = options.name ?? `room ${process.pid % 1000}-${++roomCounter}`;
  const created = await post(
    server,
    '/api/room/create',
    { roomName, password: options.password ?? '', settings: { hidden: options.hidden ?? false } },
    { token: owner.token },
  );
  if (created.status !== 201) throw new Error(`create room failed: ${created.text}`);
  return { roomId: created.body.data.roomId as string, roomName };
}

/** How a socket sends its token. */
export type TokenVia = 'subprotocol' | 'query' | 'header';

/** A connected room socket that records every decoded message. */
export class TestSocket {
  readonly ws: WebSocket;
  readonly received: Message[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  private waiters: (() => void)[] = [];

  private constructor(ws: WebSocket) {
    this.ws = ws;
    ws.on('message', (data: Buffer, isBinary: boolean) => {
      if (isBinary) this.received.push(decodeMessage(new Uint8Array(data)));
      for (const wake of this.waiters.splice(0)) wake();
    });
    this.closed = new Promise((resolve) => ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })));
  }

  /** The selected subprotocol ("" when none). */
  get protocol(): string {
    return this.ws.protocol;
  }

  /**
   * Connects to `roomId`, with `extraHeaders` (e.g. X-Forwarded-For) on the handshake; resolves
   * when open. Rejects with `{status, body}` when the upgrade is refused with an HTTP response.
   */
  static open(server: TestServer, roomId: string, token?: string, via: TokenVia = 'subprotocol', extraHeaders: Record<string, string> = {}): Promise<TestSocket> {
    const url = new URL(`${server.url.replace('http', 'ws')}/api/room/ws`);
    url.searchParams.set('roomId', roomId);
    if (token && via === 'query') url.searchParams.set('token', token);
    const protocols = token && via === 'subprotocol' ? [token] : [];
    const headers = { ...(token && via === 'header' ? { Authorization: token } : {}), ...extraHeaders };
    const ws = new WebSocket(url, protocols, { headers });
    const socket = new TestSocket(ws);
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(socket));
      ws.once('unexpected-response', (_request, response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => (text += chunk.toString()));
        response.on('end', () => {
          let body: unknown = text;
          try {
            body = JSON.parse(text);
          } catch {
            // plain text refusal
          }
          reject({ status: response.statusCode, body });
        });
      });
      ws.once('error', (error) => reject(error));
    });
  }

  /** Sends one message (binary protobuf). */
  send(init: Parameters<typeof encodeMessage>[0]): void {
    this.ws.send(encodeMessage(init));
  }

  /**
   * Waits for the next not-yet-consumed message of `type` (optionally matching `where`) and
   * consumes it. Rejects after `timeoutMs`.
   */
  async next(type: MessageType, where: (message: Message) => boolean = () => true, timeoutMs = 3000): Promise<Message> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const index = this.received.findIndex((message) => message.type === type && where(message));
      if (index >= 0) return this.received.splice(index, 1)[0];
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no ${MessageType[type]} within ${timeoutMs} ms; got ${this.received.map((m) => MessageType[m.type]).join(', ')}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Resolves true if no message of `type` arrives within `ms`. */
  async none(type: MessageType, ms = 300): Promise<boolean> {
    await new Promise((resolve) => setTimeout(resolve, ms));
    return !this.received.some((message) => message.type === type);
  }

  isOpen(): boolean {
    return this.ws.readyState === WebSocket.OPEN;
  }

  close(): void {
    this.ws.terminate();
  }
}

/** A way to open a fresh, empty database of one kind, for tests of the data layer itself. */
export interface TestBackend {
  name: 'SQLite' | 'PostgreSQL';
  /** A new empty database (a SQLite file in a temporary folder, or a new database of the test cluster); `close` removes the file. */
  open(): Promise<Connection>;
}

/**
 * SQLite, and PostgreSQL too when the run has one (`npm run test:pg`, TEST_DATABASE_URL): the
 * backends a data-layer test runs on with `describe.each`. `prefix` names the PostgreSQL databases.
 */
export function testBackends(prefix: string): TestBackend[] {
  const backends: TestBackend[] = [
    {
      name: 'SQLite',
      async open() {
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), `${prefix}-`));
        const connection = sqliteConnection(new Database(path.join(dir, 'test.db')));
        return {
          ...connection,
          close: async () => {
            await connection.close();
            fs.rmSync(dir, { recursive: true, force: true });
          },
        };
      },
    },
  ];
  const maintenance = process.env.TEST_DATABASE_URL;
  if (maintenance) {
    backends.push({
      name: 'PostgreSQL',
      async open() {
        const name = `${prefix.replace(/\W/g, '_')}_${process.pid}_${Date.now()}`;
        const admin = new pg.Client({ connectionString: maintenance });
        await admin.connect();
        await admin.query(`CREATE DATABASE ${name}`);
        await admin.end();
        const url = new URL(maintenance);
        url.pathname = `/${name}`;
        return postgresConnection(postgresPool(url.toString(), 2));
      },
    });
  }
  return backends;
}

/** Polls `check` every 100 ms until it is true; throws `timed out waiting for <what>` after `timeoutMs`. */
export async function until(check: () => Promise<boolean> | boolean, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
