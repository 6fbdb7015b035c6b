/**
 * The local session: the token in localStorage and the atoms start-up filled. Signing out only ever
 * clears this device's state; it never calls `POST /api/user/logout`, which deletes the account on a
 * SyncTV server (server-contract.md §11 a).
 */
import { getDefaultStore } from 'jotai';
import { DARK_MODE_STORAGE_KEY } from '@/components/layout/theme-script';
import { TOKEN_STORAGE_KEY } from '@/lib/api/client';
import { LOCALE_STORAGE_KEY } from '@/lib/i18n';
import { userAtom } from '@/lib/session';

// The reference client wipes all of localStorage; we keep the two display preferences so that signing
// out does not also flip the theme and the language.
const KEPT_KEYS = [DARK_MODE_STORAGE_KEY, LOCALE_STORAGE_KEY];

/** Clears localStorage (token, cached room passwords, …) except the theme and language, and the user atom. */
export function clearLocalSession(): void {
  try {
    const kept = KEPT_KEYS.map((key) => [key, window.localStorage.getItem(key)] as const);
    window.localStorage.clear();
    for (const [key, value] of kept) if (value !== null) window.localStorage.setItem(key, value);
  } catch {
    /* storage unavailable: nothing stored to clear */
  }
  getDefaultStore().set(userAtom, null);
}

/** Stores the raw JWT where the API client reads it (`userToken`). */
export function storeToken(token: string): void {
  window.localStorage.setItem(TOKEN_STORAGE_KEY, token);
}
