'use client';
import { Suspense, type ReactNode } from 'react';
import { SWRConfig, type SWRConfiguration } from 'swr';
import { afterStartup } from '@/hooks/swr-after-startup';
import { AppBootstrap } from './app-bootstrap';
import { AppToaster } from './app-toaster';
import { DocumentTitle } from './document-title';
import { RouteProgressDone } from './route-progress-done';

// jotai needs no Provider: the default store is shared with non-React code (lib/notify, the 401 handler).
const swrOptions: SWRConfiguration = {
  // Screens show their own error states; a refetch on every tab focus would only add load.
  revalidateOnFocus: false,
  shouldRetryOnError: false,
  // No screen asks the API for anything before start-up has finished.
  use: [afterStartup],
};

/** Client-side shell: start-up, SWR defaults, title, progress bar and toasts. */
export function AppProviders({ children }: { children: ReactNode }) {
  return (
    <SWRConfig value={swrOptions}>
      <AppBootstrap />
      <DocumentTitle />
      <Suspense fallback={null}>
        <RouteProgressDone />
      </Suspense>
      {children}
      <AppToaster />
    </SWRConfig>
  );
}
