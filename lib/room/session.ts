/**
 * The open room, framework-free: one RoomSession per hall. It opens the room over HTTP, owns the room
 * socket and its server clock, handles every incoming frame in one place (`handleFrame`), and holds
 * the room's one playback truth (docs/sync.md "The room session"). React reads what it keeps
 * through the room atoms (./atoms.ts) it writes into the store it is given; nothing else listens to
 * the socket.
 *
 * Opening, each step waiting for the one before (docs/reference-client.md §1.5; docs/contract.md §4.3):
 * 1. `GET /api/room/me`: the first room call, because its 401 sends a non-member to /joinRoom/<id>
 *    (the API client's 401 rules), whereas a 401 on `/api/room/info` would sign the user out. A
 *    v0.9.11 server answers a signed-in non-member of a password room with 500 instead; then
 *    `GET /api/room/joined` tells whether they are a member, and a non-member is `notMember`.
 * 2. `GET /api/room/info` and `GET /api/room/movie/current` at once (a phone's round trips add up
 *    before the first frame: bench/first-frame.ts), then, for a signed-in member, the room's
 *    settings, whose `can_*` switches gate controls.
 * 3. Once the info is in: the WebSocket (the token as subprotocol, none for a guest), connected at
 *    once: every frame handler lives here, so no frame can arrive before someone listens. The
 *    current movie was read before the socket could hear a CURRENT, so it is read once more when
 *    the socket first opens, and taken only if the movie changed meanwhile (the engine has its own
 *    SYNC round trips for the position).
 * 4. The current movie again on CURRENT, EXPIRED and every reconnect.
 * A room link opened in the browser has already sent the reads of steps 1 and 2 from the document
 * (./early-start.ts): the session takes those answers instead of asking again, in the same order,
 * and asks through the API client for any that did not succeed (so the 401 rules stay the same).
 *
 * Frames (docs/contract.md §6.4–§6.7):
 * - VIEWER_COUNT → `viewerCountAtom`; MY_STATUS → my membership and the room's settings again;
 * - CURRENT (the sender remembered for the chat's "now playing … by") and EXPIRED → the current movie;
 * - CHAT → the chat lines (`chatLinesAtom`): the CHAT frames before a connection's first other frame
 *   are the companion server's replay of the room's recent chat (./chat.ts `mergeReplay`);
 * - MOVIES → the `movies` listeners (the movie list's cache);
 * - STATUS, CHECK_STATUS and SYNC → the attached sync engine (lib/sync/engine.ts), which follows them
 *   and reports the status it follows back (`followed`): that is the playback truth. A STATUS also
 *   tells who did what (`roomActionAtom`, ./actions.ts), as does the STATUS this tab sends. With no engine
 *   (no movie, or the player not mounted yet) the session keeps the truth from the frames itself.
 * - ERROR → a notice;
 * - WEBRTC_* → voice chat (`onVoice`, lib/voice/mesh.ts).
 * A socket closed by the server may mean a ban, a removal or a deleted room: `/api/room/me` is asked
 * at once and every few failed reconnects (its 401 takes the user to the join screen); not at once
 * when the server said it is restarting (close code 1012), which only means reconnect.
 */
