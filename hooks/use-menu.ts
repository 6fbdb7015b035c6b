'use client';
import { useAtomValue } from 'jotai';
import { usePathname } from 'next/navigation';
import { buildMenu, signupAllowed, type MenuEntry } from '@/config/menu';
import { matchRoute, normalizePath } from '@/config/routes';
import { useMounted } from '@/hooks/use-mounted';
import { roleOf } from '@/lib/contract/roles';
import { publicSettingsAtom, userAtom } from '@/lib/session';

/** The header's links for the current session and page, plus the name of the active route. */
export function useMenu(): { entries: MenuEntry[]; activeName: string } {
  const pathname = usePathname();
  const mounted = useMounted();
  const user = useAtomValue(userAtom);
  const settings = useAtomValue(publicSettingsAtom);
  const activeName = matchRoute(pathname).name;
  // The cinema link carries the real room id, which only exists after mount (the HTML was prerendered for `_`).
  const cinemaPath = mounted && activeName === 'cinema' ? normalizePath(pathname) : null;
  const entries = buildMenu({
    role: roleOf(user),
    guestEnable: settings?.guestEnable ?? false,
    signupAllowed: signupAllowed(settings),
    cinemaPath,
  });
  return { entries, activeName };
}
