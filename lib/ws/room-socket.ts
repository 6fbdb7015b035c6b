/**
 * The room WebSocket client (docs/contract.md §6), framework-free.
 *
 * - URL `ws(s)://<API host>/api/room/ws?roomId=<id>` (§6.1), derived from the API origin so it also
 *   works when the export is served from another origin than the API.
 * - The raw token is the one and only subprotocol (§3.2, §6.1); a guest offers none.
 * - Binary frames, one protobuf `Message` each (§6.2); decoding failures are reported through the
 *   `decodeError` event, never thrown into the caller.
 * - Outgoing messages are stamped `timestamp = clock()` in Unix ms (§6.4: the server credits
 *   `now − timestamp`, clamped to [0, 1.5] s, as latency). The clock is replaceable (`setClock`) so
 *   that a server-clock offset can be plugged in.
 * - Reconnects on its own with exponential backoff and jitter, forever, until `close()` (the reference
 *   client gives up after 3 tries, docs/reference-client.md §3.1).
 */
import { MessageType, type Message, type MessageInit } from '@/lib/contract/message-type';
import type { PlaybackState } from '@/lib/contract/playback';

/** The frame codec (lib/contract/message.ts): `encodeMessage`, `decodeMessage`. */
type RoomCodec = typeof import('@/lib/contract/message');

let codec: RoomCodec | null = null;
let codecLoad: Promise<RoomCodec> | null = null;

/**
 * Loads the frame codec (lib/contract/message.ts over the code ts-proto generates, about 17 KB of script) once
 * per page; a failed load is tried again on the next call. A socket loads it before it opens, so the
 * hall's first frame does not wait for it (lib/contract/message-type.ts). Rejects when the chunk
 * cannot be downloaded.
 */
export function loadRoomCodec(): Promise<RoomCodec> {
  codecLoad ??= import('@/lib/contract/message').then(
    (module) => (codec = module),
    (error: unknown) => {
      codecLoad = null;
      throw error;
    },
  );
  return codecLoad;
}

/** Connection state shown to the user: a socket is opening, open, or closed (waiting to retry, or stopped). */
export type RoomSocketState = 'connecting' | 'open' | 'closed';


/** Events of a RoomSocket and their listener signatures. */
export interface RoomSocketEvents {
  /** A decoded frame. */
  message: (message: Message) => void;
  /** The connection state changed. */
  state: (state: RoomSocketState) => void;
  /** A socket opened; `reconnected` is true for every open after the first. */
  open: (info: { reconnected: boolean }) => void;
  /**
   * A socket closed (or failed to open). `failures` counts consecutive failed attempts; `retryInMs`
   * is the wait before the next attempt, or null after `close()`.
   */
  close: (info: { code: number; reason: string; failures: number; retryInMs: number | null }) => void;
  /** A frame could not be decoded (text frame or malformed protobuf). The socket stays open. */
  decodeError: (error: Error) => void;
}

/** The subset of the browser WebSocket the client uses (tests pass a fake). */
export interface WebSocketLike {
  binaryType: string;
  readonly readyState: number;
  send(data: Uint8Array): void;
  close(code?: number, reason?: string): void;
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: { code: number; reason: string }) => void) | null;
  onerror: ((event: unknown) => void) | null;
}

/** Reconnect backoff: the n-th consecutive failure waits min(maxMs, initialMs·factor^(n−1)), jittered to 50–100 %. */
export interface BackoffOptions {
  initialMs: number;
  maxMs: number;
  factor: number;
}

/**
 * 0.2–0.4 s, 0.4–0.8 s, 0.8–1.6 s, then 1.6–3.2 s forever: a companion server that restarts in a
 * second or two is back within a few seconds for everyone, and 200 viewers spread their
 * reconnects over 1.6 s instead of arriving at once.
 */
export const DEFAULT_BACKOFF: BackoffOptions = { initialMs: 400, maxMs: 3200, factor: 2 };

/**
 * Wait (ms) before the next attempt after `failures` (≥ 1) consecutive failures. "Equal jitter":
 * half the exponential delay is fixed, half random (`random()` in [0, 1)), so a room full of clients
 * that lost the server at the same moment does not come back in lockstep.
 */
export function reconnectDelayMs(failures: number, backoff: BackoffOptions = DEFAULT_BACKOFF, random: () => number = Math.random): number {
  const exponent = Math.max(0, failures - 1);
  const base = Math.min(backoff.maxMs, backoff.initialMs * backoff.factor ** exponent);
  return Math.round(base / 2 + (random() * base) / 2);
}

/**
 * The WebSocket URL of a room for an API origin (`http://host:port` → `ws://host:port/api/room/ws?roomId=…`,
 * `https` → `wss`). The path sits at the origin root, never under `/web` (docs/reference-client.md §3.1).
 */
