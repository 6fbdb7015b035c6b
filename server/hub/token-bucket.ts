/**
 * A token bucket: up to `capacity` messages at once, refilled at `perSecond`. Used per person (all
 * of one user's room sockets on this instance share them, ./fair-use.ts) for chat, STATUS and all
 * inbound messages, so that one member cannot flood a room while
 * a person typing or a player seeking never comes near the limit. Synchronous, so the order of a
 * socket's messages is kept (a promise-based limiter could let a later SYNC overtake a STATUS).
 */
export class TokenBucket {
  private tokens: number;
  private updatedMs: number;

  /** `capacity` (burst, messages) and `perSecond` (sustained rate); `nowMs` is the clock in ms. */
  constructor(
    private readonly capacity: number,
    private readonly perSecond: number,
    nowMs: number,
  ) {
    this.tokens = capacity;
    this.updatedMs = nowMs;
  }

  /** Takes one token at `nowMs` (ms); false when the bucket is empty (the message is refused). */
  take(nowMs: number): boolean {
    const elapsedSec = Math.max(0, nowMs - this.updatedMs) / 1000;
    this.tokens = Math.min(this.capacity, this.tokens + elapsedSec * this.perSecond);
    this.updatedMs = nowMs;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}

/** Limits of one person's room sockets together: `{capacity (burst), perSecond}` of each bucket. */
export const SOCKET_LIMITS = {
  /** Every inbound message (SYNC and CHECK_STATUS read the database too). */
  any: { capacity: 100, perSecond: 50 },
  /** CHAT: a burst of 10 lines, then 3 a second. */
  chat: { capacity: 10, perSecond: 3 },
  /** STATUS: play, pause, seek and rate changes (the player debounces them), 10 a second. */
  status: { capacity: 30, perSecond: 10 },
  /**
   * Refused messages between two `too many messages` ERRORs (one a second) beyond which the socket is
   * closed (1008): a client that ignores the ERROR and keeps sending at hundreds a second. A person,
   * or a player, is refused a few messages at most.
   */
  closeAfterRefused: 200,
} as const;

/** The buckets one person's sockets share. */
export interface SharedBuckets {
  any: TokenBucket;
  chat: TokenBucket;
  status: TokenBucket;
}

/** The buckets of one socket: its person's shared ones, and its own refusal count. */
export interface SocketBuckets extends SharedBuckets {
  /** When the last `too many messages` ERROR went out (ms): at most one a second. */
  lastRefusalMs: number;
  /** Messages refused since that ERROR. */
  refused: number;
  /** Called when the socket is closed for flooding (1008 `too many messages`), at once, whatever its client answers. */
  onFlood?: () => void;
}

/** Fresh buckets at `nowMs` (ms), full, for a socket (or a person, ./fair-use.ts) of its own. */
export function socketBuckets(nowMs: number): SocketBuckets {
  const bucket = (limits: { capacity: number; perSecond: number }) => new TokenBucket(limits.capacity, limits.perSecond, nowMs);
  return { any: bucket(SOCKET_LIMITS.any), chat: bucket(SOCKET_LIMITS.chat), status: bucket(SOCKET_LIMITS.status), lastRefusalMs: -Infinity, refused: 0 };
}
