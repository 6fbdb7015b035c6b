/**
 * Runs before the app becomes interactive. The App Router has no router events; this documented hook
 * is where every navigation (Link, router.push/replace, back/forward) starts the progress bar
 * (docs/static-export.md §3.2). `RouteProgressDone` in the root layout finishes it.
 */
import { startRouteProgress, type NavigationType } from '@/components/layout/route-progress';

export function onRouterTransitionStart(url: string, navigationType: NavigationType): void {
  startRouteProgress(url, navigationType);
}
