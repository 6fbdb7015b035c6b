'use client';
import { useSetAtom } from 'jotai';
import { useCallback } from 'react';
import { loadMe } from '@/hooks/data/account';
import { Role } from '@/lib/contract/roles';
import type { TokenResponse } from '@/lib/contract/types';
import { useT } from '@/lib/i18n';
import { storeToken, userAtom } from '@/lib/session';
import '@/lib/i18n/messages/auth';

/**
 * Finishes a login or signup answer (docs/contract.md §3.1): with a token, stores it and loads
 * `GET /api/user/me` into the session; without one (banned or pending account) resolves to the
 * words that say why, for the form to show (it does not toast them). Resolves to null when signed
 * in. `remember` false keeps the token for this tab only (the login form's "remember me"). Throws
 * `ApiError` if `/me` fails.
 */
export function useCompleteSignIn(): (answer: TokenResponse | undefined, remember?: boolean) => Promise<string | null> {
  const t = useT();
  const setUser = useSetAtom(userAtom);
  return useCallback(
    async (answer, remember = true) => {
      if (!answer?.token) {
        if (answer?.role === Role.Pending) return t('login.pending');
        return answer?.role === Role.Banned ? t('login.banned') : answer?.message || t('login.failed');
      }
      storeToken(answer.token, remember);
      setUser(await loadMe());
      return null;
    },
    [t, setUser],
  );
}
