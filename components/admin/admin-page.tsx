'use client';
/**
 * `/admin`: the console is its own chunk, downloaded when this page renders, which the route group's
 * guard allows only for site admins (role >= Admin); no other screen carries its code.
 */
import { lazy, Suspense } from 'react';
import { Spinner } from '@/components/ui/spinner';
import { useT } from '@/lib/i18n';

const AdminConsole = lazy(() => import('./admin-console').then((module) => ({ default: module.AdminConsole })));

export function AdminPage() {
  const t = useT();
  return (
    <section data-testid="page-admin" className="flex flex-1 flex-col">
      <Suspense
        fallback={
          <div className="flex flex-1 items-center justify-center py-24 text-zinc-400">
            <Spinner className="h-6 w-6" label={t('guard.checking')} />
          </div>
        }
      >
        <AdminConsole />
      </Suspense>
    </section>
  );
}
