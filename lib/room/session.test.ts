/**
 * The room session (./session.ts) against a fake socket and fake API: opening a room, every kind of
 * incoming frame handled in one place, the chat replay, and the one playback truth it keeps with or
 * without a sync engine attached.
 */
import { createStore } from 'jotai';
import { ApiError } from '@/lib/api/error';
import { decodeMessage, encodeMessage, MessageType } from '@/lib/contract/message';
import type { PlaybackState } from '@/lib/contract/playback';
import type { CurrentMovie, RoomInfo, RoomMe } from '@/lib/contract/types';
import { tokenAtom, userAtom } from '@/lib/session';
import type { HttpStatus } from '@/lib/sync/engine';
import type { RoomSocketEvents, RoomSocketState } from '@/lib/ws/room-socket';
import {
  chatLinesAtom,
  currentErrorAtom,
  currentMovieAtom,
  playbackStatusAtom,
  roomActionAtom,
  roomConnectionAtom,
  roomInfoAtom,
  roomMemberAtom,
  roomOpenAtom,
  viewerCountAtom,
} from './atoms';
import { RoomSession, type PlaybackFollower, type SessionApi, type SessionSocket, type TakeEarly } from './session';

type Listeners = { [K in keyof RoomSocketEvents]: Set<RoomSocketEvents[K]> };

class FakeSocket implements SessionSocket {
  state: RoomSocketState = 'closed';
  connected = 0;
  closed = false;
  sent: string[] = [];
  expired: (bigint | number)[] = [];
  private readonly listeners: Listeners = { message: new Set(), state: new Set(), open: new Set(), close: new Set(), decodeError: new Set() };

  on<K extends keyof RoomSocketEvents>(event: K, listener: RoomSocketEvents[K]): () => void {
    this.listeners[event].add(listener);
    return () => this.listeners[event].delete(listener);
  }
  emit<K extends keyof RoomSocketEvents>(event: K, ...args: Parameters<RoomSocketEvents[K]>): void {
    for (const listener of this.listeners[event]) (listener as (...a: Parameters<RoomSocketEvents[K]>) => void)(...args);
  }
  open(reconnected = false): void {
    this.state = 'open';
    this.emit('state', 'open');
    this.emit('open', { reconnected });
  }
  frame(init: Parameters<typeof encodeMessage>[0]): void {
    this.emit('message', decodeMessage(encodeMessage(init)));
  }
  connect(): void {
    this.connected += 1;
  }
  close(): void {
    this.closed = true;
  }
  reconnectNow(): void {}
  sendChat(content: string): boolean {
    this.sent.push(`chat:${content}`);
    return this.state === 'open';
  }
  sendStatus(): boolean {
    this.sent.push('status');
    return this.state === 'open';
  }
  sendSync(): boolean {
    this.sent.push('sync');
    return this.state === 'open';
  }
  sendExpired(id: bigint | number): boolean {
    this.expired.push(id);
    return true;
  }
  sendWebrtc(type: number, signal?: { data: string; to: string }): boolean {
    this.sent.push(`webrtc:${type}${signal ? `:${signal.to}` : ''}`);
    return this.state === 'open';
  }
}

class RecordingFollower implements PlaybackFollower {
  calls: string[] = [];
  loaded: HttpStatus[] = [];
  remote: PlaybackState[] = [];
  replies: { status: PlaybackState; serverTimeMs: number }[] = [];
  loadTarget(target: HttpStatus): void {
    this.calls.push('loadTarget');
    this.loaded.push(target);
  }
  onRemoteStatus(status: PlaybackState): void {
    this.calls.push('remote');
    this.remote.push(status);
  }
  onSyncReply(status: PlaybackState, serverTimeMs: number): void {
    this.calls.push('sync');
    this.replies.push({ status, serverTimeMs });
  }
  setConnected(connected: boolean): void {
    this.calls.push(connected ? 'connected' : 'disconnected');
  }
}

const ME: RoomMe = { userId: 'u1', roomId: 'r1', joinAt: 0, role: 1, status: 2, permissions: 0xffff, adminPermissions: 0 };
const INFO = { id: 'r1', name: 'Friday films' } as RoomInfo;
const movieCurrent = (id: string, currentTime = 10, isPlaying = true): CurrentMovie =>
  ({ movie: { id, base: { name: id } }, status: { isPlaying, currentTime, playbackRate: 1 }, expireId: id ? 77 : 0 }) as unknown as CurrentMovie;
