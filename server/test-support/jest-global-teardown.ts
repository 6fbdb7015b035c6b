/** Jest's global teardown: stops the PostgreSQL that ./jest-global-setup.ts started, if any. */
export default async function globalTeardown(): Promise<void> {
  await globalThis.synctvTestPostgres?.stop();
}
