/**
 * Runs after `next build` (`npm run build`, before html-aliases.mjs): gives every exported HTML file a
 * Content Security Policy that allows exactly the scripts the app ships: its own files (`'self'`) and
 * the document's inline scripts (the route boot script, the theme script, the hall's early start, Next's `__next_f` payloads)
 * by their SHA-256 hashes, and in the hall's document the player engines' chunks, which its early
 * start may run inline from their gzip copies (lib/room/early-start.ts), by theirs. No
 * `'unsafe-inline'` or `'unsafe-eval'` for scripts.
 *
 * The policy goes into the document as `<meta http-equiv="Content-Security-Policy">`, so it holds on
 * any server (a SyncTV server's `/web`, nginx, Caddy, a static host). The companion server also sends
 * it as a header with `frame-ancestors`, which a meta policy cannot carry
 * (server/http/security-headers.ts);
 * deploy/nginx.conf and deploy/Caddyfile add the header-only parts.
 *
 * Usage: `node scripts/csp.mjs [exportDir]` (default NEXT_EXPORT_DIR, else `out`). Running it again
 * replaces the policy instead of adding a second one. Exits 1 when the folder has no index.html.
 */
import { createHash } from 'node:crypto';
import { access, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { engineChunkUrl, readEngineChunkList } from './engine-chunks.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Everything but `script-src`: styles inline (React style attributes, media-chrome's and sonner's
 * style elements), media, images and connections from anywhere (movie sources, the API origin, the
 * room socket), workers from the app or blob: (hls.js, mpegts.js, JASSUB), and WebAssembly (JASSUB).
 */
export const BASE_DIRECTIVES = [
  "default-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  'img-src * data: blob:',
  'media-src * data: blob:',
  'connect-src * data: blob: ws: wss:',
  "font-src 'self' data:",
  "worker-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
];

const META = /<meta http-equiv="Content-Security-Policy" content="[^"]*"\/>/;
const INLINE_SCRIPT = /<script(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/g;

/** The `'sha256-…'` source that allows an inline script whose text is `text`. */
const hashSource = (text) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/** `sha256-…` of each inline script of `html`, in document order, without repeats. */
export function inlineScriptHashes(html) {
  const hashes = new Set();
  for (const [, body] of html.matchAll(INLINE_SCRIPT)) {
    if (body) hashes.add(hashSource(body));
  }
  return [...hashes];
}

/**
 * The document's policy: BASE_DIRECTIVES plus `script-src 'self' 'wasm-unsafe-eval'`, the hashes of
 * its inline scripts and those of `runScripts`, texts it runs as inline scripts (the player engines
 * that the hall's early start unpacks from their gzip copies, lib/room/early-start.ts).
 */
export function documentPolicy(html, runScripts = []) {
  const hashes = new Set([...inlineScriptHashes(html), ...runScripts.map(hashSource)]);
  return [...BASE_DIRECTIVES, ["script-src 'self' 'wasm-unsafe-eval'", ...hashes].join(' ')].join('; ');
}

/**
 * `html` with its policy meta inserted first in `<head>` (or replaced). `engineChunks`: each player
 * engine chunk's URL (`/web/_next/static/chunks/….js`) and text; the document's policy allows the
 * text of each whose URL it holds (the hall's early start names them).
 */
export function withPolicy(html, engineChunks = {}) {
  const bare = html.replace(META, '');
  const runScripts = Object.entries(engineChunks).flatMap(([url, text]) => (bare.includes(url) ? [text] : []));
  const meta = `<meta http-equiv="Content-Security-Policy" content="${documentPolicy(bare, runScripts)}"/>`;
  if (!/<head[^>]*>/.test(bare)) return bare;
  return bare.replace(/<head[^>]*>/, (head) => head + meta);
}

/**
 * The player engines' chunks in the export, by URL, with their text: the files that the build's
 * list names (scripts/engine-chunks.mjs `readEngineChunkList`) and the export holds. None when the
 * list is missing.
 */
async function readEngineChunks(exportDir) {
  let list;
  try {
    list = await readEngineChunkList();
  } catch {
    return {};
  }
  const chunks = {};
  for (const file of Object.values(list).flat()) {
    try {
      chunks[engineChunkUrl(file)] = await readFile(path.join(exportDir, '_next', file), 'utf8');
    } catch {
      /* not in this export (another build's list) */
    }
  }
  return chunks;
}

async function htmlFiles(dir) {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((entry) => {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) return entry.name === '_next' ? [] : htmlFiles(full);
      return entry.name.endsWith('.html') ? [full] : [];
    }),
  );
  return nested.flat();
}

async function main() {
  const exportDir = path.resolve(root, process.argv[2] ?? process.env.NEXT_EXPORT_DIR ?? 'out');
  try {
    await access(path.join(exportDir, 'index.html'));
  } catch {
    console.error(`csp: ${exportDir}/index.html is missing; run next build first`);
    process.exit(1);
  }
  const files = await htmlFiles(exportDir);
  const engineChunks = await readEngineChunks(exportDir);
  let scripts = 0;
  let engines = 0;
  for (const file of files) {
    const html = await readFile(file, 'utf8');
    const next = withPolicy(html, engineChunks);
    scripts += inlineScriptHashes(next).length;
    engines += Object.keys(engineChunks).filter((url) => next.includes(url)).length;
    if (next !== html) await writeFile(file, next);
  }
  // What the step relies on: Next writes the app's inline scripts as <script> elements in every
  // document, and the hall's early start (an export with the hall, `cinema/`) names its engine
  // chunks. Without either, the policy would block the scripts or the early start would run nothing;
  // a Next upgrade that changes them fails here.
  const hasHall = files.some((file) => path.relative(exportDir, file).split(path.sep)[0] === 'cinema');
  if (scripts < files.length || (hasHall && engines === 0)) {
    console.error(`csp: ${scripts} inline scripts in ${files.length} documents and ${engines} engine chunks named by an early start: Next writes its documents differently now (scripts/csp.mjs)`);
    process.exit(1);
  }
  console.log(`csp: ${files.length} documents, ${scripts} inline scripts allowed by hash, and ${engines} engine chunks run by an early start`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().catch((error) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  });
}
