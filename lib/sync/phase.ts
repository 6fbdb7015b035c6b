/**
 * The sync engine's phases (docs/sync.md "Phases"): what the engine of one media element is doing,
 * the transitions it may make, and the log of its last decisions that the `?debug=sync` overlay
 * shows. Each phase's own data is in ./machine.ts (`Phase`).
 *
 * - `idle`: nothing to follow yet (no status, or the element has no metadata);
 * - `paused`: the room is paused; the element holds the room's position;
 * - `scheduled`: a scheduled start: the element waits, paused at a position just ahead of the room,
 *   and starts when the room arrives there (after a play, a remote seek, a join);
 * - `catching-up`: a late start runs faster than the room until it is level;
 * - `switching-rate`: a playing room changed its rate; the element keeps the old one until the
 *   instant the old and the new status meet;
 * - `acquiring`: the element was just started or moved: its clock is not steady yet, or a remote
 *   action's position waits for its confirming SYNC reply; one more correction seek is allowed;
 * - `tracking`: steady play measured every tick, corrected by nudging the rate (or, past the seek
 *   threshold, by one scheduled start);
 * - `recovering`: the element stalled for data or froze while the room plays; it catches up once it runs;
 * - `ended`: the room's position is past the end of the media; the element stays at the end;
 * - `live`: a live movie: play and pause only, no position sync;
 * - `unreachable`: the room is where this element cannot go: its source cannot seek there (a host
 *   without HTTP Range, docs/hosting.md) and the room is too far for a catch-up by rate; the element
 *   waits, paused, and never moves the room (the hall says why and offers the proxy).
 */

import type { Phase } from './machine';

export type SyncPhase = 'idle' | 'paused' | 'scheduled' | 'catching-up' | 'switching-rate' | 'acquiring' | 'tracking' | 'recovering' | 'ended' | 'live' | 'unreachable';

/** Where every phase may go (a new movie, a paused room, a live one, the end). */
const ANYWHERE: readonly SyncPhase[] = ['idle', 'paused', 'ended', 'live'];

/**
 * The transitions one step of the machine may make (from → allowed to). Every phase may return to
 * `idle` (a new movie), go `live`, `paused` (the room paused) or `ended`; the rest is the playing
 * path: scheduled or catching-up → acquiring (its start) → tracking, with recovering, a rate switch
 * and a new scheduled start as the ways back. Nothing goes from waiting (idle, paused, scheduled,
 * unreachable) to tracking without a start in between.
 */
export const PHASE_TRANSITIONS: Readonly<Record<SyncPhase, readonly SyncPhase[]>> = {
  idle: [...ANYWHERE, 'scheduled', 'catching-up', 'acquiring', 'unreachable'],
  paused: [...ANYWHERE, 'scheduled', 'catching-up', 'acquiring', 'unreachable'],
  scheduled: [...ANYWHERE, 'catching-up', 'acquiring', 'unreachable'],
  'catching-up': [...ANYWHERE, 'scheduled', 'switching-rate', 'acquiring', 'unreachable'],
  'switching-rate': [...ANYWHERE, 'scheduled', 'catching-up', 'acquiring', 'tracking', 'unreachable'],
  acquiring: [...ANYWHERE, 'scheduled', 'catching-up', 'switching-rate', 'tracking', 'recovering', 'unreachable'],
  tracking: [...ANYWHERE, 'scheduled', 'catching-up', 'switching-rate', 'acquiring', 'recovering', 'unreachable'],
  recovering: [...ANYWHERE, 'scheduled', 'catching-up', 'switching-rate', 'acquiring', 'tracking', 'unreachable'],
  ended: [...ANYWHERE, 'scheduled', 'catching-up', 'acquiring'],
  // The next movie is not live: it starts as from any waiting phase.
  live: [...ANYWHERE, 'scheduled', 'catching-up', 'acquiring', 'unreachable'],
  unreachable: [...ANYWHERE, 'scheduled', 'catching-up', 'acquiring'],
};

/** True when the engine may go from `from` to `to` (staying in a phase is always allowed). */
export function canTransition(from: SyncPhase, to: SyncPhase): boolean {
  return from === to || PHASE_TRANSITIONS[from].includes(to);
}

/** What the engine decided, for the debug overlay and the tests. */
export type SyncDecisionKind =
  | 'follow' // a new room status to follow (remote, HTTP, SYNC reply)
  | 'hold' // paused at the room's position
  | 'schedule' // a scheduled start: paused ahead of the room
  | 'start' // play() now
  | 'catch-up' // a late start runs faster than the room until level
  | 'rate' // the room's new rate, taken at the instant the old and the new status meet
  | 'nudge' // playbackRate moved off the room rate (or back)
  | 'seek' // a catch-up seek decided by the loop
  | 'stall' // the element waits for data
  | 'freeze' // the drift jumped between two measurements
  | 'publish' // the user's own action sent as STATUS
  | 'end' // the room passed the end
  | 'give-up' // a page that cannot keep up stops seeking for a while
  | 'unreachable' // the source cannot seek where the room is: wait, paused
  | 'browser'; // the browser's own unmute or pause (no person's), kept from the room (./engine.ts)

/** One decision: when (local Unix ms), the phase it led to, and a short detail (positions in s, drift in ms). */
export interface SyncDecision {
  atMs: number;
  kind: SyncDecisionKind;
  phase: SyncPhase;
  detail: string;
  /** The machine's event that led to it (./machine.ts `SyncEvent` type, e.g. `remote-status`, `tick`). */
  event?: string;
}

/** What the `?debug=sync` overlay shows (SyncEngine `debug()`). Drift in ms, clock offset and RTT in ms. */
export interface SyncDebug {
  phase: SyncPhase;
  /** The phase with its own data (./machine.ts `Phase`), e.g. a scheduled start's position and due time, and the local time (ms) it was read at. */
  phaseData: Phase;
  nowMs: number;
  /** Local − room position (ms), or null with nothing to compare. */
  driftMs: number | null;
  /** The element's playbackRate and the room's. */
  playbackRate: number;
  roomRate: number;
  /** Server − local clock (ms) and the last round trip (ms; null before the first SYNC reply). */
  clockOffsetMs: number;
  rttMs: number | null;
  /** The learned latencies (s): start, resume, readyNear, readyFar, handling. */
  latencySec: Record<string, number>;
  /** Transitions that broke PHASE_TRANSITIONS since the engine started (0 unless the engine has a bug). */
  invalidTransitions: number;
  /** The newest decisions, oldest first. */
  decisions: SyncDecision[];
}

/** A fixed-size log of decisions, oldest first. */
export class DecisionLog {
  private readonly entries: SyncDecision[] = [];

  constructor(private readonly size = 40) {}

  add(decision: SyncDecision): void {
    this.entries.push(decision);
    if (this.entries.length > this.size) this.entries.shift();
  }

  list(): SyncDecision[] {
    return this.entries.slice();
  }
}
