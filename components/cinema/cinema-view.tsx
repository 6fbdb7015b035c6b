'use client';
/**
 * The viewing hall `/cinema/<roomId>` (issue 2, Part C; reference-client.md §1.5).
 *
 * Mount order (each step waits for the one before):
 * 1. `GET /api/room/me`: the first room call, because its 401 sends a non-member to /joinRoom/<id>;
 *    a 401 on `/api/room/info` would sign the user out (lib/api/unauthorized.ts, contract §11 c).
 * 2. `GET /api/room/info` for the room name.
 * 3. The WebSocket (token as subprotocol, none for a guest).
 * 4. The movie list (with GetMovieList) and the current movie.
 *
 * The route renders this after mount, keyed by room id (static-export.md §1.3), so every room starts
 * with a fresh socket, player and SWR cache.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useAtomValue } from 'jotai';
import { SWRConfig, type SWRConfiguration } from 'swr';
import { CircleExclamationPoint, Copy, DoorOpen, RotateCw } from 'lucide-react';
import { Notice } from '@/components/common/notice';
import { joinRoomPath } from '@/config/routes';
import { Button, buttonClasses } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { Skeleton } from '@/components/ui/skeleton';
import { ApiError, errorMessage } from '@/lib/api/error';
import { BASE_PATH } from '@/lib/contract/export-layout';
import { hasCurrentMovie } from '@/lib/api/movie';
import { useT } from '@/lib/i18n';
import { notifyError, notifyInfo, notifySuccess, notifyWarning } from '@/lib/notify';
import { roleOf } from '@/lib/contract/roles';
import { userAtom } from '@/lib/session';
import type { HttpStatus } from '@/lib/sync/engine';
import { fromJsonStatus } from '@/lib/sync/status';
import { MessageType, type Message } from '@/lib/contract/message';
import { useRoomSocket, useRoomSocketEvent } from '@/hooks/use-room-socket';
import { roomAbilities } from './abilities';
import { ChatPanel } from './chat-panel';
import { ConnectionBadge } from './connection-badge';
import { MovieList } from './movie-list';
import { MoviePushForm } from './movie-push-form';
import { PlayerPanel } from './player-panel';
import { useChat } from '@/hooks/use-chat';
import { usePlaybackSync } from '@/hooks/use-playback-sync';
import { useCurrentMovie, useMovieList, useRoomInfo, useRoomMe } from '@/hooks/use-room-data';
import '@/lib/i18n/messages/cinema';

/** Each mount gets its own cache; focus and network revalidation are replaced by socket events. */
const swrConfig: SWRConfiguration = {
  provider: () => new Map(),
  revalidateOnFocus: false,
  revalidateOnReconnect: false,
  shouldRetryOnError: false,
};

/** How often (ms) the current movie's link expiry is checked (EXPIRED, reference-client.md §4). */
const EXPIRY_CHECK_MS = 10_000;
/** After this many failed reconnects in a row, membership is re-checked (a kicked user gets /joinRoom). */
const RECHECK_MEMBERSHIP_EVERY = 3;
/** Minimum gap (ms) between two "you may not control playback" warnings. */
const DENIED_NOTICE_GAP_MS = 5000;

export interface CinemaViewProps {
  roomId: string;
}

export function CinemaView({ roomId }: CinemaViewProps) {
  return (
    <SWRConfig value={swrConfig}>
      <CinemaHall roomId={roomId} />
    </SWRConfig>
  );
}

