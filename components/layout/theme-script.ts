/**
 * Dark mode before first paint. The stored flag (`isDarkMode`, "true"/"false", as in the reference
 * client) wins; without one the OS preference decides. Runs as an inline script in <head>, so the
 * page never flashes light before React hydrates.
 */
import { STORAGE_KEYS } from '@/lib/storage';

/** The inline <head> script: the stored flag, else `prefers-color-scheme`, sets the `dark` class on <html>. */
export const THEME_INIT_SCRIPT = `(function(){try{var s=localStorage.getItem(${JSON.stringify(STORAGE_KEYS.darkMode)});` +
  `var d=s==='true'||(s!=='false'&&window.matchMedia('(prefers-color-scheme: dark)').matches);` +
  `document.documentElement.classList.toggle('dark',d);}catch(e){}})();`;