const NOTHING = movieCurrent('');

/** Resolves pending promise callbacks (the fake API answers at once). */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

function setUp(overrides: Partial<SessionApi> = {}, takeEarly?: TakeEarly) {
  const store = createStore();
  store.set(tokenAtom, 'token');
  const socket = new FakeSocket();
  const calls: string[] = [];
  let current: CurrentMovie = movieCurrent('m1');
  const api: SessionApi = {
    getRoomMe: async () => {
      calls.push('me');
      return ME;
    },
    getRoomInfo: async () => {
      calls.push('info');
      return INFO;
    },
    getRoomSettings: async () => {
      calls.push('settings');
      return {} as never;
    },
    getRoomJoined: async () => ({ joined: false }) as never,
    getCurrentMovie: async () => {
      calls.push('current');
      return current;
    },
    ...overrides,
  };
  const errors: string[] = [];
  const notices: string[] = [];
  const session = new RoomSession({
    roomId: 'r1',
    store,
    api,
    createSocket: () => {
      calls.push('socket');
      return socket;
    },
    onError: (error) => errors.push(String(error)),
    onNotice: (key) => notices.push(key),
    onSocketError: (kind, text) => errors.push(`${kind}:${text}`),
    ...(takeEarly ? { takeEarly } : {}),
  });
  return { store, socket, session, calls, errors, notices, setCurrent: (next: CurrentMovie) => (current = next) };
}

const sessions: RoomSession[] = [];
afterEach(() => {
  sessions.splice(0).forEach((session) => session.close());
  sessionStorage.clear();
});

async function opened(overrides: Partial<SessionApi> = {}, takeEarly?: TakeEarly) {
  const context = setUp(overrides, takeEarly);
  sessions.push(context.session);
  await context.session.open();
  await settle();
  return context;
}

describe('opening a room', () => {
  it('asks /me, then /info and the current movie at once, then connects the socket', async () => {
    const { store, calls, socket } = await opened();
    expect(calls.filter((call) => call !== 'settings')).toEqual(['me', 'current', 'info', 'socket']);
    expect(socket.connected).toBe(1);
    expect(store.get(roomOpenAtom).state).toBe('open');
    expect(store.get(roomMemberAtom)).toEqual(ME);
    expect(store.get(roomInfoAtom)).toEqual(INFO);
    expect(store.get(currentMovieAtom)?.current.movie.id).toBe('m1');
    expect(store.get(playbackStatusAtom)?.status).toEqual({ isPlaying: true, currentTime: 10, playbackRate: 1 });
  });

  it("takes the room link's early answers instead of asking again, with the times they were asked and answered", async () => {
    const early: Record<string, unknown> = { me: ME, info: INFO, current: movieCurrent('m7', 42) };
    const taken: string[] = [];
    const takeEarly = (async (read: string, roomId: string) => {
      taken.push(`${read}:${roomId}`);
      return { data: early[read], requestedAtMs: 1_000, receivedAtMs: 1_300 };
    }) as TakeEarly;
    const { store, calls } = await opened({}, takeEarly);
    expect(taken).toEqual(['me:r1', 'current:r1', 'info:r1']);
    expect(calls.filter((call) => call !== 'settings')).toEqual(['socket']);
    expect(store.get(roomMemberAtom)).toEqual(ME);
    expect(store.get(roomInfoAtom)).toEqual(INFO);
    expect(store.get(currentMovieAtom)).toMatchObject({ requestedAtMs: 1_000, receivedAtMs: 1_300 });
    expect(store.get(currentMovieAtom)?.current.movie.id).toBe('m7');
  });

  it('asks through the API for every read the early start could not answer', async () => {
    const takeEarly = (async (read: string) => (read === 'info' ? { data: INFO, requestedAtMs: 1, receivedAtMs: 2 } : null)) as TakeEarly;
    const { store, calls } = await opened({}, takeEarly);
    expect(calls.filter((call) => call !== 'settings')).toEqual(['me', 'current', 'socket']);
    expect(store.get(roomOpenAtom).state).toBe('open');
    expect(store.get(currentMovieAtom)?.current.movie.id).toBe('m1');
  });

  it('reports a failure and opens no socket', async () => {
    const failure = new ApiError(404, 'room not found', '/api/room/info');
    const { store, calls } = await opened({
      getRoomInfo: async () => {
        throw failure;
      },
    });
    expect(store.get(roomOpenAtom)).toEqual({ state: 'failed', error: failure });
    expect(calls).not.toContain('socket');
  });

  it('tells a signed-in non-member of a password room apart (v0.9.11 answers them 500)', async () => {
    const { store } = await opened({
      getRoomMe: async () => {
        throw new ApiError(500, 'internal error', '/api/room/me');
      },
    });
    expect(store.get(roomOpenAtom).state).toBe('notMember');
  });
});

