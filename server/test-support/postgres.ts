/**
 * A throwaway PostgreSQL for the tests: Debian's server binaries (PG_BINDIR overrides the folder,
 * else the newest `/usr/lib/postgresql/<version>/bin`) with a fresh cluster in a temporary
 * directory, on a free port of 127.0.0.1, without durability (fsync off: nothing here outlives the
 * tests). PostgreSQL refuses to run as root, so under root the cluster belongs to, and the server
 * runs as, the `postgres` user that Debian's package creates. `stop()` ends it and removes the folder.
 */
import { execFileSync, spawn, type SpawnOptions } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { watchChild } from './child';
import { freePort } from './redis';

export interface TestPostgres {
  /** `postgres://synctv@127.0.0.1:<port>/postgres`: the cluster's maintenance database. */
  url: string;
  port: number;
  /** The postgres process's id. */
  pid: number;
  /** The URL of database `name` of this cluster (see `createDatabase`). */
  urlOf(name: string): string;
  /**
   * Stops the server (a fast shutdown) keeping its data, runs `whileDown`, then starts it again on
   * the same port and data; resolves once it accepts connections again (also when `whileDown` rejects,
   * which it then passes on).
   */
  downWhile(whileDown: () => Promise<void>): Promise<void>;
  /** Stops the server (a fast shutdown: open connections are ended) and removes its folder. */
  stop(): Promise<void>;
}

/** The folder of Debian's PostgreSQL programs. Throws when none is installed. */
export function postgresBinDir(): string {
  if (process.env.PG_BINDIR) return process.env.PG_BINDIR;
  const root = '/usr/lib/postgresql';
  const versions = fs.existsSync(root) ? fs.readdirSync(root).filter((name) => /^\d+$/.test(name)) : [];
  if (versions.length === 0) throw new Error(`no PostgreSQL under ${root}: install Debian's postgresql (.ci/run does)`);
  return path.join(root, String(Math.max(...versions.map(Number))), 'bin');
}

/** Whether PostgreSQL's programs are installed (the tests that need them say so instead of failing obscurely). */
export function hasPostgres(): boolean {
  try {
    return fs.existsSync(path.join(postgresBinDir(), 'postgres'));
  } catch {
    return false;
  }
}

/** The user and group the server must run as: `postgres` under root, else the current user. */
function runAs(): { uid: number; gid: number } | null {
  if (process.getuid?.() !== 0) return null;
  const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
  const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
  return { uid, gid };
}

/**
 * Creates a cluster (`initdb`, user `synctv`, trust authentication on loopback, UTF-8, C locale) and
 * starts `postgres` on it; resolves once it accepts connections. Rejects when a program fails or the
 * server exits first or takes over 30 s.
 */
export async function startPostgres(): Promise<TestPostgres> {
  const bin = postgresBinDir();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'synctv-postgres-'));
  const owner = runAs();
  if (owner) fs.chownSync(dir, owner.uid, owner.gid);
  const as: SpawnOptions = owner ? { uid: owner.uid, gid: owner.gid } : {};
  const data = path.join(dir, 'data');
  execFileSync(path.join(bin, 'initdb'), ['-D', data, '-U', 'synctv', '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync'], {
    ...(as as object),
    stdio: 'pipe',
  });
  const port = await freePort();
  const start = () => spawnPostgres(bin, data, dir, port, as);
  let server = await start();
  const urlOf = (name: string) => `postgres://synctv@127.0.0.1:${port}/${name}`;
  return {
    url: urlOf('postgres'),
    port,
    get pid() {
      return server.pid;
    },
    urlOf,
    async downWhile(whileDown) {
      await server.stop();
      try {
        await whileDown();
      } finally {
        server = await start();
      }
    },
    async stop() {
      await server.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Starts `postgres` on the cluster in `data`; resolves once it accepts connections, with its pid and how to stop it (fast shutdown). */
async function spawnPostgres(bin: string, data: string, dir: string, port: number, as: SpawnOptions): Promise<{ pid: number; stop(): Promise<void> }> {
  const child = spawn(
    path.join(bin, 'postgres'),
    ['-D', data, '-p', String(port), '-k', dir, '-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'],
    { ...as, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  const watched = watchChild(child, (error) => (output += String(error)));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`postgres did not start:\n${output}`)), 30_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('database system is ready to accept connections')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    void watched.exit.then(() => {
      clearTimeout(timer);
      reject(new Error(`postgres exited before it was ready:\n${output}`));
    });
  });
  return {
    pid: child.pid ?? -1,
    async stop() {
      // SIGINT is PostgreSQL's fast shutdown; SIGTERM would wait for every client to leave.
      if (!watched.exited()) child.kill('SIGINT');
      await watched.stop();
    },
  };
}
