/**
 * Runs `startServer` in a child process for the server tests. Options come as JSON in the
 * environment variable SERVE_OPTIONS; the process prints one line `READY <json {url, port}>` when
 * listening and closes cleanly on SIGTERM.
 *
 * Why a child process: jose (JWT) ships only as an ES module, which jest's CommonJS runtime cannot
 * load, while tsx (what `npm start` uses) can. A real process also lets the tests restart the
 * server on the same data directory and check that it survives bad input.
 */
import { startServer, type StartServerOptions } from '../app';

async function run(): Promise<void> {
  const options = JSON.parse(process.env.SERVE_OPTIONS ?? '{}') as StartServerOptions;
  // A given port (a restart behind a balancer that knows the old one), else any free one.
  const server = await startServer({ ...options, port: options.port ?? 0, host: '127.0.0.1' });
  process.stdout.write(`READY ${JSON.stringify({ url: server.url, port: server.port })}\n`);
  process.on('SIGTERM', () => {
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}

run().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
