/**
 * Runs after `next build` (`npm run build`, before csp.mjs): moves the app's inline <head> scripts (the
 * route boot script, the theme script and, in the hall's document, the room link's early start)
 * in front of the stylesheet in every exported document.
 *
 * Why: a browser runs an inline script only once every stylesheet before it has loaded, and Next
 * puts its stylesheet at the top of <head>. On a phone (150 ms round trips, 1.6 Mbit/s) that held
 * the early start's requests back by the stylesheet's download, 0.3 s compressed and over a second
 * uncompressed, where it shares the line with a megabyte of script (bench/first-frame.ts); the route
 * boot script could stop a wrong document only after the same wait. None of the three reads styles.
 * Their order among themselves stays, so React hydrates <head> as it rendered it (stylesheets, async
 * scripts and meta tags are resources React does not match by position).
 *
 * Usage: `node scripts/head-scripts-first.mjs [exportDir]` (default NEXT_EXPORT_DIR, else `out`).
 * Running it again changes nothing. Exits 1 when the folder has no index.html.
 */
import { access, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** An inline script as React writes it (no attributes). */
const INLINE_SCRIPT = /<script>[\s\S]*?<\/script>/g;
const STYLESHEET = /<link rel="stylesheet"[^>]*>/;

/**
 * The document with its <head>'s inline scripts moved in front of its first stylesheet link; the
 * document unchanged when it has no stylesheet link or no such script.
 */
export function headScriptsFirst(html) {
  const headStart = html.indexOf('<head>');
  const headEnd = html.indexOf('</head>');
  if (headStart < 0 || headEnd < headStart) return html;
  const head = html.slice(headStart, headEnd);
  const scripts = head.match(INLINE_SCRIPT);
  if (!scripts) return html;
  const rest = head.replace(INLINE_SCRIPT, '');
  const stylesheet = STYLESHEET.exec(rest);
  if (!stylesheet) return html;
  const moved = rest.slice(0, stylesheet.index) + scripts.join('') + rest.slice(stylesheet.index);
  return html.slice(0, headStart) + moved + html.slice(headEnd);
}

/**
 * What this step relies on Next writing, checked on the export's home document (`html`) after the
 * step: a <head> with the app's inline scripts and Next's stylesheet link, the scripts first. Returns
 * the problem in words (naming what Next changed), or null. A Next upgrade that writes its head
 * another way fails the build here instead of silently leaving the early start behind the stylesheet.
 */
export function headShapeProblem(html) {
  const headStart = html.indexOf('<head>');
  const headEnd = html.indexOf('</head>');
  if (headStart < 0 || headEnd < headStart) return 'the home document has no <head>…</head> as this step expects';
  const head = html.slice(headStart, headEnd);
  const script = head.search(INLINE_SCRIPT);
  const stylesheet = head.search(STYLESHEET);
  if (script < 0) return 'the home document\'s <head> has no inline <script> (the route boot and theme scripts): React or Next writes them differently now';
  if (stylesheet < 0) return 'the home document\'s <head> has no <link rel="stylesheet" …>: Next writes its stylesheet differently now';
  if (script > stylesheet) return 'the home document\'s inline scripts still follow its stylesheet';
  return null;
}

async function main() {
  const exportDir = path.resolve(root, process.argv[2] ?? process.env.NEXT_EXPORT_DIR ?? 'out');
  try {
    await access(path.join(exportDir, 'index.html'));
  } catch {
    console.error(`head-scripts-first: ${exportDir} has no index.html; run next build first`);
    process.exit(1);
  }
  let changed = 0;
  const entries = await readdir(exportDir, { recursive: true, withFileTypes: true });
  for (const entry of entries) {
    if (!entry.isFile() || !entry.name.endsWith('.html')) continue;
    const file = path.join(entry.parentPath, entry.name);
    const html = await readFile(file, 'utf8');
    const next = headScriptsFirst(html);
    if (next === html) continue;
    await writeFile(file, next);
    changed += 1;
  }
  const problem = headShapeProblem(await readFile(path.join(exportDir, 'index.html'), 'utf8'));
  if (problem) {
    console.error(`head-scripts-first: ${problem} (scripts/head-scripts-first.mjs)`);
    process.exit(1);
  }
  console.log(`head scripts first: ${changed} documents`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  });
}
