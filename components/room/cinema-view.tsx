'use client';
/**
 * The viewing hall `/cinema/<roomId>` (docs/reference-client.md §1.5), film first: the video as large as
 * the window allows with its info bar under it, the chat beside (or, on a phone, under) it, the
 * movie list and "Add a movie" below; theater mode puts the video across the window. The grid's
 * areas and sizes are in app/globals.css (`.hall`). `useRoom` opens the room session
 * (lib/room/session.ts), which keeps the room atoms (lib/room/atoms.ts) current; the hall and its
 * panels read them.
 *
 * The route renders this after mount, keyed by room id (docs/static-export.md §1.3), so every room starts
 * with fresh atoms, socket, player and SWR cache.
 */
import { lazy, Suspense, useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import Link from 'next/link';
import { useAtomValue } from 'jotai';
import { clsx } from 'clsx';
import { SWRConfig, type SWRConfiguration } from 'swr';
import { CircleExclamationPoint, DoorOpen, RotateCw } from 'lucide-react';
import { Button, buttonClasses } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { Skeleton } from '@/components/ui/skeleton';
import { joinRoomPath } from '@/config/routes';
import { useChat } from '@/hooks/use-chat';
import { hasCurrentMovie, setCurrentMovie, useMovieList, useRefreshMovieLists, type MovieListView } from '@/hooks/data/movies';
import { usePlaybackSync } from '@/hooks/use-playback-sync';
import { useRoom } from '@/hooks/use-room';
import { useErrorDescription } from '@/hooks/use-error-description';
import { describeError } from '@/lib/i18n/error-text';
import type { CurrentMovie, PushedMovie } from '@/lib/contract/types';
import { useT } from '@/lib/i18n';
import { notifyError, notifyInfo, notifySuccess, notifyWarning } from '@/lib/notify';
import { currentMovieAtom, roomAbilitiesAtom, roomActionAtom, roomConnectionAtom, roomInfoAtom, roomMemberAtom } from '@/lib/room/atoms';
import { formatPosition } from '@/lib/room/actions';
import { readTheater, writeTheater } from '@/lib/storage';
import { RoomAdminBar, RoomSetup } from '@/components/room-admin/room-admin-bar';
import { VoiceEntry } from '@/components/voice/voice-entry';
import { ConnectionBadge } from './connection-badge';
import { Denied } from './denied';
import { preloadEngine } from '@/components/player/engines';
import { PlayerPanel } from '@/components/player/player-panel';
import type { ActionNotice } from '@/components/player/room-action-notice';
import { useAfterFirstFrame } from './use-after-first-frame';
import '@/lib/i18n/messages/cinema';

// The parts beside the picture come down after its first frame (./use-after-first-frame.ts).
const ChatPanel = lazy(() => import('@/components/chat/chat-panel').then((m) => ({ default: m.ChatPanel })));
const MovieList = lazy(() => import('@/components/playlist/movie-list').then((m) => ({ default: m.MovieList })));
const AddMovieCard = lazy(() => import('@/components/playlist/add-movie-card').then((m) => ({ default: m.AddMovieCard })));

/** Each mount gets its own cache; focus and network revalidation are replaced by socket events. */
const swrConfig: SWRConfiguration = {
  provider: () => new Map(),
  revalidateOnFocus: false,
  revalidateOnReconnect: false,
  shouldRetryOnError: false,
};

/** Minimum gap (ms) between two "you may not control playback" warnings. */
const DENIED_NOTICE_GAP_MS = 5000;
/** The chat's grouping key for the user's own playback actions (no username can be empty). */
const OWN_ACTIONS = '';

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

/** Theater mode, kept on this device (lib/storage.ts `theater`); read after mount, as the prerender cannot know it. */
function useTheater(): [boolean, () => void] {
  const [theater, setTheater] = useState(false);
  useEffect(() => setTheater(readTheater()), []);
  const toggle = useCallback(() => {
    setTheater((on) => {
      writeTheater(!on);
      return !on;
    });
  }, []);
  return [theater, toggle];
}

/** Starts downloading the current movie's player engine while the hall renders (components/player/engines `preloadEngine`). */
const preloadCurrentEngine = (current: CurrentMovie) => preloadEngine(current.movie.base.url, current.movie.base.type);

function CinemaHall({ roomId }: CinemaViewProps) {
  const t = useT();
  const room = useRoom(roomId, { onCurrent: preloadCurrentEngine });
  const { session } = room;
  const member = useAtomValue(roomMemberAtom);
  const info = useAtomValue(roomInfoAtom);
  const abilities = useAtomValue(roomAbilitiesAtom);
  const connection = useAtomValue(roomConnectionAtom);
  const loaded = useAtomValue(currentMovieAtom);
  const [view, setView] = useState<MovieListView>({ folderId: '', page: 1, keyword: '' });
  const ready = Boolean(member && info);
  const movies = useMovieList(roomId, ready && abilities.canListMovies, view);
  const refreshMovies = useRefreshMovieLists(roomId);
  const chat = useChat(session);
  const [video, setVideo] = useState<HTMLVideoElement | null>(null);
  const [theater, toggleTheater] = useTheater();
  // Set to open "Add a movie", bring it into view and focus its address field; the card clears it
  // once done, so a click made while the card's code was still coming down is not lost.
  const [pushRequested, setPushRequested] = useState(false);
  const requestPushForm = useCallback(() => setPushRequested(true), []);
  const pushRequestHandled = useCallback(() => setPushRequested(false), []);

  const movie = loaded && hasCurrentMovie(loaded.current) ? loaded.current.movie : null;
  // A picture is on its way while the current movie is loading or is one; not after it failed to load.
  const sideParts = useAfterFirstFrame(video, (!loaded && !room.currentError) || movie !== null);

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
    session,
    live: Boolean(movie?.base.live),
    canControl: abilities.canSetStatus,
    onControlDenied,
    onManualSynced,
  });

  // MOVIES frames, and reconnects that may have missed one.
  useEffect(() => session?.onMovies(refreshMovies), [session, refreshMovies]);

  /** What someone just did, said over the picture for a moment (components/player/room-action-notice.tsx). */
  const [actionNotice, setActionNotice] = useState<ActionNotice>({ id: 0, text: null });

  // "Now playing …" and "Playback stopped" in the chat when the current movie changes (not on entering).
  const shownMovie = useRef<string | null | undefined>(undefined);
  const { addSystemLine } = chat;
  useEffect(() => {
    if (!loaded) return;
    const id = movie?.id ?? null;
    const before = shownMovie.current;
    shownMovie.current = id;
    if (before === undefined || before === id) return;
    const by = loaded.changedBy ?? '';
    const text = movie ? (by ? t('cinema.chat.nowPlayingBy', { name: movie.base.name, by }) : t('cinema.chat.nowPlaying', { name: movie.base.name })) : by ? t('cinema.chat.stoppedBy', { by }) : t('cinema.chat.stopped');
    addSystemLine(text);
    if (movie && by) setActionNotice((previous) => ({ id: previous.id + 1, text }));
  }, [loaded, movie, addSystemLine, t]);

  // Who paused, played, jumped or changed the speed (lib/room/actions.ts), the user included ("You
  // paused at 0:22"): a chat line per person per 2 s, and a moment over the picture.
  const roomAction = useAtomValue(roomActionAtom);
  const { addActionLine } = chat;
  useEffect(() => {
    if (!roomAction) return;
    const { username: by, own, action } = roomAction;
    const key = own ? (`cinema.action.own.${action.kind}` as const) : (`cinema.action.${action.kind}` as const);
    const text = action.kind === 'rate' ? t(key, { by, rate: action.playbackRate }) : t(key, { by, at: formatPosition(action.currentTime) });
    // The user's own lines are grouped apart from anyone's (a guest has no name).
    addActionLine(own ? OWN_ACTIONS : by, text);
    setActionNotice((previous) => ({ id: previous.id + 1, text }));
  }, [roomAction, addActionLine, t]);

  // Add and play: a movie added to a room where nothing plays starts at once for whoever may change
  // the movie; whoever may not is told who can. Otherwise the movies are just added.
  const onPushed = useCallback(
    async (added: PushedMovie[]) => {
      const first = added.find((record) => !record.base.isFolder);
      const nothingPlays = loaded !== null && !hasCurrentMovie(loaded.current);
      if (first && nothingPlays && abilities.canSetCurrentMovie) {
        try {
          await setCurrentMovie(roomId, first.id);
          notifySuccess(
            added.length === 1 ? t('cinema.push.addedPlaying', { name: first.base.name }) : t('cinema.push.bulkAddedPlaying', { count: added.length, name: first.base.name }),
          );
        } catch (error) {
          notifyError(error);
        }
      } else if (first && nothingPlays) {
        notifyInfo(t('cinema.push.addedAsk', { name: first.base.name }));
      } else if (added.length === 1) {
        notifySuccess(t('cinema.push.added', { name: added[0].base.name }));
      } else {
        notifySuccess(t('cinema.push.bulkAdded', { count: added.length }));
      }
    },
    [loaded, abilities.canSetCurrentMovie, roomId, t],
  );

  const focusChat = useCallback(() => document.querySelector<HTMLElement>('[data-testid="chat-input"]')?.focus(), []);
  const sendChat = chat.send;

  return (
    <div data-testid="page-cinema" data-room-id={roomId} data-hall data-theater={theater} className={clsx('hall w-full px-3 py-[var(--hall-gap)] md:px-6', !theater && 'mx-auto max-w-7xl')}>
      {room.error && !ready ? (
        <RoomError roomId={roomId} error={room.error} redirecting={room.redirecting} onRetry={room.retry} />
      ) : !ready ? (
        <HallSkeleton />
      ) : (
        <div className="space-y-[var(--hall-gap)]">
          <header className="flex h-[var(--hall-title-h)] items-center gap-x-3">
            <h1 data-testid="room-name" className="min-w-0 truncate text-lg font-semibold sm:text-xl" title={info?.name}>
              {info?.name}
            </h1>
            <ConnectionBadge />
            <RoomAdminBar roomId={roomId} />
          </header>

          <RoomSetup roomId={roomId} />

          <div className="hall-grid">
            <PlayerPanel
              loading={!loaded && !room.currentError}
              loadError={room.currentError && !loaded ? room.currentError : null}
              onRetryLoad={room.reloadCurrent}
              sync={sync}
              onVideo={setVideo}
              chatLines={chat.lines}
              onChatShortcut={focusChat}
              onSendChat={abilities.canChat ? sendChat : undefined}
              theater={theater}
              onToggleTheater={toggleTheater}
              onAddMovie={requestPushForm}
              hasMovies={(movies.data?.total ?? 0) > 0}
              actionNotice={actionNotice}
            />
            {/* Beside the video the chat takes the height of the video and its info bar and never stretches them. */}
            <div className="hall-chat h-96 lg:relative lg:h-auto lg:min-h-96 landscape-short:relative landscape-short:h-auto landscape-short:min-h-0">
              <AfterFirstFrame ready={sideParts} placeholder={<Skeleton className="h-full rounded-2xl" />}>
                <ChatPanel
                  className="h-full lg:absolute lg:inset-0 landscape-short:absolute landscape-short:inset-0"
                  lines={chat.lines}
                  canChat={abilities.canChat}
                  denied={abilities.canChat ? null : <Denied roomId={roomId} what="chat" />}
                  connected={connection === 'open'}
                  onSend={sendChat}
                  voice={<VoiceEntry roomId={roomId} session={session} canVoice={abilities.canVoice} connected={connection === 'open'} video={video} />}
                />
              </AfterFirstFrame>
            </div>
            <div className="hall-movies min-w-0">
              {abilities.canListMovies ? (
                <AfterFirstFrame ready={sideParts} placeholder={<MovieListSkeleton />}>
                  <MovieList
                    roomId={roomId}
                    view={view}
                    onViewChange={setView}
                    data={movies.data}
                    error={movies.error}
                    isLoading={movies.isLoading || movies.isValidating}
                    refresh={() => void movies.mutate()}
                    onAddMovie={requestPushForm}
                    onCleared={() => addSystemLine(t('cinema.chat.cleared'))}
                  />
                </AfterFirstFrame>
              ) : (
                <EmptyState title={<Denied roomId={roomId} what="movies" />} className="py-8" />
              )}
            </div>
            <div className="hall-add min-w-0 self-start">
              {abilities.canAddMovie ? (
                <AfterFirstFrame ready={sideParts} placeholder={<Skeleton className="h-12 rounded-2xl" />}>
                  <AddMovieCard roomId={roomId} parentId={view.folderId} openRequested={pushRequested} onOpenRequestHandled={pushRequestHandled} onPushed={onPushed} />
                </AfterFirstFrame>
              ) : (
                <Card className="px-4 py-3 text-center" data-testid="movie-push-denied">
                  <Denied roomId={roomId} what="add" />
                </Card>
              )}
            </div>
          </div>
        </div>
      )}
    </div>
  );
}

