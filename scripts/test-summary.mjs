#!/usr/bin/env node
/**
 * Reads the log of `npm test` (`npm run lint`, jest, then Playwright's list reporter, then
 * `npm run size`) and prints the outcome of each, then one closing line `N passed, N failed[, N skipped]`
 * for CI.
 *
 *   lint:       "Lint: eslint and tsc passed" (printed only when both passed; the lint counts as one check)
 *
 *   jest:       "Tests:       1 failed, 2 skipped, 40 passed, 43 total" (and "Test Suites: …")
 *   Playwright: "  12 passed (41.3s)", "  1 failed", "  1 flaky", "  2 skipped", "  1 did not run", "  1 interrupted"
 *   size:       "Size checks: 9 passed, 0 failed" (one check per screen)
 *
 * A jest suite that fails before running any test (e.g. a syntax error) counts as one failure,
 * and so does a Playwright test that was interrupted or did not run.
 * Usage: node scripts/test-summary.mjs <log file>
 */
import { readFileSync } from 'node:fs';

const log = readFileSync(process.argv[2], 'utf8').replace(/\x1b\[[0-9;]*m/g, '');
const lines = log.split(/\r?\n/);

function countsOf(text) {
  const counts = {};
  for (const [, n, kind] of text.matchAll(/(\d+) (passed|failed|skipped|todo|flaky|did not run|interrupted|total)/g)) {
    counts[kind] = (counts[kind] ?? 0) + Number(n);
  }
  return counts;
}

const jestTests = countsOf(lines.filter((l) => /^Tests:\s/.test(l)).join('\n'));
const jestSuites = countsOf(lines.filter((l) => /^Test Suites:\s/.test(l)).join('\n'));
const playwright = countsOf(
  lines.filter((l) => /^\s+\d+ (passed|failed|flaky|skipped|did not run|interrupted)( \(.*\))?\s*$/.test(l)).join('\n'),
);

const jestFailed = Math.max(jestTests.failed ?? 0, jestSuites.failed ?? 0);
const jest = { passed: jestTests.passed ?? 0, failed: jestFailed, skipped: (jestTests.skipped ?? 0) + (jestTests.todo ?? 0) };
const e2e = {
  passed: (playwright.passed ?? 0) + (playwright.flaky ?? 0),
  failed: (playwright.failed ?? 0) + (playwright.interrupted ?? 0) + (playwright['did not run'] ?? 0),
  skipped: playwright.skipped ?? 0,
};

// `npm run size` runs last; its line is missing when an earlier step failed (the && chain stopped).
const sizeLines = lines.filter((l) => /^Size checks:\s/.test(l));
const sizeCounts = countsOf(sizeLines.join('\n'));
const size = sizeLines.length ? { passed: sizeCounts.passed ?? 0, failed: sizeCounts.failed ?? 0, skipped: 0 } : null;

// `npm run lint` runs first and prints its line only when ESLint and tsc both passed.
const lintPassed = lines.some((l) => /^Lint: eslint and tsc passed/.test(l));
const lint = { passed: lintPassed ? 1 : 0, failed: lintPassed ? 0 : 1, skipped: 0 };

const line = (c) => `${c.passed} passed, ${c.failed} failed${c.skipped ? `, ${c.skipped} skipped` : ''}`;
console.log(`lint (eslint, tsc): ${lintPassed ? 'passed' : 'failed or did not run'}`);
console.log(`unit (jest): ${line(jest)}`);
console.log(`e2e (playwright): ${line(e2e)}${playwright.flaky ? ` (${playwright.flaky} flaky)` : ''}`);
console.log(`size (npm run size): ${size ? line(size) : 'did not run'}`);
const sizeOrNone = size ?? { passed: 0, failed: 0, skipped: 0 };
console.log(
  line({
    passed: lint.passed + jest.passed + e2e.passed + sizeOrNone.passed,
    failed: lint.failed + jest.failed + e2e.failed + sizeOrNone.failed,
    skipped: jest.skipped + e2e.skipped,
  }),
);
