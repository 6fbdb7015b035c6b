import { defineConfig, devices } from '@playwright/test';
import { chromiumLaunchOptions } from './e2e/support/chromium';

/**
 * End-to-end tests: Debian's Chromium (never a downloaded browser) against the real companion server,
 * which each worker starts itself on a random port (e2e/fixtures.ts) over the exported `out/`.
 * `npm run test:e2e` builds `out/` first.
 *
 * One worker: CI has 2 cores, and the two-browser sync test measures 0.3 s tolerances; a second
 * worker decoding video at the same time would make those timings depend on the neighbour.
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
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    actionTimeout: 10_000,
    navigationTimeout: 20_000,
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        launchOptions: chromiumLaunchOptions,
      },
    },
  ],
});
