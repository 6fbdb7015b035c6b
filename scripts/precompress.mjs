/**
 * Runs last in `npm run build` (after the documents have their final text): writes a brotli
 * (quality 11) and a gzip (level 9) copy next to every text file of the export that compression
 * shrinks: `a.js.br`, `a.js.gz`. The companion server serves them to browsers that accept them
 * (@fastify/static `preCompressed`, server/routes/web.ts) instead of compressing each answer on
 * the fly at brotli's fast quality 4: the hall's scripts come down about 10 % smaller on a phone and
 * cost the server no CPU. nginx serves them with `gzip_static on` (and the brotli module's
 * `brotli_static on`); a server that does not know them ignores the extra files.
 *
 * Usage: `node scripts/precompress.mjs [exportDir]` (default NEXT_EXPORT_DIR, else `out`). Running it
 * again rewrites the copies. Without `exportDir` (as `npm run build` runs it) the compressed bytes
 * are kept in `.next/cache/precompress/` by content and reused by the next build: of the export's
 * 183 files most are content-hashed chunks that a build leaves as they were, and brotli's quality
 * 11 took 17 s of the build here. Exits 1 when the folder has no index.html.
 */
import { createHash, randomUUID } from 'node:crypto';
import { access, mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);
/** Text files worth compressing; smaller ones gain nothing over a packet. */
const TEXT = /\.(js|mjs|css|html|txt|svg|json|map|wasm)$/;
const MIN_BYTES = 1024;

/**
 * Writes `bytes` to `file` under a temporary name and renames it into place, so that a lane
 * compressing a file with the same bytes never reads it half written.
 */
async function keep(file, bytes) {
  const temporary = `${file}.${process.pid}-${randomUUID()}.tmp`;
  await writeFile(temporary, bytes);
  await rename(temporary, file);
}

/**
 * Brotli (quality 11) and gzip (level 9) of `data`, from `cacheDir` when an earlier build compressed
 * the same bytes (the file is named by their SHA-256), else compressed and put there. The hashed
 * chunks of the export mostly stay the same from one build to the next; quality 11 is what takes
 * the time. With no `cacheDir`, compresses every time.
 */
async function compressCached(data, cacheDir, cache) {
  const key = cacheDir && createHash('sha256').update(data).digest('hex');
  if (key) {
    cache.used.add(key);
    try {
      const pair = await Promise.all([readFile(path.join(cacheDir, `${key}.br`)), readFile(path.join(cacheDir, `${key}.gz`))]);
      cache.hits += 1;
      return pair;
    } catch {
      // Not compressed before: do it below.
    }
  }
  const pair = await Promise.all([
    brotli(data, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length } }),
    gzip(data, { level: 9 }),
  ]);
  if (key) await Promise.all([keep(path.join(cacheDir, `${key}.br`), pair[0]), keep(path.join(cacheDir, `${key}.gz`), pair[1])]);
  return pair;
}

/**
 * Writes the `.br` and `.gz` copies below `exportDir`; a copy that would not be smaller than the
 * file is not written. `cacheDir` (optional) keeps the compressed bytes between builds, keyed by
 * content; what this build did not use is removed from it. Returns the number of files, the bytes
 * before and after brotli, and how many came from the cache.
 */
export async function precompress(exportDir, cacheDir) {
  let files = 0;
  let raw = 0;
  let compressed = 0;
  const cache = { used: new Set(), hits: 0 };
  if (cacheDir) await mkdir(cacheDir, { recursive: true });
  const entries = await readdir(exportDir, { recursive: true, withFileTypes: true });
  const queue = entries.filter((entry) => entry.isFile() && TEXT.test(entry.name)).map((entry) => path.join(entry.parentPath, entry.name));
  const compressOne = async (file) => {
    const data = await readFile(file);
    if (data.length < MIN_BYTES) return;
    const [br, gz] = await compressCached(data, cacheDir, cache);
    if (br.length < data.length) await writeFile(`${file}.br`, br);
    if (gz.length < data.length) await writeFile(`${file}.gz`, gz);
    files += 1;
    raw += data.length;
    compressed += Math.min(br.length, data.length);
  };
  // zlib's async calls run on libuv's thread pool, so files compressed side by side use every core:
  // on 2 cores the export's 183 files took 34 s one after another and take 17 s this way. The biggest go first, so that
  // the last one to finish is a small one.
  const sizes = new Map(await Promise.all(queue.map(async (file) => [file, (await stat(file)).size])));
  queue.sort((a, b) => sizes.get(b) - sizes.get(a));
  const lanes = Array.from({ length: Math.max(1, availableParallelism()) }, async () => {
    for (let file = queue.shift(); file; file = queue.shift()) await compressOne(file);
  });
  await Promise.all(lanes);
  if (cacheDir) {
    const kept = await readdir(cacheDir);
    await Promise.all(
      kept.map(async (name) => {
        if (!cache.used.has(name.replace(/\.(br|gz)$/, ''))) await rm(path.join(cacheDir, name), { force: true });
      }),
    );
  }
  return { files, raw, compressed, cached: cache.hits };
}

async function main() {
  const exportDir = path.resolve(root, process.argv[2] ?? process.env.NEXT_EXPORT_DIR ?? 'out');
  // The build's own export keeps its compressed copies in Next's build cache (which CI keeps
  // between runs); a folder named on the command line is compressed from scratch.
  const cacheDir = process.argv[2] ? undefined : path.join(root, '.next', 'cache', 'precompress', path.basename(exportDir));
  try {
    await access(path.join(exportDir, 'index.html'));
  } catch {
    console.error(`precompress: ${exportDir} has no index.html; run next build first`);
    process.exit(1);
  }
  const { files, raw, compressed, cached } = await precompress(exportDir, cacheDir);
  console.log(`precompress: ${files} files (${cached} from the cache), ${(raw / 1024).toFixed(0)} KB → ${(compressed / 1024).toFixed(0)} KB brotli`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  });
}
