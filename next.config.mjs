// Next 15 tries to "patch" a lockfile that lacks other platforms' @next/swc-* packages by asking the
// registry for them, and logs a TypeError when the registry has none (this one does not). The build
// never needs them: the installed platform's binary is present.
process.env.NEXT_IGNORE_INCORRECT_LOCKFILE ??= '1';

/**
 * Static export served under /web (the path a SyncTV v0.9.x server serves its web UI from).
 * trailingSlash keeps every route's files in one folder (see shared/reference/static-export.md §2),
 * so the placeholder rewrite for /cinema/<id>/ and /joinRoom/<id>/ is one prefix rule.
 *
 * Build-time environment:
 * - NEXT_PUBLIC_API_ORIGIN: API and WebSocket origin for preview hosts that serve the export from
 *   another origin (empty = the page's own origin);
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
  // With output 'export', a distDir other than `.next` names the export folder (next/dist/export/utils.js).
  distDir: process.env.NEXT_EXPORT_DIR && process.env.NEXT_EXPORT_DIR !== 'out' ? process.env.NEXT_EXPORT_DIR : '.next',
  env: {
    NEXT_PUBLIC_API_ORIGIN: process.env.NEXT_PUBLIC_API_ORIGIN ?? '',
  },
};

export default nextConfig;