import type { createStore } from 'jotai';
import { getCurrentMovie, hasCurrentMovie } from '@/lib/api/movie';
import { ApiError } from '@/lib/api/error';
import { getRoomJoined } from '@/lib/api/room';
import { getRoomSettings } from '@/lib/api/room-admin';
import { getRoomInfo, getRoomMe } from '@/lib/api/room-member';
import { MessageType, timestampMs, type Message } from '@/lib/contract/message-type';
import type { PlaybackState } from '@/lib/contract/playback';
import { MemberRole } from '@/lib/contract/roles';
import type { CurrentMovie, RoomInfo, RoomJoined, RoomMe, RoomSettings } from '@/lib/contract/types';
import { publicSettingsAtom, tokenAtom, userAtom } from '@/lib/session';
import { readChatLines, readToken, writeChatLines } from '@/lib/storage';
import { ServerClock } from '@/lib/sync/clock';
import type { HttpStatus } from '@/lib/sync/engine';
import { fromJsonStatus, fromWireStatus } from '@/lib/sync/status';
import type { RoomSocketEvents, RoomSocketState } from '@/lib/ws/room-socket';
import {
  chatLinesAtom,
  currentErrorAtom,
  type LoadedCurrent,
  currentMovieAtom,
  playbackStatusAtom,
  type RoomPlaybackStatus,
  resetRoomAtoms,
  roomActionAtom,
  roomConnectionAtom,
  roomInfoAtom,
  roomLeavingAtom,
  roomMemberAtom,
  roomOpenAtom,
  roomSettingsAtom,
  viewerCountAtom,
} from './atoms';
import { ACTION_LINE_GAP_MS, describeRoomAction, type RoomAction } from './actions';
import { appendLine, chatLineOf, lineId, mergeReplay, validLines, type ChatLine } from './chat';
import { takeEarlyAnswer, type EarlyRead } from './early-start';

/** How often (ms) the current movie's link expiry is checked (EXPIRED, docs/reference-client.md §4). */
export const EXPIRY_CHECK_MS = 10_000;
/** The close code of a server that is restarting (1012 Service Restart; the companion server's shutdown sends it). */
export const SERVICE_RESTART_CODE = 1012;
/** Besides the first close, membership is re-checked after every this many failed reconnects (a kicked user gets /joinRoom). */
export const RECHECK_MEMBERSHIP_EVERY = 3;

/** A jotai store (the app passes the default store; tests a fresh one). */
export type Store = ReturnType<typeof createStore>;

/** What the session needs of the room socket (lib/ws/room-socket.ts `RoomSocket`; tests pass a fake). */
export interface SessionSocket {
  readonly state: RoomSocketState;
  on<K extends keyof RoomSocketEvents>(event: K, listener: RoomSocketEvents[K]): () => void;
  connect(): void;
  close(): void;
  reconnectNow(): void;
  sendChat(content: string): boolean;
  sendStatus(status: PlaybackState): boolean;
  sendSync(): boolean;
  sendExpired(expirationId: bigint | number): boolean;
  sendWebrtc(type: MessageType, signal?: { data: string; to: string }): boolean;
}

/** The HTTP calls the session makes (lib/api/*; tests pass fakes). Each rejects with an ApiError. */
export interface SessionApi {
  getRoomMe(roomId: string, signal?: AbortSignal): Promise<RoomMe>;
  getRoomInfo(roomId: string, signal?: AbortSignal): Promise<RoomInfo>;
  getRoomSettings(roomId: string, asAdmin: boolean, signal?: AbortSignal): Promise<RoomSettings>;
  getRoomJoined(roomId: string): Promise<RoomJoined>;
  getCurrentMovie(roomId: string): Promise<CurrentMovie>;
}

const DEFAULT_API: SessionApi = { getRoomMe, getRoomInfo, getRoomSettings, getRoomJoined, getCurrentMovie };

/**
 * What the session feeds the sync engine of the player (lib/sync/engine.ts `SyncEngine` implements it).
 * Positions in seconds, times in Unix ms.
 */
export interface PlaybackFollower {
  /** The status of `GET /movie/current` with the local times of its request and response. */
  loadTarget(target: HttpStatus): void;
  /** A STATUS or CHECK_STATUS frame, received now. */
  onRemoteStatus(status: PlaybackState): void;
  /** A SYNC reply: the room status at `serverTimeMs` (the frame's `timestamp`). */
  onSyncReply(status: PlaybackState, serverTimeMs: number): void;
  /** The socket opened (true) or closed (false). */
  setConnected(connected: boolean): void;
}

