'use client';
import { useSessionStartup } from '@/hooks/data/session';
import { useLocaleBootstrap } from '@/lib/i18n';

/** The app's start-up at its root: the UI language, then the session (hooks/data/session.ts). */
export function AppBootstrap() {
  useLocaleBootstrap();
  useSessionStartup();
  return null;
}
