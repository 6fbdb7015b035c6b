'use client';
/**
 * React wrapper of the room socket (lib/ws/room-socket.ts): one socket per room id, created on mount
 * (when `roomId` is non-null) and closed for good on unmount. It is created unconnected: the owner
 * calls `socket.connect()` once every listener is attached (the viewing hall does so in its last
 * effect, which React runs after its children's), so that no frame of the first connection (the chat
 * replay, the first VIEWER_COUNT) arrives before anyone listens. The token is read from storage on every
 * attempt, so a guest (no token) connects without a subprotocol. Coming back online skips the backoff.
 * Each socket comes with its server clock estimate (lib/sync/clock.ts), which stamps every outgoing
 * message in server time; the sync engine feeds it with SYNC round trips.
 */
import { useEffect, useRef, useState } from 'react';
import { apiOrigin } from '@/lib/api/client';
import { readToken } from '@/lib/storage';
import { ServerClock } from '@/lib/sync/clock';
import { RoomSocket, type RoomSocketEvents, type RoomSocketState } from '@/lib/ws/room-socket';

export interface RoomSocketHandle {
  /** The socket, or null until it was created (or when `roomId` is null). */
  socket: RoomSocket | null;
  /** The server clock of this socket's connection (null with the socket). */
  clock: ServerClock | null;
  state: RoomSocketState;
}

/** Opens the room's socket. Pass null to wait (e.g. until the membership is known). */
export function useRoomSocket(roomId: string | null): RoomSocketHandle {
  const [opened, setOpened] = useState<{ socket: RoomSocket; clock: ServerClock } | null>(null);
  const [state, setState] = useState<RoomSocketState>('closed');

  useEffect(() => {
    if (!roomId) return;
    const clock = new ServerClock();
    const created = new RoomSocket({ roomId, origin: apiOrigin, token: readToken, clock: () => clock.serverNow() });
    const offState = created.on('state', setState);
    const onOnline = () => created.reconnectNow();
    window.addEventListener('online', onOnline);
    setOpened({ socket: created, clock });
    setState(created.state);
    return () => {
      offState();
      window.removeEventListener('online', onOnline);
      created.close();
      setOpened(null);
      setState('closed');
    };
  }, [roomId]);

  return { socket: opened?.socket ?? null, clock: opened?.clock ?? null, state };
}

/**
 * Subscribes `listener` to a socket event for the component's lifetime. The latest listener is always
 * called, so it may close over fresh state without resubscribing.
 */
export function useRoomSocketEvent<K extends keyof RoomSocketEvents>(
  socket: RoomSocket | null,
  event: K,
  listener: RoomSocketEvents[K],
): void {
  const latest = useRef(listener);
  useEffect(() => {
    latest.current = listener;
  });
  useEffect(() => {
    if (!socket) return;
    const forward = ((...args: Parameters<RoomSocketEvents[K]>) =>
      (latest.current as (...a: Parameters<RoomSocketEvents[K]>) => void)(...args)) as RoomSocketEvents[K];
    return socket.on(event, forward);
  }, [socket, event]);
}
