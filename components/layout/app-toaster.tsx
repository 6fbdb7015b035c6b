'use client';
import { Toaster } from 'sonner';
import { useDarkMode } from '@/hooks/use-dark-mode';
import { NOTIFY_DURATION_MS } from '@/lib/notify';

/** sonner's toaster, following the app's dark mode. */
export function AppToaster() {
  const [isDark] = useDarkMode();
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
