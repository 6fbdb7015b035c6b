/** @jest-environment node */
/**
 * What `npm test` needs outside npm (scripts/prerequisites.mjs): on a machine without it, it stops at
 * once and prints the exact command that installs it, and what each program is for.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

it('names every missing program with its use, and the one apt-get command that installs them', () => {
  const emptyPath = mkdtempSync(path.join(os.tmpdir(), 'no-programs-'));
  const run = spawnSync(process.execPath, [path.join(__dirname, 'prerequisites.mjs'), '--no-install'], {
    env: { PATH: emptyPath, CHROMIUM_PATH: path.join(emptyPath, 'chromium'), CHROMIUM_HEADLESS_SHELL_PATH: path.join(emptyPath, 'chromium-headless-shell') } as unknown as NodeJS.ProcessEnv,
    encoding: 'utf8',
  });
  expect(run.status).toBe(1);
  for (const line of ['Chromium, for the end-to-end tests', "Chromium's headless shell, for the parallel end-to-end project", 'ffmpeg, for the live tests', 'redis-server, for the cluster tests', 'python3, for the evening tests']) expect(run.stderr).toContain(line);
  expect(run.stderr).toMatch(/sudo apt-get install -y --no-install-recommends chromium chromium-headless-shell ffmpeg redis-server .*python3\n/);
  expect(run.stderr).toContain('`npm run test:quick`');
});
