'use client';
/**
 * Opens a room for the viewing hall and keeps the room atoms (lib/room/atoms.ts) up to date while it
 * is open (reference-client.md §1.5; server-contract.md §4.3, §4.5, §6.5). Used once, by the hall.
 *
 * Mount order, each step waiting for the one before:
 * 1. `GET /api/room/me`: the first room call, because its 401 sends a non-member to /joinRoom/<id>
 *    (the API client's 401 rules), whereas a 401 on `/api/room/info` would sign the user out.
 *    A v0.9.11 server answers a signed-in non-member of a password room with 500 instead (§9
 *    quirk 1); then `GET /api/room/joined` tells whether they are a member, and a non-member is sent
 *    to /joinRoom/<id>.
 * 2. `GET /api/room/info`.
 * 3. The WebSocket (token as subprotocol, none for a guest), which the hall connects once its
 *    listeners are attached (hooks/use-room-socket.ts).
 * 4. `GET /api/room/movie/current`.
 *
 * After step 2, a signed-in member also reads the room's settings (its `can_*` switches gate controls).
 * Then frames keep the atoms current: VIEWER_COUNT → the viewer count; MY_STATUS → my membership and
 * the room's settings again;
 * CURRENT and EXPIRED → the current movie again; a reconnect reloads what may have changed while
 * offline. The hall handles CHAT and MOVIES; the sync engine handles STATUS, CHECK_STATUS and SYNC and
 * keeps the room's playback status (hooks/use-playback-sync.ts).
 */
import { getDefaultStore, useAtomValue } from 'jotai';
import { useRouter } from 'next/navigation';
import { useCallback, useEffect, useRef, useState } from 'react';
import { joinRoomPath } from '@/config/routes';
import { ApiError } from '@/lib/api/error';
import { getCurrentMovie } from '@/lib/api/movie';
import { getRoomJoined } from '@/lib/api/room';
import { getRoomInfo, getRoomMe } from '@/lib/api/room-member';
import { getRoomSettings } from '@/lib/api/room-admin';
import { MemberRole } from '@/lib/contract/roles';
import type { RoomMe } from '@/lib/contract/types';
import { MessageType, type Message } from '@/lib/contract/message';
import { t } from '@/lib/i18n';
import { notifyError, notifyInfo } from '@/lib/notify';
import {
  currentMovieAtom,
  resetRoomAtoms,
  roomConnectionAtom,
  roomInfoAtom,
  roomLeavingAtom,
  roomMemberAtom,
  roomSettingsAtom,
  viewerCountAtom,
} from '@/lib/room/atoms';
import { tokenAtom } from '@/lib/session';
import type { ServerClock } from '@/lib/sync/clock';
import type { RoomSocket } from '@/lib/ws/room-socket';
import { useRoomSocket, useRoomSocketEvent } from './use-room-socket';
import '@/lib/i18n/messages/cinema';

/** How often (ms) the current movie's link expiry is checked (EXPIRED, reference-client.md §4). */
const EXPIRY_CHECK_MS = 10_000;
/** Besides the first close, membership is re-checked after every this many failed reconnects (a kicked user gets /joinRoom). */
const RECHECK_MEMBERSHIP_EVERY = 3;

export interface OpenRoom {
  /** The room socket, once the membership and the info are loaded; not connected until the caller calls `connect()`. */
  socket: RoomSocket | null;
  /** The socket's server clock estimate (null with the socket). */
  clock: ServerClock | null;
  /** Why the room could not be opened (`/api/room/me` or `/api/room/info` failed), or null. */
  error: unknown;
  /** True while a non-member is being sent to /joinRoom/<id>. */
  redirecting: boolean;
  /** Tries to open the room again after an error. */
  retry: () => void;
  /** Why the current movie could not be loaded, or null. */
  currentError: unknown;
  /** Loads the current movie again. */
  reloadCurrent: () => void;
}

/**
 * Opens `roomId` (see the module comment) and clears the room atoms when the hall closes. Key the
 * calling component by room id: every room starts clean.
 */
