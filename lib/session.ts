/**
 * The session (jotai atoms in the default store, which non-React code such as the API client's 401
 * rules shares): the token, the signed-in user, the public settings and whether start-up has finished.
 * The token's lasting copy is in localStorage (`userToken`, lib/storage.ts), which the API client reads
 * on every request; `tokenAtom` mirrors it for the UI. Signing in and out go through the two
 * functions below, so that storage and atoms never disagree.
 */
import { atom, getDefaultStore } from 'jotai';
import type { PublicSettings, UserInfo } from '@/lib/contract/types';
import { clearSession, readToken, writeToken } from '@/lib/storage';

/** The raw JWT of this device's session, or null (a visitor, or a guest in a room). */
export const tokenAtom = atom<string | null>(null);

/** The signed-in user from `GET /api/user/me`, or null for a visitor. */
export const userAtom = atom<UserInfo | null>(null);

/** `GET /api/public/settings` (docs/contract.md §4.1), or null until loaded (or when it failed). */
export const publicSettingsAtom = atom<PublicSettings | null>(null);

/**
 * True once start-up has finished, successfully or not: `GET /api/user/me` (only with a stored token),
 * then `GET /api/public/settings`. No screen calls the API before (components/layout/app-bootstrap.tsx).
 */
export const sessionReadyAtom = atom<boolean>(false);

/** Reads the stored token into `tokenAtom` (start-up) and returns it. */
export function loadStoredToken(): string | null {
  const token = readToken();
  getDefaultStore().set(tokenAtom, token);
  return token;
}

/**
 * Keeps a token a server issued (login, signup, password change, OAuth2; §3.1): on this device, or
 * with `remember` false in this tab only (lib/storage.ts `writeToken`).
 */
export function storeToken(token: string, remember?: boolean): void {
  writeToken(token, remember);
  getDefaultStore().set(tokenAtom, token);
}

/**
 * Signs out on this device only: clears the stored session (lib/storage.ts `clearSession`: token,
 * room passwords; the theme and language stay) and the session atoms. It never calls
 * `POST /api/user/logout`, which deletes the account on a SyncTV server (docs/contract.md §11 a).
 */
export function signOutLocally(): void {
  clearSession();
  const store = getDefaultStore();
  store.set(tokenAtom, null);
  store.set(userAtom, null);
}
