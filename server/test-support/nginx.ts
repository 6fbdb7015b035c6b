/**
 * A throwaway nginx for the deployment tests: Debian's `nginx` (NGINX overrides the path) running a
 * config file of `deploy/` with its addresses replaced, in the foreground, with its pid file, logs
 * and temporary files in a temporary directory that `stop()` removes.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { watchChild } from './child';
import { freePort } from './redis';

export interface TestNginx {
  /** `http://127.0.0.1:<port>` */
  url: string;
  port: number;
  /** Everything nginx wrote to stderr and its error log. */
  output(): string;
  stop(): Promise<void>;
}

/**
 * Starts nginx with `configFile`, where each key of `replace` (e.g. `listen 80;`) is replaced by its
 * value; `{port}` in a value is the port nginx is given. Resolves once it answers HTTP.
 */
export async function startNginx(configFile: string, replace: Record<string, string>): Promise<TestNginx> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'synctv-nginx-'));
  fs.mkdirSync(path.join(dir, 'logs'));
  const port = await freePort();
  let config = fs.readFileSync(configFile, 'utf8');
  for (const [from, to] of Object.entries(replace)) {
    if (!config.includes(from)) throw new Error(`${configFile} has no "${from}"`);
    config = config.split(from).join(to.replaceAll('{port}', String(port)));
  }
  // Temporary files under the prefix, not /var/lib/nginx.
  config = config.replace(/http \{/, `http {\n    client_body_temp_path ${dir}/body;\n    proxy_temp_path ${dir}/proxy;\n    access_log ${dir}/logs/access.log;`);
  const file = path.join(dir, 'nginx.conf');
  fs.writeFileSync(file, config);
  const child = spawn(process.env.NGINX || 'nginx', ['-p', dir, '-c', file, '-g', `daemon off; pid ${dir}/nginx.pid; error_log ${dir}/logs/error.log warn;`], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const watched = watchChild(child, (error) => (stderr += String(error)));
  const output = () => {
    let log = '';
    try {
      log = fs.readFileSync(path.join(dir, 'logs', 'error.log'), 'utf8');
    } catch {
      // not written yet
    }
    return stderr + log;
  };
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (watched.exited()) throw new Error(`nginx exited:\n${output()}`);
    try {
      await fetch(`${url}/healthz`);
      break;
    } catch {
      if (Date.now() > deadline) throw new Error(`nginx did not answer:\n${output()}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  return {
    url,
    port,
    output,
    async stop() {
      await watched.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