export function roomSocketUrl(origin: string, roomId: string): string {
  const url = new URL('/api/room/ws', origin);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  url.searchParams.set('roomId', roomId);
  return url.toString();
}

/** What `send` accepts: any Message init; `timestamp` is filled from the clock when left out. */
export type OutgoingMessage = MessageInit;

export interface RoomSocketOptions {
  roomId: string;
  /** The API origin, read on every attempt (e.g. `apiOrigin` from lib/api/client.ts). */
  origin: () => string;
  /** The raw JWT, read on every attempt; null for a guest (no subprotocol). */
  token: () => string | null;
  /** Clock for outgoing timestamps, Unix ms. Default `Date.now`. */
  clock?: () => number;
  backoff?: Partial<BackoffOptions>;
  /** Jitter source in [0, 1). Default `Math.random`. */
  random?: () => number;
  /** Opens a socket; default the browser's `WebSocket`. */
  createWebSocket?: (url: string, protocols?: string[]) => WebSocketLike;
}

type Listeners = { [K in keyof RoomSocketEvents]: Set<RoomSocketEvents[K]> };

const OPEN = 1;

/** One room's WebSocket connection with reconnects. Call `connect()` once, `close()` to stop for good. */
export class RoomSocket {
  readonly roomId: string;
  private readonly options: RoomSocketOptions;
  private readonly backoff: BackoffOptions;
  private clock: () => number;
  private ws: WebSocketLike | null = null;
  private running = false;
  private failures = 0;
  private everOpened = false;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private currentState: RoomSocketState = 'closed';
  private readonly listeners: Listeners = {
    message: new Set(),
    state: new Set(),
    open: new Set(),
    close: new Set(),
    decodeError: new Set(),
  };

  constructor(options: RoomSocketOptions) {
    this.options = options;
    this.roomId = options.roomId;
    this.backoff = { ...DEFAULT_BACKOFF, ...options.backoff };
    this.clock = options.clock ?? Date.now;
  }

  /** The connection state. */
  get state(): RoomSocketState {
    return this.currentState;
  }

  /** Subscribes to an event; returns the unsubscribe function. */
  on<K extends keyof RoomSocketEvents>(event: K, listener: RoomSocketEvents[K]): () => void {
    this.listeners[event].add(listener);
    return () => {
      this.listeners[event].delete(listener);
    };
  }

  /** Replaces the clock used for outgoing timestamps (Unix ms), e.g. one corrected by a server offset. */
  setClock(clock: () => number): void {
    this.clock = clock;
  }

  /** Starts connecting (and reconnecting until `close()`). Calling it again while running does nothing. */
  connect(): void {
    if (this.running) return;
    this.running = true;
    this.openSocket();
  }

  /** Skips the remaining backoff wait and tries now (e.g. when the browser comes back online). */
  reconnectNow(): void {
    if (!this.running || this.ws) return;
    this.clearRetry();
    this.openSocket();
  }

  /** Closes the connection for good: no more reconnects. */
  close(): void {
    this.running = false;
    this.clearRetry();
    const ws = this.ws;
    this.ws = null;
    if (ws) {
      try {
        ws.close(1000, 'closed by client');
      } catch {
        /* already closing */
      }
    }
    this.setState('closed');
    this.emit('close', { code: 1000, reason: 'closed by client', failures: this.failures, retryInMs: null });
  }

  /**
   * Encodes and sends one message, stamping `timestamp` from the clock when it is not set.
   * Returns false (and drops the message) when the socket is not open, like the reference client.
   */
  send(message: OutgoingMessage): boolean {
    const ws = this.ws;
    if (!ws || ws.readyState !== OPEN || this.currentState !== 'open') return false;
    const timestamp = message.timestamp ? message.timestamp : BigInt(Math.round(this.clock()));
    // A socket opens only once the codec is in (openSocket).
    ws.send(codec!.encodeMessage({ ...message, timestamp }));
    return true;
  }

  /** CHAT with `content` (the server checks permission and the 1–4096 byte limit, §6.4). */
  sendChat(content: string): boolean {
    return this.send({ type: MessageType.CHAT, payload: { case: 'chatContent', value: content } });
  }

  /** STATUS: the local user's play, pause, seek or rate change (needs SetCurrentStatus, §6.4). */
  sendStatus(status: PlaybackState): boolean {
    return this.send({ type: MessageType.STATUS, payload: { case: 'playbackStatus', value: status } });
  }

  /** SYNC: asks for the room status now; the reply carries the server's `timestamp` (ms). */
  sendSync(): boolean {
    return this.send({ type: MessageType.SYNC });
  }

