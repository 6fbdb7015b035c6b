/**
 * Security headers. Every response gets Helmet's headers (@fastify/helmet): `nosniff`, a
 * referrer policy, `X-Frame-Options` while framing is refused, and the rest of Helmet's defaults
 * except HSTS (the reverse proxy that terminates TLS owns it) and a cross-origin resource policy that
 * still lets a client on another origin play the movie proxy's media.
 *
 * Documents under `/web` also get their Content Security Policy as a header: the one the build put in
 * their `<meta http-equiv="Content-Security-Policy">` (scripts/csp.mjs: the app's own scripts and its
 * inline scripts by hash) plus `frame-ancestors`, which only a header can carry.
 */
import fs from 'node:fs';
import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

/** Who may frame the app (`frame-ancestors` sources). Default `'none'`; main.ts reads `FRAME_ANCESTORS`. */
export const DEFAULT_FRAME_ANCESTORS = "'none'";

/** Registers Helmet for every route. `frameAncestors` is the CSP source list (`'none'`, `'self' https://a.example`). */
export async function installSecurityHeaders(app: FastifyInstance, frameAncestors: string): Promise<void> {
  await app.register(helmet, {
    global: true,
    contentSecurityPolicy: false,
    hsts: false,
    crossOriginResourcePolicy: { policy: 'cross-origin' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    // X-Frame-Options can only say "nobody" or "same origin"; a list lives in frame-ancestors alone.
    frameguard: frameAncestors.trim() === "'none'" ? { action: 'deny' } : false,
  });
}

const META = /<meta http-equiv="Content-Security-Policy" content="([^"]*)"\/?>/;
const policies = new Map<string, { mtimeMs: number; policy: string | null }>();

/**
 * The Content-Security-Policy header for the exported document `file` (absolute path): its meta
 * policy plus `frame-ancestors <frameAncestors>`; null for a document built without one. Cached per
 * file until its modification time changes (a rebuild).
 */
export function documentPolicyHeader(file: string, frameAncestors: string): string | null {
  const { mtimeMs } = fs.statSync(file);
  let cached = policies.get(file);
  if (!cached || cached.mtimeMs !== mtimeMs) {
    const match = META.exec(fs.readFileSync(file, 'utf8'));
    cached = { mtimeMs, policy: match ? match[1] : null };
    policies.set(file, cached);
  }
  return cached.policy ? `${cached.policy}; frame-ancestors ${frameAncestors}` : null;
}
