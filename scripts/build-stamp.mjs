/**
 * Lets `npm start` skip the client build when nothing it is built from has changed.
 *
 *   node scripts/build-stamp.mjs write   after a build (`npm run build` runs it): records a hash of the inputs
 *   node scripts/build-stamp.mjs check   exits 0 when the export exists and the inputs still hash the same,
 *                                        1 otherwise (prints which), so `check || npm run build` rebuilds only then
 *
 * The inputs: every file under the client's source folders (app, components, hooks, lib, config,
 * public, types), the build configuration files, the locked package versions, and the build-time
 * environment (NEXT_PUBLIC_API_ORIGIN, NEXT_PUBLIC_ICE_SERVERS, NEXT_EXPORT_DIR). The stamp lives in `.next/`, beside Next's
 * own build cache, not in the export, which servers publish.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SOURCE_DIRS = ['app', 'components', 'hooks', 'lib', 'config', 'public', 'types'];
const SOURCE_FILES = ['next.config.mjs', 'tsconfig.json', 'postcss.config.mjs', 'package.json', 'package-lock.json', 'instrumentation-client.ts', 'scripts/html-aliases.mjs', 'scripts/csp.mjs', 'scripts/engine-chunks.mjs', 'scripts/head-scripts-first.mjs', 'scripts/precompress.mjs'];
const ENVIRONMENT = ['NEXT_PUBLIC_API_ORIGIN', 'NEXT_PUBLIC_ICE_SERVERS', 'NEXT_EXPORT_DIR'];
const exportDir = path.join(ROOT, process.env.NEXT_EXPORT_DIR || 'out');
const stampFile = path.join(ROOT, '.next', `export-stamp-${path.basename(exportDir)}.json`);

/** Every input file, relative to the root, in a stable order; tests are not inputs of the build. */
function inputFiles() {
  const files = SOURCE_FILES.filter((file) => existsSync(path.join(ROOT, file)));
  const walk = (dir) => {
    for (const entry of readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
      const relative = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(relative);
      else if (!/\.test\.tsx?$/.test(entry.name)) files.push(relative);
    }
  };
  for (const dir of SOURCE_DIRS) if (existsSync(path.join(ROOT, dir))) walk(dir);
  return files.sort();
}

/** Hex SHA-256 over the inputs' paths and contents and the build-time environment. */
function inputsHash() {
  const hash = createHash('sha256');
  for (const file of inputFiles()) {
    hash.update(`${file}\0`);
    hash.update(readFileSync(path.join(ROOT, file)));
    hash.update('\0');
  }
  for (const name of ENVIRONMENT) hash.update(`${name}=${process.env[name] ?? ''}\0`);
  return hash.digest('hex');
}

const mode = process.argv[2];
if (mode === 'write') {
  mkdirSync(path.dirname(stampFile), { recursive: true });
  writeFileSync(stampFile, JSON.stringify({ hash: inputsHash(), builtAt: new Date().toISOString() }, null, 2));
} else if (mode === 'check') {
  const stamp = existsSync(stampFile) ? JSON.parse(readFileSync(stampFile, 'utf8')) : null;
  if (!existsSync(path.join(exportDir, 'index.html'))) {
    console.log(`The web client is not built yet (${path.relative(ROOT, exportDir)}/): building it once, which takes a minute or two.`);
    process.exit(1);
  }
  if (!stamp || stamp.hash !== inputsHash()) {
    console.log('The web client\'s sources changed since the last build: rebuilding it.');
    process.exit(1);
  }
  console.log(`The web client is up to date (built ${stamp.builtAt}); not rebuilding.`);
} else {
  console.error('usage: node scripts/build-stamp.mjs write|check');
  process.exit(2);
}
