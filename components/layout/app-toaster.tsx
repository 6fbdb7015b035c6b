'use client';
import { useSyncExternalStore } from 'react';
import { useDarkMode } from '@/hooks/use-dark-mode';
import { loadedSonner, NOTIFY_DURATION_MS, subscribeLoadedSonner } from '@/lib/notify';

// The prerender and the hydration pass never have a notification yet.
const noSonnerOnServer = () => null;

/**
 * sonner's toaster, following the app's dark mode. Renders nothing until the first notify* call has
 * loaded sonner (lib/notify), so sonner is downloaded with the first notification instead of with
 * every page; the Toaster then shows the toasts requested while sonner was loading.
 */
export function AppToaster() {
  const [isDark] = useDarkMode();
  const sonner = useSyncExternalStore(subscribeLoadedSonner, loadedSonner, noSonnerOnServer);
  if (!sonner) return null;
  const { Toaster } = sonner;
  return (
    <Toaster
      duration={NOTIFY_DURATION_MS}
      position="top-right"
      // Below the sticky header, so a toast never covers the header's buttons.
      offset={{ top: 68, right: 16 }}
      mobileOffset={{ top: 64 }}
      theme={isDark ? 'dark' : 'light'}
      richColors
      closeButton
    />
  );
}