  /** CHECK_STATUS with the local status; the server answers only when out of sync (§6.4). */
  sendCheckStatus(status: PlaybackState): boolean {
    return this.send({ type: MessageType.CHECK_STATUS, payload: { case: 'playbackStatus', value: status } });
  }

  /** EXPIRED with the current movie's `expireId`; the server replies EXPIRED only when the link expired (§7.3). */
  sendExpired(expirationId: bigint | number): boolean {
    const value = typeof expirationId === 'bigint' ? expirationId : BigInt(Math.max(0, Math.round(expirationId)));
    return this.send({ type: MessageType.EXPIRED, payload: { case: 'expirationId', value } });
  }

  /**
   * One voice chat signalling frame (WEBRTC_JOIN, LEAVE, OFFER, ANSWER, ICE_CANDIDATE; needs the
   * WebRTC permission, §6.4); `signal` is the `webrtc_data` of an OFFER, ANSWER or candidate.
   */
  sendWebrtc(type: MessageType, signal?: { data: string; to: string }): boolean {
    return this.send({ type, payload: signal ? { case: 'webrtcData', value: signal } : { case: undefined } });
  }

  private openSocket(): void {
    if (!codec) {
      this.setState('connecting');
      loadRoomCodec().then(
        () => {
          if (this.running && !this.ws && this.retryTimer === null) this.openSocket();
        },
        (error: unknown) => {
          if (this.running && !this.ws && this.retryTimer === null) this.handleClosed(null, 0, error instanceof Error ? error.message : String(error));
        },
      );
      return;
    }
    const token = this.options.token();
    let ws: WebSocketLike;
    try {
      const url = roomSocketUrl(this.options.origin(), this.roomId);
      const protocols = token ? [token] : undefined;
      ws = this.options.createWebSocket
        ? this.options.createWebSocket(url, protocols)
        : (new WebSocket(url, protocols) as unknown as WebSocketLike);
    } catch (error) {
      // A bad origin or a token the browser refuses as a subprotocol: treat it as a failed attempt.
      this.handleClosed(null, 0, error instanceof Error ? error.message : String(error));
      return;
    }
    ws.binaryType = 'arraybuffer';
    this.ws = ws;
    this.setState('connecting');
    ws.onopen = () => {
      if (this.ws !== ws) return;
      const reconnected = this.everOpened;
      this.everOpened = true;
      this.failures = 0;
      this.setState('open');
      this.emit('open', { reconnected });
    };
    ws.onmessage = (event) => {
      if (this.ws !== ws) return;
      void this.receive(event.data);
    };
    ws.onclose = (event) => {
      if (this.ws !== ws) return;
      this.handleClosed(ws, event.code, event.reason);
    };
    // An error is always followed by close, which does the bookkeeping.
    ws.onerror = () => {};
  }

  private handleClosed(ws: WebSocketLike | null, code: number, reason: string): void {
    if (ws && this.ws === ws) this.ws = null;
    if (!this.running) return;
    this.failures += 1;
    const retryInMs = reconnectDelayMs(this.failures, this.backoff, this.options.random);
    this.setState('closed');
    this.clearRetry();
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      if (this.running && !this.ws) this.openSocket();
    }, retryInMs);
    this.emit('close', { code, reason, failures: this.failures, retryInMs });
  }

  private async receive(data: unknown): Promise<void> {
    let bytes: Uint8Array;
    if (data instanceof ArrayBuffer) {
      bytes = new Uint8Array(data);
    } else if (ArrayBuffer.isView(data)) {
      bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    } else if (typeof Blob !== 'undefined' && data instanceof Blob) {
      bytes = new Uint8Array(await data.arrayBuffer());
    } else {
      this.emit('decodeError', new Error('unexpected text frame (the protocol uses binary frames only)'));
      return;
    }
    let message: Message;
    try {
      message = codec!.decodeMessage(bytes);
    } catch (error) {
      this.emit('decodeError', error instanceof Error ? error : new Error(String(error)));
      return;
    }
    this.emit('message', message);
  }

  private setState(state: RoomSocketState): void {
    if (state === this.currentState) return;
    this.currentState = state;
    this.emit('state', state);
  }

  private clearRetry(): void {
    if (this.retryTimer !== null) {
      clearTimeout(this.retryTimer);
      this.retryTimer = null;
    }
  }

  private emit<K extends keyof RoomSocketEvents>(event: K, ...args: Parameters<RoomSocketEvents[K]>): void {
    for (const listener of [...this.listeners[event]]) {
      try {
        (listener as (...a: Parameters<RoomSocketEvents[K]>) => void)(...args);
      } catch (error) {
        // One failing listener must not break the socket or the other listeners.
        console.error(`room socket ${event} listener failed`, error);
      }
    }
  }
}
