'use client';
import { useAtomValue } from 'jotai';
import { usePathname } from 'next/navigation';
import { useEffect, useState } from 'react';
import { buildMenu, returnPathOf, signupAllowed, type MenuEntry } from '@/config/menu';
import { cinemaPath, matchRoute } from '@/config/routes';
import { roleOf } from '@/lib/contract/roles';
import { roomIdAtom } from '@/lib/room/room-id';
import { publicSettingsAtom, userAtom } from '@/lib/session';

/**
 * The header's links for the session and the open room (`roomIdAtom`: the cinema link while the
 * viewing hall is open), plus the name of the active route. Log in and Register carry the current
 * page as `redirect`.
 */
export function useMenu(): { entries: MenuEntry[]; activeName: string } {
  const pathname = usePathname();
  // The query exists only in the real URL (pages are prerendered without it): read after each navigation.
  const [search, setSearch] = useState('');
  useEffect(() => setSearch(window.location.search), [pathname]);
  const user = useAtomValue(userAtom);
  const settings = useAtomValue(publicSettingsAtom);
  const roomId = useAtomValue(roomIdAtom);
  const activeName = matchRoute(pathname).name;
  const entries = buildMenu({
    role: roleOf(user),
    guestEnable: settings?.guestEnable ?? false,
    signupAllowed: signupAllowed(settings),
    cinemaPath: roomId ? cinemaPath(roomId) : null,
    returnTo: returnPathOf(activeName, pathname, search),
  });
  return { entries, activeName };
}
