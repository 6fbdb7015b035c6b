'use client';
import { useRouter } from 'next/navigation';
import { useCallback } from 'react';
import { useT } from '@/lib/i18n';
import { notifySuccess } from '@/lib/notify';
import { signOutLocally } from '@/lib/session';

/**
 * Signing out from the header's menu or the profile: clears this device's session
 * (`signOutLocally`, never `POST /api/user/logout`, which deletes the account on SyncTV,
 * docs/contract.md §11 a), says so, and goes home.
 */
export function useSignOut(): () => void {
  const t = useT();
  const router = useRouter();
  return useCallback(() => {
    signOutLocally();
    notifySuccess(t('session.signedOut'));
    router.replace('/');
  }, [t, router]);
}
