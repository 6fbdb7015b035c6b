'use client';
import { atom, useAtom } from 'jotai';
import { useCallback, useEffect } from 'react';
import { DARK_MODE_STORAGE_KEY } from '@/components/layout/theme-script';

/** Dark mode on/off; null until read from <html> after mount (the prerender cannot know it). */
export const darkModeAtom = atom<boolean | null>(null);

/**
 * The dark-mode state and a toggle that flips the `dark` class on <html> and stores the flag in
 * localStorage `isDarkMode` ("true"/"false").
 */
export function useDarkMode(): [boolean | null, () => void] {
  const [isDark, setIsDark] = useAtom(darkModeAtom);

  useEffect(() => {
    if (isDark === null) setIsDark(document.documentElement.classList.contains('dark'));
  }, [isDark, setIsDark]);

  const toggle = useCallback(() => {
    const next = !document.documentElement.classList.contains('dark');
    document.documentElement.classList.toggle('dark', next);
    try {
      window.localStorage.setItem(DARK_MODE_STORAGE_KEY, String(next));
    } catch {
      /* storage blocked: the switch still applies to this page */
    }
    setIsDark(next);
  }, [setIsDark]);

  return [isDark, toggle];
}