export interface RoomSessionOptions {
  roomId: string;
  /** The store the room atoms live in. */
  store: Store;
  /** Creates the room's socket (not connected) with outgoing timestamps from `serverNow` (Unix ms, server clock). */
  createSocket: (roomId: string, serverNow: () => number) => SessionSocket;
  api?: SessionApi;
  /** Shows a failure to the user (lib/notify.ts `notifyError`). */
  onError?: (error: unknown) => void;
  /** Tells the user something (lib/notify.ts `notifyInfo`): `expired`, the current movie's link expired and is being reloaded. */
  onNotice?: (notice: 'expired') => void;
  /** A frame that could not be decoded, or the server's ERROR frame (its text). */
  onSocketError?: (kind: 'decode' | 'server', text: string) => void;
  /** A current movie was loaded (not yet shown): the hall starts downloading its player engine. */
  onCurrent?: (current: CurrentMovie) => void;
  /** Local clock, Unix ms. Default `Date.now`. */
  now?: () => number;
  /**
   * The room link's early answers (./early-start.ts `takeEarlyAnswer`, with the stored token): what
   * `read` answered before the hall's code ran, or null to ask through `api`. Tests pass a fake.
   */
  takeEarly?: TakeEarly;
}

/** Takes an early answer: its `data` with the local Unix ms of its request and answer, or null. */
export type TakeEarly = <T>(read: EarlyRead, roomId: string) => Promise<{ data: T; requestedAtMs: number; receivedAtMs: number } | null>;

const takeStoredEarly: TakeEarly = (read, roomId) => takeEarlyAnswer(read, roomId, readToken() ?? '');

/** Events of a session for React's caches: the movie list changed (MOVIES frame, or a reconnect that may have missed one). */
export type MoviesListener = () => void;

/** What voice chat (lib/voice/mesh.ts) hears from the session: its signalling frames and the socket opening and closing. */
export interface VoiceListener {
  frame(message: Message): void;
  socketOpen(): void;
  socketClose(): void;
}

/** One open room; see the module comment. Call `open()` once, `close()` when the hall closes. */
/** Whether two current-movie answers play the same thing: the same movie, child and source (the status aside). */
function samePlayback(a: CurrentMovie, b: CurrentMovie | undefined): boolean {
  const [x, y] = [a.movie, b?.movie];
  return x?.id === y?.id && x?.subPath === y?.subPath && x?.base.url === y?.base.url && x?.base.type === y?.base.type;
}

export class RoomSession {
  readonly roomId: string;
  /** The server clock of this room's socket; the engine's SYNC round trips feed it. */
  readonly clock: ServerClock;
  private readonly store: Store;
  private readonly api: SessionApi;
  private readonly options: RoomSessionOptions;
  private readonly now: () => number;
  private readonly takeEarly: TakeEarly;
  private socketInstance: SessionSocket | null = null;
  private readonly offSocket: (() => void)[] = [];
  private readonly abort = new AbortController();
  private closed = false;
  private follower: PlaybackFollower | null = null;
  private readonly moviesListeners = new Set<MoviesListener>();
  private readonly voiceListeners = new Set<VoiceListener>();
  /** Each reload bumps its counter; an answer to an older request is dropped. */
  private memberSeq = 0;
  private currentSeq = 0;
  private settingsSeq = 0;
  /** The sender of the last CURRENT frame, for the next loaded current movie. */
  private currentChangedBy = '';
  /** The replay of the connection being opened: CHAT frames collect here until its first other frame. */
  private replay: ChatLine[] | null = null;
  private expiryTimer: ReturnType<typeof setInterval> | null = null;
  /** True until the socket first opens after a current movie read made before it (step 3). */
  private verifyCurrentOnOpen = false;
  private expiryId = 0n;
  /** Each member's last action line in the chat (`addActionLine`): its id and when it was written (local ms). */
  private readonly actionLines = new Map<string, { id: string; atMs: number }>();
  private actionSeq = 0;
  // The followed status before the latest `followed` (the room before the user's own action).
  private beforeFollowed: RoomPlaybackStatus | null = null;
  /** Where the room goes on once a movie is played again (`continueAt`), or null. */
  private pendingContinue: { movieId: string; status: PlaybackState; atMs: number } | null = null;