describe('the current movie read before the socket opened', () => {
  it('is read once more when the socket first opens, and taken only if the movie changed meanwhile', async () => {
    const { store, socket, calls, setCurrent } = await opened();
    const first = store.get(currentMovieAtom);
    socket.open();
    await settle();
    expect(calls.filter((call) => call === 'current')).toHaveLength(2);
    expect(store.get(currentMovieAtom)).toBe(first);
    setCurrent(movieCurrent('m2'));
    socket.emit('close', { code: 1006, reason: '', failures: 1, retryInMs: 400 });
    socket.open(true);
    await settle();
    expect(store.get(currentMovieAtom)?.current.movie.id).toBe('m2');
  });

  it('takes the same movie when it plays from elsewhere now (the proxy or the conversion turned on meanwhile)', async () => {
    const { store, socket, setCurrent } = await opened();
    const converted = movieCurrent('m1');
    converted.movie.base = { ...converted.movie.base, url: '/api/room/movie/convert/m1/index.m3u8?token=t', type: 'm3u8' };
    setCurrent(converted);
    socket.open();
    await settle();
    expect(store.get(currentMovieAtom)?.current.movie.base.url).toBe('/api/room/movie/convert/m1/index.m3u8?token=t');
  });

  it('takes a movie that changed between the first read and the socket opening', async () => {
    const { store, socket, setCurrent } = await opened();
    setCurrent(movieCurrent('m3'));
    socket.open();
    await settle();
    expect(store.get(currentMovieAtom)?.current.movie.id).toBe('m3');
  });
});

describe('frames', () => {
  it('VIEWER_COUNT sets the count; MY_STATUS reloads my membership', async () => {
    const { store, socket, calls } = await opened();
    socket.open();
    socket.frame({ type: MessageType.VIEWER_COUNT, payload: { case: 'viewerCount', value: 3n } });
    expect(store.get(viewerCountAtom)).toBe(3);
    const before = calls.filter((call) => call === 'me').length;
    socket.frame({ type: MessageType.MY_STATUS });
    await settle();
    expect(calls.filter((call) => call === 'me').length).toBe(before + 1);
  });

  it('CURRENT reloads the current movie and remembers who changed it; EXPIRED tells the user and reloads', async () => {
    const { store, socket, setCurrent, notices } = await opened();
    socket.open();
    setCurrent(movieCurrent('m2'));
    socket.frame({ type: MessageType.CURRENT, sender: { userId: 'u2', username: 'ann' } });
    await settle();
    expect(store.get(currentMovieAtom)?.current.movie.id).toBe('m2');
    expect(store.get(currentMovieAtom)?.changedBy).toBe('ann');
    socket.frame({ type: MessageType.EXPIRED });
    await settle();
    expect(notices).toEqual(['expired']);
    expect(store.get(currentMovieAtom)?.changedBy).toBe('');
  });

  it('MOVIES reaches every movie-list listener until it unsubscribes', async () => {
    const { session, socket } = await opened();
    socket.open();
    const heard: number[] = [];
    const off = session.onMovies(() => heard.push(1));
    socket.frame({ type: MessageType.MOVIES });
    off();
    socket.frame({ type: MessageType.MOVIES });
    expect(heard).toEqual([1]);
  });

  it('CHAT before the first other frame is the replay; it replaces the lines shown, then lines append live', async () => {
    const { store, socket } = await opened();
    store.set(chatLinesAtom, [{ id: 'old', username: 'bob', text: 'stale', atMs: 1, serverAtMs: 1 }]);
    socket.open();
    socket.frame({ type: MessageType.CHAT, timestamp: 1000n, sender: { userId: 'u2', username: 'ann' }, payload: { case: 'chatContent', value: 'hi' } });
    expect(store.get(chatLinesAtom).map((line) => line.text)).toEqual(['stale']);
    socket.frame({ type: MessageType.VIEWER_COUNT, payload: { case: 'viewerCount', value: 2n } });
    expect(store.get(chatLinesAtom).map((line) => [line.text, line.earlier])).toEqual([['hi', true]]);
    socket.frame({ type: MessageType.CHAT, timestamp: 2000n, sender: { userId: 'u2', username: 'ann' }, payload: { case: 'chatContent', value: 'live' } });
    expect(store.get(chatLinesAtom).map((line) => [line.text, line.earlier])).toEqual([
      ['hi', true],
      ['live', undefined],
    ]);
    expect(JSON.parse(sessionStorage.getItem(Object.keys(sessionStorage).find((key) => key.includes('r1')) ?? '') ?? '[]')).toHaveLength(2);
  });

  it('ERROR and an undecodable frame reach the user; frames after close are ignored', async () => {
    const { store, socket, session, errors } = await opened();
    socket.open();
    socket.frame({ type: MessageType.ERROR, payload: { case: 'errorMessage', value: 'no permission' } });
    socket.emit('decodeError', new Error('bad frame'));
    expect(errors).toEqual(['server:no permission', 'decode:bad frame']);
    session.close();
    socket.frame({ type: MessageType.VIEWER_COUNT, payload: { case: 'viewerCount', value: 9n } });
    expect(store.get(viewerCountAtom)).toBeNull();
    expect(socket.closed).toBe(true);
  });
});

