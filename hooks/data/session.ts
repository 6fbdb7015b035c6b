'use client';
/**
 * Start-up (docs/reference-client.md §6 "Start-up"): the user (`GET /api/user/me`, only with a stored
 * token) and the public settings (`GET /api/public/settings`) at once, then `sessionReadyAtom`.
 * Nothing else calls the API before: the route guard waits for it and the SWR hooks' keys stay null
 * until then (hooks/swr-after-startup.ts). Failures are notified and the app keeps working as a
 * visitor. Also lets the API client's 401 rules (lib/api/unauthorized.ts) navigate with the app
 * router instead of full page loads.
 */
import { useSetAtom } from 'jotai';
import { useRouter } from 'next/navigation';
import { useEffect, useLayoutEffect, useRef } from 'react';
import { getPublicSettings } from '@/lib/api/public';
import { resetUnauthorizedState, setNavigator } from '@/lib/api/unauthorized';
import { getMe } from '@/lib/api/user';
import type { PublicSettings, UserInfo } from '@/lib/contract/types';
import { notifyError } from '@/lib/notify';
import { takeEarlyAnswer } from '@/lib/room/early-start';
import { loadStoredToken, publicSettingsAtom, sessionReadyAtom, userAtom } from '@/lib/session';

/** Loads the session once per page load (see the module comment); call it once, at the app's root. */
export function useSessionStartup(): void {
  const router = useRouter();
  const setUser = useSetAtom(userAtom);
  const setSettings = useSetAtom(publicSettingsAtom);
  const setReady = useSetAtom(sessionReadyAtom);
  const started = useRef(false);

  // A layout effect, so that the router is in place before any page's effects can send a request.
  useLayoutEffect(() => {
    setNavigator({ push: (path) => router.push(path), replace: (path) => router.replace(path) });
    return () => {
      setNavigator(null);
      resetUnauthorizedState();
    };
  }, [router]);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    // Both at once: the public settings do not depend on the user, and on a phone (150 ms round
    // trips) every request in a row delays the first screen (bench/first-frame.ts). A room link's
    // document has asked for both already (lib/room/early-start.ts): those answers are taken first.
    const token = loadStoredToken();
    const user = token
      ? takeEarlyAnswer<UserInfo>('user', null, token)
          .then((early) => early?.data ?? getMe())
          .then(setUser, (error: unknown) => notifyError(error))
      : Promise.resolve();
    const settings = takeEarlyAnswer<PublicSettings>('settings', null, token ?? '')
      .then((early) => early?.data ?? getPublicSettings())
      .then(setSettings, (error: unknown) => notifyError(error));
    void Promise.all([user, settings]).then(() => setReady(true));
  }, [setUser, setSettings, setReady]);
}
