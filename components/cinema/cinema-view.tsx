'use client';
/**
 * The viewing hall `/cinema/<roomId>` (reference-client.md §1.5): the player with the sync engine,
 * the chat, the movie list and the push form, and the buttons that open the members, room settings
 * and share panels (components/room-admin). `useRoom` opens the room and keeps the room atoms
 * (lib/room/atoms.ts) current; the hall and its panels read them.
 *
 * The route renders this after mount, keyed by room id (static-export.md §1.3), so every room starts
 * with fresh atoms, socket, player and SWR cache.
 */
import { useCallback, useMemo, useRef, useState } from 'react';
import Link from 'next/link';
import { useAtomValue } from 'jotai';
import { SWRConfig, type SWRConfiguration } from 'swr';
import { CircleExclamationPoint, DoorOpen, RotateCw } from 'lucide-react';
import { Notice } from '@/components/common/notice';
import { Button, buttonClasses } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { Skeleton } from '@/components/ui/skeleton';
import { joinRoomPath } from '@/config/routes';
import { useChat } from '@/hooks/use-chat';
import { useMovieList, useRefreshMovieLists, type MovieListView } from '@/hooks/use-movie-list';
import { usePlaybackSync } from '@/hooks/use-playback-sync';
import { useRoom } from '@/hooks/use-room';
import { useRoomSocketEvent } from '@/hooks/use-room-socket';
import { ApiError } from '@/lib/api/error';
import { describeError } from '@/lib/api/error-text';
import { hasCurrentMovie } from '@/lib/api/movie';
import { MessageType, type Message } from '@/lib/contract/message';
import { useT } from '@/lib/i18n';
import { notifySuccess, notifyWarning } from '@/lib/notify';
import { currentMovieAtom, roomAbilitiesAtom, roomConnectionAtom, roomInfoAtom, roomMemberAtom } from '@/lib/room/atoms';
import type { HttpStatus } from '@/lib/sync/engine';
import { fromJsonStatus } from '@/lib/sync/status';
import { RoomAdminBar, RoomSetup } from '@/components/room-admin/room-admin-bar';
import { ChatPanel } from './chat-panel';
import { ConnectionBadge } from './connection-badge';
import { MovieList } from './movie-list';
import { MoviePushForm } from './movie-push-form';
import { PlayerPanel } from './player-panel';
import '@/lib/i18n/messages/cinema';
import '@/lib/i18n/messages/errors';

/** Each mount gets its own cache; focus and network revalidation are replaced by socket events. */
const swrConfig: SWRConfiguration = {
  provider: () => new Map(),
  revalidateOnFocus: false,
  revalidateOnReconnect: false,
  shouldRetryOnError: false,
};

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
  const room = useRoom(roomId);
  const { socket, clock } = room;
  const member = useAtomValue(roomMemberAtom);
  const info = useAtomValue(roomInfoAtom);
  const abilities = useAtomValue(roomAbilitiesAtom);
  const connection = useAtomValue(roomConnectionAtom);
  const loaded = useAtomValue(currentMovieAtom);
  const [view, setView] = useState<MovieListView>({ folderId: '', page: 1, keyword: '' });
  const movies = useMovieList(roomId, socket !== null && abilities.canListMovies, view);
  const refreshMovies = useRefreshMovieLists(roomId);
  const chat = useChat(roomId);
  const [video, setVideo] = useState<HTMLVideoElement | null>(null);

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
    if (message.type === MessageType.CHAT) chat.receive(message);
    else if (message.type === MessageType.MOVIES) refreshMovies();
  });

  useRoomSocketEvent(socket, 'open', ({ reconnected }) => {
    if (reconnected) refreshMovies();
  });

  const focusChat = useCallback(() => document.querySelector<HTMLElement>('[data-testid="chat-input"]')?.focus(), []);
  const sendChat = useCallback((text: string) => socket?.sendChat(text) ?? false, [socket]);

  const ready = Boolean(member && info);

  return (
    <div data-testid="page-cinema" data-room-id={roomId} className="mx-auto w-full max-w-7xl space-y-4 px-3 py-4 md:px-6">
      {room.error && !ready ? (
        <RoomError roomId={roomId} error={room.error} redirecting={room.redirecting} onRetry={room.retry} />
      ) : !ready ? (
        <HallSkeleton />
      ) : (
        <>
          <header className="flex flex-wrap items-center gap-x-3 gap-y-2">
            <h1 data-testid="room-name" className="min-w-0 truncate text-xl font-semibold">
              {info?.name}
            </h1>
            <ConnectionBadge />
            <RoomAdminBar roomId={roomId} />
          </header>

          <RoomSetup roomId={roomId} />

          <div className="grid grid-cols-1 gap-4 lg:grid-cols-[minmax(0,1fr)_22rem]">
            <PlayerPanel loading={!loaded && !room.currentError} sync={sync} onVideo={setVideo} chatLines={chat.lines} onChatShortcut={focusChat} />
            {/* On wide screens the chat takes the player's height and never stretches the row. */}
            <div className="h-96 lg:relative lg:h-auto lg:min-h-96">
              <ChatPanel
                className="h-full lg:absolute lg:inset-0"
                lines={chat.lines}
                canChat={abilities.canChat}
                connected={connection === 'open'}
                onSend={sendChat}
              />
            </div>
          </div>

          {room.currentError && !loaded ? (
            <Notice tone="error">
              <div className="flex flex-wrap items-center gap-2">
                <span className="flex-1">{t('cinema.currentFailed', { error: describeError(room.currentError).message })}</span>
                <Button size="sm" variant="outline" onClick={room.reloadCurrent}>
                  {t('cinema.error.retry')}
                </Button>
              </div>
            </Notice>
          ) : null}

          <div className="grid grid-cols-1 gap-4 lg:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
            {abilities.canListMovies ? (
              <MovieList
                roomId={roomId}
                view={view}
                onViewChange={setView}
                data={movies.data}
                error={movies.error}
                isLoading={movies.isLoading || movies.isValidating}
                refresh={() => void movies.mutate()}
              />
            ) : (
              <EmptyState title={t('cinema.movies.noPermission')} className="py-8" />
            )}
            {abilities.canAddMovie ? <MoviePushForm roomId={roomId} parentId={view.folderId} /> : null}
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
      <div className="grid grid-cols-1 gap-4 lg:grid-cols-[minmax(0,1fr)_22rem]">
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
        description={<span className="break-words">{unauthorized || redirecting ? t('cinema.error.redirecting') : describeError(error).message}</span>}
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
