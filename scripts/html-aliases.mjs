/**
 * Runs after `next build` (`npm run build`): gives every route's HTML in the static export a second
 * name, `out/a/b.html` next to `out/a/b/index.html`.
 *
 * Why: SyncTV v0.9.x's `/web` handler serves only exact file names, and Go's FileServer answers
 * `…/index.html` with a redirect to the folder, whose URL then falls back to the home page
 * (docs/contract.md §1.3). `a/b.html` is a plain file it serves as is; the route boot script
 * (components/layout/route-boot-script.ts) loads it when the server answered with the wrong document.
 *
 * Usage: `node scripts/html-aliases.mjs [exportDir]`; the folder defaults to NEXT_EXPORT_DIR (see
 * next.config.mjs), else `out`, relative to the project root. Exits 1 when the folder has no
 * index.html (the build did not run or failed).
 */
import { copyFile, readdir, access } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

async function exists(file) {
  try {
    await access(file);
    return true;
  } catch {
    return false;
  }
}

/**
 * Writes `<dir>.html` for every `<dir>/index.html` below `exportDir` (not for the root index.html,
 * which has no folder name, nor inside `_next/`). Existing files are kept. Returns how many it wrote.
 */
export async function writeHtmlAliases(exportDir) {
  let written = 0;
  const entries = await readdir(exportDir, { recursive: true, withFileTypes: true });
  for (const entry of entries) {
    if (!entry.isFile() || entry.name !== 'index.html') continue;
    const folder = entry.parentPath;
    const relative = path.relative(exportDir, folder);
    if (relative === '' || relative.split(path.sep)[0] === '_next') continue;
    const alias = `${folder}.html`;
    if (await exists(alias)) continue;
    await copyFile(path.join(folder, 'index.html'), alias);
    written += 1;
  }
  return written;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const exportDir = path.resolve(root, process.argv[2] ?? (process.env.NEXT_EXPORT_DIR || 'out'));
  if (!(await exists(path.join(exportDir, 'index.html')))) {
    console.error(`html aliases: ${exportDir}/index.html is missing; run next build first`);
    process.exit(1);
  }
  const written = await writeHtmlAliases(exportDir);
  // What the step relies on: `trailingSlash` exports each route as `<route>/index.html`. None of
  // them (no alias written now or before) means Next lays the export out another way.
  if (!(await exists(path.join(exportDir, 'rooms.html')))) {
    console.error(`html aliases: ${path.relative(root, exportDir) || '.'} has no rooms/index.html to alias: Next lays the export out differently now (scripts/html-aliases.mjs)`);
    process.exit(1);
  }
  console.log(`html aliases: ${written} route pages also written as <route>.html in ${path.relative(root, exportDir) || '.'}`);
}
