/**
 * @jest-environment node
 *
 * `npm ci` on a supported Node prints no engine warnings and runs no unreviewed install script:
 * every locked package accepts the lowest version of each range in package.json's `engines`, and
 * every locked package with an install script has an `allowScripts` entry (true when its script is
 * needed, false when it is not; docs/deployment.md "Install"). Read from package-lock.json, so the test fails
 * when an upgrade brings a package that needs a newer Node or a new install script.
 */
import fs from 'node:fs';
import path from 'node:path';
import semver from 'semver';

interface LockedPackage {
  version?: string;
  optional?: boolean;
  hasInstallScript?: boolean;
  engines?: { node?: string } | string[];
}

const root = path.resolve(__dirname, '..');
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  engines: { node: string };
  allowScripts?: Record<string, boolean>;
};
const lock = JSON.parse(fs.readFileSync(path.join(root, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockedPackage> };

/** `node_modules/a/node_modules/@b/c` → `@b/c`. */
const nameOf = (key: string) => key.slice(key.lastIndexOf('node_modules/') + 'node_modules/'.length);

/** The packages a Linux install holds: other platforms' optional builds are skipped by npm. */
const installed = Object.entries(lock.packages).filter(([key, entry]) => key !== '' && !(entry.optional && /(darwin|win32|android|freebsd|openbsd|sunos|aix|wasm32|arm64|aarch64|armv7|musl|riscv|ppc|s390|loong|ia32)/.test(key)));

/** The lowest version each range of `engines.node` accepts, e.g. `^20.19.0 || ^22.13.0` → 20.19.0, 22.13.0. */
const lowestSupported = manifest.engines.node.split('||').map((range) => semver.minVersion(range.trim())!.version);

test.each(lowestSupported)('every locked package accepts Node %s (no EBADENGINE on a supported Node)', (version) => {
  const refusing = installed
    .filter(([, entry]) => !Array.isArray(entry.engines) && entry.engines?.node && !semver.satisfies(version, entry.engines.node))
    .map(([key, entry]) => `${nameOf(key)}@${entry.version} wants node ${(entry.engines as { node: string }).node}`);
  expect(refusing).toEqual([]);
});

test('every locked package with an install script is allowed or denied in allowScripts', () => {
  const allowed = manifest.allowScripts ?? {};
  const unreviewed = installed
    .filter(([key, entry]) => entry.hasInstallScript && !(nameOf(key) in allowed) && !(`${nameOf(key)}@${entry.version}` in allowed))
    .map(([key, entry]) => `${nameOf(key)}@${entry.version}`);
  expect(unreviewed).toEqual([]);
});
