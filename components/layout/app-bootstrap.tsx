'use client';
import { useSetAtom } from 'jotai';
import { useRouter } from 'next/navigation';
import { useEffect, useLayoutEffect, useRef } from 'react';
import { clearLocalSession } from '@/components/auth/session';
import { joinRoomPath } from '@/components/rooms/room-links';
import { readToken, setUnauthorizedHandler } from '@/lib/api/client';
import { getPublicSettings } from '@/lib/api/public';
import { SIGN_OUT_REDIRECT_DELAY_MS } from '@/lib/api/unauthorized';
import { getMe } from '@/lib/api/user';
import { useLocaleBootstrap } from '@/lib/i18n';
import { notifyError } from '@/lib/notify';
import { publicSettingsAtom, sessionReadyAtom, userAtom } from '@/lib/session';

/** Repeated 401s from one burst of requests (a page fires several) lead to one navigation; ms. */
const JOIN_ROOM_DEDUPE_MS = 1000;

/**
 * Start-up (issue 2 Part A; reference-client.md §6): the user (`GET /api/user/me`, only with a stored
 * token), then the public settings, then `sessionReadyAtom`, which lets the guard decide. Failures are
 * notified and the app keeps working as a visitor. Also installs the router-aware 401 rules.
 */
export function AppBootstrap() {
  useLocaleBootstrap();
  const router = useRouter();
  const setUser = useSetAtom(userAtom);
  const setSettings = useSetAtom(publicSettingsAtom);
  const setReady = useSetAtom(sessionReadyAtom);
  const started = useRef(false);

  // A layout effect, so the handler is in place before any page's SWR fetch (SWR revalidates in layout effects too).
  useLayoutEffect(() => {
    let homeTimer: ReturnType<typeof setTimeout> | null = null;
    let lastJoin = { path: '', at: 0 };
    setUnauthorizedHandler((action) => {
      if (action.kind === 'joinRoom') {
        const path = joinRoomPath(action.roomId);
        const now = Date.now();
        if (lastJoin.path === path && now - lastJoin.at < JOIN_ROOM_DEDUPE_MS) return;
        lastJoin = { path, at: now };
        router.push(path);
        return;
      }
      clearLocalSession();
      if (homeTimer) return;
      homeTimer = setTimeout(() => {
        homeTimer = null;
        router.replace('/');
      }, SIGN_OUT_REDIRECT_DELAY_MS);
    });
    return () => {
      if (homeTimer) clearTimeout(homeTimer);
    };
  }, [router]);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void (async () => {
      if (readToken()) {
        try {
          setUser(await getMe());
        } catch (error) {
          notifyError(error);
        }
      }
      try {
        setSettings(await getPublicSettings());
      } catch (error) {
        notifyError(error);
      }
      setReady(true);
    })();
  }, [setUser, setSettings, setReady]);

  return null;
}
