/**
 * What the route boot script does in the browser (./route-boot-script.ts explains why): compiled on
 * its own by scripts/inline-scripts.mjs from ./route-boot.inline.ts into ./route-boot.generated.ts,
 * which the prerender puts inline at the top of every document. It imports nothing but types, so
 * the compiled script holds only this file.
 */

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
 */
export function routeBootAction(cfg: RouteBootConfig, pathname: string, search: string, hash: string): RouteBootAction {
  let restore: string | null = null;
  let carried = new URLSearchParams(search).get(cfg.key);
  if (carried !== null) {
    // Only a path under basePath can come back; anything else shows the home page's address.
    if (!carried.startsWith('/')) carried = '/';
    restore = cfg.base + carried;
    const cut = carried.search(/[?#]/);
    pathname = cfg.base + (cut < 0 ? carried : carried.slice(0, cut));
    search = '';
    hash = cut < 0 ? '' : carried.slice(cut);
  }
  if (pathname !== cfg.base && !pathname.startsWith(cfg.base + '/')) return { restore, redirect: null };

  const segments = pathname.slice(cfg.base.length).split('/').filter(Boolean);
  let wanted = docOf(cfg, segments);
  // The address comes back in the export's canonical form, with the trailing slash (Next 15 drops it
  // when a soft navigation falls back to a full load, and a person may type it without).
  let asked = pathname.slice(cfg.base.length) || '/';
  if (!asked.endsWith('/')) asked += '/';
  const last = segments.length - 1;
  if (last > 0 && segments[last] === segments[last - 1]) {
    // Go's FileServer redirected the folder `/a/b/` to `/a/b/b/`: read it as `/a/b/` when `/a/b` is a
    // folder of the export (a route without placeholder), so a room named like a route stays a room.
    const shorter = segments.slice(0, last);
    const shorterDoc = docOf(cfg, shorter);
    if (shorterDoc === '/' + shorter.join('/')) {
      wanted = shorterDoc;
      asked = shorterDoc + '/';
    }
  }
  if (wanted === cfg.doc) return { restore, redirect: null };
  if (carried !== null) {
    // Already redirected once and still the wrong document: the route's file is missing (say an
    // OAuth2 provider unknown at build time). Show the 404 page rather than loop.
    return { restore, redirect: cfg.doc === cfg.notFoundDoc ? null : `${fileOf(cfg, cfg.notFoundDoc)}?${cfg.key}=${encodeURIComponent(carried)}` };
  }
  return { restore: null, redirect: `${fileOf(cfg, wanted)}?${cfg.key}=${encodeURIComponent(asked + search + hash)}` };
}

/**
 * Runs the boot in the page: restores the address, or stops this document and loads the right one
 * (`window.stop()` keeps the wrong document from loading its chunks and hydrating: no flash, no API
 * calls). Errors are dropped on purpose: at worst the page stays as the server sent it, which is what
 * it would show without the script; an exception here would only add a console error before hydration.
 */
export function bootRoute(cfg: RouteBootConfig): void {
  try {
    const action = routeBootAction(cfg, location.pathname, location.search, location.hash);
    if (action.restore !== null) history.replaceState(history.state, '', action.restore);
    if (action.redirect !== null) {
      window.stop();
      location.replace(action.redirect);
    }
  } catch {
    /* see above */
  }
}

/** The exported file of `doc`. */
function fileOf(cfg: RouteBootConfig, doc: string): string {
  if (doc === '/') return cfg.base + '/';
  if (doc === cfg.notFoundDoc) return cfg.base + '/404.html';
  return cfg.base + doc + '.html';
}

/** The document a path needs: the route's own path, with the id of a placeholder route as `_`. */
function docOf(cfg: RouteBootConfig, parts: string[]): string {
  for (const pattern of cfg.patterns) {
    const required = pattern.filter((segment) => !segment.endsWith('?')).length;
    if (parts.length < required || parts.length > pattern.length) continue;
    const doc: string[] = [];
    for (let k = 0; k < parts.length; k++) {
      if (pattern[k].startsWith(':')) doc.push(cfg.placeholderRoutes.includes(pattern[0]) ? cfg.placeholder : parts[k]);
      else if (pattern[k] === parts[k]) doc.push(parts[k]);
      else break;
    }
    if (doc.length === parts.length) return '/' + doc.join('/');
  }
  return cfg.notFoundDoc;
}
