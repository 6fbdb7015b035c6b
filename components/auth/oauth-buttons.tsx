'use client';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Notice } from '@/components/common/notice';
import { useErrorDescription } from '@/hooks/use-error-description';
import { startOAuth2Login, useOAuth2Providers } from '@/hooks/data/account';
import { oauth2Label } from '@/lib/contract/oauth2';
import { ProviderIcon } from './provider-icon';
import { useLocale, useT } from '@/lib/i18n';
import '@/lib/i18n/messages/auth';
import '@/lib/i18n/messages/account';

export interface OAuthButtonsProps {
  /** `login`: `GET /oauth2/enabled`; `signup`: `GET /oauth2/enabled/signup`. */
  purpose: 'login' | 'signup';
  /** Where the client goes after the sign-in (a same-site path). */
  redirect: string;
  /** Shows "or continue with" above the buttons (when there is at least one). */
  withHeading?: boolean;
}

/**
 * One button per OAuth2 provider the server enables (docs/reference-client.md §1.3): `POST
 * /oauth2/login/:provider {redirect}`, then the browser goes to the returned authorization URL.
 * Renders nothing when no provider is enabled.
 */
export function OAuthButtons({ purpose, redirect, withHeading = false }: OAuthButtonsProps) {
  const t = useT();
  const [locale] = useLocale();
  const { data: providers } = useOAuth2Providers(purpose);
  const [starting, setStarting] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const failure = useErrorDescription(error)?.message;
  if (!providers?.length) return null;

  const start = async (provider: string) => {
    setStarting(provider);
    setError(null);
    try {
      const { url } = await startOAuth2Login(provider, redirect);
      window.location.assign(url);
    } catch (caught) {
      setError(caught);
      setStarting(null);
    }
  };

  return (
    <div className="space-y-3" data-testid={`oauth-${purpose}`}>
      {withHeading ? <p className="text-center text-xs text-zinc-500 dark:text-zinc-400">{t('oauth.or')}</p> : null}
      <div className="grid grid-cols-1 gap-2 sm:grid-cols-2">
        {providers.map((provider) => {
          const name = oauth2Label(provider, locale);
          return (
            <Button
              key={provider}
              variant="outline"
              data-testid={`oauth-${provider}`}
              loading={starting === provider}
              disabled={starting !== null}
              onClick={() => void start(provider)}
            >
              {starting === provider ? null : <ProviderIcon provider={provider} />}
              {t(purpose === 'login' ? 'oauth.continueWith' : 'oauth.signupWith', { provider: name })}
            </Button>
          );
        })}
      </div>
      {failure ? <Notice tone="error">{failure}</Notice> : null}
    </div>
  );
}
