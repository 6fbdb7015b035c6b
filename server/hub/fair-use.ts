/**
 * Fair use of the room sockets (docs/security.md "Room sockets"): how many sockets one person, and
 * one address, may hold on this instance, and the message budgets that all of one person's sockets
 * share, so that an account opening hundreds of sockets can neither crowd out other rooms nor
 * multiply its chat rate by its number of sockets.
 *
 * A person is a user id; guests all share one user id (`GUEST_USER_ID`), so the guests of one
 * address count as one person for the budgets, and only the address cap limits their sockets (a
 * class of guests behind one NAT). Counts are this instance's: behind a balancer with N instances a person
 * may hold up to N times the cap.
 */
import { socketBuckets, type SharedBuckets, type SocketBuckets } from './token-bucket';

/** Most room sockets one user, and one address, may hold on this instance; 0 = no cap. */
export interface SocketCaps {
  perUser: number;
  perAddress: number;
}

/**
 * The defaults: a person with many tabs and devices, and a family or an office behind one NAT
 * address, never meet them; one account cannot open hundreds.
 */
export const DEFAULT_SOCKET_CAPS: SocketCaps = { perUser: 20, perAddress: 100 };

/** ERROR text (and close reason) of a socket beyond a cap (a companion-server extension). */
export const TOO_MANY_CONNECTIONS = 'too many connections';

/**
 * A person's budgets are kept this long (ms) after their last socket closes: longer than any bucket
 * takes to refill (./token-bucket.ts SOCKET_LIMITS), so that closing and reopening sockets does not
 * hand out a fresh burst.
 */
const KEEP_IDLE_MS = 10_000;

/**
 * How long (ms) a person whose socket was closed for flooding (1008 `too many messages`) may open
 * no socket: a client that floods, is closed and reconnects at once gets nothing from reconnecting.
 */
export const FLOOD_PENALTY_MS = 10_000;

interface Person {
  sockets: number;
  buckets: SharedBuckets;
  /** When the last socket closed (ms), or null while one is open. */
  idleSinceMs: number | null;
  /** Until when (ms) the person may open no socket (`penalize`). */
  blockedUntilMs: number;
}

/** A socket that was let in: its buckets, and what `release` needs. */
export interface Admission {
  buckets: SocketBuckets;
  readonly personKey: string;
  readonly address: string;
  /** Set by `release`: a second call does nothing. */
  released: boolean;
}

/** The key of a person: the user id, or `guest@<address>` for a guest (`isGuest`). */
export function personKey(userId: string, isGuest: boolean, address: string): string {
  return isGuest ? `${GUEST_PREFIX}${address}` : userId;
}

/** How a guest's person key begins (a user id never does: 32 hex digits). */
const GUEST_PREFIX = 'guest@';

/** Socket counts per person and per address, and each person's shared message budgets. */
export class FairUse {
  private readonly people = new Map<string, Person>();
  private readonly addresses = new Map<string, number>();
  private lastSweepMs = 0;

  constructor(private readonly caps: SocketCaps) {}

  /**
   * Lets one more socket of `key` (`personKey`) from `address` in at `nowMs` (ms):
   * its buckets (the person's shared budgets, this socket's refusal count), or which cap it is
   * over (guests: only the address cap). Every admission is ended by one `release`.
   */
  admit(key: string, address: string, nowMs: number): Admission | { over: 'user' | 'address' } {
    this.sweep(nowMs);
    const over = this.over(key, address, nowMs);
    if (over) return { over };
    const person = this.people.get(key);
    const { any, chat, status } = socketBuckets(nowMs);
    const admitted = person ?? { sockets: 0, buckets: { any, chat, status }, idleSinceMs: null, blockedUntilMs: 0 };
    admitted.sockets++;
    admitted.idleSinceMs = null;
    this.people.set(key, admitted);
    this.addresses.set(address, (this.addresses.get(address) ?? 0) + 1);
    return { personKey: key, address, buckets: { ...admitted.buckets, lastRefusalMs: -Infinity, refused: 0 }, released: false };
  }

  /**
   * Which cap one more socket of `key` from `address` would be over at `nowMs`, or null; changes
   * nothing. Asked before the costlier checks of an upgrade (the database), so that a flood of
   * sockets is refused cheaply; `admit` asks again.
   */
  over(key: string, address: string, nowMs: number): 'user' | 'address' | null {
    const person = this.people.get(key);
    if (person && nowMs < person.blockedUntilMs) return 'user';
    if (this.caps.perUser > 0 && !key.startsWith(GUEST_PREFIX) && (person?.sockets ?? 0) >= this.caps.perUser) return 'user';
    if (this.caps.perAddress > 0 && (this.addresses.get(address) ?? 0) >= this.caps.perAddress) return 'address';
    return null;
  }

  /** Ends an admission (the socket closed) at `nowMs`. */
  release(admission: Admission, nowMs: number): void {
    if (admission.released) return;
    admission.released = true;
    const person = this.people.get(admission.personKey);
    if (person && --person.sockets <= 0) {
      person.sockets = 0;
      person.idleSinceMs = nowMs;
    }
    const count = (this.addresses.get(admission.address) ?? 1) - 1;
    if (count > 0) this.addresses.set(admission.address, count);
    else this.addresses.delete(admission.address);
  }

  /** Lets `key` open no socket for FLOOD_PENALTY_MS from `nowMs` (one of its sockets was closed for flooding). */
  penalize(key: string, nowMs: number): void {
    const person = this.people.get(key);
    if (person) person.blockedUntilMs = nowMs + FLOOD_PENALTY_MS;
  }

  /** Sockets this instance holds for `key`, and for `address` (tests and logs). */
  count(key: string, address: string): { person: number; address: number } {
    return { person: this.people.get(key)?.sockets ?? 0, address: this.addresses.get(address) ?? 0 };
  }

  /** Forgets, at most every KEEP_IDLE_MS, the people idle for longer than that. */
  private sweep(nowMs: number): void {
    if (nowMs - this.lastSweepMs < KEEP_IDLE_MS) return;
    this.lastSweepMs = nowMs;
    for (const [key, person] of this.people) {
      if (person.idleSinceMs !== null && nowMs - person.idleSinceMs >= KEEP_IDLE_MS && nowMs >= person.blockedUntilMs) this.people.delete(key);
    }
  }
}

/** Whether `result` of `admit` let the socket in. */
export function admitted(result: Admission | { over: 'user' | 'address' }): result is Admission {
  return !('over' in result);
}
