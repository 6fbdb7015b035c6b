// Next 15 tries to "patch" a lockfile that lacks other platforms' @next/swc-* packages by asking the
// registry for them, and logs a TypeError when the registry has none (this one does not). The build
// never needs them: the installed platform's binary is present.
process.env.NEXT_IGNORE_INCORRECT_LOCKFILE ??= '1';
// No usage data leaves a machine that builds or develops this project (`next build`, `next dev`:
// both load this file before they start Next's telemetry).
process.env.NEXT_TELEMETRY_DISABLED ??= '1';

import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PHASE_DEVELOPMENT_SERVER } from 'next/constants.js';

/** The player engines the room link's early start preloads (lib/room/early-start.ts ENGINE_CHUNK_NAMES), by the files they are built from. */
const ENGINE_MODULES = {
  'engine-hls-light': /[\\/]node_modules[\\/]hls\.js[\\/]dist[\\/]hls\.light\.m?js$/,
  'engine-mpegts': /[\\/]node_modules[\\/]mpegts\.js[\\/]/,
  'engine-dash': /[\\/]node_modules[\\/]dashjs[\\/]/,
};

/**
 * Writes `<build folder>/engine-chunks.json` after the client build: for each engine of
 * ENGINE_MODULES, the chunk files that hold it (`static/chunks/….js`). Their names carry ids and
 * content hashes only webpack knows (Next names async chunks by id, whatever `webpackChunkName`
 * says); scripts/engine-chunks.mjs writes them into the exported hall's early-start script.
 */
class EngineChunksPlugin {
  apply(compiler) {
    compiler.hooks.afterEmit.tap('EngineChunksPlugin', (compilation) => {
      const found = Object.fromEntries(Object.keys(ENGINE_MODULES).map((name) => [name, new Set()]));
      for (const chunk of compilation.chunks) {
        for (const built of compilation.chunkGraph.getChunkModulesIterable(chunk)) {
          const resources = [built.resource, ...(built.modules ?? []).map((inner) => inner.resource)].filter(Boolean);
          for (const [name, test] of Object.entries(ENGINE_MODULES)) {
            if (!resources.some((resource) => test.test(resource))) continue;
            for (const file of chunk.files) if (file.endsWith('.js')) found[name].add(file);
          }
        }
      }
      const json = Object.fromEntries(Object.entries(found).map(([name, files]) => [name, [...files].sort()]));
      mkdirSync(compiler.outputPath, { recursive: true });
      writeFileSync(path.join(compiler.outputPath, 'engine-chunks.json'), `${JSON.stringify(json, null, 2)}\n`);
    });
  }
}

/**
 * Static export served under /web (the path a SyncTV v0.9.x server serves its web UI from).
 * trailingSlash keeps every route's files in one folder (see docs/static-export.md §2),
 * so the placeholder rewrite for /cinema/<id>/ and /joinRoom/<id>/ is one prefix rule.
 *
 * Build-time environment:
 * - NEXT_PUBLIC_API_ORIGIN: API and WebSocket origin for preview hosts that serve the export from
 *   another origin (empty = the page's own origin);
 * - NEXT_PUBLIC_ICE_SERVERS: voice chat's STUN/TURN servers as the JSON of an RTCIceServer list
 *   (default: the reference client's public STUN server; lib/voice/ice-servers.ts);
 * - NEXT_EXPORT_DIR: where the export goes (default `out`); a preview build uses another folder so
 *   that it does not replace `out/`. Build artifacts stay in `.next` either way.
 * @type {import('next').NextConfig}
 */
