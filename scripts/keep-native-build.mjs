#!/usr/bin/env node
/**
 * Keeps better-sqlite3's compiled addon for the next install on this machine (.ci/run runs it after
 * `npm ci`). better-sqlite3 installs with prebuild-install, which downloads a prebuilt binary from
 * GitHub; GitHub is not reachable here, so every fresh clone compiled SQLite instead: about 2 of the
 * 3 minutes `npm ci` took on 2 cores. prebuild-install looks in npm's cache first
 * (`<npm cache>/_prebuilds/<hash of the URL>-<file name>`, its own cache of downloads), so this
 * script packs the addon that was just built into the tarball prebuild-install would have
 * downloaded, under the name it looks for. The URL names the package version, the Node ABI, the
 * platform, the architecture and the libc, so a different Node or version misses the cache and
 * compiles as before; prebuild-install also loads the unpacked addon before it accepts it.
 *
 * Usage: node scripts/keep-native-build.mjs   (prints what it did; exits 0 even when there is nothing to keep)
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const moduleDir = path.join(root, 'node_modules', 'better-sqlite3');
const addon = path.join('build', 'Release', 'better_sqlite3.node');

if (!existsSync(path.join(moduleDir, addon))) {
  console.log(`keep-native-build: no ${addon} in node_modules/better-sqlite3; nothing to keep`);
  process.exit(0);
}
// prebuild-install (a declared devDependency) as better-sqlite3 resolves it: the copy that reads the cache.
const require = createRequire(path.join(moduleDir, 'package.json'));
const pkg = require('./package.json');
const options = require('prebuild-install/rc')(pkg);
const util = require('prebuild-install/util');
const cached = util.cachedPrebuild(util.getDownloadUrl({ ...options, pkg }));
if (existsSync(cached)) {
  console.log(`keep-native-build: ${path.basename(cached)} already in npm's cache`);
} else {
  mkdirSync(path.dirname(cached), { recursive: true });
  execFileSync('tar', ['-czf', cached, '-C', moduleDir, addon]);
  console.log(`keep-native-build: kept better-sqlite3's addon as ${cached}`);
}