  constructor(options: RoomSessionOptions) {
    this.options = options;
    this.roomId = options.roomId;
    this.store = options.store;
    this.api = options.api ?? DEFAULT_API;
    this.now = options.now ?? Date.now;
    this.takeEarly = options.takeEarly ?? takeStoredEarly;
    this.clock = new ServerClock(this.now);
    resetRoomAtoms(options.roomId, this.store);
    this.store.set(chatLinesAtom, validLines(readChatLines(options.roomId)));
  }

  /** The room socket, once the room is open (null before, and for a room that could not be opened). */
  get socket(): SessionSocket | null {
    return this.socketInstance;
  }

  /**
   * Steps 1–4 of the module comment. Never rejects: a failure lands in `roomOpenAtom`
   * (`{ state: 'failed', error }`, or `'notMember'` for v0.9.11's 500 to a non-member).
   */
  async open(): Promise<void> {
    const { signal } = this.abort;
    this.store.set(roomOpenAtom, { state: 'opening', error: null });
    try {
      this.memberSeq += 1;
      const me = (await this.takeEarly<RoomMe>('me', this.roomId))?.data ?? (await this.api.getRoomMe(this.roomId, signal));
      if (this.closed) return;
      this.store.set(roomMemberAtom, me);
      this.verifyCurrentOnOpen = true;
      this.reloadCurrent(false, true);
      const info = (await this.takeEarly<RoomInfo>('info', this.roomId))?.data ?? (await this.api.getRoomInfo(this.roomId, signal));
      if (this.closed) return;
      this.store.set(roomInfoAtom, info);
      void this.loadSettings(me, signal);
    } catch (failure) {
      if (this.closed) return;
      this.store.set(roomOpenAtom, { state: 'failed', error: failure });
      // v0.9.11's answer to a signed-in non-member of a password room.
      if (failure instanceof ApiError && failure.status === 500 && this.store.get(tokenAtom)) {
        const joined = await this.api.getRoomJoined(this.roomId).catch(() => null);
        if (!this.closed && joined && !joined.joined) this.store.set(roomOpenAtom, { state: 'notMember', error: failure });
      }
      return;
    }
    this.store.set(roomOpenAtom, { state: 'open', error: null });
    this.connect();
  }

  /** Closes the socket for good, stops the timers, detaches the engine and clears the room atoms. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.abort.abort();
    for (const off of this.offSocket.splice(0)) off();
    this.socketInstance?.close();
    this.socketInstance = null;
    this.stopExpiryCheck();
    this.follower = null;
    this.moviesListeners.clear();
    resetRoomAtoms(null, this.store);
  }

  /** Skips the socket's backoff wait (the browser came back online). */
  reconnectNow(): void {
    this.socketInstance?.reconnectNow();
  }

  /** Sends a chat line; false when the socket is not open (the line is not sent). */
  sendChat(text: string): boolean {
    return this.socketInstance?.sendChat(text) ?? false;
  }

  /**
   * Sends the user's STATUS (the engine's transport); false when the socket is not open. What it
   * did to the room goes to `roomActionAtom` as the user's own (./actions.ts), compared with the
   * status the room had before: the engine reports its new target (`followed`) before it sends.
   */
  sendStatus(status: PlaybackState): boolean {
    if (!this.socketInstance?.sendStatus(status)) return false;
    const now = this.now();
    const followedNow = this.store.get(playbackStatusAtom);
    const before = followedNow && sameStatus(followedNow.status, status) ? this.beforeFollowed : followedNow;
    // Once sent, this is the room's status: a repeat of it says nothing.
    this.beforeFollowed = followedNow;
    this.noteOwnAction(describeRoomAction(before, status, now), now);
    return true;
  }

  /**
   * The room goes on from `status` (the room at `status.currentTime` at local Unix ms `atMs`, moving
   * on at its rate while playing) once `movieId` is the current movie again. Playing a movie again
   * restarts it at 0 (docs/contract.md §4.5), and that is how the movie proxy is turned on for the
   * current movie (stop, edit, play: components/player/problem-notice.tsx): when the reload comes, the
   * session sends the STATUS and the engine attached to the new player starts from it. Needs the
   * SetCurrentStatus permission (the server refuses the STATUS otherwise and the movie starts at 0).
   */
  continueAt(movieId: string, status: PlaybackState, atMs: number): void {
    this.pendingContinue = { movieId, status, atMs };
  }

