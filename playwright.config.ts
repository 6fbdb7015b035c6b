import { defineConfig, devices } from '@playwright/test';
import { chromiumLaunchOptions, headlessShellLaunchOptions } from './e2e/support/chromium';

/** The spec files of the `solo` project (see below). */
const SOLO = /[\\/](sync|cluster|reconnect|room-admin|keyboard|player|formats|hall|proxy|autoplay|phone|dev-server|evening|vendors|vendors-emby|vendors-bilibili|convert|engines)\.spec\.ts$/;

const browser = { ...devices['Desktop Chrome'], launchOptions: chromiumLaunchOptions };
/** The `parallel` project's browser: Chromium's headless shell, a third faster (e2e/support/chromium.ts). */
const shell = { ...devices['Desktop Chrome'], launchOptions: headlessShellLaunchOptions };

// The companion servers of the tests (in the workers and as child processes) hash passwords at
// bcrypt's lowest cost (server/passwords.ts bcryptCost): 2 ms a sign-up or sign-in instead of 72.
process.env.BCRYPT_COST ??= '4';

/**
 * Workers of the `parallel` project: E2E_WORKERS, else 2. One worker leaves this 2-core machine
 * idle about a third of the time (a test waits on its server, its mail, a child process), so two
 * run the project in 9.7 min against 11.6-12.5 with one (2026-11-27; docs/testing.md), each test
 * about 1.6 times slower than alone, none near its timeout. E2E_WORKERS=1 runs them one by one.
 */
const PARALLEL_WORKERS = Number(process.env.E2E_WORKERS) > 0 ? Number(process.env.E2E_WORKERS) : 2;

/**
 * End-to-end tests: Debian's Chromium (never a downloaded browser; its headless shell for `parallel`) against the real companion server,
 * which each worker starts itself on a random port (e2e/fixtures.ts) over the exported `out/`.
 * `npm run test:e2e` builds `out/` first.
 *
 * Two projects. `parallel`: screens, forms, accounts, the admin console, the axe sweep and the
 * serving modes, whose assertions wait for conditions, run test by test on PARALLEL_WORKERS. `solo`:
 * whatever plays video in two browsers, measures playback or compiles (`next dev`) runs on one
 * worker with nothing beside it: CI has 2 cores, and the sync tests measure 0.1 s tolerances that a
 * neighbour decoding video or running axe would make depend on the neighbour. `npm run test:e2e`
 * (scripts/e2e.mjs) runs `parallel`, then `solo`, always both. A plain `npx playwright test` would
 * run the two side by side (a project dependency would keep them apart, but it also runs the whole
 * of `parallel` before a single `solo` file asked for by name), so the full suite goes through the
 * script; one file or a `--grep` runs directly.
 * No retries: a sync test that passes only on a second try is a product problem to see, not hide.
 * Autoplay: headless Chromium (156) lets any page play with sound, whatever `--autoplay-policy`
 * says, so the default is kept and the desktop rule is emulated where it matters (autoplay.spec.ts);
 * the sync tests accept a muted viewer only together with the app's muted-fallback notice.
 */
export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results/e2e',
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  workers: 2,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    // A failing test keeps its trace (actions, console, network, the error's source) and a screenshot,
    // plus the page's aria snapshot in error-context.md. No screencast and, unless
    // E2E_TRACE_SNAPSHOTS=1, no DOM snapshot of each step: the screencast cost a quarter of the run,
    // the DOM snapshots a fifth of what was left (five parallel spec files on two workers: 105 s with
    // them, 86 s without, 87 s with no trace at all; 2026-11-27, docs/testing.md).
    trace: { mode: 'retain-on-failure', screenshots: false, snapshots: process.env.E2E_TRACE_SNAPSHOTS === '1' },
    screenshot: 'only-on-failure',
    actionTimeout: 10_000,
    navigationTimeout: 20_000,
  },
  projects: [
    { name: 'parallel', testIgnore: SOLO, fullyParallel: true, workers: PARALLEL_WORKERS, outputDir: 'test-results/e2e/parallel', use: shell },
    { name: 'solo', testMatch: SOLO, workers: 1, outputDir: 'test-results/e2e/solo', use: browser },
  ],
});
