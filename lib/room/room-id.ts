/**
 * The id of the room open in the viewing hall, on its own so that the app shell (the header's menu)
 * can read it without downloading the rest of the room's atoms (./atoms.ts re-exports it).
 */
import { atom } from 'jotai';

/** The id of the room open in the viewing hall (32 hex characters), or null outside a room. */
export const roomIdAtom = atom<string | null>(null);