  /** Sends SYNC (the engine's transport); false when the socket is not open. */
  sendSync(): boolean {
    return this.socketInstance?.sendSync() ?? false;
  }

  /**
   * Adds `text`, the hall's words for what `username` did (./actions.ts), to the chat as a line of
   * its own; within ACTION_LINE_GAP_MS of that person's last such line it replaces it instead (the
   * latest action wins), so one person scrubbing through a film adds one line, not twenty.
   */
  addActionLine(username: string, text: string): void {
    const now = this.now();
    const lines = this.store.get(chatLinesAtom);
    const last = this.actionLines.get(username);
    const index = last && now - last.atMs < ACTION_LINE_GAP_MS ? lines.findIndex((line) => line.id === last.id) : -1;
    if (index >= 0) {
      const next = lines.slice();
      next[index] = { ...lines[index], text, atMs: now };
      this.setChatLines(next);
      this.actionLines.set(username, { id: lines[index].id, atMs: now });
      return;
    }
    const id = lineId(now);
    this.setChatLines(appendLine(lines, { id, username: '', text, atMs: now, system: true }));
    this.actionLines.set(username, { id, atMs: now });
  }

  /** Adds a line of the hall's own to the chat (never sent), e.g. "playback stopped". */
  addSystemLine(text: string): void {
    const atMs = this.now();
    this.setChatLines(appendLine(this.store.get(chatLinesAtom), { id: lineId(atMs), username: '', text, atMs, system: true }));
  }

  /**
   * Subscribes voice chat to the WEBRTC_* frames and to the socket opening and closing; returns the
   * unsubscribe function.
   */
  onVoice(listener: VoiceListener): () => void {
    this.voiceListeners.add(listener);
    return () => this.voiceListeners.delete(listener);
  }

  /** Sends a voice chat signalling frame (lib/voice/mesh.ts); false when the socket is not open. */
  sendWebrtc(type: MessageType, signal?: { data: string; to: string }): boolean {
    return this.socketInstance?.sendWebrtc(type, signal) ?? false;
  }

  /** Subscribes to "the movie list changed"; returns the unsubscribe function. */
  onMovies(listener: MoviesListener): () => void {
    this.moviesListeners.add(listener);
    return () => this.moviesListeners.delete(listener);
  }

  /**
   * Attaches the player's sync engine: it gets the loaded current movie's status and the socket's
   * state now, and every STATUS, CHECK_STATUS and SYNC from now on. Returns the detach function.
   * One engine at a time; a new one replaces the old.
   */
  attachFollower(follower: PlaybackFollower): () => void {
    this.follower = follower;
    const loaded = this.store.get(currentMovieAtom);
    if (loaded && hasCurrentMovie(loaded.current)) follower.loadTarget(httpStatusOf(loaded));
    if (this.socketInstance?.state === 'open') follower.setConnected(true);
    return () => {
      if (this.follower === follower) this.follower = null;
    };
  }

  /**
   * The status the attached engine follows changed (its `onTarget`): a frame, the HTTP status, or
   * the user's own action at once, the room at `status.currentTime` at local Unix ms `atMs`. This
   * is the room's playback truth that the labels read.
   */
  followed(status: PlaybackState, atMs: number): void {
    if (this.closed) return;
    this.beforeFollowed = this.store.get(playbackStatusAtom);
    this.store.set(playbackStatusAtom, { status, atMs });
  }