function CinemaHall({ roomId }: CinemaViewProps) {
  const t = useT();
  const router = useRouter();
  const user = useAtomValue(userAtom);

  const me = useRoomMe(roomId);
  const info = useRoomInfo(roomId, Boolean(me.data));
  const { socket, clock, state } = useRoomSocket(info.data ? roomId : null);
  const abilities = useMemo(() => roomAbilities(me.data, roleOf(user)), [me.data, user]);
  const [page, setPage] = useState(1);
  const movies = useMovieList(roomId, socket !== null && abilities.canListMovies, page);
  const current = useCurrentMovie(roomId, socket !== null);
  const chat = useChat(roomId);
  const [viewerCount, setViewerCount] = useState<number | null>(null);
  const [video, setVideo] = useState<HTMLVideoElement | null>(null);

  const loaded = current.data;
  const movie = loaded && hasCurrentMovie(loaded.current) ? loaded.current.movie : null;
  const httpTarget = useMemo<HttpStatus | null>(
    () =>
      loaded && hasCurrentMovie(loaded.current)
        ? { status: fromJsonStatus(loaded.current.status), requestedAtMs: loaded.requestedAtMs, receivedAtMs: loaded.receivedAtMs }
        : null,
    [loaded],
  );

  const lastDeniedAt = useRef(0);
  const onControlDenied = useCallback(() => {
    const now = Date.now();
    if (now - lastDeniedAt.current < DENIED_NOTICE_GAP_MS) return;
    lastDeniedAt.current = now;
    notifyWarning(t('cinema.sync.noPermission'));
  }, [t]);
  const onManualSynced = useCallback(() => notifySuccess(t('cinema.sync.done')), [t]);

  const sync = usePlaybackSync({
    video,
    socket,
    clock,
    target: httpTarget,
    live: Boolean(movie?.base.live),
    canControl: abilities.canSetStatus,
    onControlDenied,
    onManualSynced,
  });

  useRoomSocketEvent(socket, 'message', (message: Message) => {
    const { payload } = message;
    switch (message.type) {
      case MessageType.CHAT:
        chat.receive(message);
        break;
      case MessageType.ERROR:
        notifyError(payload.case === 'errorMessage' ? payload.value : t('cinema.ws.unknownError'));
        break;
      case MessageType.VIEWER_COUNT:
        if (payload.case === 'viewerCount') setViewerCount(Number(payload.value));
        break;
      case MessageType.CURRENT:
        void current.mutate();
        break;
      case MessageType.MOVIES:
        void movies.mutate();
        break;
      case MessageType.MY_STATUS:
        void me.mutate();
        break;
      case MessageType.EXPIRED:
        notifyInfo(t('cinema.expired'));
        void current.mutate();
        break;
      default:
        // STATUS, CHECK_STATUS and SYNC belong to the sync engine (usePlaybackSync).
        break;
    }
  });

  useRoomSocketEvent(socket, 'open', ({ reconnected }) => {
    // Anything may have changed while offline; the engine resyncs itself with SYNC.
    if (!reconnected) return;
    void current.mutate();
    void movies.mutate();
    void me.mutate();
  });

  useRoomSocketEvent(socket, 'close', ({ failures }) => {
    if (failures > 0 && failures % RECHECK_MEMBERSHIP_EVERY === 0) void me.mutate();
  });

  useRoomSocketEvent(socket, 'decodeError', (error) => notifyError(t('cinema.ws.decodeError', { error: error.message })));

  const expireId = loaded?.current.expireId ?? 0;
  useEffect(() => {
    if (!socket || !expireId) return;
    const timer = setInterval(() => socket.sendExpired(expireId), EXPIRY_CHECK_MS);
    return () => clearInterval(timer);
  }, [socket, expireId]);

  // A v0.9.11 server answers a non-member of a password room with 500 instead of 401 (contract §4.3, §9).
  const notMember = me.error instanceof ApiError && me.error.status === 500 && me.error.message.includes('room or member not found');
  useEffect(() => {
    if (notMember) router.replace(joinRoomPath(roomId));
  }, [notMember, router, roomId]);

  const sendChat = useCallback((text: string) => socket?.sendChat(text) ?? false, [socket]);

  const roomError = !me.data ? me.error : !info.data ? info.error : undefined;
  const ready = Boolean(me.data && info.data);

  return (
    <div data-testid="page-cinema" data-room-id={roomId} className="mx-auto w-full max-w-7xl space-y-4 px-3 py-4 md:px-6">
      {roomError ? (
        <RoomError
          roomId={roomId}
          error={roomError}
          redirecting={notMember}
          onRetry={() => {
            void me.mutate();
            void info.mutate();
          }}
        />
      ) : !ready ? (
        <HallSkeleton />
      ) : (
        <>
          <header className="flex flex-wrap items-center gap-x-3 gap-y-2">
            <h1 data-testid="room-name" className="min-w-0 truncate text-xl font-semibold">
              {info.data?.name}
            </h1>
            <ConnectionBadge state={state} />
            <ShareButton roomId={roomId} />
          </header>

          <div className="grid gap-4 lg:grid-cols-[minmax(0,1fr)_22rem]">
            <PlayerPanel
              movie={movie}
              loading={!loaded && !current.error}
              viewerCount={viewerCount}
              canSync={state === 'open'}
              sync={sync}
              onVideo={setVideo}
            />
            <ChatPanel
              className="h-80 sm:h-96 lg:h-auto lg:max-h-[calc(100vh-8rem)]"
              lines={chat.lines}
              canChat={abilities.canChat}
              connected={state === 'open'}
              onSend={sendChat}
            />
          </div>

          {current.error && !loaded ? (
            <Notice tone="error">
              <div className="flex flex-wrap items-center gap-2">
                <span className="flex-1">{t('cinema.currentFailed', { error: errorMessage(current.error) })}</span>
                <Button size="sm" variant="outline" onClick={() => void current.mutate()}>
                  {t('cinema.error.retry')}
                </Button>
              </div>
            </Notice>
          ) : null}

          <div className="grid gap-4 lg:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
            {abilities.canListMovies ? (
              <MovieList
                roomId={roomId}
                abilities={abilities}
                currentMovieId={movie?.id ?? null}
                page={page}
                onPageChange={setPage}
                data={movies.data}
                error={movies.error}
                isLoading={movies.isLoading || movies.isValidating}
                refresh={() => void movies.mutate()}
              />
            ) : (
              <EmptyState title={t('cinema.movies.noPermission')} className="py-8" />
            )}
            {abilities.canAddMovie ? <MoviePushForm roomId={roomId} /> : null}
          </div>
        </>
      )}
    </div>
  );
}

