/**
 * Dark mode before first paint. The stored flag (`isDarkMode`, "true"/"false", as in the reference
 * client) wins; without one the OS preference decides. Runs as an inline script in <head>, so the
 * page never flashes light before React hydrates.
 */
import { STORAGE_KEYS } from '@/lib/storage';


/** Whether dark mode is on, from the stored flag or else the OS preference. */
export function resolveDarkMode(stored: string | null, prefersDark: boolean): boolean {
  if (stored === 'true') return true;
  if (stored === 'false') return false;
  return prefersDark;
}

export const THEME_INIT_SCRIPT = `(function(){try{var s=localStorage.getItem(${JSON.stringify(STORAGE_KEYS.darkMode)});` +
  `var d=s==='true'||(s!=='false'&&window.matchMedia('(prefers-color-scheme: dark)').matches);` +
  `document.documentElement.classList.toggle('dark',d);}catch(e){}})();`;