/** A part beside the picture: its `placeholder` until it is `ready` to come down and while its code does. */
function AfterFirstFrame({ ready, placeholder, children }: { ready: boolean; placeholder: ReactNode; children: ReactNode }) {
  return ready ? <Suspense fallback={placeholder}>{children}</Suspense> : placeholder;
}

/** The playlist's place while its code comes down. */
function MovieListSkeleton() {
  return (
    <Card className="space-y-2 p-4" aria-hidden>
      {[0, 1, 2].map((index) => (
        <Skeleton key={index} className="h-12" />
      ))}
    </Card>
  );
}

function HallSkeleton() {
  const t = useT();
  return (
    <div aria-busy="true" aria-label={t('cinema.loading')} data-testid="cinema-loading" className="space-y-4">
      <Skeleton className="h-7 w-48" />
      <div className="hall-grid">
        <Skeleton className="hall-video aspect-video max-h-[var(--hall-video-max-h)] rounded-2xl" />
        <Skeleton className="hall-chat h-64 rounded-2xl lg:h-auto" />
      </div>
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
  // The error catalogue comes down with the first error (hooks/use-error-description.ts); the status needs none.
  const text = useErrorDescription(error)?.message ?? '…';
  // A 401 is handled by the client's 401 rules (navigation to /joinRoom or sign-out), already under way.
  const unauthorized = describeError(error).status === 401;
  return (
    <div role="alert" data-testid="cinema-error">
      <EmptyState
        icon={<CircleExclamationPoint className="text-red-500" />}
        title={t('cinema.error.title')}
        description={<span className="break-words">{unauthorized || redirecting ? t('cinema.error.redirecting') : text}</span>}
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