function HallSkeleton() {
  const t = useT();
  return (
    <div aria-busy="true" aria-label={t('cinema.loading')} data-testid="cinema-loading" className="space-y-4">
      <Skeleton className="h-7 w-48" />
      <div className="grid gap-4 lg:grid-cols-[minmax(0,1fr)_22rem]">
        <Skeleton className="aspect-video rounded-2xl" />
        <Skeleton className="h-64 rounded-2xl lg:h-auto" />
      </div>
      <Skeleton className="h-40 rounded-2xl" />
    </div>
  );
}

interface RoomErrorProps {
  roomId: string;
  error: unknown;
  redirecting: boolean;
  onRetry: () => void;
}

function RoomError({ roomId, error, redirecting, onRetry }: RoomErrorProps) {
  const t = useT();
  // A 401 is handled by the client's 401 rules (navigation to /joinRoom or sign-out), already under way.
  const unauthorized = error instanceof ApiError && error.status === 401;
  return (
    <div role="alert" data-testid="cinema-error">
      <EmptyState
        icon={<CircleExclamationPoint className="text-red-500" />}
        title={t('cinema.error.title')}
        description={<span className="break-words">{unauthorized || redirecting ? t('cinema.error.redirecting') : errorMessage(error)}</span>}
        action={
          <div className="flex flex-wrap justify-center gap-2">
            <Button variant="outline" onClick={onRetry}>
              <RotateCw className="h-4 w-4" aria-hidden />
              {t('cinema.error.retry')}
            </Button>
            <Link href={joinRoomPath(roomId)} className={buttonClasses('primary')}>
              <DoorOpen className="h-4 w-4" aria-hidden />
              {t('cinema.error.join')}
            </Link>
          </div>
        }
      />
    </div>
  );
}

/** Copies the room's join link (`<origin>/web/joinRoom/<id>/`). */
function ShareButton({ roomId }: { roomId: string }) {
  const t = useT();
  const copy = async () => {
    const link = `${window.location.origin}${BASE_PATH}/joinRoom/${roomId}/`;
    try {
      await navigator.clipboard.writeText(link);
      notifySuccess(t('cinema.share.copied'));
    } catch {
      notifyInfo(t('cinema.share.manual'), link);
    }
  };
  return (
    <Button variant="outline" size="sm" data-testid="room-share" onClick={() => void copy()} className="ml-auto">
      <Copy className="h-3.5 w-3.5" aria-hidden />
      {t('cinema.share.button')}
    </Button>
  );
}