describe('the playback truth', () => {
  const status = (isPlaying: boolean, currentTime: number) => ({ case: 'playbackStatus' as const, value: { isPlaying, currentTime, playbackRate: 1 } });

  it('without an engine, follows STATUS frames itself', async () => {
    const { store, socket } = await opened();
    socket.open();
    socket.frame({ type: MessageType.STATUS, payload: status(false, 33) });
    expect(store.get(playbackStatusAtom)?.status).toEqual({ isPlaying: false, currentTime: 33, playbackRate: 1 });
  });

  it('with an engine: hands it the loaded status and the socket state, routes STATUS, CHECK_STATUS and SYNC, and keeps what it follows', async () => {
    const { store, socket, session } = await opened();
    socket.open();
    const follower = new RecordingFollower();
    const detach = session.attachFollower(follower);
    expect(follower.calls).toEqual(['loadTarget', 'connected']);
    expect(follower.loaded[0].status.currentTime).toBe(10);
    socket.frame({ type: MessageType.STATUS, payload: status(false, 20) });
    socket.frame({ type: MessageType.CHECK_STATUS, payload: status(true, 21) });
    socket.frame({ type: MessageType.SYNC, timestamp: 123_456n, payload: status(true, 22) });
    expect(follower.calls.slice(2)).toEqual(['remote', 'remote', 'sync']);
    expect(follower.replies[0].serverTimeMs).toBe(123_456);
    // The frames go to the engine; the truth is what the engine says it follows.
    expect(store.get(playbackStatusAtom)?.status.currentTime).toBe(10);
    session.followed({ isPlaying: false, currentTime: 20, playbackRate: 1 }, 5_000);
    expect(store.get(playbackStatusAtom)).toEqual({ status: { isPlaying: false, currentTime: 20, playbackRate: 1 }, atMs: 5_000 });
    socket.state = 'closed';
    socket.emit('state', 'closed');
    expect(follower.calls.at(-1)).toBe('disconnected');
    detach();
    socket.frame({ type: MessageType.STATUS, payload: status(true, 50) });
    expect(follower.remote).toHaveLength(2);
  });

  it('a new current movie goes to the engine; no movie clears the truth', async () => {
    const { store, socket, session, setCurrent } = await opened();
    socket.open();
    const follower = new RecordingFollower();
    session.attachFollower(follower);
    setCurrent(movieCurrent('m2', 5, false));
    socket.frame({ type: MessageType.CURRENT });
    await settle();
    expect(follower.loaded.at(-1)?.status).toEqual({ isPlaying: false, currentTime: 5, playbackRate: 1 });
    setCurrent(NOTHING);
    socket.frame({ type: MessageType.CURRENT });
    await settle();
    expect(store.get(playbackStatusAtom)).toBeNull();
  });

  it('drops the answer to an older current request, and keeps the error of a failed one', async () => {
    let answer: (value: CurrentMovie) => void = () => undefined;
    const answers: ((value: CurrentMovie) => void)[] = [];
    const { store, session } = await opened({
      getCurrentMovie: () =>
        new Promise<CurrentMovie>((resolve) => {
          answers.push(resolve);
          answer = resolve;
        }),
    });
    session.reloadCurrent(); // a second request while the first is out
    answer(movieCurrent('newer'));
    answers[0](movieCurrent('older'));
    await settle();
    expect(store.get(currentMovieAtom)?.current.movie.id).toBe('newer');
    const failure = new ApiError(502, 'bad gateway', '/api/room/movie/current');
    const failing = await opened({
      getCurrentMovie: async () => {
        throw failure;
      },
    });
    expect(failing.store.get(currentErrorAtom)).toBe(failure);
  });

  it('drops the movie it was playing when the room moves on to one the server will not give this viewer', async () => {
    let refusal: ApiError | null = null;
    const { store, socket } = await opened({
      getCurrentMovie: async () => {
        if (refusal) throw refusal;
        return movieCurrent('m1');
      },
    });
    expect(store.get(currentMovieAtom)?.current.movie.id).toBe('m1');
    // A network failure keeps what plays; the server's refusal (a vendor account to bind) does not.
    refusal = new ApiError(0, 'network', '/api/room/movie/current', { source: 'network' });
    socket.frame({ type: MessageType.CURRENT });
    await settle();
    expect(store.get(currentMovieAtom)?.current.movie.id).toBe('m1');
    refusal = new ApiError(400, 'bilibili: bind a bilibili account in your user center to watch this video', '/api/room/movie/current');
    socket.frame({ type: MessageType.CURRENT });
    await settle();
    expect([store.get(currentMovieAtom), store.get(playbackStatusAtom), store.get(currentErrorAtom)]).toEqual([null, null, refusal]);
  });
});

