/**
 * Runs after `next build` (`npm run build`, before html-aliases.mjs): gives every exported HTML file a
 * Content Security Policy that allows exactly the scripts the app ships: its own files (`'self'`) and
 * the document's inline scripts (the route boot script, the theme script, the hall's early start, Next's `__next_f` payloads)
 * by their SHA-256 hashes. No `'unsafe-inline'` or `'unsafe-eval'` for scripts.
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

/** `sha256-…` of each inline script of `html`, in document order, without repeats. */
export function inlineScriptHashes(html) {
  const hashes = new Set();
  for (const [, body] of html.matchAll(INLINE_SCRIPT)) {
    if (body) hashes.add(`'sha256-${createHash('sha256').update(body, 'utf8').digest('base64')}'`);
  }
  return [...hashes];
}

/** The document's policy: BASE_DIRECTIVES plus `script-src 'self' 'wasm-unsafe-eval'` and its hashes. */
export function documentPolicy(html) {
  return [...BASE_DIRECTIVES, ["script-src 'self' 'wasm-unsafe-eval'", ...inlineScriptHashes(html)].join(' ')].join('; ');
}

/** `html` with its policy meta inserted first in `<head>` (or replaced). */
export function withPolicy(html) {
  const bare = html.replace(META, '');
  const meta = `<meta http-equiv="Content-Security-Policy" content="${documentPolicy(bare)}"/>`;
  if (!/<head[^>]*>/.test(bare)) return bare;
  return bare.replace(/<head[^>]*>/, (head) => head + meta);
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
  let scripts = 0;
  for (const file of files) {
    const html = await readFile(file, 'utf8');
    const next = withPolicy(html);
    scripts += inlineScriptHashes(next).length;
    if (next !== html) await writeFile(file, next);
  }
  console.log(`csp: ${files.length} documents, ${scripts} inline scripts allowed by hash`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
