'use client';
import { usePathname } from 'next/navigation';
import { useEffect } from 'react';
import { matchRoute } from '@/config/routes';
import { useT } from '@/lib/i18n';

/** Keeps `document.title` at "SyncTV - <route title>" across navigation and language switches. */
export function DocumentTitle() {
  const pathname = usePathname();
  const t = useT();
  useEffect(() => {
    document.title = `${t('app.name')} - ${t(matchRoute(pathname).title)}`;
  }, [pathname, t]);
  return null;
}
