/**
 * CLI entry of the companion server (`npm start`). Environment: PORT (default 8080), HOST (default
 * 0.0.0.0), DATA_DIR (default ./data), ROOT_PASSWORD (first start only), WEB_DIR (default ./out),
 * LOG_LEVEL (silent, error, warn (default), info: one line per request, debug), PROXY_ALLOW_ADDRESSES
 * (comma-separated IP addresses the movie proxy may reach although they are private).
 */
import { LOG_LEVELS, startServer, type LogLevel } from './app';

async function main(): Promise<void> {
  const port = Number(process.env.PORT ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be 0-65535, got ${process.env.PORT}`);
  const logLevel = (process.env.LOG_LEVEL || 'warn').toLowerCase() as LogLevel;
  if (!LOG_LEVELS.includes(logLevel)) throw new Error(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got ${process.env.LOG_LEVEL}`);
  const server = await startServer({
    port,
    host: process.env.HOST || '0.0.0.0',
    dataDir: process.env.DATA_DIR || './data',
    webDir: process.env.WEB_DIR || './out',
    rootPassword: process.env.ROOT_PASSWORD || undefined,
    proxyAllowAddresses: (process.env.PROXY_ALLOW_ADDRESSES ?? '')
      .split(',')
      .map((address) => address.trim())
      .filter(Boolean),
    logLevel,
  });
  console.log(`SyncTV companion server: http://localhost:${server.port}/web/`);

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: shutting down`);
    server.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
