'use client';
import { useSetAtom } from 'jotai';
import { useCallback } from 'react';
import type { TokenResponse } from '@/lib/contract/types';
import { getMe } from '@/lib/api/user';
import { useT } from '@/lib/i18n';
import { notifyError, notifyWarning } from '@/lib/notify';
import { Role } from '@/lib/contract/roles';
import { storeToken, userAtom } from '@/lib/session';
import '@/lib/i18n/messages/auth';

/**
 * Finishes a login or signup answer (server-contract.md §3.1): with a token, stores it and loads
 * `GET /api/user/me` into the session; without one (banned or pending account) notifies why.
 * Resolves to null when signed in, or to the refusal text. Throws `ApiError` if `/me` fails.
 */
export function useCompleteSignIn(): (answer: TokenResponse | undefined) => Promise<string | null> {
  const t = useT();
  const setUser = useSetAtom(userAtom);
  return useCallback(
    async (answer) => {
      if (!answer?.token) {
        if (answer?.role === Role.Pending) {
          const text = t('login.pending');
          notifyWarning(text);
          return text;
        }
        const text = answer?.role === Role.Banned ? t('login.banned') : answer?.message || t('login.failed');
        notifyError(new Error(text));
        return text;
      }
      storeToken(answer.token);
      setUser(await getMe());
      return null;
    },
    [t, setUser],
  );
}
