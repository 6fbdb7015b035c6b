/**
 * The route boot script: an inline script at the top of every exported document that makes deep links
 * work behind servers that answer unknown paths with some other document (docs/static-export.md §1.5).
 *
 * SyncTV v0.9.x's `/web` handler answers every path it has no file for, including every route folder
 * such as `/web/auth/login/` and every real room `/web/cinema/<id>/`, with the home page (200);
 * GitHub-Pages-like hosts answer them with `404.html`. Each document knows which route it was
 * prerendered for, so before Next hydrates, the script compares that with the address:
 * - they agree (the companion server, nginx, Caddy): nothing happens;
 * - they differ: it stops the page and replaces it with the right route's own file, which every one
 *   of those servers serves by its exact name (`/web/cinema/_.html`, `/web/404.html`), carrying the
 *   address in `?_route=`; that document puts the address back with `history.replaceState`, so the
 *   router and `usePathname()` see the real path and the person sees the URL they opened.
 * One extra document load, no server change. What the script does is ./route-boot-action.ts. Go's FileServer under SyncTV `--web-path` first turns a
 * folder URL `/web/a/b/` into `/web/a/b/b/` (301); the script undoes that doubling.
 */
import { normalizePath, routes } from '@/config/routes';
import { BASE_PATH } from '@/lib/contract/export-layout';
import { NOT_FOUND_ROUTE, PLACEHOLDER_ROUTES, PLACEHOLDER_SEGMENT, ROUTE_QUERY_KEY } from '@/lib/contract/export-layout';
import type { RouteBootConfig } from './route-boot-action';
import { ROUTE_BOOT_CODE } from './route-boot.generated';

export { routeBootAction, type RouteBootAction, type RouteBootConfig } from './route-boot-action';

/** The build-time facts for a document prerendered for `doc` (a `usePathname()` value). */
export function routeBootConfig(doc: string): RouteBootConfig {
  return {
    base: BASE_PATH,
    doc: normalizePath(doc),
    key: ROUTE_QUERY_KEY,
    patterns: routes.map((route) => route.path.split('/').filter(Boolean)),
    placeholderRoutes: PLACEHOLDER_ROUTES,
    placeholder: PLACEHOLDER_SEGMENT,
    notFoundDoc: NOT_FOUND_ROUTE,
  };
}

/**
 * The inline script for a document prerendered for `doc`: ./route-boot-action.ts `bootRoute` as
 * compiled by scripts/inline-scripts.mjs, given the document's configuration.
 */
export function routeBootScript(doc: string): string {
  const config = JSON.stringify(routeBootConfig(doc)).replace(/</g, '\\u003c');
  return `(function(__synctvRouteBootConfig){${ROUTE_BOOT_CODE}})(${config});`;
}
