/**
 * Static export served under /web (the path a SyncTV v0.9.x server serves its web UI from).
 * trailingSlash keeps every route's files in one folder (see shared/reference/static-export.md §2),
 * so the placeholder rewrite for /cinema/<id>/ and /joinRoom/<id>/ is one prefix rule.
 * @type {import('next').NextConfig}
 */
const nextConfig = {
  output: 'export',
  basePath: '/web',
  trailingSlash: true,
  images: { unoptimized: true },
  reactStrictMode: true,
  // ky is ESM-only; listing it here makes next/jest transform it for unit tests.
  transpilePackages: ['ky'],
  env: {
    // Optional API origin for preview hosts that serve the export from another origin (empty = same origin).
    NEXT_PUBLIC_API_ORIGIN: process.env.NEXT_PUBLIC_API_ORIGIN ?? '',
  },
};

export default nextConfig;