  /**
   * Loads the current movie (steps 2 and 4); answers to older requests are dropped. `onlyIfChanged`:
   * the answer is taken only when it plays something else than the one loaded: another movie, or the
   * same one from another source (step 3's check: the movie may have been stopped, edited and played
   * again meanwhile, e.g. with the proxy or the conversion turned on).
   * `early`: the room link's early answer is used when there is one (step 2).
   */
  reloadCurrent(onlyIfChanged = false, early = false): void {
    const seq = ++this.currentSeq;
    const ask = () => {
      const requestedAtMs = this.now();
      return this.api.getCurrentMovie(this.roomId).then((current) => ({ current, requestedAtMs, receivedAtMs: this.now() }));
    };
    const load = early
      ? this.takeEarly<CurrentMovie>('current', this.roomId).then((answer) => (answer ? { current: answer.data, requestedAtMs: answer.requestedAtMs, receivedAtMs: answer.receivedAtMs } : ask()))
      : ask();
    load.then(
      ({ current, requestedAtMs, receivedAtMs }) => {
        if (seq !== this.currentSeq || this.closed) return;
        if (onlyIfChanged && samePlayback(current, this.store.get(currentMovieAtom)?.current)) return;
        if (hasCurrentMovie(current)) this.options.onCurrent?.(current);
        let loaded: LoadedCurrent = { current, requestedAtMs, receivedAtMs, changedBy: this.currentChangedBy };
        const resumed = this.takeContinue(current);
        if (resumed) loaded = { ...loaded, current: { ...current, status: { ...current.status, ...resumed } }, requestedAtMs: this.now(), receivedAtMs: this.now() };
        this.currentChangedBy = '';
        this.store.set(currentMovieAtom, loaded);
        this.store.set(currentErrorAtom, null);
        this.watchExpiry(current);
        if (!hasCurrentMovie(current)) {
          this.store.set(playbackStatusAtom, null);
        } else if (this.follower) {
          this.follower.loadTarget(httpStatusOf(loaded));
        } else {
          this.store.set(playbackStatusAtom, { status: fromJsonStatus(current.status), atMs: loaded.receivedAtMs });
        }
      },
      (failure: unknown) => {
        if (seq !== this.currentSeq || this.closed) return;
        // The server answered that this viewer cannot have the room's movie (a vendor account to
        // bind, a file gone): what was loaded before is not what the room plays any more, so the
        // player says why instead of going on with it. A network failure keeps what plays.
        if (!onlyIfChanged && failure instanceof ApiError && failure.status >= 400 && failure.status < 500) {
          this.store.set(currentMovieAtom, null);
          this.store.set(playbackStatusAtom, null);
        }
        this.store.set(currentErrorAtom, failure);
      },
    );
  }

  /**
   * The status a `continueAt` asked for, moved on to now, once `current` is its movie again (and
   * sent to the room); null otherwise.
   */
  private takeContinue(current: CurrentMovie): PlaybackState | null {
    const pending = this.pendingContinue;
    if (!pending || !hasCurrentMovie(current) || current.movie.id !== pending.movieId) return null;
    this.pendingContinue = null;
    const { status, atMs } = pending;
    const elapsedSec = status.isPlaying ? ((this.now() - atMs) / 1000) * status.playbackRate : 0;
    const resumed = { ...status, currentTime: status.currentTime + elapsedSec };
    // Sent as the room's own continuation, not as an action of the person.
    this.socketInstance?.sendStatus(resumed);
    return resumed;
  }

  /**
   * Handles one incoming frame (see the module comment). Public for the tests; the socket's
   * `message` event calls it.
   */
  handleFrame(message: Message): void {
    if (this.closed) return;
    const { payload } = message;
    if (message.type === MessageType.CHAT) {
      this.onChat(message);
      return;
    }
    this.endReplay();
    switch (message.type) {
      case MessageType.VIEWER_COUNT:
        if (payload.case === 'viewerCount') this.store.set(viewerCountAtom, Number(payload.value));
        break;
      case MessageType.MY_STATUS:
        this.reloadMember();
        break;
      case MessageType.CURRENT:
        this.currentChangedBy = message.sender?.username ?? '';
        this.reloadCurrent();
        break;
      case MessageType.EXPIRED:
        this.options.onNotice?.('expired');
        this.reloadCurrent();
        break;
      case MessageType.MOVIES:
        this.emitMovies();
        break;
      case MessageType.STATUS:
      case MessageType.CHECK_STATUS:
      case MessageType.SYNC:
        if (payload.case !== 'playbackStatus') break;
        if (message.type === MessageType.STATUS) this.noteAction(message, fromWireStatus(payload.value));
        this.onPlayback(message.type, fromWireStatus(payload.value), timestampMs(message));
        break;
      case MessageType.ERROR:
        this.options.onSocketError?.('server', payload.case === 'errorMessage' ? payload.value : '');
        break;
      case MessageType.WEBRTC_JOIN:
      case MessageType.WEBRTC_LEAVE:
      case MessageType.WEBRTC_OFFER:
      case MessageType.WEBRTC_ANSWER:
      case MessageType.WEBRTC_ICE_CANDIDATE:
        for (const listener of this.voiceListeners) listener.frame(message);
        break;
      default:
        break;
    }
  }

