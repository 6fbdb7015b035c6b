'use client';
import { usePathname, useSearchParams } from 'next/navigation';
import { useEffect } from 'react';
import { finishRouteProgress, takePendingNavigation } from './route-progress';

/**
 * Runs after each navigation commits: finishes the progress bar and scrolls to the top. Next scrolls
 * only when the new page's top is out of view; the product wants the top on every push/replace.
 * Back/forward keep the position Next restores. Needs a <Suspense> parent (useSearchParams).
 */
export function RouteProgressDone() {
  const pathname = usePathname();
  const searchParams = useSearchParams();
  useEffect(() => {
    const type = takePendingNavigation();
    if (type === 'push' || type === 'replace') window.scrollTo(0, 0);
    finishRouteProgress();
  }, [pathname, searchParams]);
  return null;
}
