'use client';
import { atom, useAtom } from 'jotai';
import { useCallback, useEffect } from 'react';
import { writeDarkMode } from '@/lib/storage';

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
    writeDarkMode(next);
    setIsDark(next);
  }, [setIsDark]);

  return [isDark, toggle];
}
