'use client';
/**
 * bilibili in the profile's "Platforms" (docs/vendors.md "bilibili"; the reference client's
 * 哔哩哔哩 tile): the bound account (avatar, name, 大会员 badge) with an unbind behind a
 * confirmation, a sign-in bilibili no longer takes said as such, and binding by QR code
 * (./bilibili-qr.tsx, loaded when asked for).
 */
import { lazy, Suspense, useState } from 'react';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { LoadError } from '@/components/common/load-error';
import { Notice } from '@/components/common/notice';
import { Skeleton } from '@/components/ui/skeleton';
import { Button } from '@/components/ui/button';
import { useBilibiliLogout, useBilibiliMe } from '@/hooks/data/vendors';
import { useT } from '@/lib/i18n';
import { notifyError, notifySuccess } from '@/lib/notify';
import '@/lib/i18n/messages/vendors';

const BilibiliQr = lazy(() => import('./bilibili-qr').then((m) => ({ default: m.BilibiliQr })));

export function BilibiliAccount() {
  const t = useT();
  const me = useBilibiliMe();
  const logout = useBilibiliLogout();
  const [binding, setBinding] = useState(false);
  const [unbinding, setUnbinding] = useState(false);
  // bilibili's image host may be out of reach: then no avatar rather than a broken one.
  const [faceFailed, setFaceFailed] = useState(false);
  const info = me.data?.isLogin ? me.data.info : undefined;
  const unbind = async () => {
    try {
      await logout();
      notifySuccess(t('bilibili.unbound'));
    } catch (error) {
      notifyError(error);
    }
  };
  return (
    <section aria-labelledby="platform-bilibili" className="space-y-2 border-t border-zinc-200 pt-3 dark:border-zinc-800" data-testid="bilibili-account">
      <h3 id="platform-bilibili" className="text-sm font-semibold">
        {t('platforms.bilibili')}
      </h3>
      <p className="text-xs text-zinc-500 dark:text-zinc-400">{t('bilibili.hint')}</p>
      {me.error ? (
        <LoadError title="platforms.bilibili" error={me.error} onRetry={() => void me.mutate()} />
      ) : !me.data ? (
        <Skeleton className="h-10 w-full" />
      ) : info ? (
        <div className="flex flex-wrap items-center justify-between gap-2 rounded-lg border border-zinc-200 p-3 text-sm dark:border-zinc-800" data-testid="bilibili-bound">
          <span className="flex min-w-0 items-center gap-2">
            {info.face && !faceFailed ? (
              // bilibili's image host refuses other sites' Referer.
              // eslint-disable-next-line @next/next/no-img-element
              <img src={info.face} alt="" width={32} height={32} referrerPolicy="no-referrer" onError={() => setFaceFailed(true)} className="h-8 w-8 shrink-0 rounded-full bg-zinc-100 dark:bg-zinc-800" />
            ) : null}
            <span className="truncate font-medium" data-testid="bilibili-username">
              {info.username}
            </span>
            {info.isVip ? <span className="shrink-0 rounded bg-pink-100 px-1.5 py-0.5 text-xs font-medium text-pink-700 dark:bg-pink-950 dark:text-pink-300">{t('bilibili.vip')}</span> : null}
          </span>
          <Button variant="ghost" size="sm" data-testid="bilibili-unbind" onClick={() => setUnbinding(true)}>
            {t('platforms.unbind')}
          </Button>
        </div>
      ) : binding ? (
        <Suspense fallback={<Skeleton className="h-56 w-full" />}>
          <BilibiliQr
            onDone={() => setBinding(false)}
          />
        </Suspense>
      ) : (
        <>
          {me.data.expired ? (
            <Notice tone="warning" testId="bilibili-expired">
              {t('bilibili.expired')}
            </Notice>
          ) : (
            <p className="text-sm text-zinc-500 dark:text-zinc-400" data-testid="bilibili-none">
              {t('bilibili.none')}
            </p>
          )}
          <Button variant="outline" size="sm" data-testid="bilibili-bind" onClick={() => setBinding(true)}>
            {t(me.data.expired ? 'bilibili.bindAgain' : 'bilibili.bind')}
          </Button>
        </>
      )}
      <ConfirmDialog open={unbinding} onOpenChange={setUnbinding} title={t('platforms.unbind')} description={t('bilibili.unbindConfirm')} confirmLabel={t('platforms.unbind')} onConfirm={unbind} />
    </section>
  );
}