describe('going on after a movie is played again (the proxy turned on)', () => {
  it('sends the STATUS where the room was, moved on, once that movie is current again; the engine attached then starts there', async () => {
    const { store, socket, session, setCurrent } = await opened();
    socket.open();
    await settle();
    session.continueAt('m1', { isPlaying: true, currentTime: 30, playbackRate: 1 }, Date.now() - 2000);
    // Stopped first: nothing is sent for a room without that movie.
    setCurrent(NOTHING);
    socket.frame({ type: MessageType.CURRENT });
    await settle();
    expect(socket.sent).not.toContain('status');
    // Played again, restarted at 0 by the server.
    setCurrent(movieCurrent('m1', 0));
    socket.frame({ type: MessageType.CURRENT });
    await settle();
    expect(socket.sent.filter((sent) => sent === 'status')).toHaveLength(1);
    expect(store.get(currentMovieAtom)?.current.status.currentTime).toBeCloseTo(32, 0);
    const follower = new RecordingFollower();
    session.attachFollower(follower);
    expect(follower.loaded[0].status.currentTime).toBeCloseTo(32, 0);
    // Only once.
    socket.frame({ type: MessageType.CURRENT });
    await settle();
    expect(socket.sent.filter((sent) => sent === 'status')).toHaveLength(1);
  });
});

