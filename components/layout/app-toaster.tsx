'use client';
import { useSyncExternalStore } from 'react';
import { useDarkMode } from '@/hooks/use-dark-mode';
import { loadedSonner, NOTIFY_DURATION_MS, subscribeLoadedSonner } from '@/lib/notify';
import { isDrawerOpen, subscribeDrawers } from '@/components/ui/open-drawers';

// The prerender and the hydration pass never have a notification yet.
const noSonnerOnServer = () => null;

/** sonner's own phone layout (full-width toasts) starts below this width. */
const PHONE_QUERY = '(max-width: 600px)';
const isPhone = () => window.matchMedia(PHONE_QUERY).matches;
/** The prerender knows neither the screen nor any panel. */
const falseOnServer = () => false;
function subscribePhone(onChange: () => void): () => void {
  const query = window.matchMedia(PHONE_QUERY);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}

/**
 * sonner's toaster, following the app's dark mode. Renders nothing until the first notify* call has
 * loaded sonner (lib/notify), so sonner is downloaded with the first notification instead of with
 * every page; the Toaster then shows the toasts requested while sonner was loading.
 */
export function AppToaster() {
  const [isDark] = useDarkMode();
  const sonner = useSyncExternalStore(subscribeLoadedSonner, loadedSonner, noSonnerOnServer);
  const phone = useSyncExternalStore(subscribePhone, isPhone, falseOnServer);
  const drawerOpen = useSyncExternalStore(subscribeDrawers, isDrawerOpen, falseOnServer);
  if (!sonner) return null;
  const { Toaster } = sonner;
  return (
    <Toaster
      duration={NOTIFY_DURATION_MS}
      // Wide screens: centred below the sticky header, clear of the header's buttons on the right and
      // of the page's own top-right controls (the hall's share button); on the left while a side panel
      // covers the right (its filters sit at the top). Phones: at the bottom, clear of the header and
      // the hall's title row, and away from the fields of the forms above it.
      position={phone ? 'bottom-center' : drawerOpen ? 'top-left' : 'top-center'}
      offset={{ top: 68 }}
      mobileOffset={{ bottom: 16 }}
      theme={isDark ? 'dark' : 'light'}
      richColors
      closeButton
    />
  );
}
