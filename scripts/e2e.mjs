#!/usr/bin/env node
/**
 * Runs the end-to-end tests as CI does: Playwright's `parallel` project (two workers unless E2E_WORKERS says otherwise; playwright.config.ts), then the
 * `solo` project on one (playwright.config.ts says which files are which and why), always both, so
 * that a failure in the first still leaves the results of the second. Exits non-zero when either
 * failed. Extra arguments go to both runs (e.g. `--grep sync`); a run left with no tests passes.
 * Each project keeps its own output folder (test-results/e2e/<project>), so the second run does not
 * clear the first one's traces.
 * Usage: node scripts/e2e.mjs [playwright args]
 */
import { spawnSync } from 'node:child_process';

const args = process.argv.slice(2);
let failed = false;
for (const project of ['parallel', 'solo']) {
  const run = spawnSync('npx', ['playwright', 'test', `--project=${project}`, '--no-deps', '--pass-with-no-tests', ...args], { stdio: 'inherit' });
  if (run.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
