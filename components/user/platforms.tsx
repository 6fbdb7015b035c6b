'use client';
/**
 * The profile's "Platforms" (docs/vendors.md; the reference client's "可用平台"): the AList servers
 * the user bound, each with its AList user (on demand) and an unbind behind a confirmation that says
 * what stops working, and "Add an AList account" (./alist-bind-form.tsx, loaded when opened).
 * Emby/Jellyfin and bilibili are named with what this server offers for them: nothing yet.
 */
import { lazy, Suspense, useState } from 'react';
import { ChevronDown, Plus } from 'lucide-react';
import { clsx } from 'clsx';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { LoadError } from '@/components/common/load-error';
import { Skeleton } from '@/components/ui/skeleton';
import { Button } from '@/components/ui/button';
import { useAlistBindings, useAlistMe, useVendorActions } from '@/hooks/data/vendors';
import type { AlistBinding } from '@/lib/contract/types';
import { useT } from '@/lib/i18n';
import { notifyError, notifySuccess } from '@/lib/notify';
import '@/lib/i18n/messages/vendors';

const AlistBindForm = lazy(() => import('./alist-bind-form').then((m) => ({ default: m.AlistBindForm })));

export function Platforms() {
  const t = useT();
  const bindings = useAlistBindings();
  const actions = useVendorActions();
  const [adding, setAdding] = useState(false);
  const [unbinding, setUnbinding] = useState<AlistBinding | null>(null);
  const unbind = async () => {
    if (!unbinding) return;
    try {
      await actions.unbindAlist(unbinding.serverId);
      notifySuccess(t('platforms.unbound', { host: unbinding.host }));
    } catch (error) {
      notifyError(error);
    }
  };

  return (
    <div className="space-y-4" data-testid="platforms">
      <section aria-labelledby="platform-alist" className="space-y-2">
        <h3 id="platform-alist" className="text-sm font-semibold">
          {t('platforms.alist')}
        </h3>
        <p className="text-xs text-zinc-500 dark:text-zinc-400">{t('platforms.alistHint')}</p>
        {bindings.error ? (
          <LoadError title="platforms.alist" error={bindings.error} onRetry={() => void bindings.mutate()} />
        ) : !bindings.data ? (
          <Skeleton className="h-10 w-full" />
        ) : bindings.data.length === 0 ? (
          <p className="text-sm text-zinc-500 dark:text-zinc-400" data-testid="alist-none">
            {t('platforms.alistNone')}
          </p>
        ) : (
          <ul className="space-y-2" data-testid="alist-bindings">
            {bindings.data.map((binding) => (
              <BindingRow key={binding.serverId} binding={binding} onUnbind={() => setUnbinding(binding)} />
            ))}
          </ul>
        )}
        {adding ? (
          <Suspense fallback={<Skeleton className="h-32 w-full" />}>
            <AlistBindForm onDone={() => setAdding(false)} />
          </Suspense>
        ) : (
          <Button variant="outline" size="sm" data-testid="alist-add" onClick={() => setAdding(true)}>
            <Plus className="h-4 w-4" aria-hidden />
            {t('platforms.alistAdd')}
          </Button>
        )}
      </section>
      {(['emby', 'bilibili'] as const).map((vendor) => (
        <section key={vendor} aria-labelledby={`platform-${vendor}`} className="flex items-center justify-between gap-3 border-t border-zinc-200 pt-3 dark:border-zinc-800">
          <h3 id={`platform-${vendor}`} className="text-sm font-semibold">
            {t(vendor === 'emby' ? 'platforms.emby' : 'platforms.bilibili')}
          </h3>
          <span className="text-xs text-zinc-500 dark:text-zinc-400">{t('platforms.notYet')}</span>
        </section>
      ))}
      <ConfirmDialog
        open={unbinding !== null}
        onOpenChange={(open) => !open && setUnbinding(null)}
        title={t('platforms.unbind')}
        description={t('platforms.unbindConfirm', { host: unbinding?.host ?? '' })}
        confirmLabel={t('platforms.unbind')}
        onConfirm={unbind}
      />
    </div>
  );
}

/** One bound server: its address, its AList user on demand, and unbind. */
function BindingRow({ binding, onUnbind }: { binding: AlistBinding; onUnbind: () => void }) {
  const t = useT();
  const [open, setOpen] = useState(false);
  const me = useAlistMe(open ? binding.serverId : null);
  return (
    <li className="rounded-lg border border-zinc-200 p-3 text-sm dark:border-zinc-800" data-testid="alist-binding">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <span className="min-w-0 truncate font-medium" title={binding.serverId} data-testid="alist-binding-host">
          {binding.host}
        </span>
        <span className="flex gap-1">
          <Button variant="ghost" size="sm" aria-expanded={open} data-testid="alist-binding-details" onClick={() => setOpen(!open)}>
            {t(open ? 'platforms.hideDetails' : 'platforms.details')}
            <ChevronDown className={clsx('h-3.5 w-3.5 transition-transform', open && 'rotate-180')} aria-hidden />
          </Button>
          <Button variant="ghost" size="sm" data-testid="alist-binding-unbind" onClick={onUnbind}>
            {t('platforms.unbind')}
          </Button>
        </span>
      </div>
      {open ? (
        <div className="mt-2 text-xs text-zinc-600 dark:text-zinc-400" data-testid="alist-binding-me">
          {me.error ? (
            <LoadError title="platforms.alist" error={me.error} onRetry={() => void me.mutate()} />
          ) : me.data?.info ? (
            <>
              <p>{t('platforms.signedInAs', { username: me.data.info.username })}</p>
              <p>{t('platforms.basePath', { path: me.data.info.basePath })}</p>
            </>
          ) : (
            <p aria-busy="true">{t('platforms.loadingDetails')}</p>
          )}
        </div>
      ) : null}
    </li>
  );
}
