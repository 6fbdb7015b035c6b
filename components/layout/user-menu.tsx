'use client';
import { ChevronDown, Languages, LogOut, Moon, ShieldCheck, Sun, UserRound } from 'lucide-react';
import { useRouter } from 'next/navigation';
import { ActionMenu } from '@/components/ui/action-menu';
import { useDarkMode } from '@/hooks/use-dark-mode';
import { useSignOut } from '@/hooks/use-sign-out';
import { Role } from '@/lib/contract/roles';
import type { UserInfo } from '@/lib/contract/types';
import { useLocale, useT } from '@/lib/i18n';

export interface UserMenuProps {
  user: UserInfo;
}

/**
 * The signed-in user's menu in the header: the username opens it (a Radix dropdown menu, loaded on
 * the first open). Profile, the admin console for site admins (role >= Admin), the language,
 * dark mode, and signing out (on this device only).
 */
export function UserMenu({ user }: UserMenuProps) {
  const t = useT();
  const router = useRouter();
  const [locale, setLocale] = useLocale();
  const [isDark, toggleDark] = useDarkMode();
  const signOut = useSignOut();

  return (
    <ActionMenu
      label={t('nav.userMenu', { name: user.username })}
      testId="header-username"
      className="ml-1 flex max-w-32 cursor-pointer items-center gap-1.5 rounded-lg px-2 py-1.5 text-sm font-medium text-zinc-700 hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-brand-500 sm:max-w-44 dark:text-zinc-200 dark:hover:bg-zinc-800"
      items={[
        { id: 'profile', testId: 'user-menu-profile', icon: <UserRound />, label: t('nav.myself'), onSelect: () => router.push('/user/me') },
        ...(user.role >= Role.Admin
          ? [{ id: 'admin', testId: 'user-menu-admin', icon: <ShieldCheck />, label: t('route.admin'), onSelect: () => router.push('/admin') }]
          : []),
        'separator',
        {
          id: 'locale',
          testId: 'user-menu-locale',
          icon: <Languages />,
          label: <span lang={locale === 'zh' ? 'en' : 'zh-CN'}>{t('locale.switch')}</span>,
          onSelect: () => setLocale(locale === 'zh' ? 'en' : 'zh'),
        },
        {
          id: 'theme',
          testId: 'user-menu-theme',
          icon: isDark ? <Sun /> : <Moon />,
          label: isDark ? t('theme.toLight') : t('theme.toDark'),
          onSelect: toggleDark,
        },
        'separator',
        { id: 'sign-out', testId: 'user-menu-sign-out', icon: <LogOut />, label: t('session.signOut'), onSelect: signOut },
      ]}
    >
      <UserRound className="h-4.5 w-4.5 shrink-0" aria-hidden />
      <span className="truncate">{user.username}</span>
      <ChevronDown className="h-3.5 w-3.5 shrink-0 text-zinc-500" aria-hidden />
    </ActionMenu>
  );
}
