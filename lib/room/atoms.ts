/**
 * The open room (jotai atoms in the default store): which room, its info, my membership and what it
 * lets me do, the current movie and the room's playback status, the viewer count and the socket's
 * state, the chat. The room session (./session.ts) fills them and clears them when the hall closes;
 * the header, the hall and its panels read them. Lists (the movie list, members) stay in SWR.
 */
import { atom, getDefaultStore } from 'jotai';
import type { PlaybackState } from '@/lib/contract/playback';
import { roleOf } from '@/lib/contract/roles';
import type { CurrentMovie, RoomInfo, RoomMe, RoomSettings } from '@/lib/contract/types';
import { userAtom } from '@/lib/session';
import type { RoomSocketState } from '@/lib/ws/room-socket';
import { roomAbilities } from './abilities';
import type { RoomActionEvent } from './actions';
import type { ChatLine } from './chat';
import { roomIdAtom } from './room-id';

export { roomIdAtom };

/** `GET /api/room/info` (name, creator, `needPassword`, `enabledGuest`, …), or null until loaded. */
export const roomInfoAtom = atom<RoomInfo | null>(null);

/** My membership, `GET /api/room/me` (role, status, `permissions`, `adminPermissions`), or null until loaded. */
export const roomMemberAtom = atom<RoomMe | null>(null);

/**
 * The room's settings (§5.5: the `can_*` switches, default and guest permissions, …), or null until
 * loaded and for guests, who may not read them. Reloaded with my membership (MY_STATUS).
 */
export const roomSettingsAtom = atom<RoomSettings | null>(null);

/** What my membership, site role and the room's switches let me do in the open room (./abilities.ts); nothing until loaded. */
export const roomAbilitiesAtom = atom((get) =>
  roomAbilities(get(roomMemberAtom) ?? undefined, roleOf(get(userAtom)), get(roomSettingsAtom)),
);

/**
 * `GET /api/room/movie/current` with the local times (Unix ms) around the request: the server
 * extrapolated `status` when it handled the request, which the sync engine places one one-way
 * delay before the response (lib/sync/engine.ts).
 */
export interface LoadedCurrent {
  current: CurrentMovie;
  requestedAtMs: number;
  receivedAtMs: number;
  /** Who changed the current movie (the CURRENT frame's sender that caused this load), or "". */
  changedBy?: string;
}

/** The current movie as last loaded, or null until loaded. `current.movie.id` "" means nothing plays. */
export const currentMovieAtom = atom<LoadedCurrent | null>(null);

/**
 * The room's playback status as last heard (docs/contract.md §6.7): from `GET /movie/current`,
 * or a STATUS, CHECK_STATUS or SYNC frame; `atMs` is the local time (Unix ms) at which the room was
 * at `status.currentTime` (about when it arrived). What the room does, not what this viewer's
 * player does (the sync engine reconciles the two).
 */
export interface RoomPlaybackStatus {
  status: PlaybackState;
  atMs: number;
}

export const playbackStatusAtom = atom<RoomPlaybackStatus | null>(null);

/**
 * The last thing a member did to the room's playback (a STATUS frame with its `sender`, or the
 * STATUS this tab sent: ./actions.ts), or null: the hall says it in the chat and over the picture.
 */
export const roomActionAtom = atom<RoomActionEvent | null>(null);

/** Distinct users with an open socket in the room (VIEWER_COUNT, §6.5), or null before the first count. */
export const viewerCountAtom = atom<number | null>(null);

/** The room socket's state: connecting, open, or closed (waiting to reconnect). */
export const roomConnectionAtom = atom<RoomSocketState>('closed');

/**
 * True while I am leaving the room on purpose (deleting it): the hall then takes its socket closing
 * as expected, not as a sign that I was removed.
 */
export const roomLeavingAtom = atom(false);

/** Why `GET /api/room/movie/current` last failed, or null (cleared by the next answer). */
export const currentErrorAtom = atom<unknown>(null);

/**
 * Opening the room (lib/room/session.ts `open`): under way, open, failed with `error`, or
 * `notMember` (a v0.9.11 server's 500 to a signed-in non-member of a password room: the hall sends
 * them to /joinRoom/<id>).
 */
export interface RoomOpenState {
  state: 'opening' | 'open' | 'failed' | 'notMember';
  error: unknown;
}

export const roomOpenAtom = atom<RoomOpenState>({ state: 'opening', error: null });

/** The open room's chat, oldest first (lib/room/chat.ts; kept by lib/room/session.ts). */
export const chatLinesAtom = atom<ChatLine[]>([]);

/** Sets every room atom back to "no room" (the hall closing), then `roomIdAtom` to `roomId`. */
export function resetRoomAtoms(roomId: string | null = null, store: ReturnType<typeof getDefaultStore> = getDefaultStore()): void {
  store.set(currentErrorAtom, null);
  store.set(roomOpenAtom, { state: 'opening', error: null });
  store.set(chatLinesAtom, []);
  store.set(roomInfoAtom, null);
  store.set(roomMemberAtom, null);
  store.set(roomSettingsAtom, null);
  store.set(currentMovieAtom, null);
  store.set(playbackStatusAtom, null);
  store.set(roomActionAtom, null);
  store.set(viewerCountAtom, null);
  store.set(roomConnectionAtom, 'closed');
  store.set(roomLeavingAtom, false);
  store.set(roomIdAtom, roomId);
}
