/**
 * The navigation progress bar (docs/static-export.md §3.2): started by
 * `onRouterTransitionStart` in instrumentation-client.ts, finished by `RouteProgressDone` after the
 * new route commits. nprogress itself loads with the first navigation, not with the app:
 * until it arrives, `barWanted` records whether the bar should be running.
 */
import type { NProgress as NProgressApi } from 'nprogress';
import { normalizePath } from '@/config/routes';
import { BASE_PATH } from '@/lib/contract/export-layout';

/** nprogress settings of the reference client (docs/reference-client.md §1.1, §7); `speed` and `trickleSpeed` in ms. */
export const PROGRESS_OPTIONS = { minimum: 0.2, speed: 500, trickleSpeed: 200, showSpinner: false, easing: 'ease' } as const;

/** A navigation that never commits (e.g. it failed) must not leave the bar running forever; ms. */
const SAFETY_TIMEOUT_MS = 10_000;

let nprogress: NProgressApi | null = null;
let nprogressLoading = false;
/** True between a navigation's start and its finish; applied to nprogress once it has loaded. */
let barWanted = false;
let safetyTimer: ReturnType<typeof setTimeout> | null = null;
let pendingNavigation: NavigationType | null = null;

export type NavigationType = 'push' | 'replace' | 'traverse';

/**
 * Type of the navigation that started last and has not committed yet, then forgets it; null on the
 * first load. Lets the commit handler scroll to the top for push/replace but keep back/forward's
 * restored position.
 */
export function takePendingNavigation(): NavigationType | null {
  const type = pendingNavigation;
  pendingNavigation = null;
  return type;
}

/**
 * Path (without basePath and trailing slash) plus query of `url`. `url` is either a router path
 * (`/cinema/abc`, push/replace) or an absolute URL with basePath (`http://h/web/cinema/abc/`, traverse).
 */
export function locationKey(url: string, currentHref: string): string {
  const parsed = new URL(url, currentHref);
  let path = parsed.pathname;
  if (path === BASE_PATH || path.startsWith(`${BASE_PATH}/`)) path = path.slice(BASE_PATH.length) || '/';
  return normalizePath(path) + parsed.search;
}

/** True when navigating to `url` would not change the page: such a navigation fires the start hook but never commits. */
export function isSameLocation(url: string, currentHref: string): boolean {
  return locationKey(url, currentHref) === locationKey(currentHref, currentHref);
}

/** Fetches nprogress once, configures it, and starts the bar if a navigation is still running. */
function loadNProgress(): void {
  if (nprogressLoading) return;
  nprogressLoading = true;
  import('nprogress').then(
    ({ default: loaded }) => {
      loaded.configure(PROGRESS_OPTIONS);
      nprogress = loaded;
      // A navigation that already finished while the module loaded shows no bar at all.
      if (barWanted) loaded.start();
    },
    (error: unknown) => {
      // Only the bar is missing (navigation itself is unaffected); the next navigation tries again.
      nprogressLoading = false;
      console.warn('route progress bar could not load', error);
    },
  );
}

/**
 * Starts the bar for a navigation to `url`, unless it targets the current location. The first call
 * loads nprogress; the bar appears once it has arrived (if the navigation is still running).
 */
export function startRouteProgress(url: string, type: NavigationType = 'push'): void {
  if (typeof window === 'undefined' || isSameLocation(url, window.location.href)) return;
  pendingNavigation = type;
  barWanted = true;
  if (nprogress) nprogress.start();
  else loadNProgress();
  if (safetyTimer) clearTimeout(safetyTimer);
  safetyTimer = setTimeout(finishRouteProgress, SAFETY_TIMEOUT_MS);
}

/** Completes the bar (no-op when it is not running), also one whose module is still loading. */
export function finishRouteProgress(): void {
  if (safetyTimer) {
    clearTimeout(safetyTimer);
    safetyTimer = null;
  }
  barWanted = false;
  if (nprogress?.isStarted()) nprogress.done();
}
