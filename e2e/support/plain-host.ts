import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

/** A running `python3 -m http.server`. `url` has no trailing slash, e.g. `http://127.0.0.1:41234`. */
export interface PlainHost {
  url: string;
  close(): Promise<void>;
}

/**
 * Serves `rootDir` with Python's own `http.server` on `host` (a loopback address) at a free port: the way most people
 * share a file from their machine, and the host the evening tests need (docs/hosting.md). It answers
 * every GET with the whole file (200, no `Accept-Ranges`, a Range header ignored), so a browser
 * cannot seek an MP4 beyond what it has downloaded, and sends no CORS headers, so hls.js, mpegts.js
 * and dash.js cannot read it from another origin. Rejects if Python does not start within 10 s.
 */
export async function startPlainHost(rootDir: string, host = '127.0.0.1'): Promise<PlainHost> {
  // -u: unbuffered, so the "Serving HTTP on … port N" line arrives at once.
  const child = spawn('python3', ['-u', '-m', 'http.server', '--bind', host, '--directory', rootDir, '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('python3 -m http.server did not start within 10 s')), 10_000);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`python3 -m http.server exited with ${code}`));
    });
    createInterface({ input: child.stdout }).on('line', (line) => {
      const match = /port (\d+)/.exec(line);
      if (!match) return;
      clearTimeout(timer);
      resolve(Number(match[1]));
    });
  });
  // Its request log goes to stderr; nobody reads it, so it must not fill the pipe.
  child.stderr.resume();
  child.removeAllListeners('exit');
  return {
    url: `http://${host}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