  /**
   * Another connection's STATUS (before the engine takes it): what they did, compared with the
   * status the room had, goes to `roomActionAtom` (./actions.ts); my own from another tab as mine.
   */
  private noteAction(message: Message, status: PlaybackState): void {
    const sender = message.sender;
    if (!sender?.username) return;
    const now = this.now();
    const action = describeRoomAction(this.store.get(playbackStatusAtom), status, now);
    if (!action) return;
    if (sender.userId === this.store.get(roomMemberAtom)?.userId) this.noteOwnAction(action, now);
    else this.store.set(roomActionAtom, { id: ++this.actionSeq, username: sender.username, own: false, action, atMs: now });
  }

  private noteOwnAction(action: RoomAction | null, now: number): void {
    if (action) this.store.set(roomActionAtom, { id: ++this.actionSeq, username: this.store.get(userAtom)?.username ?? '', own: true, action, atMs: now });
  }

  private onPlayback(type: MessageType, status: PlaybackState, serverTimeMs: number): void {
    const follower = this.follower;
    if (follower) {
      if (type === MessageType.SYNC) follower.onSyncReply(status, serverTimeMs);
      else follower.onRemoteStatus(status);
      return;
    }
    if (hasCurrentMovie(this.store.get(currentMovieAtom)?.current)) this.store.set(playbackStatusAtom, { status, atMs: this.now() });
  }

  private onChat(message: Message): void {
    const now = this.now();
    const replaying = this.replay;
    const toLocalMs = (serverMs: number) => serverMs - (this.clock.sampleCount > 0 ? this.clock.offsetMs : 0);
    const line = chatLineOf(message, now, replaying !== null, toLocalMs);
    if (!line) return;
    if (replaying) replaying.push(line);
    else this.setChatLines(appendLine(this.store.get(chatLinesAtom), line));
  }

  /** The first frame other than CHAT ends a connection's replay: it replaces the lines shown (./chat.ts `mergeReplay`). */
  private endReplay(): void {
    const replaying = this.replay;
    if (!replaying) return;
    this.replay = null;
    // The companion server keeps the room's chat (its `chatHistory` setting): its replay, even an empty one, is what the room said.
    const serverKeepsHistory = (this.store.get(publicSettingsAtom)?.chatHistory ?? 0) > 0;
    if (replaying.length > 0 || serverKeepsHistory) this.setChatLines(mergeReplay(this.store.get(chatLinesAtom), replaying));
  }

  private setChatLines(lines: ChatLine[]): void {
    this.store.set(chatLinesAtom, lines);
    writeChatLines(this.roomId, lines);
  }

  private emitMovies(): void {
    for (const listener of this.moviesListeners) listener();
  }

  private connect(): void {
    const socket = this.options.createSocket(this.roomId, () => this.clock.serverNow());
    this.socketInstance = socket;
    this.offSocket.push(
      socket.on('message', (message) => this.handleFrame(message)),
      socket.on('state', (state) => {
        this.store.set(roomConnectionAtom, state);
        if (state === 'open') this.follower?.setConnected(true);
        else if (state === 'closed') this.follower?.setConnected(false);
        if (state === 'open') for (const listener of this.voiceListeners) listener.socketOpen();
        else if (state === 'closed') for (const listener of this.voiceListeners) listener.socketClose();
      }),
      socket.on('open', ({ reconnected }) => this.onOpen(reconnected)),
      socket.on('close', ({ code, failures, retryInMs }) => this.onClose(code, failures, retryInMs)),
      socket.on('decodeError', (failure) => this.options.onSocketError?.('decode', failure.message)),
    );
    socket.connect();
  }

