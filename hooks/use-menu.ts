'use client';
import { useAtomValue } from 'jotai';
import { usePathname } from 'next/navigation';
import { buildMenu, signupAllowed, type MenuEntry } from '@/config/menu';
import { cinemaPath, matchRoute } from '@/config/routes';
import { roleOf } from '@/lib/contract/roles';
import { roomIdAtom } from '@/lib/room/room-id';
import { publicSettingsAtom, userAtom } from '@/lib/session';

/**
 * The header's links for the session and the open room (`roomIdAtom`: the cinema link while the
 * viewing hall is open), plus the name of the active route.
 */
export function useMenu(): { entries: MenuEntry[]; activeName: string } {
  const pathname = usePathname();
  const user = useAtomValue(userAtom);
  const settings = useAtomValue(publicSettingsAtom);
  const roomId = useAtomValue(roomIdAtom);
  const activeName = matchRoute(pathname).name;
  const entries = buildMenu({
    role: roleOf(user),
    guestEnable: settings?.guestEnable ?? false,
    signupAllowed: signupAllowed(settings),
    cinemaPath: roomId ? cinemaPath(roomId) : null,
  });
  return { entries, activeName };
}
