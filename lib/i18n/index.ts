'use client';
/**
 * Language state and hooks. The language comes from localStorage (`locale`), else the browser
 * (`navigator.language`: Chinese → zh, anything else → en). The first render always uses `zh` so that
 * it matches the prerendered HTML; `useLocaleBootstrap` switches after mount.
 */
import { atom, getDefaultStore, useAtom, useAtomValue } from 'jotai';
import { useCallback, useEffect } from 'react';
import { readLocale, writeLocale } from '@/lib/storage';
import { translate, type Locale, type MessageKey } from './messages';

export type { Locale, MessageKey };

/** The current language. */
export const localeAtom = atom<Locale>('zh');

/** Picks the language a visitor sees when nothing is stored. */
export function detectLocale(stored: string | null, browserLanguages: readonly string[]): Locale {
  if (stored === 'zh' || stored === 'en') return stored;
  const first = browserLanguages[0]?.toLowerCase() ?? '';
  return first.startsWith('zh') ? 'zh' : 'en';
}

/** Reads the stored or browser language once after mount (call once, in the app shell). */
export function useLocaleBootstrap(): void {
  const [, setLocale] = useAtom(localeAtom);
  useEffect(() => {
    const locale = detectLocale(readLocale(), navigator.languages?.length ? navigator.languages : [navigator.language]);
    setLocale(locale);
    document.documentElement.lang = locale === 'zh' ? 'zh-CN' : 'en';
  }, [setLocale]);
}

/** The current language and a setter that also stores it. */
export function useLocale(): [Locale, (locale: Locale) => void] {
  const [locale, setLocaleAtom] = useAtom(localeAtom);
  const setLocale = useCallback(
    (next: Locale) => {
      setLocaleAtom(next);
      writeLocale(next);
      document.documentElement.lang = next === 'zh' ? 'zh-CN' : 'en';
    },
    [setLocaleAtom],
  );
  return [locale, setLocale];
}

/** Translation function for the current language: `t('route.home')`, `t('rooms.count', {n: 3})`. */
export function useT(): (key: MessageKey, params?: Record<string, string | number>) => string {
  const locale = useAtomValue(localeAtom);
  return useCallback((key, params) => translate(locale, key, params), [locale]);
}

/** Translates outside React (toasts from non-component code), with the current language. */
export function t(key: MessageKey, params?: Record<string, string | number>): string {
  return translate(getDefaultStore().get(localeAtom), key, params);
}