  private onOpen(reconnected: boolean): void {
    this.replay = [];
    if (this.verifyCurrentOnOpen && !reconnected) this.reloadCurrent(true);
    this.verifyCurrentOnOpen = false;
    // Anything may have changed while offline; the engine resyncs itself with SYNC.
    if (!reconnected) return;
    this.reloadCurrent();
    this.reloadMember();
    this.emitMovies();
  }

  private onClose(code: number, failures: number, retryInMs: number | null): void {
    this.replay = null;
    if (retryInMs === null || this.store.get(roomLeavingAtom)) return;
    // A server that restarts says so (1012): nothing to ask about the membership, just reconnect.
    if (code === SERVICE_RESTART_CODE) return;
    if (!(failures === 1 || failures % RECHECK_MEMBERSHIP_EVERY === 0)) return;
    const seq = ++this.memberSeq;
    this.api.getRoomMe(this.roomId).then(
      (member) => {
        if (seq === this.memberSeq && !this.closed) this.store.set(roomMemberAtom, member);
      },
      () => undefined,
    );
  }

  private reloadMember(): void {
    const seq = ++this.memberSeq;
    this.api.getRoomMe(this.roomId).then(
      (member) => {
        if (seq !== this.memberSeq || this.closed) return;
        this.store.set(roomMemberAtom, member);
        void this.loadSettings(member);
      },
      // A 401 (kicked, banned) has already sent the user to /joinRoom; anything else is worth a word.
      (failure: unknown) => {
        if (seq === this.memberSeq && !this.closed && !(failure instanceof ApiError && failure.status === 401)) this.options.onError?.(failure);
      },
    );
  }

  /** The room's switches, for the abilities (./abilities.ts). Guests may not read them; a failure keeps the last known ones. */
  private async loadSettings(me: RoomMe, signal?: AbortSignal): Promise<void> {
    if (!this.store.get(tokenAtom)) return;
    const seq = ++this.settingsSeq;
    try {
      const settings = await this.api.getRoomSettings(this.roomId, me.role >= MemberRole.Admin, signal);
      if (seq === this.settingsSeq && !this.closed) this.store.set(roomSettingsAtom, settings);
    } catch {
      // Not fatal: the abilities fall back to the member's own bits (the server still refuses what they forbid).
    }
  }

  /** While the current movie has an `expireId`, asks the server every EXPIRY_CHECK_MS whether its link expired. */
  private watchExpiry(current: CurrentMovie): void {
    const id = BigInt(Math.max(0, Math.round(current.expireId || 0)));
    if (id === this.expiryId && (id === 0n || this.expiryTimer !== null)) return;
    this.stopExpiryCheck();
    this.expiryId = id;
    if (id === 0n) return;
    this.expiryTimer = setInterval(() => this.socketInstance?.sendExpired(id), EXPIRY_CHECK_MS);
  }

  private stopExpiryCheck(): void {
    if (this.expiryTimer !== null) clearInterval(this.expiryTimer);
    this.expiryTimer = null;
  }
}

/** The loaded current movie's status for the engine (positions in seconds, times in local Unix ms). */
function httpStatusOf(loaded: { current: CurrentMovie; requestedAtMs: number; receivedAtMs: number }): HttpStatus {
  return { status: fromJsonStatus(loaded.current.status), requestedAtMs: loaded.requestedAtMs, receivedAtMs: loaded.receivedAtMs };
}

/** Whether two statuses are the same (positions within a microsecond). */
function sameStatus(a: PlaybackState, b: PlaybackState): boolean {
  return a.isPlaying === b.isPlaying && Math.abs(a.currentTime - b.currentTime) < 1e-6 && Math.abs(a.playbackRate - b.playbackRate) < 1e-9;
}
