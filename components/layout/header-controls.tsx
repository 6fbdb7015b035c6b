'use client';
import { Languages, Moon, Sun } from 'lucide-react';
import { useDarkMode } from '@/hooks/use-dark-mode';
import { useLocale, useT } from '@/lib/i18n';

const iconButton =
  'inline-flex h-9 min-w-9 cursor-pointer items-center justify-center rounded-lg px-2 text-sm font-semibold text-zinc-600 ' +
  'transition-colors hover:bg-zinc-100 hover:text-zinc-900 dark:text-zinc-300 dark:hover:bg-zinc-800 dark:hover:text-white';

/** Flips dark mode; the icon follows the `dark` class so that it is right before hydration too. */
export function ThemeToggle() {
  const t = useT();
  const [isDark, toggle] = useDarkMode();
  return (
    <button
      type="button"
      data-testid="theme-toggle"
      className={iconButton}
      onClick={toggle}
      aria-label={isDark ? t('theme.toLight') : t('theme.toDark')}
      title={isDark ? t('theme.toLight') : t('theme.toDark')}
    >
      <Moon className="h-5 w-5 dark:hidden" aria-hidden />
      <Sun className="hidden h-5 w-5 dark:block" aria-hidden />
    </button>
  );
}

/** Switches between Simplified Chinese and English (stored locally). */
export function LocaleToggle() {
  const t = useT();
  const [locale, setLocale] = useLocale();
  return (
    <button
      type="button"
      data-testid="locale-toggle"
      className={iconButton}
      onClick={() => setLocale(locale === 'zh' ? 'en' : 'zh')}
      title={t('locale.switch')}
      lang={locale === 'zh' ? 'en' : 'zh-CN'}
    >
      {/* The name comes from the content, so it always holds the visible short text (WCAG 2.5.3). */}
      <Languages className="h-4.5 w-4.5" aria-hidden />
      <span className="ml-1 hidden sm:inline">{t('locale.short')}</span>
      <span className="sr-only">{t('locale.switch')}</span>
    </button>
  );
}
