'use client';
/**
 * The profile's "Platforms" (docs/vendors.md; the reference client's "可用平台"): for AList/OpenList
 * and for Emby/Jellyfin, the servers the user bound, each with its user there (on demand) and an
 * unbind behind a confirmation that says what stops playing, and "Add an account"
 * (./vendor-bind-form.tsx, loaded when opened); and the bilibili account (./bilibili-account.tsx).
 */
import { lazy, Suspense, useState } from 'react';
import { ChevronDown, Plus } from 'lucide-react';
import { clsx } from 'clsx';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { LoadError } from '@/components/common/load-error';
import { Skeleton } from '@/components/ui/skeleton';
import { Button } from '@/components/ui/button';
import { useVendorActions, useVendorBindings, useVendorMe } from '@/hooks/data/vendors';
import type { VendorServer, BindableVendor } from '@/lib/contract/types';
import { useT, type MessageKey } from '@/lib/i18n';
import { notifyError, notifySuccess } from '@/lib/notify';
import { BilibiliAccount } from './bilibili-account';
import '@/lib/i18n/messages/vendors';

const VendorBindForm = lazy(() => import('./vendor-bind-form').then((m) => ({ default: m.VendorBindForm })));

/** The texts of each vendor's section. */
const TEXTS: Record<BindableVendor, { title: MessageKey; hint: MessageKey; none: MessageKey; add: MessageKey }> = {
  alist: { title: 'platforms.alist', hint: 'platforms.alistHint', none: 'platforms.alistNone', add: 'platforms.alistAdd' },
  emby: { title: 'platforms.emby', hint: 'platforms.embyHint', none: 'platforms.embyNone', add: 'platforms.embyAdd' },
};

export function Platforms() {
  return (
    <div className="space-y-4" data-testid="platforms">
      <VendorSection vendor="alist" />
      <VendorSection vendor="emby" />
      <BilibiliAccount />
    </div>
  );
}

/** One vendor: its bound servers and the form that adds one. */
function VendorSection({ vendor }: { vendor: BindableVendor }) {
  const t = useT();
  const texts = TEXTS[vendor];
  const bindings = useVendorBindings(vendor);
  const actions = useVendorActions();
  const [adding, setAdding] = useState(false);
  const [unbinding, setUnbinding] = useState<VendorServer | null>(null);
  const unbind = async () => {
    if (!unbinding) return;
    try {
      await actions.unbind(vendor, unbinding.serverId);
      notifySuccess(t('platforms.unbound', { host: unbinding.host }));
    } catch (error) {
      notifyError(error);
    }
  };
  return (
    <section aria-labelledby={`platform-${vendor}`} className={clsx('space-y-2', vendor !== 'alist' && 'border-t border-zinc-200 pt-3 dark:border-zinc-800')}>
      <h3 id={`platform-${vendor}`} className="text-sm font-semibold">
        {t(texts.title)}
      </h3>
      <p className="text-xs text-zinc-500 dark:text-zinc-400">{t(texts.hint)}</p>
      {bindings.error ? (
        <LoadError title={texts.title} error={bindings.error} onRetry={() => void bindings.mutate()} />
      ) : !bindings.data ? (
        <Skeleton className="h-10 w-full" />
      ) : bindings.data.length === 0 ? (
        <p className="text-sm text-zinc-500 dark:text-zinc-400" data-testid={`${vendor}-none`}>
          {t(texts.none)}
        </p>
      ) : (
        <ul className="space-y-2" data-testid={`${vendor}-bindings`}>
          {bindings.data.map((binding) => (
            <BindingRow key={binding.serverId} vendor={vendor} binding={binding} onUnbind={() => setUnbinding(binding)} />
          ))}
        </ul>
      )}
      {adding ? (
        <Suspense fallback={<Skeleton className="h-32 w-full" />}>
          <VendorBindForm vendor={vendor} onDone={() => setAdding(false)} />
        </Suspense>
      ) : (
        <Button variant="outline" size="sm" data-testid={`${vendor}-add`} onClick={() => setAdding(true)}>
          <Plus className="h-4 w-4" aria-hidden />
          {t(texts.add)}
        </Button>
      )}
      <ConfirmDialog
        open={unbinding !== null}
        onOpenChange={(open) => !open && setUnbinding(null)}
        title={t('platforms.unbind')}
        description={t('platforms.unbindConfirm', { host: unbinding?.host ?? '' })}
        confirmLabel={t('platforms.unbind')}
        onConfirm={unbind}
      />
    </section>
  );
}

/** One bound server: its address, its user on demand, and unbind. */
function BindingRow({ vendor, binding, onUnbind }: { vendor: BindableVendor; binding: VendorServer; onUnbind: () => void }) {
  const t = useT();
  const [open, setOpen] = useState(false);
  const me = useVendorMe(vendor, open ? binding.serverId : null);
  const info = me.data?.info;
  return (
    <li className="rounded-lg border border-zinc-200 p-3 text-sm dark:border-zinc-800" data-testid={`${vendor}-binding`}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <span className="min-w-0 truncate font-medium" title={binding.serverId} data-testid={`${vendor}-binding-host`}>
          {binding.host}
        </span>
        <span className="flex gap-1">
          <Button variant="ghost" size="sm" aria-expanded={open} data-testid={`${vendor}-binding-details`} onClick={() => setOpen(!open)}>
            {t(open ? 'platforms.hideDetails' : 'platforms.details')}
            <ChevronDown className={clsx('h-3.5 w-3.5 transition-transform', open && 'rotate-180')} aria-hidden />
          </Button>
          <Button variant="ghost" size="sm" data-testid={`${vendor}-binding-unbind`} onClick={onUnbind}>
            {t('platforms.unbind')}
          </Button>
        </span>
      </div>
      {open ? (
        <div className="mt-2 text-xs text-zinc-600 dark:text-zinc-400" data-testid={`${vendor}-binding-me`}>
          {me.error ? (
            <LoadError title={TEXTS[vendor].title} error={me.error} onRetry={() => void me.mutate()} />
          ) : info ? (
            <>
              <p>{t('platforms.signedInAs', { username: info.username ?? info.name ?? '' })}</p>
              {info.basePath ? <p>{t('platforms.basePath', { path: info.basePath })}</p> : null}
            </>
          ) : (
            <p aria-busy="true">{t('platforms.loadingDetails')}</p>
          )}
        </div>
      ) : null}
    </li>
  );
}