export function useRoom(roomId: string): OpenRoom {
  const router = useRouter();
  const store = getDefaultStore();
  const [error, setError] = useState<unknown>(null);
  const [redirecting, setRedirecting] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const [opened, setOpened] = useState(false);
  const [currentError, setCurrentError] = useState<unknown>(null);
  // Each reload bumps its counter; an answer to an older request is dropped.
  const memberSeq = useRef(0);
  const currentSeq = useRef(0);

  useEffect(() => {
    resetRoomAtoms(roomId);
    return () => {
      // Answers still on their way belong to a room that is gone.
      memberSeq.current += 1;
      currentSeq.current += 1;
      resetRoomAtoms(null);
    };
  }, [roomId]);

  // The room's switches, for the abilities (lib/room/abilities.ts). Guests may not read them; a failure
  // leaves the last known settings (the server still refuses what they forbid).
  const settingsSeq = useRef(0);
  const loadSettings = useCallback(
    async (me: RoomMe, signal?: AbortSignal) => {
      if (!store.get(tokenAtom)) return;
      const seq = ++settingsSeq.current;
      try {
        const settings = await getRoomSettings(roomId, me.role >= MemberRole.Admin, signal);
        if (seq === settingsSeq.current) store.set(roomSettingsAtom, settings);
      } catch {
        // Not fatal: the abilities fall back to the member's own bits.
      }
    },
    [roomId, store],
  );

  // Steps 1 and 2.
  useEffect(() => {
    const controller = new AbortController();
    const { signal } = controller;
    setError(null);
    void (async () => {
      try {
        memberSeq.current += 1;
        const me = await getRoomMe(roomId, signal);
        store.set(roomMemberAtom, me);
        store.set(roomInfoAtom, await getRoomInfo(roomId, signal));
        setOpened(true);
        void loadSettings(me, signal);
      } catch (failure) {
        if (signal.aborted) return;
        setError(failure);
        // v0.9.11's answer to a signed-in non-member of a password room (§9 quirk 1).
        if (failure instanceof ApiError && failure.status === 500 && store.get(tokenAtom)) {
          const joined = await getRoomJoined(roomId).catch(() => null);
          if (signal.aborted || !joined || joined.joined) return;
          setRedirecting(true);
          router.replace(joinRoomPath(roomId));
        }
      }
    })();
    return () => controller.abort();
  }, [roomId, attempt, router, store, loadSettings]);

  const { socket, clock, state } = useRoomSocket(opened ? roomId : null);
  useEffect(() => store.set(roomConnectionAtom, state), [state, store]);

  const reloadMember = useCallback(() => {
    const seq = ++memberSeq.current;
    getRoomMe(roomId).then(
      (member) => {
        if (seq !== memberSeq.current) return;
        store.set(roomMemberAtom, member);
        void loadSettings(member);
      },
      // A 401 (kicked, banned) has already sent the user to /joinRoom; anything else is worth a word.
      (failure: unknown) => {
        if (seq === memberSeq.current && !(failure instanceof ApiError && failure.status === 401)) notifyError(failure);
      },
    );
  }, [roomId, store, loadSettings]);

  // Step 4, and every reload after it.
  const reloadCurrent = useCallback(() => {
    const seq = ++currentSeq.current;
    const requestedAtMs = Date.now();
    getCurrentMovie(roomId).then(
      (current) => {
        if (seq !== currentSeq.current) return;
        const receivedAtMs = Date.now();
        store.set(currentMovieAtom, { current, requestedAtMs, receivedAtMs });
        setCurrentError(null);
      },
      (failure: unknown) => {
        if (seq === currentSeq.current) setCurrentError(failure);
      },
    );
  }, [roomId, store]);

  useEffect(() => {
    if (socket) reloadCurrent();
  }, [socket, reloadCurrent]);

  useRoomSocketEvent(socket, 'message', (message: Message) => {
    const { payload } = message;
    switch (message.type) {
      case MessageType.VIEWER_COUNT:
        if (payload.case === 'viewerCount') store.set(viewerCountAtom, Number(payload.value));
        break;
      case MessageType.MY_STATUS:
        reloadMember();
        break;
      case MessageType.CURRENT:
        reloadCurrent();
        break;
      case MessageType.EXPIRED:
        notifyInfo(t('cinema.expired'));
        reloadCurrent();
        break;
      case MessageType.ERROR:
        notifyError(new Error(payload.case === 'errorMessage' ? payload.value : t('cinema.ws.unknownError')));
        break;
      default:
        // CHAT and MOVIES belong to the hall (chat lines, the movie list); STATUS, CHECK_STATUS and
        // SYNC to the sync engine.
        break;
    }
  });

  useRoomSocketEvent(socket, 'open', ({ reconnected }) => {
    // Anything may have changed while offline; the sync engine resyncs itself with SYNC.
    if (!reconnected) return;
    reloadCurrent();
    reloadMember();
  });

  // A socket that the server closed may mean I was banned or removed, or that the room was deleted:
  // ask `/api/room/me` at once and then every few failed reconnects. Its 401 takes me to the join
  // screen, which says why (lib/api/unauthorized.ts); anything else (a restarting server) is quiet.
  useRoomSocketEvent(socket, 'close', ({ failures, retryInMs }) => {
    if (retryInMs === null || store.get(roomLeavingAtom)) return;
    if (!(failures === 1 || failures % RECHECK_MEMBERSHIP_EVERY === 0)) return;
    const seq = ++memberSeq.current;
    getRoomMe(roomId).then(
      (member) => {
        if (seq === memberSeq.current) store.set(roomMemberAtom, member);
      },
      () => undefined,
    );
  });

  useRoomSocketEvent(socket, 'decodeError', (failure) => notifyError(new Error(t('cinema.ws.decodeError', { error: failure.message }))));

  const expireId = useAtomValue(currentMovieAtom)?.current.expireId ?? 0;
  useEffect(() => {
    if (!socket || !expireId) return;
    const timer = setInterval(() => socket.sendExpired(expireId), EXPIRY_CHECK_MS);
    return () => clearInterval(timer);
  }, [socket, expireId]);

  const retry = useCallback(() => {
    setRedirecting(false);
    setAttempt((n) => n + 1);
  }, []);

  return { socket, clock, error, redirecting, retry, currentError, reloadCurrent };
}
