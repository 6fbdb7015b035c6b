/**
 * Session state (jotai atoms in the default store). The token itself lives in localStorage
 * (`userToken`, read through `readToken()` in lib/api/client.ts) because the reference client and
 * its 401 rules use that key; these atoms hold what start-up loaded.
 */
import { atom } from 'jotai';
import type { PublicSettings, UserInfo } from '@/lib/api/types';

/** The signed-in user from `GET /api/user/me`, or null for a visitor. */
export const userAtom = atom<UserInfo | null>(null);

/** `GET /api/public/settings`, or null until loaded (or when it failed). */
export const publicSettingsAtom = atom<PublicSettings | null>(null);

/** True once start-up (user info, then public settings) has finished, successfully or not. */
export const sessionReadyAtom = atom<boolean>(false);