describe('who did it', () => {
  it("tells another member's pause, and my own jump from another tab as mine", async () => {
    const { store, socket } = await opened();
    socket.open();
    await settle();
    const playing = { isPlaying: true, currentTime: 10, playbackRate: 1 };
    store.set(playbackStatusAtom, { status: playing, atMs: Date.now() });
    socket.frame({ type: MessageType.STATUS, sender: { userId: 'u2', username: 'bob' }, payload: { case: 'playbackStatus', value: { ...playing, isPlaying: false } } });
    expect(store.get(roomActionAtom)).toMatchObject({ username: 'bob', own: false, action: { kind: 'pause' } });
    store.set(playbackStatusAtom, { status: playing, atMs: Date.now() });
    socket.frame({ type: MessageType.STATUS, sender: { userId: ME.userId, username: 'me' }, payload: { case: 'playbackStatus', value: { ...playing, currentTime: 100 } } });
    expect(store.get(roomActionAtom)).toMatchObject({ own: true, action: { kind: 'seek', currentTime: 100 } });
  });

  it('tells my own pause from this tab, against the room before it, once it was sent', async () => {
    const { store, socket, session } = await opened();
    store.set(userAtom, { id: ME.userId, username: 'me' } as never);
    const playing = { isPlaying: true, currentTime: 10, playbackRate: 1 };
    const paused = { ...playing, isPlaying: false, currentTime: 22 };
    session.followed(playing, Date.now());
    // Not sent (the socket is not open yet): nothing is said.
    session.followed(paused, Date.now());
    expect(session.sendStatus(paused)).toBe(false);
    expect(store.get(roomActionAtom)).toBeNull();

    socket.open();
    await settle();
    session.followed(playing, Date.now());
    // The engine reports its new target before it sends.
    session.followed(paused, Date.now());
    expect(session.sendStatus(paused)).toBe(true);
    expect(store.get(roomActionAtom)).toMatchObject({ username: 'me', own: true, action: { kind: 'pause', currentTime: 22 } });
    // A repeat of the room's status changes nothing a person would notice.
    const first = store.get(roomActionAtom);
    session.sendStatus(paused);
    expect(store.get(roomActionAtom)).toBe(first);
  });

  it("writes one chat line per person within 2 s, the latest winning, and a new one after", async () => {
    jest.useFakeTimers({ now: 1_700_000_000_000 });
    try {
      const { store, session } = setUp();
      sessions.push(session);
      session.addActionLine('bob', 'bob jumped to 1:00');
      jest.advanceTimersByTime(500);
      session.addActionLine('bob', 'bob jumped to 2:00');
      session.addActionLine('ann', 'ann paused at 2:00');
      expect(store.get(chatLinesAtom).map((line) => line.text)).toEqual(['bob jumped to 2:00', 'ann paused at 2:00']);
      jest.advanceTimersByTime(2500);
      session.addActionLine('bob', 'bob paused at 2:03');
      expect(store.get(chatLinesAtom).map((line) => line.text)).toEqual(['bob jumped to 2:00', 'ann paused at 2:00', 'bob paused at 2:03']);
      expect(store.get(chatLinesAtom).every((line) => line.system)).toBe(true);
    } finally {
      jest.useRealTimers();
    }
  });
});

describe('the connection', () => {
  it('mirrors the socket state, reloads everything on a reconnect, and re-checks membership after a close', async () => {
    const { store, socket, session, calls } = await opened();
    const movies: number[] = [];
    session.onMovies(() => movies.push(1));
    socket.open();
    expect(store.get(roomConnectionAtom)).toBe('open');
    const count = (name: string) => calls.filter((call) => call === name).length;
    const [me, current] = [count('me'), count('current')];
    socket.emit('close', { code: 1006, reason: '', failures: 1, retryInMs: 400 });
    await settle();
    expect(count('me')).toBe(me + 1);
    socket.emit('close', { code: 1006, reason: '', failures: 2, retryInMs: 800 });
    await settle();
    expect(count('me')).toBe(me + 1);
    socket.open(true);
    await settle();
    expect(count('current')).toBe(current + 1);
    expect(movies).toEqual([1]);
  });

  it('only reconnects when the server closed because it is restarting (1012)', async () => {
    const { socket, calls } = await opened();
    socket.open();
    const count = () => calls.filter((call) => call === 'me').length;
    const me = count();
    socket.emit('close', { code: 1012, reason: 'server restarting', failures: 1, retryInMs: 400 });
    await settle();
    expect(count()).toBe(me);
    socket.emit('close', { code: 1006, reason: '', failures: 3, retryInMs: 1600 });
    await settle();
    // The periodic re-check still runs while the server stays away.
    expect(count()).toBe(me + 1);
  });

  it('checks the link expiry of the current movie every 10 s while it has an expireId', async () => {
    jest.useFakeTimers();
    try {
      const context = setUp();
      sessions.push(context.session);
      await context.session.open();
      await jest.advanceTimersByTimeAsync(0);
      context.socket.open();
      await jest.advanceTimersByTimeAsync(20_000);
      expect(context.socket.expired).toEqual([77n, 77n]);
    } finally {
      jest.useRealTimers();
    }
  });
});

describe('sending', () => {
  it('sends chat, STATUS and SYNC through the socket, refused while it is not open', async () => {
    const { session, socket } = await opened();
    expect(session.sendChat('early')).toBe(false);
    socket.open();
    expect(session.sendChat('hello')).toBe(true);
    expect(session.sendSync()).toBe(true);
    expect(socket.sent).toEqual(['chat:early', 'chat:hello', 'sync']);
  });

  it('adds the hall’s own lines to the chat without sending them', async () => {
    const { session, store, socket } = await opened();
    session.addSystemLine('Playback stopped');
    expect(store.get(chatLinesAtom).map((line) => [line.text, line.system])).toEqual([['Playback stopped', true]]);
    expect(socket.sent).toEqual([]);
  });
});
