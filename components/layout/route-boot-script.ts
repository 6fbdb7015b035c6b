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
 * One extra document load, no server change. Go's FileServer under SyncTV `--web-path` first turns a
 * folder URL `/web/a/b/` into `/web/a/b/b/` (301); the script undoes that doubling.
 */
import { normalizePath, routes } from '@/config/routes';
import { BASE_PATH } from '@/lib/contract/export-layout';
import { NOT_FOUND_ROUTE, PLACEHOLDER_ROUTES, PLACEHOLDER_SEGMENT, ROUTE_QUERY_KEY } from '@/lib/contract/export-layout';

/** What the boot script knows at build time. Paths are without basePath and trailing slash. */
export interface RouteBootConfig {
  /** The export's basePath, `/web`. */
  base: string;
  /** Route this document was prerendered for: `/`, `/auth/login`, `/cinema/_`, `/_not-found`. */
  doc: string;
  /** Query key carrying the asked-for address (path, query and hash, without basePath). */
  key: string;
  /** Route patterns as segments, `:name` a parameter, `:name?` an optional one (config/routes.ts). */
  patterns: string[][];
  /** First segments of routes whose id is exported as `placeholder`. */
  placeholderRoutes: readonly string[];
  placeholder: string;
  /** `doc` of the not-found document, which is `out/404.html`. */
  notFoundDoc: string;
}

/** What the script does: both null on a document that matches its address. */
export interface RouteBootAction {
  /** Address to show with `history.replaceState` (basePath included), or null. */
  restore: string | null;
  /** Document to load instead with `location.replace` (basePath included), or null. */
  redirect: string | null;
}

/**
 * Decides, for a document prerendered for `cfg.doc` and opened at `pathname` + `search` + `hash`
 * (as in `location`), whether to restore a carried address and whether to load another document.
 * Runs inline in the browser through `Function.prototype.toString`, so it is self-contained ES5
 * with no imports and no helpers.
 */
/* eslint-disable no-var -- ES5 on purpose (see above) */
export function routeBootAction(cfg: RouteBootConfig, pathname: string, search: string, hash: string): RouteBootAction {
  var restore: string | null = null;
  var carried = new URLSearchParams(search).get(cfg.key);
  if (carried !== null) {
    // Only a path under basePath can come back; anything else shows the home page's address.
    if (carried.charAt(0) !== '/') carried = '/';
    restore = cfg.base + carried;
    var cut = carried.search(/[?#]/);
    pathname = cfg.base + (cut < 0 ? carried : carried.slice(0, cut));
    search = '';
    hash = cut < 0 ? '' : carried.slice(cut);
  }
  if (pathname !== cfg.base && pathname.indexOf(cfg.base + '/') !== 0) return { restore: restore, redirect: null };

  var segments = pathname.slice(cfg.base.length).split('/').filter(Boolean);
  var wanted = docOf(segments);
  // The address comes back in the export's canonical form, with the trailing slash (Next 15 drops it
  // when a soft navigation falls back to a full load, and a person may type it without).
  var asked = pathname.slice(cfg.base.length) || '/';
  if (asked.charAt(asked.length - 1) !== '/') asked += '/';
  var last = segments.length - 1;
  if (last > 0 && segments[last] === segments[last - 1]) {
    // Go's FileServer redirected the folder `/a/b/` to `/a/b/b/`: read it as `/a/b/` when `/a/b` is a
    // folder of the export (a route without placeholder), so a room named like a route stays a room.
    var shorter = segments.slice(0, last);
    var shorterDoc = docOf(shorter);
    if (shorterDoc === '/' + shorter.join('/')) {
      wanted = shorterDoc;
      asked = shorterDoc + '/';
    }
  }
  if (wanted === cfg.doc) return { restore: restore, redirect: null };
  if (carried !== null) {
    // Already redirected once and still the wrong document: the route's file is missing (say an
    // OAuth2 provider unknown at build time). Show the 404 page rather than loop.
    return {
      restore: restore,
      redirect: cfg.doc === cfg.notFoundDoc ? null : fileOf(cfg.notFoundDoc) + '?' + cfg.key + '=' + encodeURIComponent(carried),
    };
  }
  return { restore: null, redirect: fileOf(wanted) + '?' + cfg.key + '=' + encodeURIComponent(asked + search + hash) };

  function fileOf(doc: string): string {
    if (doc === '/') return cfg.base + '/';
    if (doc === cfg.notFoundDoc) return cfg.base + '/404.html';
    return cfg.base + doc + '.html';
  }

  // The document a path needs: the route's own path, with the id of a placeholder route as `_`.
  function docOf(parts: string[]): string {
    for (var i = 0; i < cfg.patterns.length; i++) {
      var pattern = cfg.patterns[i];
      var required = 0;
      for (var j = 0; j < pattern.length; j++) if (pattern[j].slice(-1) !== '?') required++;
      if (parts.length < required || parts.length > pattern.length) continue;
      var doc: string[] = [];
      for (var k = 0; k < parts.length; k++) {
        if (pattern[k].charAt(0) === ':') doc.push(cfg.placeholderRoutes.indexOf(pattern[0]) >= 0 ? cfg.placeholder : parts[k]);
        else if (pattern[k] === parts[k]) doc.push(parts[k]);
        else break;
      }
      if (doc.length === parts.length) return '/' + doc.join('/');
    }
    return cfg.notFoundDoc;
  }
}
/* eslint-enable no-var */

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
 * The inline script for a document prerendered for `doc`. `window.stop()` keeps the wrong document
 * from loading its chunks and hydrating (no flash, no API calls) while the right one loads.
 * Errors are dropped on purpose: at worst the page stays as the server sent it, which is what it
 * would show without the script; an exception here would only add a console error before hydration.
 */
export function routeBootScript(doc: string): string {
  const config = JSON.stringify(routeBootConfig(doc)).replace(/</g, '\\u003c');
  return (
    `(function(){try{var a=(${routeBootAction.toString()})(${config},location.pathname,location.search,location.hash);` +
    `if(a.restore!==null)history.replaceState(history.state,'',a.restore);` +
    `if(a.redirect!==null){window.stop();location.replace(a.redirect);}}catch(e){}})();`
  );
}
