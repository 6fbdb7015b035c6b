/**
 * A throwaway Redis for the cluster tests: Debian's `redis-server` (REDIS_SERVER overrides the path)
 * on a free port of 127.0.0.1, without persistence, in a temporary directory that `stop()` removes.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { watchChild } from './child';

export interface TestRedis {
  /** `redis://127.0.0.1:<port>` */
  url: string;
  port: number;
  /** The redis-server process's id (for CPU and memory readings in the benchmarks). */
  pid: number;
  /** Stops the server (SIGTERM, SIGKILL after 5 s) and removes its directory. */
  stop(): Promise<void>;
}

/** A port that was free a moment ago. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * Starts `redis-server` on `port` (default: a free one); resolves once it accepts connections.
 * Rejects when it exits first or takes over 10 s.
 */
export async function startRedis(port?: number): Promise<TestRedis> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'synctv-redis-'));
  port ??= await freePort();
  const child = spawn(
    process.env.REDIS_SERVER || 'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, '--protected-mode', 'yes'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  const watched = watchChild(child, (error) => (output += String(error)));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`redis-server did not start:\n${output}`)), 10_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    void watched.exit.then(() => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited before it was ready:\n${output}`));
    });
  });
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    pid: child.pid ?? -1,
    async stop() {
      await watched.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
