'use client';
import { Loader2, ShieldAlert } from 'lucide-react';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useEffect, useRef, useState } from 'react';
import { FormCard } from '@/components/common/form-card';
import { Notice } from '@/components/common/notice';
import { buttonClasses } from '@/components/ui/button';
import { useCompleteSignIn } from '@/hooks/use-complete-sign-in';
import { useErrorDescription } from '@/hooks/use-error-description';
import { usePathSegment } from '@/hooks/use-path-segment';
import { finishOAuth2 } from '@/hooks/data/account';
import { oauth2Label } from '@/lib/contract/oauth2';
import { safeRedirect } from '@/lib/guard';
import { useLocale, useT } from '@/lib/i18n';
import { notifySuccess } from '@/lib/notify';
import '@/lib/i18n/messages/auth';
import '@/lib/i18n/messages/account';

type Outcome = { kind: 'working' } | { kind: 'refused'; message: string } | { kind: 'error'; error: unknown } | { kind: 'missing' };

/**
 * `/oauth2/callback/{platform}?code&state` (docs/contract.md §4.7, docs/reference-client.md §1.3): POSTs
 * `{code, state}` once. Sign-in stores the token and goes to the saved redirect; binding goes back
 * (normally to the user center) with a notice; a banned or pending account, a refused code or an
 * expired state each get a clear screen with a way back.
 */
export function OAuthCallbackScreen() {
  const t = useT();
  const [locale] = useLocale();
  const router = useRouter();
  const platform = usePathSegment(2) ?? '';
  const completeSignIn = useCompleteSignIn();
  const [outcome, setOutcome] = useState<Outcome>({ kind: 'working' });
  const described = useErrorDescription(outcome.kind === 'error' ? outcome.error : null);
  const started = useRef(false);
  const provider = oauth2Label(platform, locale);

  useEffect(() => {
    if (!platform || started.current) return;
    // A code is single-use: React's development double effects must not send it twice.
    started.current = true;
    const query = new URLSearchParams(window.location.search);
    const code = query.get('code') ?? '';
    const state = query.get('state') ?? '';
    if (!code || !state) {
      setOutcome({ kind: 'missing' });
      return;
    }
    void (async () => {
      try {
        const result = await finishOAuth2(platform, { code, state });
        if (result.type === 'bind') {
          notifySuccess(t('callback.bound', { provider }));
          router.replace(safeRedirect(result.redirect || '/user/me'));
          return;
        }
        const refusal = await completeSignIn({ token: result.token, message: result.message, role: result.role ?? 0 });
        if (refusal) {
          setOutcome({ kind: 'refused', message: refusal });
          return;
        }
        notifySuccess(t('login.success'));
        router.replace(safeRedirect(result.redirect));
      } catch (error) {
        setOutcome({ kind: 'error', error });
      }
    })();
  }, [platform, completeSignIn, router, t, provider]);

  const failed = outcome.kind !== 'working';
  return (
    <FormCard testId="page-callback" icon={failed ? <ShieldAlert /> : <Loader2 className="animate-spin" />} title={t('route.callback')} subtitle={provider}>
      {outcome.kind === 'working' ? (
        <p role="status" className="text-center text-sm text-zinc-500 dark:text-zinc-400">
          {t('callback.verifying')}
        </p>
      ) : (
        <div className="space-y-5" data-testid="callback-failed">
          <Notice tone={outcome.kind === 'refused' ? 'warning' : 'error'}>
            <p className="font-medium">{t('callback.failed')}</p>
            <p className="mt-1">
              {outcome.kind === 'refused'
                ? outcome.message
                : outcome.kind === 'missing'
                  ? t('callback.missing')
                  : (described?.message ?? '')}
            </p>
          </Notice>
          <div className="flex flex-wrap gap-3">
            <Link href="/auth/login" className={buttonClasses('primary')}>
              {t('callback.back')}
            </Link>
            <Link href="/user/me" className={buttonClasses('outline')}>
              {t('callback.backProfile')}
            </Link>
          </div>
        </div>
      )}
    </FormCard>
  );
}
