#!/usr/bin/env node
/**
 * What `npm test` needs that npm does not install (docs/testing.md "What the tests need"): Debian's
 * Chromium (with its headless shell), Firefox ESR and WebKitGTK (with Xvfb and GStreamer's decoders; Playwright never
 * downloads a browser here), ffmpeg, redis-server, PostgreSQL, nginx, coturn and python3, each for
 * the tests that start it. Run before `npm test` (its `pretest`) and by
 * `.ci/run`. Whatever is missing is installed with apt-get when that can be done without a prompt
 * (root, or passwordless sudo, on Debian or Ubuntu); otherwise it stops at once and prints the exact
 * command to run. `npm run test:quick` needs none of them.
 *
 * Usage: node scripts/prerequisites.mjs [--no-install]   (exit 0: all there; 1: something missing)
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

/** True when `command` is an executable on the PATH. */
function onPath(command) {
  return (process.env.PATH ?? '').split(path.delimiter).some((dir) => {
    try {
      accessSync(path.join(dir, command), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/** True when Debian's PostgreSQL server binary is installed (`/usr/lib/postgresql/<version>/bin/postgres`). */
function postgresInstalled() {
  try {
    return readdirSync('/usr/lib/postgresql').some((version) => existsSync(`/usr/lib/postgresql/${version}/bin/postgres`));
  } catch {
    return false;
  }
}

/** True when GStreamer's plugin `file` is installed (Debian's multiarch plugin folder). */
function gstreamerPlugin(file) {
  return existsSync(`/usr/lib/x86_64-linux-gnu/gstreamer-1.0/${file}`);
}

/** Each program: what it is, its Debian package, whether it is there, and which tests need it. */
export const NEEDS = [
  { what: 'Chromium', pkg: 'chromium', present: () => existsSync(process.env.CHROMIUM_PATH || '/usr/bin/chromium'), forTests: 'the end-to-end tests and the size budgets (or set CHROMIUM_PATH)' },
  { what: "Chromium's headless shell", pkg: 'chromium-headless-shell', present: () => existsSync(process.env.CHROMIUM_HEADLESS_SHELL_PATH || '/usr/bin/chromium-headless-shell'), forTests: 'the parallel end-to-end project, which needs no window (or set CHROMIUM_HEADLESS_SHELL_PATH)' },
  { what: 'ffmpeg', pkg: 'ffmpeg', present: () => onPath('ffmpeg'), forTests: 'the live tests, which push RTMP' },
  { what: 'redis-server', pkg: 'redis-server', present: () => onPath('redis-server'), forTests: 'the cluster tests' },
  { what: 'PostgreSQL', pkg: 'postgresql', present: postgresInstalled, forTests: 'the server tests on PostgreSQL' },
  { what: 'nginx', pkg: 'nginx', present: () => onPath('nginx') || existsSync('/usr/sbin/nginx'), forTests: 'the cluster test behind nginx' },
  { what: 'coturn', pkg: 'coturn', present: () => onPath('turnserver') || existsSync('/usr/bin/turnserver'), forTests: 'the TURN test' },
  { what: 'Firefox ESR', pkg: 'firefox-esr', present: () => existsSync(process.env.FIREFOX_PATH || '/usr/bin/firefox-esr'), forTests: 'the cross-engine journeys (e2e/engines.spec.ts)' },
  { what: "WebKitGTK's WebDriver and MiniBrowser", pkg: 'webkit2gtk-driver', present: () => existsSync('/usr/bin/WebKitWebDriver') && existsSync('/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser'), forTests: 'the cross-engine journeys (WebKit, Safari\'s engine)' },
  { what: 'Xvfb', pkg: 'xvfb', present: () => existsSync('/usr/bin/Xvfb'), forTests: "WebKitGTK's window in the cross-engine journeys" },
  { what: "GStreamer's libav decoders", pkg: 'gstreamer1.0-libav', present: () => gstreamerPlugin('libgstlibav.so'), forTests: 'H.264 and AAC in WebKitGTK' },
  { what: "GStreamer's bad plugins", pkg: 'gstreamer1.0-plugins-bad', present: () => gstreamerPlugin('libgstdebugutilsbad.so'), forTests: "WebKitGTK's MSE (hls.js) and the fake audio sink that stands for speakers" },
  { what: "GStreamer's OpenGL plugins", pkg: 'gstreamer1.0-gl', present: () => gstreamerPlugin('libgstopengl.so'), forTests: "WebKitGTK's video sink" },
  { what: 'python3', pkg: 'python3', present: () => onPath('python3'), forTests: 'the evening tests (python3 -m http.server as the plain media host)' },
];

/** Whether apt-get can run here without a prompt: root, or sudo that asks for no password. */
function canInstall() {
  if (!onPath('apt-get')) return false;
  if (process.getuid?.() === 0) return true;
  return onPath('sudo') && spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore' }).status === 0;
}

function install(packages) {
  const asRoot = process.getuid?.() === 0 ? [] : ['sudo', '-n'];
  const run = (args) => execFileSync(asRoot[0] ?? args[0], asRoot.length ? [...asRoot.slice(1), ...args] : args.slice(1), { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  run(['apt-get', 'update', '-q']);
  run(['apt-get', 'install', '-y', '-q', '--no-install-recommends', ...packages]);
}

function main() {
  const missing = NEEDS.filter((need) => !need.present());
  if (missing.length === 0) return 0;
  const packages = missing.map((need) => need.pkg);
  if (!process.argv.includes('--no-install') && canInstall()) {
    console.log(`--- installing what the tests need from Debian: ${packages.join(' ')}`);
    install(packages);
    const still = NEEDS.filter((need) => !need.present());
    if (still.length === 0) return 0;
    missing.splice(0, missing.length, ...still);
  }
  console.error('npm test needs programs that npm does not install:');
  for (const need of missing) console.error(`  - ${need.what}, for ${need.forTests}`);
  console.error(`Install them (Debian, Ubuntu) with:\n  sudo apt-get install -y --no-install-recommends ${missing.map((need) => need.pkg).join(' ')}`);
  console.error('`npm run test:quick` (lint and the unit tests that start nothing) needs none of them.');
  return 1;
}

process.exitCode = main();
