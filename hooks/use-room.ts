'use client';
/**
 * The viewing hall's room session (lib/room/session.ts): one per mounted hall, opened on mount and
 * closed on unmount. The session writes the room atoms (lib/room/atoms.ts) that the hall and its
 * panels read; this hook adds what only React can do: navigation to /joinRoom/<id> for a non-member,
 * notices, and the browser's `online` event.
 */
import { getDefaultStore, useAtomValue } from 'jotai';
import { useRouter } from 'next/navigation';
import { useCallback, useEffect, useRef, useState } from 'react';
import { joinRoomPath } from '@/config/routes';
import { apiOrigin } from '@/lib/api/client';
import type { CurrentMovie } from '@/lib/contract/types';
import { t } from '@/lib/i18n';
import { notifyError, notifyInfo } from '@/lib/notify';
import { currentErrorAtom, roomOpenAtom } from '@/lib/room/atoms';
import { RoomSession } from '@/lib/room/session';
import { readToken } from '@/lib/storage';
import { RoomSocket } from '@/lib/ws/room-socket';
import '@/lib/i18n/messages/cinema';

export interface OpenRoom {
  /** The room session (null only before the first effect ran). */
  session: RoomSession | null;
  /** Why the room could not be opened (`/api/room/me` or `/api/room/info` failed), or null. */
  error: unknown;
  /** True while a non-member is being sent to /joinRoom/<id>. */
  redirecting: boolean;
  /** Tries to open the room again after an error (a new session). */
  retry: () => void;
  /** Why the current movie could not be loaded, or null. */
  currentError: unknown;
  /** Loads the current movie again. */
  reloadCurrent: () => void;
}

export interface RoomOptions {
  /** A current movie was loaded (lib/room/session.ts `onCurrent`): e.g. start downloading its player engine. */
  onCurrent?: (current: CurrentMovie) => void;
}

/** Opens `roomId`'s session; key the calling component by room id so every room starts clean. */
export function useRoom(roomId: string, options: RoomOptions = {}): OpenRoom {
  const router = useRouter();
  const onCurrent = useRef(options.onCurrent);
  useEffect(() => {
    onCurrent.current = options.onCurrent;
  });
  const [session, setSession] = useState<RoomSession | null>(null);
  const [attempt, setAttempt] = useState(0);
  const open = useAtomValue(roomOpenAtom);
  const currentError = useAtomValue(currentErrorAtom);

  useEffect(() => {
    const created = new RoomSession({
      roomId,
      store: getDefaultStore(),
      createSocket: (id, serverNow) => new RoomSocket({ roomId: id, origin: apiOrigin, token: readToken, clock: serverNow }),
      onError: notifyError,
      onCurrent: (current) => onCurrent.current?.(current),
      onNotice: () => notifyInfo(t('cinema.expired')),
      onSocketError: (kind, text) =>
        notifyError(new Error(kind === 'decode' ? t('cinema.ws.decodeError', { error: text }) : text || t('cinema.ws.unknownError'))),
    });
    const onOnline = () => created.reconnectNow();
    window.addEventListener('online', onOnline);
    setSession(created);
    void created.open();
    return () => {
      window.removeEventListener('online', onOnline);
      created.close();
      setSession(null);
    };
  }, [roomId, attempt]);

  const redirecting = open.state === 'notMember';
  useEffect(() => {
    if (redirecting) router.replace(joinRoomPath(roomId));
  }, [redirecting, router, roomId]);

  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  const reloadCurrent = useCallback(() => session?.reloadCurrent(), [session]);

  return { session, error: open.state === 'failed' || redirecting ? open.error : null, redirecting, retry, currentError, reloadCurrent };
}
