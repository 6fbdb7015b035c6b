/**
 * Which exported file answers a request under `/web` (docs/static-export.md §1.4, `trailingSlash: true`):
 * the file itself, `<p>.html`, or `<p>/index.html`; then, for `cinema/<id>/…` and `joinRoom/<id>/…`,
 * the same with the id replaced by the build-time placeholder `_`; else `404.html` with status 404.
 */
import fs from 'node:fs';
import path from 'node:path';
import { PLACEHOLDER_ROUTES, PLACEHOLDER_SEGMENT } from '@/lib/contract/export-layout';

/** A resolved file, relative to the export directory, and the status to send it with. */
export interface WebFile {
  file: string;
  status: 200 | 404;
}

/** Routes whose first segment after the prefix is a runtime id, exported once as `_`. */
const PLACEHOLDER_ROUTE = new RegExp(`^(${PLACEHOLDER_ROUTES.join('|')})/([^/]+)(/.*)?$`);

function isFile(file: string): boolean {
  try {
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** Normalises a request path; null when it tries to leave the export directory. */
function safeRelative(requestPath: string): string | null {
  if (requestPath.includes('\0')) return null;
  const normalized = path.posix.normalize(`/${requestPath}`).slice(1);
  if (normalized.split('/').includes('..')) return null;
  return normalized;
}

function tryFile(webDir: string, requestPath: string): string | null {
  const relative = safeRelative(requestPath);
  if (relative === null) return null;
  const bare = relative.replace(/\/+$/, '');
  if (bare && !requestPath.endsWith('/')) {
    if (isFile(path.join(webDir, bare))) return bare;
    if (isFile(path.join(webDir, `${bare}.html`))) return `${bare}.html`;
  }
  const index = bare ? `${bare}/index.html` : 'index.html';
  return isFile(path.join(webDir, index)) ? index : null;
}

/**
 * Resolves `requestPath` (the URL path after `/web/`, still percent-encoded, no query) inside
 * `webDir`. Returns null when nothing matches and the export has no `404.html`.
 */
export function resolveWebFile(webDir: string, requestPath: string): WebFile | null {
  let decoded = requestPath;
  try {
    decoded = decodeURIComponent(requestPath);
  } catch {
    // A malformed escape cannot name an exported file; it falls through to the 404 page.
  }
  const direct = tryFile(webDir, decoded);
  if (direct) return { file: direct, status: 200 };
  const match = PLACEHOLDER_ROUTE.exec(decoded);
  if (match && match[2] !== PLACEHOLDER_SEGMENT) {
    const placeholder = tryFile(webDir, `${match[1]}/${PLACEHOLDER_SEGMENT}${match[3] ?? ''}`);
    if (placeholder) return { file: placeholder, status: 200 };
  }
  return isFile(path.join(webDir, '404.html')) ? { file: '404.html', status: 404 } : null;
}

/** Cache-Control for an exported file: immutable hashed assets, `no-cache` for HTML and RSC payloads. */
export function cacheControlFor(file: string): string | null {
  if (file.startsWith('_next/static/')) return 'public, max-age=31536000, immutable';
  if (file.endsWith('.html') || file.endsWith('.txt')) return 'no-cache';
  return null;
}
