'use client';
import { useState } from 'react';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { LoadError } from '@/components/common/load-error';
import { RelativeTime } from '@/components/common/relative-time';
import { Skeleton } from '@/components/ui/skeleton';
import { Button } from '@/components/ui/button';
import { useAccountActions, useLinkedProviders } from '@/hooks/data/account';
import { oauth2Label } from '@/lib/contract/oauth2';
import { ProviderIcon } from '@/components/auth/provider-icon';
import { useLocale, useT } from '@/lib/i18n';
import { notifyError, notifySuccess } from '@/lib/notify';
import '@/lib/i18n/messages/user';

/**
 * Linked sign-in providers (docs/reference-client.md §1.6): `GET /api/user/providers` lists every enabled
 * provider; bound ones show when and can be unlinked (`POST /oauth2/unbind/:p`, after a
 * confirmation); others can be linked (`POST /oauth2/bind/:p {redirect: "/user/me"}`, then the
 * provider's page, then the callback screen, which comes back here).
 */
export function LinkedProviders() {
  const t = useT();
  const [locale] = useLocale();
  const providers = useLinkedProviders();
  const actions = useAccountActions();
  const [busy, setBusy] = useState<string | null>(null);
  const [unbinding, setUnbinding] = useState<string | null>(null);
  const entries = Object.entries(providers.data ?? {});

  const bind = async (provider: string) => {
    setBusy(provider);
    try {
      window.location.assign(await actions.linkProvider(provider, '/user/me'));
    } catch (error) {
      notifyError(error);
      setBusy(null);
    }
  };
  const unbind = async () => {
    if (!unbinding) return;
    try {
      await actions.unlinkProvider(unbinding);
      notifySuccess(t('profile.providerUnbindDone', { provider: oauth2Label(unbinding, locale) }));
    } catch (error) {
      notifyError(error);
    }
  };

  if (providers.error) return <LoadError title="profile.providers" error={providers.error} onRetry={() => void providers.mutate()} />;
  if (!providers.data) return <Skeleton className="h-10 w-full" />;
  if (entries.length === 0) return <p className="text-sm text-zinc-500 dark:text-zinc-400">{t('profile.providersNone')}</p>;
  return (
    <>
      <ul className="space-y-2" data-testid="providers">
        {entries.map(([provider, link]) => {
          const name = oauth2Label(provider, locale);
          const bound = link.createdAt > 0;
          return (
            <li key={provider} data-testid={`provider-${provider}`} className="flex items-center justify-between gap-3 text-sm">
              <div className="flex min-w-0 items-center gap-3">
                <ProviderIcon provider={provider} className="h-5 w-5" />
                <div className="min-w-0">
                  <p className="font-medium">{name}</p>
                  <p className="text-xs text-zinc-500 dark:text-zinc-400" data-testid={`provider-${provider}-state`}>
                    {bound ? t('profile.providerBound', { time: '' }) : t('profile.providerUnbound')}
                    {bound ? <RelativeTime timeMs={link.createdAt} /> : null}
                  </p>
                </div>
              </div>
              {bound ? (
                <Button variant="ghost" size="sm" data-testid={`provider-${provider}-unbind`} onClick={() => setUnbinding(provider)}>
                  {t('profile.unbind')}
                </Button>
              ) : (
                <Button
                  variant="outline"
                  size="sm"
                  data-testid={`provider-${provider}-bind`}
                  loading={busy === provider}
                  disabled={busy !== null}
                  onClick={() => void bind(provider)}
                >
                  {t('profile.bind')}
                </Button>
              )}
            </li>
          );
        })}
      </ul>
      <ConfirmDialog
        open={unbinding !== null}
        onOpenChange={(open) => !open && setUnbinding(null)}
        title={t('profile.unbind')}
        description={t('profile.unbindProviderConfirm', { provider: oauth2Label(unbinding ?? '', locale) })}
        confirmLabel={t('profile.unbind')}
        onConfirm={unbind}
      />
    </>
  );
}
