/**
 * Runs after `next build` (`npm run build`, before csp.mjs, which hashes the result): writes the URLs
 * of the player engines' chunks into the room link's early-start script (lib/room/early-start.ts),
 * which preloads the current movie's engine before the hall's code has run. The chunks are named by
 * the `webpackChunkName` of components/player/player.tsx's imports (`engine-hls-light`,
 * `engine-mpegts`, `engine-dash`); their file names carry a content hash known only after the build,
 * so the prerendered script holds `__ENGINE_CHUNK__<name>__` until this replaces it, in every
 * exported document and RSC payload that has it.
 *
 * Usage: `node scripts/engine-chunks.mjs [exportDir]` (default NEXT_EXPORT_DIR, else `out`). Exits 1
 * when the folder has no index.html, or when a placeholder names a chunk the export does not have
 * or when no document has a placeholder (a renamed import or a lost script would otherwise silently
 * stop the preload).
 */
import { access, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PLACEHOLDER = /__ENGINE_CHUNK__([a-z0-9-]+)__/g;
const BASE_PATH = '/web';

/** The build's list of the engines' chunks (next.config.mjs EngineChunksPlugin): `{ name: ['static/chunks/….js', …] }`. Throws when it is missing. */
export async function readEngineChunkList() {
  return JSON.parse(await readFile(path.join(root, '.next', 'engine-chunks.json'), 'utf8'));
}

/** The URL the export serves a chunk of the list at: `/web/_next/static/chunks/….js`. */
export function engineChunkUrl(file) {
  return `${BASE_PATH}/_next/${file}`;
}

/**
 * Replaces every placeholder below `exportDir` (HTML and `.txt` RSC payloads outside `_next/`) with
 * the chunks' URLs (`/web/_next/static/chunks/….js`, space-separated) from `chunkList`, the parsed
 * engine-chunks.json (`{ name: ['static/chunks/….js', …] }`). Returns how many files changed. Throws
 * when a placeholder names an engine without chunks.
 */
export async function writeEngineChunks(exportDir, chunkList) {
  const urls = (name) => {
    const files = chunkList[name];
    if (!files?.length) throw new Error(`engine-chunks: the build listed no chunk for ${name} (.next/engine-chunks.json)`);
    return files.map(engineChunkUrl).join(' ');
  };
  let files = 0;
  const entries = await readdir(exportDir, { recursive: true, withFileTypes: true });
  for (const entry of entries) {
    if (!entry.isFile() || !/\.(html|txt)$/.test(entry.name)) continue;
    const file = path.join(entry.parentPath, entry.name);
    if (path.relative(exportDir, file).split(path.sep)[0] === '_next') continue;
    const text = await readFile(file, 'utf8');
    if (!text.includes('__ENGINE_CHUNK__')) continue;
    await writeFile(file, text.replace(PLACEHOLDER, (_match, name) => urls(name)));
    files += 1;
  }
  return files;
}

async function main() {
  const exportDir = path.resolve(root, process.argv[2] ?? process.env.NEXT_EXPORT_DIR ?? 'out');
  try {
    await access(path.join(exportDir, 'index.html'));
  } catch {
    console.error(`engine-chunks: ${exportDir} has no index.html; run next build first`);
    process.exit(1);
  }
  const chunkList = await readEngineChunkList();
  const files = await writeEngineChunks(exportDir, chunkList);
  if (files === 0) throw new Error('engine-chunks: no document holds the early-start script (components/layout/early-start.tsx)');
  const listed = Object.entries(chunkList).map(([name, chunks]) => `${name} ${chunks.length}`).join(', ');
  console.log(`engine chunks (${listed}) written into ${files} files`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  });
}
