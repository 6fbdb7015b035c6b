import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

const repoRoot = path.resolve(__dirname, '..', '..');

/** The companion server run as people run it (`server/main.ts`), in a child process. */
export interface CompanionProcess {
  /** `http://127.0.0.1:<port>`. */
  origin: string;
  /** Everything the process printed so far (stdout and stderr). */
  log(): string;
  stop(): Promise<void>;
}

/**
 * Starts `server/main.ts` (through tsx, as `npm start` does) on a free port with a fresh data
 * directory, serving `out/`, with `env` added (e.g. SMTP_HOST). Resolves once it prints its address.
 */
export async function startCompanionProcess(env: Record<string, string> = {}): Promise<CompanionProcess> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'synctv-main-'));
  const child: ChildProcess = spawn(process.execPath, [path.join(repoRoot, 'node_modules/tsx/dist/cli.mjs'), 'server/main.ts'], {
    cwd: repoRoot,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, WEB_DIR: path.join(repoRoot, 'out'), ROOT_PASSWORD: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const origin = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server did not start:\n${output}`)), 30_000);
    child.once('exit', (code) => reject(new Error(`the server exited (${code}):\n${output}`)));
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const port = /http:\/\/localhost:(\d+)\/web\//.exec(output)?.[1];
      if (port) {
        clearTimeout(timer);
        resolve(`http://127.0.0.1:${port}`);
      }
    });
  });
  return {
    origin,
    log: () => output,
    async stop() {
      child.kill('SIGTERM');
      await exited;
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