const nextConfig = {
  output: 'export',
  basePath: '/web',
  trailingSlash: true,
  images: { unoptimized: true },
  reactStrictMode: true,
  // `npm run lint` runs ESLint and `tsc --noEmit` (npm test runs it first); the build does not run
  // them a second time (the type check alone cost 19 s of an 89 s build on 2 cores).
  eslint: { ignoreDuringBuilds: true },
  typescript: { ignoreBuildErrors: true },
  // Output file tracing lists what a Node deployment of `next start` needs; a static export ships
  // none of it, and the trace took 10-12 s of each build here. The export is the same without it
  // (the same files, byte for byte, but the build id).
  outputFileTracingExcludes: { '*': ['**/*'] },
  // ky, media-captions and media-tracks ship only ES modules; listing them here also lets next/jest transform them for the unit tests.
  transpilePackages: ['ky', 'media-captions', 'media-tracks'],
  // With output 'export', a distDir other than `.next` names the export folder (hasCustomExportOutput in next/dist/build/index.js).
  distDir: process.env.NEXT_EXPORT_DIR && process.env.NEXT_EXPORT_DIR !== 'out' ? process.env.NEXT_EXPORT_DIR : '.next',
  webpack(config, { isServer, dev }) {
    // JASSUB's WebAssembly glue (emscripten output) starts its pthread workers from its own file:
    // `new Worker(new URL("jassub-worker.js", import.meta.url))`. Bundled as a worker, that file is
    // a chunk that loads itself, which webpack reports as a circular chunk dependency (its hashes
    // could then not name each other). Pthreads run only on cross-origin-isolated pages, which ours
    // are not (no COOP/COEP), so the file stays a plain asset for that path: one bundled copy inside
    // JASSUB's worker, no self-referencing chunk, no warning.
    config.module.rules.push({ test: /[\\/]jassub[\\/]dist[\\/]wasm[\\/]jassub-worker\.js$/, parser: { worker: false } });
    if (!isServer && !dev) config.plugins.push(new EngineChunksPlugin());
    // One chunk for the i18n core and the shell's texts (lib/i18n/index.ts, messages.ts,
    // messages/common.ts), which every route's layout, page and not-found entry imports. Next's client
    // splitChunks only moves modules of 20 KB or more into shared chunks, so without this group each
    // entry carried its own copy (6.5 KB gzip of duplicates on the home page).
    const split = config.optimization.splitChunks;
    if (!isServer && !dev && split && split.cacheGroups) {
      split.cacheGroups.i18n = {
        test: /[\\/]lib[\\/]i18n[\\/](index\.ts|messages\.ts|messages[\\/]common\.ts)$/,
        name: 'i18n',
        chunks: 'all',
        enforce: true,
        priority: 20,
      };
      // The same for the small modules that the root layout, the route-group layouts and the
      // not-found boundary (which every page loads) all import: one copy instead of one per entry.
      split.cacheGroups.shell = {
        test: /[\\/](lib[\\/](storage|session|guard|room[\\/]early-start)\.ts|components[\\/]ui[\\/](button|spinner)\.tsx|lucide-react[\\/]dist[\\/]esm[\\/]icons[\\/]loader-circle\.mjs)$/,
        name: 'shell',
        chunks: 'all',
        enforce: true,
        priority: 20,
      };
    }
    return config;
  },
  env: {
    NEXT_PUBLIC_API_ORIGIN: process.env.NEXT_PUBLIC_API_ORIGIN ?? '',
    NEXT_PUBLIC_ICE_SERVERS: process.env.NEXT_PUBLIC_ICE_SERVERS ?? '',
  },
};

/**
 * `next dev` (npm run dev): the same app, served by Next itself rather than exported, so that a room
 * URL such as /web/cinema/<id>/ renders for any id (an export renders only the ids that
 * generateStaticParams lists, and `next dev` with `output: 'export'` answers 500 for the others).
 * The API and the room WebSocket are proxied to the companion server (scripts/dev.mjs starts it) or
 * to DEV_API_ORIGIN, so the page keeps calling its own origin as in production.
 */
function devConfig() {
  const apiOrigin = (process.env.DEV_API_ORIGIN || 'http://127.0.0.1:8080').replace(/\/$/, '');
  const { output: _export, ...rest } = nextConfig;
  return {
    ...rest,
    // Apart from the production build's files, as Next 16 does: a dev server never disturbs a build.
    distDir: '.next/dev',
    // trailingSlash would otherwise redirect /api/user/login to /api/user/login/ before the rewrite.
    skipTrailingSlashRedirect: true,
    async rewrites() {
      return [
        { source: '/api/:path*', destination: `${apiOrigin}/api/:path*`, basePath: false },
        { source: '/oauth2/:path*', destination: `${apiOrigin}/oauth2/:path*`, basePath: false },
      ];
    },
  };
}

export default function config(phase) {
  return phase === PHASE_DEVELOPMENT_SERVER ? devConfig() : nextConfig;
}
