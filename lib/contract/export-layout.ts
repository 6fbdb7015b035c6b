/**
 * How the static export lays out its files (`trailingSlash: true`, basePath `/web`), shared by the
 * companion server's file rules (server/rules/web-path.ts) and the route boot script
 * (components/layout/route-boot-script.ts); deploy/nginx.conf and deploy/Caddyfile repeat the same
 * rules (docs/static-export.md §1.2–1.4).
 *
 * - Route `/a/b` is `out/a/b/index.html` plus its RSC payloads `out/a/b/index.txt` and `__next.*.txt`.
 * - Room ids are unknown at build time: `/cinema/<id>` and `/joinRoom/<id>` are exported once, with the
 *   id segment `_`, and a server (or the boot script) maps every real id onto it.
 * - Every route's HTML also exists as `out/a/b.html` (written by scripts/html-aliases.mjs), because
 *   SyncTV v0.9.x's `/web` handler cannot serve `…/index.html` by name: Go's FileServer redirects that
 *   to `./`, and a folder URL falls back to the home page (docs/contract.md §1.3).
 */

/** The export's basePath: where a SyncTV server serves its web UI (docs/contract.md §1), and next.config.mjs's `basePath`. */
export const BASE_PATH = '/web';

/** The id segment the export holds for routes whose id is only known at run time. */
export const PLACEHOLDER_SEGMENT = '_';

/** First path segments of the routes exported once with a `_` id (`/cinema/:roomId`, `/joinRoom/:roomId?`). */
export const PLACEHOLDER_ROUTES: readonly string[] = ['cinema', 'joinRoom'];

/** Query key that carries the address a person asked for to the right document (see route-boot-script.ts). */
export const ROUTE_QUERY_KEY = '_route';

/** The route Next prerenders `out/404.html` for (`app/not-found.tsx`), as `usePathname()` names it. */
export const NOT_FOUND_ROUTE = '/_not-found';
