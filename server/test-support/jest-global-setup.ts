/**
 * Jest's global setup: with TEST_DATABASE=postgres (`npm run test:pg`), starts one throwaway
 * PostgreSQL (./postgres.ts) for the whole run and hands its maintenance URL to the test processes
 * as TEST_DATABASE_URL; the harness (./harness.ts `databaseFor`) gives each data directory its own
 * database there. Without it, nothing: the server tests run on SQLite.
 */
import { startPostgres, type TestPostgres } from './postgres';

declare global {
  var synctvTestPostgres: TestPostgres | undefined;
}

export default async function globalSetup(): Promise<void> {
  if (process.env.TEST_DATABASE !== 'postgres') return;
  const postgres = await startPostgres();
  globalThis.synctvTestPostgres = postgres;
  process.env.TEST_DATABASE_URL = postgres.url;
}
