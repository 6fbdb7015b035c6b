'use client';
import { clsx } from 'clsx';
import { useAtomValue } from 'jotai';
import { Clapperboard, Menu } from 'lucide-react';
import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { lazy, Suspense, useEffect, useState } from 'react';
import type { MenuEntry } from '@/config/menu';
import { useT } from '@/lib/i18n';
import { userAtom } from '@/lib/session';
import { LocaleToggle, ThemeToggle } from './header-controls';
import { useMenu } from '@/hooks/use-menu';
import { takeEarlyMenuTap } from './early-input';

// The panel (Radix Dialog, focus trap, scroll lock) loads on the first press of the menu button, not
// with every page: most visitors never open it, and on wide screens it does not exist.
const Sheet = lazy(() => import('@/components/ui/sheet').then((m) => ({ default: m.Sheet })));
// The user menu exists only once someone is signed in, which start-up learns after the first render:
// visitors never download it.
const UserMenu = lazy(() => import('./user-menu').then((m) => ({ default: m.UserMenu })));

const linkBase = 'whitespace-nowrap rounded-lg px-3 py-2 text-sm font-medium transition-colors';
const linkIdle = 'text-zinc-600 hover:bg-zinc-100 hover:text-zinc-900 dark:text-zinc-300 dark:hover:bg-zinc-800 dark:hover:text-white';
const linkActive = 'bg-brand-50 text-brand-700 dark:bg-brand-500/15 dark:text-brand-300';

/**
 * The top bar: logo, the menu from config/menu.ts, language and theme switches, and the username,
 * which opens the user menu. Below `lg` the links move into a slide-in panel.
 */
export function Header() {
  const t = useT();
  const user = useAtomValue(userAtom);
  const { entries, activeName } = useMenu();
  const pathname = usePathname();
  const [menuOpen, setMenuOpen] = useState(false);
  // Set on the first open and kept, so that reopening is instant (the panel code is already there).
  const [menuUsed, setMenuUsed] = useState(false);
  const openMenu = () => {
    setMenuUsed(true);
    setMenuOpen(true);
  };

  // In the viewing hall the links do not prefetch other screens: on a phone that would take bandwidth
  // from the video's first frame (bench/first-frame.ts). They still work, a moment slower.
  const prefetch = pathname?.startsWith('/cinema/') ? false : undefined;

  // Close the mobile menu on every navigation, including back/forward.
  useEffect(() => setMenuOpen(false), [pathname]);
  // A tap on the button before the page had hydrated (./early-input.ts) opens the menu now. After the
  // effect above, which would close it again on the first render.
  useEffect(() => {
    if (!takeEarlyMenuTap()) return;
    setMenuUsed(true);
    setMenuOpen(true);
  }, []);

  return (
    <header className="sticky top-0 z-30 border-b border-zinc-200/80 bg-white/80 backdrop-blur-md dark:border-zinc-800/80 dark:bg-zinc-950/80">
      <div className="mx-auto flex h-14 max-w-6xl items-center gap-2 px-4 sm:px-6">
        <Link href="/" prefetch={prefetch} className="mr-2 flex shrink-0 items-center gap-2 rounded-lg font-semibold tracking-tight">
          <span className="inline-flex h-8 w-8 items-center justify-center rounded-lg bg-brand-600 text-white dark:bg-brand-500">
            <Clapperboard className="h-4.5 w-4.5" aria-hidden />
          </span>
          <span className="text-lg">SyncTV</span>
        </Link>

        <nav aria-label={t('nav.main')} className="hidden min-w-0 flex-1 items-center gap-0.5 lg:flex xl:gap-1">
          <MenuLinks entries={entries} activeName={activeName} sizeClass="lg:px-2 xl:px-3" prefetch={prefetch} />
        </nav>

        <div className="ml-auto flex items-center gap-1">
          {/* Signed in, the language and theme are also in the user menu: phones keep the bar short. */}
          <div className={clsx('items-center gap-1', user ? 'hidden sm:flex' : 'flex')}>
            <LocaleToggle />
            <ThemeToggle />
          </div>
          {user ? (
            <Suspense fallback={<span className="ml-1 max-w-32 truncate px-2 text-sm font-medium sm:max-w-44">{user.username}</span>}>
              <UserMenu user={user} />
            </Suspense>
          ) : null}
          <button
            type="button"
            data-testid="menu-toggle"
            // For the inline script that remembers an early tap (./early-input.ts EARLY_MENU_ATTRIBUTE).
            data-early-menu=""
            className="inline-flex h-9 w-9 cursor-pointer items-center justify-center rounded-lg text-zinc-700 hover:bg-zinc-100 lg:hidden dark:text-zinc-200 dark:hover:bg-zinc-800"
            onClick={openMenu}
            aria-label={t('nav.openMenu')}
            aria-expanded={menuOpen}
          >
            <Menu className="h-5 w-5" aria-hidden />
          </button>
        </div>
      </div>

      {menuUsed ? (
        <Suspense fallback={null}>
          <Sheet open={menuOpen} onOpenChange={setMenuOpen} title={t('nav.menu')} closeLabel={t('nav.closeMenu')}>
            <nav aria-label={t('nav.main')} className="flex flex-col gap-1">
              <MenuLinks entries={entries} activeName={activeName} sizeClass="py-3 text-base" onNavigate={() => setMenuOpen(false)} />
            </nav>
          </Sheet>
        </Suspense>
      ) : null}
    </header>
  );
}

interface MenuLinksProps {
  entries: MenuEntry[];
  /** The current route's name; its link is highlighted and marked `aria-current="page"`. */
  activeName: string;
  /** Spacing and text size of the links in this place (top bar or slide-in panel). */
  sizeClass: string;
  /** Runs when a link is followed (the panel closes itself). */
  onNavigate?: () => void;
  /** `false`: no prefetching (the viewing hall); undefined: Next's default. */
  prefetch?: false;
}

/** The menu's links (config/menu.ts), as `nav-<name>` test ids: in the top bar and in the panel. */
function MenuLinks({ entries, activeName, sizeClass, onNavigate, prefetch }: MenuLinksProps) {
  const t = useT();
  return entries.map((entry) => (
    <Link
      key={entry.name}
      href={entry.href}
      prefetch={prefetch}
      data-testid={`nav-${entry.name}`}
      aria-current={entry.name === activeName ? 'page' : undefined}
      onClick={onNavigate}
      className={clsx(linkBase, sizeClass, entry.name === activeName ? linkActive : linkIdle)}
    >
      {t(entry.title)}
    </Link>
  ));
}
