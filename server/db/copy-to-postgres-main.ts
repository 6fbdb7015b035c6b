/**
 * `npm run db:copy-to-postgres`: copies the SQLite file of `DATA_DIR` (default `./data`) into the
 * empty PostgreSQL database of `DATABASE_URL` (docs/deployment.md "Storage"). Stop the server
 * first; start it with `DATABASE_URL` afterwards. Exits 1, having written nothing, on any failure.
 */
import { copyToPostgres } from './copy-to-postgres';
import { isPostgresUrl } from './index';

async function main(): Promise<void> {
  const dataDir = process.env.DATA_DIR || './data';
  const databaseUrl = process.env.DATABASE_URL?.trim();
  if (!isPostgresUrl(databaseUrl)) throw new Error('set DATABASE_URL to the new PostgreSQL database (postgres://user:password@host:5432/synctv)');
  const copied = await copyToPostgres(dataDir, databaseUrl);
  console.log(`copied ${Object.entries(copied).map(([table, rows]) => `${table} ${rows}`).join(', ')}`);
}

main().catch((error: unknown) => {
  console.error(`nothing copied: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
