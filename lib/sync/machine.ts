/**
 * The sync engine's decisions as one pure state machine (docs/sync.md "The machine"):
 * `step(state, event, context) → { state, effects }`. It never touches the element, the socket or a
 * timer: it reads the element through `context.media`, returns the state after the event, and the
 * effects the shell (./engine.ts) carries out in order (seek, play, pause, set the rate, send a
 * STATUS or a SYNC, arm the one phase timer). `state` is never changed in place.
 *
 * The state is what the engine follows (the room's status and the time it refers to), what it has
 * learned (latencies, whether this page keeps up), and the phase, a tagged union in which each phase
 * holds only its own data:
 *
 *   idle ──status──▶ paused ◀──────────────── any (the room paused)
 *     │                │ play
 *     ▼                ▼
 *   scheduled ──timer──▶ acquiring ──tick──▶ tracking ⇄ recovering (a stall, a freeze)
 *     │  ▲                  ▲  │                 │
 *     │  └──── a seek ──────┼──┴─────────────────┘
 *     ▼                     │
 *   catching-up ──timer─────┘        switching-rate ──timer──▶ acquiring
 *   ended · live · unreachable (the source cannot seek where the room is)
 *
 * A pending start, a catch-up and a rate switch are phases, so at most one of them exists, and each
 * has at most one due time (`phaseTimerAt`): the shell arms one timer for it. The module reads top
 * to bottom: the types; `step`; following the room (a status, a SYNC reply, `apply`, which picks the
 * phase); the phases in their order (paused, scheduled, catching up, switching rate, the running
 * phases with the correction loop, ended, unreachable); the element's events; the person's own
 * actions (`publish`); the small helpers.
 *
 * Units: positions and drifts in seconds of media, times in local Unix ms unless named `server…`,
 * rates as factors. Drift is local − room.
 */
import type { PlaybackState } from '@/lib/contract/playback';
import { decideTracking, isPastEnd, nudgedRate, positionAt, seekTarget, type RoomTarget, type SyncIndicator, type SyncTuning, type TrackingDecision } from './correction';
import { FAR_LEAD_MAX_SEC, Latencies, MAX_LAG_SEC, type LagKind } from './latency';
import { canSeekTo, HAVE_FUTURE_DATA, HAVE_METADATA, isBuffered, readinessOf, readLocal, seekLanding, type MediaLike, type TimeRangesLike } from './media';
import type { SyncDecisionKind, SyncPhase } from './phase';
import { rateSwitchAtMs } from './rate-switch';
import { StruggleGuard } from './struggle';
import { SEEK_MATCH_TOLERANCE_SEC } from './expected-events';
import {
  ACTION_JUMP_SEC,
  CATCH_UP_BUFFER_SEC,
  CATCH_UP_MAX_NUDGE,
  CATCH_UP_MAX_SEC,
  CATCH_UP_SEC,
  COMMON_LEAD_SEC,
  CONFIRM_TIMEOUT_MS,
  DENIED_RESYNC_MS,
  DRIFT_JUMP_SEC,
  DRIFT_MEDIAN_OF,
  JUMP_WINDOW_MS,
  NO_SEEK_CATCH_UP_MAX_SEC,
  RATE_CHANGE_COST_MAX_SEC,
  RATE_CHANGE_COSTLY_SEC,
  RATE_COST_READINGS,
  RECOVERY_COOLDOWN_MS,
  SCHEDULED_SEEK_TOLERANCE_SEC,
  SETTLE_MS,
  STALL_RUNS_SEC,
  START_AT_ONCE_SEC,
  STRUGGLE_MS,
  STRUGGLE_SEEK_SEC,
  STRUGGLE_SEEKS,
  STRUGGLE_WINDOW_MS,
  UNNUDGEABLE_SEEK_SEC,
  STRUGGLE_UNNUDGEABLE_SEEK_SEC,
  UNREACHABLE_RECHECK_MS,
  USER_SEEK_MIN_SEC,
} from './tuning';

// ─── Types ──────────────────────────────────────────────────────────────────────────────────────

/** The followed status and the time it refers to, on the server's clock or (derived from a local receipt) the local one. */
export interface Target {
  status: PlaybackState;
  atMs: number;
  clock: 'server' | 'local';
}

/**
 * A measurement of the correction loop: the drift (s), when (ms), whether it jumped from the one
 * before, and the last DRIFT_MEDIAN_OF consecutive measurements under the nudge in force, up to this
 * one, oldest first, as [atMs, driftSec] (a new array each time: never edited in place).
 */
interface Measure {
  driftSec: number;
  atMs: number;
  jumping: boolean;
  recent: readonly (readonly [number, number])[];
}

/** The phases in which the element runs and the loop measures it; `nudge` is the rate offset in force (a fraction of the room rate). */
export interface RunningPhase {
  name: 'acquiring' | 'tracking' | 'recovering';
  nudge: number;
  lastMeasure: Measure | null;
}

/** What the engine is doing; each phase holds only its own data. */
export type Phase =
  | { name: 'idle' }
  | { name: 'paused' }
  /**
   * Paused at `seekTo` (s) ahead of the room, waiting until the room arrives there (`far`: outside
   * the buffer). `ready` once the element can play there; `startAtMs` when play() is due, once timed.
   */
  | { name: 'scheduled'; seekTo: number; far: boolean; calledAtMs: number; ready: boolean; startAtMs: number | null }
  /** A late start running `nudge` faster than the room until `endAtMs`; a gap past `limitSec` ends it. */
  | { name: 'catching-up'; nudge: number; limitSec: number; endAtMs: number }
  /** A playing room's new `rate`: the element keeps the rate of `from` until `atMs`, when the two statuses meet. */
  | { name: 'switching-rate'; from: RoomTarget; rate: number; atMs: number }
  | RunningPhase
  | { name: 'ended' }
  | { name: 'live' }
  /** The source cannot seek where the room is; checked again from `checkedAtMs` + UNREACHABLE_RECHECK_MS. */
  | { name: 'unreachable'; checkedAtMs: number };

/** A start whose outcome teaches a latency: where the element was (s) and when (ms). */
interface PendingLearn {
  /** 'readyNear': a correction seek that played on (`seekPlaying`): how long its clock stood still. */
  kind: 'start' | 'resume' | 'readyNear';
  position: number;
  atMs: number;
}

/**
 * What the next measurement of a running element may do after an action: one seek from the acquire
 * threshold (`seek`: for a person's or the room's action, or after a stall), one more scheduled start
 * when the first missed (`retry`), and the finer settle band (`fine`).
 */
interface Allowance {
  seek: 'action' | 'recovery' | null;
  retry: 'armed' | 'pending' | 'spent';
  fine: boolean;
}

/** Everything the engine of one element knows. Never changed in place: `step` returns a new one. */
export interface MachineState {
  phase: Phase;
  target: Target | null;
  /** Local time (ms) a status last arrived over the socket; an HTTP status requested before is stale. */
  socketTargetAtMs: number;
  /** Until when (ms) a remote action's playing position waits for its confirming SYNC reply. */
  confirmUntilMs: number;
  /** The room rate followed, and the rate the engine last set on the element (null: none, or the person changed it since). */
  roomRate: number;
  engineRate: number | null;
  allowance: Allowance;
  /** Until when (ms) the element's clock is not steady yet. */
  settleUntilMs: number;
  pendingLearn: PendingLearn | null;
  /**
   * The loop's last rate change of the playing element, to learn what it cost (`nudgeStart`,
   * `nudgeEnd`): the drift (s) read then, when (ms), and the nudge set; null once learned or when
   * nothing is pending.
   */
  rateChanged: { driftSec: number; atMs: number; nudge: number } | null;
  /** Since when (ms) and at which position (s) the element stalls for data while the room plays; null: not stalled. */
  stalled: { sinceMs: number; atSec: number } | null;
  /** Where the engine's seek in flight was sent (s); null: none. */
  engineSeekTo: number | null;
  /** A person's seek is in flight that was handled at its `seeking`. */
  userSeeking: boolean;
  /** A person's seek waiting to be published (`dueAtMs`, scrubbing), and when one was published last. */
  publish: { dueAtMs: number | null; playing: boolean; lastAtMs: number };
  lastDeniedAtMs: number;
  lastRecoveryAtMs: number;
  latencies: Latencies;
  struggle: StruggleGuard;
}

/** What `step` reads besides the state. */
export interface StepContext {
  /** Local time, Unix ms. */
  nowMs: number;
  /** The server's time now (Unix ms) and the clock's figures (ms). */
  serverNowMs: number;
  clock: { offsetMs: number; oneWayMs: number; rttMs: number | null };
  /** The element, read only. */
  media: MediaLike;
  tuning: SyncTuning;
  live: boolean;
  /** Whether the person may set the room status (SetCurrentStatus, or a room or site admin). */
  canControl: boolean;
  /** Whether the room socket is open (a SYNC can be sent). */
  connected: boolean;
  /** Window (ms) in which a person's further seeks collapse into one trailing STATUS. */
  seekPublishDelayMs: number;
  /**
   * Whether a rate change of this element unmutes it (WebKitGTK's pipeline takes its mute from the
   * rate; the autoplay policy then pauses and resumes it, ~300 ms lost each time): a muted element
   * is then corrected by seeks alone (`nudgeable`, docs/browsers.md "WebKit"). Learned by the shell.
   */
  rateUnmutes: boolean;
}

/** What happens to the engine: the room's word, the element's events (the person's or the engine's own), time. */
export type SyncEvent =
  | { type: 'remote-status'; status: PlaybackState }
  | { type: 'http-status'; status: PlaybackState; requestedAtMs: number; receivedAtMs: number }
  /** `request`: the SYNC it answers (null: unasked); `beforeOwnStatus`: sent before this person's last STATUS. */
  | { type: 'sync-reply'; status: PlaybackState; serverTimeMs: number; request: { acquire: boolean; manual: boolean; beforeOwnStatus: boolean } | null }
  | { type: 'manual-sync' }
  | { type: 'connection'; connected: boolean }
  /** `own`: the echo of the engine's own play() or pause(). */
  | { type: 'play' | 'pause'; own: boolean }
  /** `expected`: the engine's own seek lands here. */
  | { type: 'seeking' | 'seeked'; expected: boolean }
  | { type: 'ratechange' | 'emptied' | 'loadedmetadata' | 'playing' | 'waiting' | 'canplay' }
  | { type: 'tick' }
  /** The phase timer (`phaseTimerAt`) or the publish timer fired. */
  | { type: 'timer' | 'publish-timer' };

/** What the shell carries out, in order. */
export type SyncEffect =
  | { type: 'play' }
  | { type: 'pause' }
  | { type: 'seek'; to: number }
  | { type: 'set-rate'; rate: number }
  | { type: 'send-status'; status: PlaybackState }
  /** `acquire`: the reply may re-position the element with a seek. */
  | { type: 'send-sync'; acquire: boolean }
  | { type: 'arm-timer'; timer: 'phase' | 'publish'; atMs: number }
  | { type: 'cancel-timer'; timer: 'phase' | 'publish' }
  /** The followed status changed: `atMs` the local time the room was at its position (the hall's label). */
  | { type: 'target'; status: PlaybackState; atMs: number }
  | { type: 'control-denied' }
  | { type: 'manual-synced' }
  /** The engine's seek landed elsewhere: its expected `seeked` is dropped from the echo filter. */
  | { type: 'forget-seek' }
  /** The element dropped its source: every expected event is dropped. */
  | { type: 'forget-expected' }
  | { type: 'log'; kind: SyncDecisionKind; phase: SyncPhase; detail: string };

/** A new engine's state: idle, nothing followed, the default latencies. */
export function initialState(tuning: SyncTuning): MachineState {
  return {
    phase: { name: 'idle' },
    target: null,
    socketTargetAtMs: -Infinity,
    confirmUntilMs: -Infinity,
    roomRate: 1,
    engineRate: null,
    allowance: { seek: null, retry: 'spent', fine: false },
    settleUntilMs: -Infinity,
    pendingLearn: null,
    rateChanged: null,
    stalled: null,
    engineSeekTo: null,
    userSeeking: false,
    publish: { dueAtMs: null, playing: false, lastAtMs: -Infinity },
    lastDeniedAtMs: -Infinity,
    lastRecoveryAtMs: -Infinity,
    latencies: new Latencies(tuning.acquireThresholdSec),
    struggle: new StruggleGuard(),
  };
}

/** When (local ms) the phase's one timer is due: a scheduled start's play(), a catch-up's end, a rate switch; null: none. */
export function phaseTimerAt(phase: Phase): number | null {
  if (phase.name === 'scheduled') return phase.startAtMs;
  if (phase.name === 'catching-up') return phase.endAtMs;
  if (phase.name === 'switching-rate') return phase.atMs;
  return null;
}

// ─── step ───────────────────────────────────────────────────────────────────────────────────────

/**
 * The machine: the state after `event` and what to do about it. Pure: `state` is copied, the
 * element is only read (through an overlay that shows what the effects so far will have done to it:
 * play() and pause() change `paused`, a seek `currentTime` and `seeking`, as the element does at once).
 */
export function step(state: MachineState, event: SyncEvent, context: StepContext): { state: MachineState; effects: SyncEffect[] } {
  const r = new Run(state, context);
  HANDLERS[event.type](r, event as never);
  // The timers follow the phase: one due time each, re-armed when it changed (a timer that fired is spent).
  for (const [timer, before, after] of [
    ['phase', event.type === 'timer' ? null : phaseTimerAt(state.phase), phaseTimerAt(r.s.phase)],
    ['publish', event.type === 'publish-timer' ? null : state.publish.dueAtMs, r.s.publish.dueAtMs],
  ] as const) {
    if (after === before) continue;
    r.effects.push(after === null ? { type: 'cancel-timer', timer } : { type: 'arm-timer', timer, atMs: after });
  }
  return { state: r.s, effects: r.effects };
}

type Handlers = { [T in SyncEvent['type']]: (r: Run, event: Extract<SyncEvent, { type: T }>) => void };

const HANDLERS: Handlers = {
  'remote-status': (r, { status }) => onRemoteStatus(r, status),
  'http-status': onHttpStatus,
  'sync-reply': onSyncReply,
  'manual-sync': onManualSync,
  connection: (r) => {
    // Replies to requests of a previous connection will never come.
    r.s.confirmUntilMs = -Infinity;
  },
  play: (r, { own }) => onPlayOrPause(r, 'play', own),
  pause: (r, { own }) => onPlayOrPause(r, 'pause', own),
  seeking: (r, { expected }) => onSeeking(r, expected),
  seeked: (r, { expected }) => onSeeked(r, expected),
  ratechange: onRateChange,
  emptied: onEmptied,
  loadedmetadata: (r) => {
    // Metadata of a (new) source: the element goes to where the room is, the engine's own doing.
    resetMeasure(r);
    apply(r);
  },
  playing: onPlaying,
  waiting: onWaiting,
  canplay: (r) => maybeStartScheduled(r),
  tick: onTick,
  timer: onPhaseTimer,
  'publish-timer': (r) => {
    const { playing } = r.s.publish;
    r.s.publish = { dueAtMs: null, playing: false, lastAtMs: r.now };
    publish(r, r.media.paused && playing ? 'common' : null, playing);
  },
};

/** One step's working copy: the state being built, the element as the effects so far leave it, the effects. */
class Run {
  readonly s: MachineState;
  readonly media: MediaDraft;
  readonly effects: SyncEffect[] = [];
  readonly now: number;

  constructor(
    state: MachineState,
    readonly ctx: StepContext,
  ) {
    this.s = copyState(state);
    this.media = new MediaDraft(ctx.media);
    this.now = ctx.nowMs;
  }
}

/** No time ranges: what `seekable` is before the element has metadata. */
const NO_RANGES: TimeRangesLike = { length: 0, start: () => 0, end: () => 0 };

/** The element as the effects of this step leave it (what the element itself changes at once). */
class MediaDraft implements MediaLike {
  currentTime: number;
  playbackRate: number;
  muted: boolean;
  paused: boolean;
  seeking: boolean;
  readonly ended: boolean;
  readonly duration: number;
  /** The element's readiness from its data (./media.ts `readinessOf`), not only the number it reports. */
  readonly readyState: number;
  readonly buffered?: TimeRangesLike;
  private readonly element: MediaLike;

  constructor(media: MediaLike) {
    this.element = media;
    this.currentTime = media.currentTime;
    this.playbackRate = media.playbackRate;
    this.muted = media.muted;
    this.paused = media.paused;
    this.seeking = media.seeking;
    this.ended = media.ended;
    this.duration = media.duration;
    this.readyState = readinessOf(media);
    this.buffered = media.buffered;
  }

  /**
   * The element's seekable ranges, read only when a decision needs them and only once it has
   * metadata: before that they are empty by the HTML spec, and WebKitGTK's reading of them then
   * fixes the duration at the current position for good (docs/browsers.md "WebKit").
   */
  get seekable(): TimeRangesLike | undefined {
    return this.element.readyState >= HAVE_METADATA ? this.element.seekable : NO_RANGES;
  }

  play(): void {
    this.paused = false;
  }
  pause(): void {
    this.paused = true;
  }
  addEventListener(): void {}
  removeEventListener(): void {}
}

function copyState(state: MachineState): MachineState {
  const phase = state.phase;
  return {
    ...state,
    phase:
      phase.name === 'switching-rate'
        ? { ...phase, from: { ...phase.from, status: { ...phase.from.status } } }
        : 'lastMeasure' in phase
          ? { ...phase, lastMeasure: phase.lastMeasure && { ...phase.lastMeasure } }
          : { ...phase },
    target: state.target && { ...state.target, status: { ...state.target.status } },
    allowance: { ...state.allowance },
    pendingLearn: state.pendingLearn && { ...state.pendingLearn },
    rateChanged: state.rateChanged && { ...state.rateChanged },
    publish: { ...state.publish },
    latencies: state.latencies.clone(),
    struggle: state.struggle.clone(),
  };
}

// ─── Following the room ─────────────────────────────────────────────────────────────────────────

/**
 * A STATUS (another person's action) or CHECK_STATUS received now, referring to now − the one-way
 * delay. Play state, rate and a paused position apply at once; a playing position is confirmed by a
 * SYNC first (a busy page handles frames late), whose reply carries the server time.
 */
function onRemoteStatus(r: Run, status: PlaybackState): void {
  r.s.socketTargetAtMs = r.now;
  r.s.pendingLearn = null;
  setTarget(r, { status, atMs: r.now - r.ctx.clock.oneWayMs, clock: 'local' }, true);
  if (status.isPlaying && !r.ctx.live && r.ctx.connected) {
    r.effects.push({ type: 'send-sync', acquire: false });
    r.s.confirmUntilMs = r.now + CONFIRM_TIMEOUT_MS;
  }
  apply(r);
}

/** `GET /api/room/movie/current` (a late joiner, a re-read): older than a socket status that arrived after the request was sent, it loses. */
function onHttpStatus(r: Run, { status, requestedAtMs, receivedAtMs }: Extract<SyncEvent, { type: 'http-status' }>): void {
  if (requestedAtMs < r.s.socketTargetAtMs) return;
  const { rttMs, oneWayMs } = r.ctx.clock;
  // The server extrapolated the status when it handled the request: about one one-way delay before the response.
  const referenceMs = rttMs === null ? (requestedAtMs + receivedAtMs) / 2 : Math.max(requestedAtMs, receivedAtMs - oneWayMs);
  setTarget(r, { status, atMs: referenceMs, clock: 'local' }, true);
  apply(r);
}

/**
 * A SYNC reply: the room at `serverTimeMs`. One asked before this person's last STATUS, or while a
 * seek of theirs waits to be published, describes the room before their action and is ignored.
 */
function onSyncReply(r: Run, { status, serverTimeMs, request }: Extract<SyncEvent, { type: 'sync-reply' }>): void {
  if (request && (request.beforeOwnStatus || r.s.publish.dueAtMs !== null)) return;
  const next: Target = serverTimeMs > 0 ? { status, atMs: serverTimeMs, clock: 'server' } : { status, atMs: r.now - r.ctx.clock.oneWayMs, clock: 'local' };
  if (awaitingConfirm(r)) learnHandling(r, next);
  r.s.socketTargetAtMs = r.now;
  // Every reply is at least as new as the STATUS that asked for a confirmation.
  r.s.confirmUntilMs = -Infinity;
  setTarget(r, next, !request || request.acquire || differsFromTarget(r, next));
  apply(r);
  if (request?.manual) r.effects.push({ type: 'manual-synced' });
}

/**
 * The person pressed sync (or the browser played or paused by itself: lib/sync/engine.ts): inside
 * that click playback may start where autoplay is blocked, so a room known to play resumes now; a
 * room known to be paused is held again at its position.
 */
function onManualSync(r: Run): void {
  const m = r.media;
  const status = r.s.target?.status;
  if (!status || m.readyState < HAVE_METADATA) return;
  if (status.isPlaying && m.paused && r.s.phase.name !== 'scheduled' && !m.ended) play(r);
  else if (!status.isPlaying && !m.paused) apply(r);
  // Playing while it should wait for its start: WebKitGTK plays a muted element again by itself
  // ~90 ms after the engine paused it right after a rate change (docs/browsers.md "Event orders"),
  // and would start ahead of the room by the time it ran. Parked again, from where the room is now.
  else if (status.isPlaying && !m.paused && r.s.phase.name === 'scheduled') scheduleStart(r);
}

function setTarget(r: Run, target: Target, acquire: boolean): void {
  const switchFrom = follow(r, target);
  resetMeasure(r);
  if (acquire) acquireOnce(r);
  if (switchFrom) noteRateSwitch(r, switchFrom);
}

/**
 * Follows `target` from now on, telling the hall when its play state, rate or position changed.
 * Returns the previous status when this is a playing room's rate change (a rate switch to time).
 */
function follow(r: Run, target: Target): RoomTarget | null {
  const before = r.s.target?.status;
  const previous = roomTarget(r);
  r.s.target = target;
  const { status } = target;
  const switchRate = previous?.status.isPlaying && status.isPlaying && !r.ctx.live && Math.abs(previous.status.playbackRate - status.playbackRate) > 1e-3;
  if (r.s.phase.name === 'switching-rate' && !switchRate && (!status.isPlaying || Math.abs(status.playbackRate - r.s.phase.rate) > 1e-3)) endRateSwitch(r);
  if (!(before && before.isPlaying === status.isPlaying && before.playbackRate === status.playbackRate && before.currentTime === status.currentTime)) {
    decide(r, 'follow', `${target.clock}: ${status.isPlaying ? 'play' : 'pause'} at ${status.currentTime.toFixed(2)} s × ${status.playbackRate}`);
    r.effects.push({ type: 'target', status: { ...status }, atMs: serverTimeOf(r, target) - r.ctx.clock.offsetMs });
  }
  return switchRate ? previous : null;
}

/** A remote action (or its like): one seek is allowed, and the next measurement is a fine one. */
function acquireOnce(r: Run): void {
  const phase = r.s.phase;
  if (phase.name === 'tracking' || phase.name === 'recovering') enter(r, { ...phase, name: 'acquiring' }, 'follow', 'a new room status');
  r.s.allowance = { seek: 'action', retry: 'armed', fine: true };
}

/** Learns the handling lag from a confirmation of the same playing status: how far it moves the provisional position. */
function learnHandling(r: Run, confirmed: Target): void {
  const provisional = roomTarget(r);
  const { status } = confirmed;
  if (!provisional?.status.isPlaying || !status.isPlaying || Math.abs(status.playbackRate - provisional.status.playbackRate) > 1e-3) return;
  const serverNow = r.ctx.serverNowMs;
  const movedSec = (positionAt({ status, serverTimeMs: serverTimeOf(r, confirmed) }, serverNow) - positionAt(provisional, serverNow)) / status.playbackRate;
  if (Math.abs(movedSec) < ACTION_JUMP_SEC) r.s.latencies.learn('handling', movedSec);
}

/** True when `next` changes play state or rate, or moves the position, compared with the followed target. */
function differsFromTarget(r: Run, next: Target): boolean {
  const current = roomTarget(r);
  if (!current) return true;
  const { status } = next;
  if (status.isPlaying !== current.status.isPlaying || Math.abs(status.playbackRate - current.status.playbackRate) > 1e-3) return true;
  const serverNow = r.ctx.serverNowMs;
  return Math.abs(positionAt({ status, serverTimeMs: serverTimeOf(r, next) }, serverNow) - positionAt(current, serverNow)) > ACTION_JUMP_SEC;
}

/**
 * Brings the element to the followed status where that is safe, and picks the phase: live, ended,
 * paused, a start (scheduled, caught up by rate, or at once) or, for a running element, the loop's
 * measurement once the element is steady and the status confirmed.
 */
function apply(r: Run): void {
  const target = roomTarget(r);
  const m = r.media;
  if (!target || m.readyState < HAVE_METADATA) return;
  const { status } = target;
  if (r.ctx.live) return applyLive(r, status);
  const local = readLocal(m);
  const roomAt = positionAt(target, r.ctx.serverNowMs);
  const pastEnd = isPastEnd(roomAt, local);
  if (r.s.phase.name === 'switching-rate') {
    if (!status.isPlaying || pastEnd || local.paused) endRateSwitch(r);
    else if (timeRateSwitch(r)) return;
  }
  if (Math.abs(status.playbackRate - r.s.roomRate) > 1e-9 || !status.isPlaying || pastEnd) setNudge(r, 0);
  r.s.roomRate = status.playbackRate;
  const rate = nudgedRate(r.s.roomRate, nudgeOf(r.s.phase));
  // A new rate shifts the element's clock by a few tens of ms (Chromium's time-stretch restarts): measure after that.
  if (!m.paused && Math.abs(m.playbackRate - rate) > 1e-9) r.s.settleUntilMs = r.now + SETTLE_MS;
  setRate(r, rate);
  if (pastEnd) return applyEnded(r, roomAt);
  if (!status.isPlaying) return applyPaused(r, roomAt);
  if (r.s.phase.name === 'scheduled') {
    // It already is this action's one seek; its start is timed again from the latest status.
    const aheadSec = (r.s.phase.seekTo - roomAt) / r.s.roomRate;
    if (aheadSec >= 0 && aheadSec <= FAR_LEAD_MAX_SEC) {
      r.s.allowance.seek = null;
      return maybeStartScheduled(r, true);
    }
    cancelStart(r);
  }
  if (local.paused && !local.ended && roomArrivesHere(r, roomAt)) {
    // A common start (someone's play or seek, published ahead): the room reaches this paused
    // element's position in a moment, so it waits there and starts with everyone, no seek needed.
    r.s.allowance.seek = null;
    return waitHere(r, 'no seek');
  }
  if (local.paused || local.ended) {
    // Where the element will be once its clock runs, against where the room will be: close enough,
    // it starts at once and the nudge closes the rest; farther, it waits a little ahead of the room.
    const predicted = local.currentTime - (roomAt + r.s.latencies.get('start') * r.s.roomRate);
    if (!local.ended && canCatchUp(r, -predicted)) catchUp(r, -predicted);
    else if (local.ended || Math.abs(predicted) >= START_AT_ONCE_SEC) scheduleStart(r);
    else startElement(r, true);
    return;
  }
  if (awaitingConfirm(r)) {
    // A remote seek moves the element at once, to start on the provisional position; the
    // confirmation re-times the start if it comes first, else the loop measures the result.
    if (r.s.allowance.seek && !m.seeking && Math.abs(local.currentTime - roomAt) >= r.ctx.tuning.acquireThresholdSec) scheduleStart(r);
    return;
  }
  if (steady(r)) track(r);
}

/** A live movie: play and pause only, no position. */
function applyLive(r: Run, status: PlaybackState): void {
  cancelStart(r);
  enter(r, { name: 'live' }, 'follow', status.isPlaying ? 'playing' : 'paused');
  if (status.isPlaying && r.media.paused) startElement(r, false);
  if (!status.isPlaying && !r.media.paused) pauseElement(r);
}

// ─── paused ─────────────────────────────────────────────────────────────────────────────────────

/**
 * The room is paused: the element holds its exact position. Chromium resumes a paused element from
 * where its pipeline really was (up to ~80 ms past the reported currentTime), so an element that
 * was running is also seeked to the position, which re-aligns the two.
 */
function applyPaused(r: Run, roomAt: number): void {
  cancelStart(r);
  const m = r.media;
  const wasRunning = !m.paused;
  const away = Math.abs(m.currentTime - roomAt) > r.ctx.tuning.pausedToleranceSec;
  if (away && !canSeekTo(m, roomAt)) return beUnreachable(r, roomAt);
  enter(r, { name: 'paused' }, 'hold', `at ${roomAt.toFixed(2)} s`);
  if (wasRunning) pauseElement(r);
  // The engine's own seek still in flight to where the room was (WebKitGTK seeks slowly when
  // paused) is redirected to where it is now; a person's is left alone.
  const seekingElsewhere = m.seeking && !r.s.userSeeking && r.s.engineSeekTo !== null && Math.abs(r.s.engineSeekTo - roomAt) > r.ctx.tuning.pausedToleranceSec;
  // Where the source cannot seek, a paused element near the room stays where it is (`seekElement` refuses).
  if (wasRunning || (away && (!m.seeking || seekingElsewhere))) seekElement(r, roomAt);
  r.s.allowance.seek = null;
}

// ─── scheduled ──────────────────────────────────────────────────────────────────────────────────

/**
 * The one hard seek of an action while the room plays: pause, seek ahead of the room by a lead that
 * covers the seek (and a pending confirmation), and play() when the room arrives there, less the
 * start latency. Where the source cannot seek there, `startWithoutSeek`.
 */
function scheduleStart(r: Run): void {
  const target = roomTarget(r);
  if (!target) return;
  cancelStart(r);
  r.s.allowance.seek = null;
  setNudge(r, 0);
  setRate(r, r.s.roomRate);
  const { latencies } = r.s;
  const roomAt = positionAt(target, r.ctx.serverNowMs);
  const nearLead = latencies.nearLeadSec();
  const far = !isBuffered(r.media, roomAt + nearLead * r.s.roomRate);
  let leadSec = far ? latencies.farLeadSec() : nearLead;
  // The position is provisional until the confirming reply, which may move it by this page's handling lag.
  if (awaitingConfirm(r)) leadSec += latencies.get('handling');
  const seekTo = seekTarget(roomAt, leadSec, target.status, r.media.duration);
  if (!canSeekTo(r.media, seekTo)) return startWithoutSeek(r, roomAt);
  holdAt(r, seekTo, far);
}

/** Pauses the element at `position` (s) with a seek, for a scheduled start there. */
function holdAt(r: Run, position: number, far: boolean): void {
  enter(r, { name: 'scheduled', seekTo: position, far, calledAtMs: r.now, ready: false, startAtMs: null }, 'schedule', `${far ? 'far' : 'near'} seek to ${position.toFixed(2)} s`);
  if (!r.media.paused) pauseElement(r);
  r.s.pendingLearn = null;
  seekElement(r, position);
}

/** A paused element waits where it is for the room to arrive (a common start, a source that cannot seek). */
function waitHere(r: Run, why: string): void {
  const at = r.media.currentTime;
  enter(r, { name: 'scheduled', seekTo: at, far: false, calledAtMs: r.now, ready: true, startAtMs: null }, 'schedule', `wait at ${at.toFixed(2)} s, ${why}`);
  r.s.pendingLearn = null;
  maybeStartScheduled(r);
}

/**
 * A start where the source cannot seek (a host without HTTP Range, docs/hosting.md): an element a
 * little ahead of the room waits there, one behind by up to NO_SEEK_CATCH_UP_MAX_SEC runs faster
 * until level, anything else waits, paused, out of reach. Never a seek: the element would land on 0.
 */
function startWithoutSeek(r: Run, roomAt: number): void {
  const m = r.media;
  const startSec = m.paused ? r.s.latencies.get('start') : 0;
  const behindSec = roomAt + startSec * r.s.roomRate - m.currentTime;
  if (behindSec <= 0 && -behindSec / r.s.roomRate <= FAR_LEAD_MAX_SEC && m.readyState >= HAVE_FUTURE_DATA && !m.seeking) {
    if (!m.paused) pauseElement(r);
    waitHere(r, 'the source cannot seek');
  } else if (canCatchUp(r, behindSec, NO_SEEK_CATCH_UP_MAX_SEC, 'nothing')) {
    catchUp(r, behindSec, NO_SEEK_CATCH_UP_MAX_SEC);
  } else {
    beUnreachable(r, roomAt);
  }
}

/** True when the playing room reaches a paused element's position soon enough for it to wait there, with the data at hand. */
function roomArrivesHere(r: Run, roomAt: number): boolean {
  const m = r.media;
  if (m.seeking || m.readyState < HAVE_FUTURE_DATA) return false;
  const aheadSec = (m.currentTime - roomAt) / r.s.roomRate;
  return aheadSec >= r.s.latencies.get('start') && aheadSec <= FAR_LEAD_MAX_SEC && isBuffered(m, m.currentTime + 0.1);
}

/**
 * Once the scheduled seek landed and the element can play: time the start on the latest status
 * (`retime`: a newer status arrived, so a start already timed is timed again). A seek that took
 * longer than its lead levels by running faster instead of seeking again.
 */
function maybeStartScheduled(r: Run, retime = false): void {
  const phase = r.s.phase;
  if (phase.name !== 'scheduled') return;
  if (phase.startAtMs !== null) {
    if (!retime) return;
    phase.startAtMs = null;
  }
  const m = r.media;
  if (m.seeking || m.readyState < HAVE_FUTURE_DATA) return;
  const target = roomTarget(r);
  if (!target?.status.isPlaying) return cancelStart(r);
  if (!phase.ready) {
    phase.ready = true;
    r.s.latencies.learn(phase.far ? 'readyFar' : 'readyNear', (r.now - phase.calledAtMs) / 1000);
  }
  const roomAt = positionAt(target, r.ctx.serverNowMs);
  const waitMs = ((m.currentTime - roomAt) / r.s.roomRate - r.s.latencies.get('start')) * 1000;
  const lateSec = (-waitMs / 1000) * r.s.roomRate;
  phase.startAtMs = r.now + Math.max(0, waitMs);
  if (canCatchUp(r, lateSec)) catchUp(r, lateSec);
  else if (waitMs <= 1) startScheduled(r, phase.startAtMs);
}

/** The scheduled start is due (at `dueAtMs`): play, or level by rate what a late timer lost (a busy page runs it late). */
function startScheduled(r: Run, dueAtMs: number): void {
  if (!roomTarget(r)?.status.isPlaying) return cancelStart(r);
  const timerLateSec = ((r.now - dueAtMs) / 1000) * r.s.roomRate;
  if (canCatchUp(r, timerLateSec)) catchUp(r, timerLateSec);
  else startElement(r, true);
}

/** Cancels a start in waiting or a catch-up (its rate back to the room's, unless the person set one); the caller picks the next phase. */
function cancelStart(r: Run): void {
  const phase = r.s.phase;
  if (phase.name === 'catching-up') {
    r.s.phase = running('acquiring', 0);
    if (r.s.engineRate !== null) setRate(r, r.s.roomRate);
  } else if (phase.name === 'scheduled') {
    r.s.phase = running('acquiring', 0);
  }
}

// ─── catching up ────────────────────────────────────────────────────────────────────────────────

/**
 * True when an element `lateSec` (s of media) behind where the room will be can catch up by rate (up
 * to `maxSec`): the gap is small, the element is not seeking, and the gap and a second beyond are buffered.
 */
function canCatchUp(r: Run, lateSec: number, maxSec = CATCH_UP_MAX_SEC, orElse: 'seek' | 'nothing' = 'seek'): boolean {
  const m = r.media;
  if (orElse === 'seek' && !nudgeable(r)) return false;
  if (!(lateSec >= START_AT_ONCE_SEC && lateSec <= maxSec) || r.ctx.live || m.seeking || m.readyState < HAVE_FUTURE_DATA) return false;
  const through = m.currentTime + lateSec + CATCH_UP_BUFFER_SEC * r.s.roomRate;
  return isBuffered(m, m.currentTime) && isBuffered(m, Number.isFinite(m.duration) ? Math.min(through, m.duration) : through);
}

/**
 * True when the element's rate may move off the room's to correct it: not when that would unmute a
 * muted element (`StepContext.rateUnmutes`, WebKitGTK); it is then corrected by seeks, from
 * UNNUDGEABLE_SEEK_SEC in steady play.
 */
function nudgeable(r: Run): boolean {
  return !(r.ctx.rateUnmutes && r.media.muted);
}

/**
 * Runs an element `lateSec` behind the room faster until level: timed from the start latency and
 * gap / (nudge × room rate), re-timed every tick from the measured gap (`retimeCatchUp`). The next
 * measurement after it, a fine one, keeps the action's one seek if the catch-up missed.
 */
function catchUp(r: Run, lateSec: number, maxSec = CATCH_UP_MAX_SEC): void {
  cancelStart(r);
  const nudge = catchUpNudge(r, lateSec);
  const runSec = lateSec / (nudge * r.s.roomRate);
  setRate(r, nudgedRate(r.s.roomRate, nudge));
  if (r.media.paused) {
    startElement(r, false);
    // Its start latency is still learned (onTick, at the clock's first move), and the catch-up is not
    // re-timed before the clock runs: a late timer's start is one, and the one whose clock stands
    // still longest (WebKitGTK: 0.3–0.5 s under load), so never learning it left every such start
    // late and each catch-up raising its rate against a clock that had not moved yet.
    r.s.pendingLearn = { kind: 'start', position: r.media.currentTime, atMs: r.now };
  } else {
    // Already running (a source that cannot seek, behind): it only runs faster.
    r.s.pendingLearn = null;
    restartMeasuring(r);
  }
  const endAtMs = r.now + Math.max(0, (r.s.latencies.get('start') + runSec) * 1000);
  enter(r, { name: 'catching-up', nudge, limitSec: maxSec, endAtMs }, 'catch-up', `${Math.round(lateSec * 1000)} ms late: rate ${r.media.playbackRate.toFixed(2)} for ${runSec.toFixed(2)} s`);
}

/** The nudge (at most CATCH_UP_MAX_NUDGE) that closes `gapSec` (s of media) in CATCH_UP_SEC. */
function catchUpNudge(r: Run, gapSec: number): number {
  return Math.min(CATCH_UP_MAX_NUDGE, gapSec / (CATCH_UP_SEC * r.s.roomRate));
}

/**
 * Re-times a running catch-up from the gap measured now: ends it when the element has reached the
 * room (or the person set a rate, or the gap is past its limit), raises the rate when the gap grew.
 */
function retimeCatchUp(r: Run): void {
  const phase = r.s.phase;
  const m = r.media;
  const target = roomTarget(r);
  if (phase.name !== 'catching-up' || !target?.status.isPlaying || m.paused || m.seeking || r.s.stalled !== null || startPending(r)) return;
  const gap = positionAt(target, r.ctx.serverNowMs) - m.currentTime;
  if (r.s.engineRate === null || gap <= 0 || gap > phase.limitSec) {
    phase.endAtMs = r.now;
    return;
  }
  const needed = catchUpNudge(r, gap);
  if (needed > phase.nudge) {
    phase.nudge = needed;
    setRate(r, nudgedRate(r.s.roomRate, needed));
  }
  phase.endAtMs = r.now + Math.max(0, (gap / (phase.nudge * r.s.roomRate)) * 1000);
}

/** The catch-up is over: the room rate again (unless the person set one), and a fresh, fine measurement. */
function endCatchUp(r: Run): void {
  r.s.phase = running('acquiring', 0);
  if (r.s.engineRate !== null) setRate(r, r.s.roomRate);
  restartMeasuring(r);
}

// ─── switching rate ─────────────────────────────────────────────────────────────────────────────

/**
 * A playing room changed its rate (`from` had the old one): the switch is timed by `apply`. Only an
 * element that runs along with the old status switches; any other (waiting, or not yet following
 * the room) simply goes to the new status.
 */
function noteRateSwitch(r: Run, from: RoomTarget): void {
  if (!runsWithRoom(r.s.phase) || r.media.paused) return;
  r.s.phase = { name: 'switching-rate', from, rate: r.s.target!.status.playbackRate, atMs: Infinity };
}

/**
 * Times the rate switch on the followed status (again when a confirmation moved it): the element
 * keeps the old rate until the two statuses meet, then takes the new one. Returns false (and drops
 * the switch) when that instant has passed or lies too far ahead to be meant.
 */
function timeRateSwitch(r: Run): boolean {
  const phase = r.s.phase;
  const target = roomTarget(r);
  if (phase.name !== 'switching-rate' || !target) return false;
  const waitMs = rateSwitchAtMs(phase.from, target) - r.ctx.serverNowMs;
  if (!(waitMs > 0 && waitMs <= FAR_LEAD_MAX_SEC * 1000)) {
    endRateSwitch(r);
    return false;
  }
  r.s.roomRate = target.status.playbackRate;
  phase.atMs = r.now + waitMs;
  setRate(r, phase.from.status.playbackRate);
  decide(r, 'schedule', `rate × ${target.status.playbackRate} in ${Math.round(waitMs)} ms`);
  return true;
}

/** True in the phases in which the element runs along with the room's status (a rate switch is timed only there). */
function runsWithRoom(phase: Phase): boolean {
  return phase.name === 'catching-up' || phase.name === 'switching-rate' || 'lastMeasure' in phase;
}

/** Drops a rate switch in waiting (the element is running: it measures again). */
function endRateSwitch(r: Run): void {
  if (r.s.phase.name === 'switching-rate') r.s.phase = running('acquiring', 0);
}

// ─── acquiring, tracking, recovering: the correction loop ───────────────────────────────────────

/** The correction loop, every tick: a scheduled start's timing, a catch-up's, or the drift of a steady, confirmed element. */
function onTick(r: Run): void {
  const target = r.s.target;
  if (!target || r.ctx.live || r.media.readyState < HAVE_METADATA) return;
  const phase = r.s.phase;
  if (phase.name === 'unreachable') {
    // The room may come within reach (it paused or seeked nearby, the element buffered more).
    if (r.now - phase.checkedAtMs >= UNREACHABLE_RECHECK_MS) apply(r);
    return;
  }
  if (phase.name === 'scheduled') return maybeStartScheduled(r);
  if (!target.status.isPlaying) return;
  learnStartOnceRunning(r);
  const stalled = r.s.stalled;
  if (stalled && !r.media.paused && !r.media.seeking && r.media.currentTime - stalled.atSec >= STALL_RUNS_SEC) {
    // A `waiting` that no `playing` ended, with the clock running again (WebKitGTK): the stall is over.
    decide(r, 'stall', `over at ${r.media.currentTime.toFixed(2)} s: the clock runs without a \`playing\``);
    onPlaying(r);
  }
  // A catch-up runs toward the provisional position as well; only the loop's corrections wait for the confirmation.
  if (phase.name === 'catching-up') retimeCatchUp(r);
  else if (steady(r) && !awaitingConfirm(r)) track(r);
}

/** The phase timer: a scheduled start is due, a catch-up ends, or the room's new rate takes over. */
function onPhaseTimer(r: Run): void {
  const phase = r.s.phase;
  if (phase.name === 'scheduled' && phase.startAtMs !== null) {
    r.s.phase = running('acquiring', 0);
    startScheduled(r, phase.startAtMs);
  } else if (phase.name === 'catching-up') {
    endCatchUp(r);
  } else if (phase.name === 'switching-rate') {
    r.s.phase = running('acquiring', 0);
    setRate(r, r.s.roomRate);
    decide(r, 'rate', `× ${r.s.roomRate} now`);
    restartMeasuring(r);
  }
}

/** True when a playing element's clock runs steadily enough to measure. */
function steady(r: Run): boolean {
  const m = r.media;
  const phase = r.s.phase.name;
  return (
    !m.paused &&
    !m.ended &&
    !m.seeking &&
    r.s.stalled === null &&
    phase !== 'catching-up' &&
    phase !== 'switching-rate' &&
    m.readyState >= HAVE_FUTURE_DATA &&
    r.now >= r.s.settleUntilMs &&
    !startPending(r)
  );
}

/**
 * Learns the latency of the engine's last start at the first reading that finds its clock running:
 * wall time since play() − media time advanced / the rate in force (a catch-up's, for a start that
 * catches up: the rate set with the play()).
 */
function learnStartOnceRunning(r: Run): void {
  const pending = r.s.pendingLearn;
  const m = r.media;
  if (pending?.kind !== 'start' || m.paused || m.seeking || m.currentTime === pending.position) return;
  r.s.latencies.learn('start', (r.now - pending.atMs) / 1000 - (m.currentTime - pending.position) / m.playbackRate);
  r.s.pendingLearn = null;
}

/**
 * True while an engine start's play() has not run the element's clock yet (a loaded machine): a
 * measurement then would count the wait as drift. Bounded by MAX_LAG_SEC.
 */
function startPending(r: Run): boolean {
  const pending = r.s.pendingLearn;
  return pending?.kind === 'start' && r.media.currentTime === pending.position && r.now - pending.atMs < MAX_LAG_SEC * 1000;
}

/**
 * One measurement of a steady element against the playing room: learn the latency of the last start,
 * notice a freeze (a jump of the drift), then nothing, a nudge of the rate, or one scheduled start.
 */
function track(r: Run): void {
  const target = roomTarget(r);
  if (!target?.status.isPlaying) return;
  const m = r.media;
  const roomAt = positionAt(target, r.ctx.serverNowMs);
  if (isPastEnd(roomAt, m)) return apply(r);
  // An element found running outside a running phase (a waiting phase never started it) is acquired
  // first: its first measurement decides as always, and tracking begins with the next one.
  const steadyPhase = 'lastMeasure' in r.s.phase ? 'tracking' : 'acquiring';
  const phase = runningPhase(r);
  if (r.s.pendingLearn) {
    // How long the clock stood still since the start: wall time elapsed − media time advanced / rate.
    const { kind, position, atMs } = r.s.pendingLearn;
    if (phase.nudge === 0) r.s.latencies.learn(kind, (r.now - atMs) / 1000 - (m.currentTime - position) / m.playbackRate);
    r.s.pendingLearn = null;
  }
  const measured = m.currentTime - roomAt;
  const last = phase.lastMeasure;
  const consecutive = last !== null && r.now - last.atMs <= JUMP_WINDOW_MS;
  const reading = [r.now, measured] as const;
  phase.lastMeasure = { driftSec: measured, atMs: r.now, jumping: false, recent: consecutive && !last.jumping ? [...last.recent, reading].slice(-DRIFT_MEDIAN_OF) : [reading] };
  if (consecutive) {
    // Frozen (or jumping) right now: decide once the drift holds still again.
    if (Math.abs(measured - last.driftSec) >= DRIFT_JUMP_SEC) {
      phase.lastMeasure.jumping = true;
      phase.lastMeasure.recent = [reading];
      return;
    }
    if (last.jumping) recover(r);
  }
  const struggling = r.s.struggle.active(r.now);
  const { tuning } = r.ctx;
  const { allowance } = r.s;
  const band = {
    ...tuning,
    ...(allowance.fine ? { deadBandSec: tuning.settleBandSec } : {}),
    ...(nudgeable(r) ? {} : { maxNudge: 0, seekThresholdSec: UNNUDGEABLE_SEEK_SEC }),
    ...(struggling ? { seekThresholdSec: nudgeable(r) ? STRUGGLE_SEEK_SEC : STRUGGLE_UNNUDGEABLE_SEEK_SEC } : {}),
  };
  if (phase.nudge !== 0 && !nudgeable(r)) {
    // A nudge in force on an element found not to take one (its rate change unmuted it): back to the
    // room's rate before any seek, or it drifts on from every seek's landing, and no seek's latency
    // is learned while nudged (docs/browsers.md "Event orders"). It is measured afresh.
    enter(r, { ...phase, name: steadyPhase, nudge: 0, lastMeasure: null }, 'nudge', `drift ${Math.round(measured * 1000)} ms: this element's rate may not move, back to × ${r.s.roomRate}`);
    setRate(r, r.s.roomRate);
    return;
  }
  const retry = allowance.retry === 'pending';
  if (retry) allowance.retry = 'spent';
  // An action's one seek stays allowed; a catch-up (after a stall, or a start that missed) does not while struggling.
  const forAction = allowance.seek === 'action' && !retry;
  const acquiring = forAction || (!struggling && (allowance.seek !== null || retry));
  // Right after an action the one reading decides (a seek is due at once); in steady play the median
  // of the recent ones, each carried to now by the nudge in force (which moves the drift steadily).
  const moving = phase.nudge * r.s.roomRate;
  const drift = acquiring ? measured : medianOf(phase.lastMeasure.recent.map(([atMs, driftSec]) => driftSec + (moving * (r.now - atMs)) / 1000));
  learnRateChangeCost(r, drift, phase.lastMeasure.recent);
  const costSec = rateChangeCostSec(r);
  // Where each rate change costs the element its clock for a moment (WebKitGTK), a nudge in force
  // ends that much ahead, so that the change back lands level, and as few changes as can be are made:
  // a nudge starts at its largest and is not raised on the way.
  const decided = costlyNudge(
    decideTracking({ driftSec: phase.nudge !== 0 ? drift - costSec : drift, roomRate: r.s.roomRate, nudge: phase.nudge, acquiring, tuning: band }),
    phase.nudge,
    costSec,
    band.maxNudge,
    r.s.roomRate,
  );
  // Right after a nudge ended, no new one until its cost is measured: the drift its change back made
  // (WebKitGTK's clock standing still) is what the next nudge would chase, losing as much again.
  const decision: TrackingDecision = decided.kind === 'rate' && r.s.rateChanged?.nudge === 0 ? { kind: 'hold' } : decided;
  allowance.seek = null;
  allowance.fine = false;
  const driftMs = Math.round(drift * 1000);
  if (decision.kind === 'seek' && retry && !m.paused && canCatchUp(r, -drift)) {
    // A start that just missed, a little behind, with the data at hand: it runs faster until level
    // rather than pausing to start again. A person's press of the play button in that pause would
    // play the element, not pause the room: their pause reached nobody (docs/browsers.md).
    catchUp(r, -drift);
  } else if (decision.kind === 'seek') {
    decide(r, 'seek', `drift ${driftMs} ms`);
    if (!forAction && r.s.struggle.noteSeek(r.now)) decide(r, 'give-up', `${STRUGGLE_SEEKS} catch-up seeks in ${STRUGGLE_WINDOW_MS / 1000} s: nudging only for ${STRUGGLE_MS / 1000} s`);
    if (!seekPlaying(r)) scheduleStart(r);
  } else if (decision.kind === 'rate') {
    // The readings before this rate change moved at the old rate: the next median starts from this one.
    const lastMeasure = { ...phase.lastMeasure, recent: [reading] };
    enter(r, { ...phase, name: steadyPhase, nudge: decision.nudge, lastMeasure }, 'nudge', `drift ${driftMs} ms → rate ${decision.playbackRate.toFixed(3)}`);
    setRate(r, decision.playbackRate);
    r.s.rateChanged = { driftSec: measured, atMs: r.now, nudge: decision.nudge };
  } else {
    enter(r, { ...phase, name: steadyPhase }, null);
  }
}

/**
 * Learns what the loop's last rate change cost the element (`nudgeStart` away from the room's rate,
 * `nudgeEnd` back to it; s of media): where the drift should be now from the reading at the change
 * and the nudge since, minus the median drift of the readings after it (`drift`), once
 * RATE_COST_READINGS of them smooth a coarse clock (Firefox's reads ±20 ms). Only readings taken
 * one after the other since the change count (`recent` starts at it): a seek, a new room status or
 * a freeze between starts them afresh, and the change is then not measured. A loss beyond
 * RATE_CHANGE_COST_MAX_SEC is something else (a freeze) and is not learned.
 */
function learnRateChangeCost(r: Run, drift: number, recent: ReadonlyArray<readonly [number, number]>): void {
  const changed = r.s.rateChanged;
  if (!changed) return;
  if (recent[0]?.[0] !== changed.atMs) {
    r.s.rateChanged = null;
    return;
  }
  if (recent.length < RATE_COST_READINGS) return;
  r.s.rateChanged = null;
  const expected = changed.driftSec + (changed.nudge * r.s.roomRate * (r.now - changed.atMs)) / 1000;
  const cost = expected - drift;
  if (cost <= RATE_CHANGE_COST_MAX_SEC) r.s.latencies.learn(changed.nudge === 0 ? 'nudgeEnd' : 'nudgeStart', cost);
}

/**
 * What the change back to the room's rate costs this element (s), once learned and large enough to
 * matter (RATE_CHANGE_COSTLY_SEC); else 0. Only that one: a cost of leaving it alone (Chromium's
 * step) is corrected by the nudge it starts, as before.
 */
function rateChangeCostSec(r: Run): number {
  const cost = r.s.latencies.get('nudgeEnd');
  return r.s.latencies.has('nudgeEnd') && cost >= RATE_CHANGE_COSTLY_SEC ? cost : 0;
}

/**
 * The tracking decision for an element whose change back to the room's rate costs it `costSec` (0:
 * as decided): a new nudge at its largest (`maxNudge`, one change to start and one to end), and no
 * raise of a nudge in force in the same direction.
 */
function costlyNudge(decision: TrackingDecision, nudge: number, costSec: number, maxNudge: number, roomRate: number): TrackingDecision {
  if (costSec === 0 || decision.kind !== 'rate' || decision.nudge === 0) return decision;
  if (nudge !== 0 && Math.sign(nudge) === Math.sign(decision.nudge)) return { kind: 'hold' };
  const largest = Math.sign(decision.nudge) * maxNudge;
  return { kind: 'rate', nudge: largest, playbackRate: nudgedRate(roomRate, largest) };
}

/**
 * A correction seek of an element that may not nudge (`nudgeable`: a muted one in WebKitGTK) and
 * plays with the data at hand: to where the room will be when the seek lands, playing on. A
 * scheduled start would pause it, and a person's press of the play button in that pause would play
 * the element instead of pausing the room (docs/browsers.md "WebKit"). False when it does not apply.
 */
function seekPlaying(r: Run): boolean {
  const target = roomTarget(r);
  const m = r.media;
  if (!target?.status.isPlaying || m.paused || m.seeking || nudgeable(r)) return false;
  const roomAt = positionAt(target, r.ctx.serverNowMs);
  const to = seekTarget(roomAt, r.s.latencies.get('readyNear'), target.status, m.duration);
  if (!isBuffered(m, to) || !isBuffered(m, to + CATCH_UP_BUFFER_SEC * r.s.roomRate) || !canSeekTo(m, to)) return false;
  cancelStart(r);
  const phase = runningPhase(r);
  enter(r, { ...phase, name: 'acquiring', lastMeasure: null }, 'seek', `playing on, to ${to.toFixed(2)} s`);
  seekElement(r, to);
  restartMeasuring(r);
  // The next measurement learns how long the clock stood still: the next such seek lands level.
  r.s.pendingLearn = { kind: 'readyNear', position: to, atMs: r.now };
  return true;
}

/** The median of `values` (not empty); of an even count, the mean of the middle two. */
function medianOf(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** The element lost time on its own (a stall or freeze): catch up like after an action, but not over and over. */
function recover(r: Run): void {
  r.s.allowance.fine = true;
  if (r.now - r.s.lastRecoveryAtMs < RECOVERY_COOLDOWN_MS) return;
  r.s.lastRecoveryAtMs = r.now;
  r.s.allowance.seek = 'recovery';
  const phase = r.s.phase;
  if ('lastMeasure' in phase) enter(r, { ...phase, name: 'recovering' }, 'freeze', 'one catch-up allowed');
  else decide(r, 'freeze', 'one catch-up allowed');
}

/** The running phase the loop measures in (an element that runs outside one, e.g. after a cancelled start, starts one). */
function runningPhase(r: Run): RunningPhase {
  const phase = r.s.phase;
  if ('lastMeasure' in phase) return phase;
  const fresh = running('acquiring', nudgeOf(phase));
  r.s.phase = fresh;
  return fresh;
}

/** Starts measuring afresh after the engine changed the element's course: a fine measurement once SETTLE_MS have passed. */
function restartMeasuring(r: Run): void {
  resetMeasure(r);
  r.s.allowance.fine = true;
  r.s.settleUntilMs = r.now + SETTLE_MS;
}

// ─── ended, unreachable ─────────────────────────────────────────────────────────────────────────

/** The room's clock runs on past the end; the element stops there and is not restarted. */
function applyEnded(r: Run, roomAt: number): void {
  cancelStart(r);
  enter(r, { name: 'ended' }, 'end', `room at ${roomAt.toFixed(2)} s`);
  const m = r.media;
  if (!m.ended && !m.seeking && Math.abs(m.duration - m.currentTime) > r.ctx.tuning.pausedToleranceSec) seekElement(r, m.duration);
  if (!m.paused && !m.ended) pauseElement(r);
  r.s.allowance.seek = null;
}

/** The room is out of this element's reach: it waits, paused, and the indicator says the source cannot seek. */
function beUnreachable(r: Run, roomAt: number): void {
  r.s.allowance.seek = null;
  if (!r.media.paused) pauseElement(r);
  const detail = `room at ${roomAt.toFixed(2)} s: the source cannot seek there`;
  const was = r.s.phase.name;
  enter(r, { name: 'unreachable', checkedAtMs: r.now }, was === 'unreachable' ? null : 'unreachable', detail);
}

// ─── The element's events ───────────────────────────────────────────────────────────────────────

/** The element dropped its source (another URL of the same movie): whatever was under way no longer applies. */
function onEmptied(r: Run): void {
  r.effects.push({ type: 'forget-expected' });
  Object.assign(r.s, { engineSeekTo: null, userSeeking: false, stalled: null, pendingLearn: null });
  r.s.allowance.seek = null;
  const phase = r.s.phase;
  // A catch-up's rate goes back to the room's.
  if (phase.name === 'catching-up' && r.s.engineRate !== null) setRate(r, r.s.roomRate);
  if (phase.name !== 'idle') enter(r, { name: 'idle' }, null);
}

/** The element runs again (after a start, a seek or a stall); the end of a stall may re-position it once. */
function onPlaying(r: Run): void {
  r.s.settleUntilMs = r.now + SETTLE_MS;
  resetMeasure(r);
  if (r.s.stalled === null) return;
  r.s.stalled = null;
  recover(r);
}

/** The element stalls for data while playing: the room goes on, nothing is published; it catches up when it runs again. */
function onWaiting(r: Run): void {
  const m = r.media;
  if (m.seeking || r.s.engineSeekTo !== null || r.s.phase.name === 'scheduled' || m.paused || !r.s.target?.status.isPlaying) return;
  // With the data ahead at hand it is no stall: WebKitGTK says `waiting` ~90 ms after every start
  // and rate change and plays on (docs/browsers.md "Event orders"). Taken for one, it hid each
  // start's latency from being learned and left the page recovering after each nudge.
  if (m.readyState >= HAVE_FUTURE_DATA) return;
  if (r.s.stalled === null) {
    const phase = r.s.phase;
    const detail = `at ${m.currentTime.toFixed(2)} s`;
    if ('lastMeasure' in phase) enter(r, { ...phase, name: 'recovering' }, 'stall', detail);
    else decide(r, 'stall', detail);
    r.s.stalled = { sinceMs: r.now, atSec: m.currentTime };
  }
  r.s.pendingLearn = null;
}

/** A play or pause: the engine's own is its echo; a person's tells the room (unless it already is so). */
function onPlayOrPause(r: Run, kind: 'play' | 'pause', own: boolean): void {
  const m = r.media;
  if (own || m.readyState < HAVE_METADATA) return;
  const isPlaying = kind === 'play';
  // An event the element has already undone tells nothing: WebKitGTK's autoplay policy pauses a
  // muted element that a rate change unmuted and plays it again before the `pause` is handled,
  // sometimes ahead of the `volumechange` that shows the unmute (docs/browsers.md "No browser moves
  // the room"); taken for a person's, it sent the room the element's position as a play.
  if (m.paused === isPlaying) return void decide(r, 'browser', `${kind} already undone by the element: nothing to tell`);
  cancelStart(r);
  const target = r.s.target;
  if (target && target.status.isPlaying === isPlaying) {
    // Nothing to tell the room; a play that resumes a stale element still has to catch up.
    if (isPlaying) {
      acquireOnce(r);
      r.s.settleUntilMs = r.now + SETTLE_MS;
    }
    return;
  }
  publish(r, isPlaying ? 'common' : null);
  // The person paused a running element: re-align its pipeline with the position just published (see applyPaused).
  if (!isPlaying && m.paused && !m.seeking) seekElement(r, m.currentTime);
}

/**
 * A seek starts. The engine's own (expected, a scheduled start's, or landing where the engine's
 * went) waits for its `seeked`; a person's is handled now, so the room hears of it while the
 * element is still seeking.
 */
function onSeeking(r: Run, expected: boolean): void {
  const position = r.media.currentTime;
  if (expected || isScheduledSeek(r, position) || isEngineLanding(r, position) || r.media.readyState < HAVE_METADATA) return;
  // A person's seek aborts the engine's.
  r.s.engineSeekTo = null;
  r.s.userSeeking = true;
  r.s.settleUntilMs = r.now + SETTLE_MS;
  onUserSeek(r, position);
}

function onSeeked(r: Run, expected: boolean): void {
  const position = r.media.currentTime;
  // A stall before the seek ends once the clock runs past the landing (WebKitGTK fires no `playing`
  // after a seek): measured from where it stalled, a seek back left it stalled until the clock got there again.
  if (r.s.stalled) r.s.stalled = { ...r.s.stalled, atSec: position };
  const engineLanding = isEngineLanding(r, position);
  // Any `seeked` ends the seek in flight (a person's seek aborts the engine's).
  r.s.engineSeekTo = null;
  r.s.settleUntilMs = r.now + SETTLE_MS;
  if (expected || isScheduledSeek(r, position) || engineLanding) {
    // A landing elsewhere leaves its expectation behind: drop it, so no later seek is taken for it.
    if (engineLanding) r.effects.push({ type: 'forget-seek' });
    r.s.userSeeking = false;
    return maybeStartScheduled(r);
  }
  if (r.s.userSeeking) {
    // Published at its `seeking` already.
    r.s.userSeeking = false;
    return;
  }
  if (r.media.readyState >= HAVE_METADATA) onUserSeek(r, position);
}

/** Whether a seek to `position` (s) is a scheduled start's, which the player may move a little (hls.js snapping to a fragment). */
function isScheduledSeek(r: Run, position: number): boolean {
  const phase = r.s.phase;
  return phase.name === 'scheduled' && Math.abs(position - phase.seekTo) <= SCHEDULED_SEEK_TOLERANCE_SEC;
}

/** True when the element moves to where the engine's seek in flight lands (its target, or the nearest point the source can seek to). */
function isEngineLanding(r: Run, position: number): boolean {
  if (r.s.engineSeekTo === null) return false;
  const landing = seekLanding(r.media, r.s.engineSeekTo);
  return landing !== null && Math.abs(position - landing) <= SEEK_MATCH_TOLERANCE_SEC;
}

/** A rate the engine did not set: the person's own, which the room hears unless it is the room's already. */
function onRateChange(r: Run): void {
  const rate = r.media.playbackRate;
  if ((r.s.engineRate !== null && Math.abs(rate - r.s.engineRate) < 1e-9) || r.media.readyState < HAVE_METADATA) return;
  r.s.engineRate = null;
  setNudge(r, 0);
  if (Math.abs(rate - r.s.roomRate) < 1e-3) return;
  publish(r, r.media.paused ? null : 'rate');
}

// ─── The person's own actions ───────────────────────────────────────────────────────────────────

/** A person's seek to `position` (s): the room follows it, at once or once a burst of seeks (scrubbing) ends. */
function onUserSeek(r: Run, position: number): void {
  // A seek while the element waits for a common start, or between the seeks of a burst, is a seek while playing.
  const enginePaused = r.s.phase.name === 'scheduled' || r.s.publish.dueAtMs !== null;
  const playing = !r.media.paused || (enginePaused && r.s.target?.status.isPlaying === true);
  cancelStart(r);
  const target = roomTarget(r);
  if (target) {
    // A seek that lands where the room already is (e.g. the player skipping a gap) changes nothing.
    const tolerance = playing ? USER_SEEK_MIN_SEC : r.ctx.tuning.pausedToleranceSec;
    if (Math.abs(position - positionAt(target, r.ctx.serverNowMs)) <= tolerance) return;
  }
  if (!allowLocalChange(r)) return;
  // The person's position becomes the target now, so nothing snaps back while the STATUS is on its way.
  const status = localStatus(r, playing);
  follow(r, { status, atMs: r.now, clock: 'local' });
  resetMeasure(r);
  setNudge(r, 0);
  setRate(r, status.playbackRate);
  r.s.allowance.seek = null;
  const { publish: pending } = r.s;
  // A single seek goes out at once; further seeks of a burst collapse into one trailing STATUS.
  if (pending.dueAtMs === null && r.now - pending.lastAtMs >= r.ctx.seekPublishDelayMs) {
    pending.lastAtMs = r.now;
    publish(r, playing ? (r.media.paused ? 'common' : 'resume') : null, playing);
    return;
  }
  r.s.publish = { ...pending, dueAtMs: r.now + r.ctx.seekPublishDelayMs, playing };
}

/** The element's status with the room rate instead of a nudged one. */
function localStatus(r: Run, playing = !r.media.paused): PlaybackState {
  const rate = r.media.playbackRate;
  const nominal = r.s.engineRate !== null && Math.abs(rate - r.s.engineRate) < 1e-9 ? r.s.roomRate : rate;
  return { isPlaying: playing, currentTime: r.media.currentTime, playbackRate: nominal };
}

/** Live movies publish nothing; a person without the permission gets the room state back (once per DENIED_RESYNC_MS) instead of an error. */
function allowLocalChange(r: Run): boolean {
  if (r.ctx.live) return false;
  if (r.ctx.canControl) return true;
  if (r.now - r.s.lastDeniedAtMs < DENIED_RESYNC_MS) return false;
  r.s.lastDeniedAtMs = r.now;
  r.effects.push({ type: 'control-denied' });
  if (r.ctx.connected) r.effects.push({ type: 'send-sync', acquire: true });
  return false;
}

/**
 * Sends the person's status (`playing`: whether their element plays, or waits for a common start).
 * - `common`: a play from paused. The room starts COMMON_LEAD_SEC from now for everyone: the STATUS
 *   carries the position the room has now if it reaches the person's position then, and their
 *   element waits there and starts at that instant like the others'.
 * - `resume`: a seek while playing; the STATUS carries the position the element will have when its
 *   clock runs again (the learned resume latency, or a far start's outside the buffer).
 * - `rate`: a rate change while playing; the element keeps the old rate for COMMON_LEAD_SEC and
 *   everyone switches at that instant.
 */
function publish(r: Run, kind: 'common' | 'resume' | 'rate' | null, playing = !r.media.paused): void {
  if (!allowLocalChange(r)) return;
  r.s.publish.dueAtMs = null;
  const m = r.media;
  const { latencies } = r.s;
  const status = localStatus(r, playing);
  // A new rate is timed on this element only when it ran along with the room's old one.
  const wasRunningWithRoom = runsWithRoom(r.s.phase);
  r.s.pendingLearn = null;
  cancelStart(r);
  endRateSwitch(r);
  let holdAtPosition: { position: number; far: boolean } | null = null;
  if (kind === 'resume' && status.isPlaying) {
    // A seek outside the buffer runs again once its data came; only one inside it teaches the resume latency.
    const buffered = isBuffered(m, status.currentTime);
    const lagSec = buffered ? latencies.get('resume') : latencies.get('readyFar') + latencies.get('start');
    if (buffered) r.s.pendingLearn = { kind, position: status.currentTime, atMs: r.now };
    status.currentTime = Math.max(0, status.currentTime - lagSec * status.playbackRate);
  } else if (kind === 'common' && status.isPlaying) {
    const rate = status.playbackRate;
    const buffered = isBuffered(m, status.currentTime + COMMON_LEAD_SEC * rate);
    // Without the data at hand nobody can start sooner than it arrives.
    const leadSec = buffered ? COMMON_LEAD_SEC : latencies.farLeadSec(COMMON_LEAD_SEC);
    // A room cannot start before 0: right at the start, everyone starts a lead later into the movie.
    const position = Math.max(status.currentTime, leadSec * rate);
    // Where the source cannot seek to hold there (a host without HTTP Range), the room plays from here, now.
    if (canSeekTo(m, position)) {
      status.currentTime = position - leadSec * rate;
      holdAtPosition = { position, far: !buffered };
    }
  }
  const fromRate = r.s.roomRate;
  const position = status.currentTime;
  const switchRate = kind === 'rate' && wasRunningWithRoom && status.isPlaying && Math.abs(fromRate - status.playbackRate) > 1e-3;
  if (switchRate) status.currentTime = Math.max(0, position + COMMON_LEAD_SEC * (fromRate - status.playbackRate));
  follow(r, { status, atMs: r.now, clock: 'local' });
  decide(r, 'publish', `${kind ?? 'plain'}: ${status.isPlaying ? 'play' : 'pause'} at ${status.currentTime.toFixed(2)} s × ${status.playbackRate}`);
  if (!status.isPlaying) enter(r, { name: 'paused' }, null);
  else if (!holdAtPosition && !r.ctx.live) enter(r, running('acquiring', 0), null);
  resetMeasure(r);
  // The person's element is the reference now: no nudge left on it.
  r.s.roomRate = status.playbackRate;
  setNudge(r, 0);
  setRate(r, status.playbackRate);
  if (switchRate) {
    // Timed on this element itself, so that the switch is exact here.
    const from: PlaybackState = { isPlaying: true, currentTime: position, playbackRate: fromRate };
    r.s.phase = { name: 'switching-rate', from: { status: from, serverTimeMs: r.ctx.serverNowMs }, rate: status.playbackRate, atMs: Infinity };
    timeRateSwitch(r);
  }
  r.s.allowance = { ...r.s.allowance, seek: status.isPlaying ? 'action' : null, fine: status.isPlaying };
  r.s.confirmUntilMs = -Infinity;
  if (status.isPlaying) r.s.settleUntilMs = r.now + SETTLE_MS;
  if (holdAtPosition) holdAt(r, holdAtPosition.position, holdAtPosition.far);
  r.effects.push({ type: 'send-status', status });
}

// ─── Helpers ────────────────────────────────────────────────────────────────────────────────────

/** A running phase labelled `name`, with `nudge` in force and nothing measured yet. */
function running(name: RunningPhase['name'], nudge: number): RunningPhase {
  return { name, nudge, lastMeasure: null };
}

/** The rate offset in force in `phase` (a fraction of the room rate): a running phase's nudge or a catch-up's. */
function nudgeOf(phase: Phase): number {
  return 'nudge' in phase ? phase.nudge : 0;
}

/** Sets the nudge in force to `nudge` (0 ends a catch-up's too: the element measures again). */
function setNudge(r: Run, nudge: number): void {
  const phase = r.s.phase;
  if ('lastMeasure' in phase) phase.nudge = nudge;
  else if (phase.name === 'catching-up' && nudge === 0) r.s.phase = running('acquiring', 0);
}

/** Forgets the last measurement (anything that moves the element makes the next one a first). */
function resetMeasure(r: Run): void {
  const phase = r.s.phase;
  if ('lastMeasure' in phase) phase.lastMeasure = null;
}

/** Moves to `phase` and logs the decision `kind` (if any) in it. */
function enter(r: Run, phase: Phase, kind: SyncDecisionKind | null, detail = ''): void {
  r.s.phase = phase;
  if (kind) decide(r, kind, detail);
}

/** Logs a decision in the current phase. */
function decide(r: Run, kind: SyncDecisionKind, detail: string): void {
  r.effects.push({ type: 'log', kind, phase: r.s.phase.name, detail });
}

/** True while a remote action's playing position waits for its confirming SYNC reply. */
function awaitingConfirm(r: Run): boolean {
  return r.now < r.s.confirmUntilMs;
}

/** play() by the engine; `learn`: measure the start latency once the element runs. */
function startElement(r: Run, learn: boolean): void {
  if (!r.ctx.live) enter(r, running('acquiring', nudgeOf(r.s.phase)), 'start', `at ${r.media.currentTime.toFixed(2)} s`);
  const { allowance } = r.s;
  if (learn && allowance.retry === 'armed') allowance.retry = 'pending';
  else if (allowance.retry === 'pending') allowance.retry = 'spent';
  r.s.pendingLearn = learn ? { kind: 'start', position: r.media.currentTime, atMs: r.now } : null;
  restartMeasuring(r);
  play(r);
}

function play(r: Run): void {
  r.media.play();
  r.effects.push({ type: 'play' });
}

function pauseElement(r: Run): void {
  r.media.pause();
  r.effects.push({ type: 'pause' });
}

/** Seeks the element to `to` (s), the engine's own; nothing where the source cannot seek there (it would land elsewhere, 0 without HTTP Range). */
function seekElement(r: Run, to: number): void {
  if (!canSeekTo(r.media, to)) return;
  resetMeasure(r);
  r.s.engineSeekTo = to;
  r.s.settleUntilMs = r.now + SETTLE_MS;
  r.media.currentTime = to;
  r.media.seeking = true;
  r.effects.push({ type: 'seek', to });
}

function setRate(r: Run, rate: number): void {
  r.s.engineRate = rate;
  if (Math.abs(r.media.playbackRate - rate) <= 1e-9) return;
  r.media.playbackRate = rate;
  r.effects.push({ type: 'set-rate', rate });
}

/** The followed status on the server clock; null before any status arrived. */
function roomTarget(r: Run): RoomTarget | null {
  return targetOnServerClock(r.s.target, r.ctx.clock.offsetMs);
}

/** When (server Unix ms) the room was at `target`'s position. */
function serverTimeOf(r: Run, target: Target): number {
  return target.clock === 'server' ? target.atMs : target.atMs + r.ctx.clock.offsetMs;
}

/** `target` on the server clock (`offsetMs`: server − local). */
export function targetOnServerClock(target: Target | null, offsetMs: number): RoomTarget | null {
  if (!target) return null;
  return { status: target.status, serverTimeMs: target.clock === 'server' ? target.atMs : target.atMs + offsetMs };
}

/** The sync indicator for `state`: in sync, correcting or out of sync with the drift (ms), live, ended, or idle. */
export function indicatorOf(state: MachineState, context: Pick<StepContext, 'media' | 'serverNowMs' | 'clock' | 'tuning' | 'live' | 'nowMs'>): SyncIndicator {
  const { media, tuning } = context;
  const target = targetOnServerClock(state.target, context.clock.offsetMs);
  if (!target || media.readyState < HAVE_METADATA) return { state: 'idle', driftMs: null };
  if (context.live) return { state: 'live', driftMs: null };
  const local = readLocal(media);
  const roomAt = positionAt(target, context.serverNowMs);
  if (state.phase.name === 'unreachable') return { state: 'cannot-seek', driftMs: Math.round((local.currentTime - roomAt) * 1000) };
  const pastEnd = isPastEnd(roomAt, local);
  const drift = local.currentTime - (pastEnd ? local.duration : roomAt);
  const driftMs = Math.round(drift * 1000);
  const magnitude = Math.abs(drift);
  if (pastEnd && (local.ended || magnitude <= tuning.pausedToleranceSec)) return { state: 'ended', driftMs: null };
  if (!target.status.isPlaying || pastEnd) {
    const settled = (local.paused || local.ended) && !media.seeking && magnitude <= tuning.pausedToleranceSec;
    return { state: settled ? 'in-sync' : 'correcting', driftMs };
  }
  const scheduled = state.phase.name === 'scheduled';
  if (state.struggle.active(context.nowMs) && !scheduled && !local.paused) return { state: magnitude < tuning.deadBandSec ? 'in-sync' : 'struggling', driftMs };
  if (state.stalled !== null || (local.paused && !scheduled) || magnitude >= tuning.seekThresholdSec) return { state: 'out-of-sync', driftMs };
  if (scheduled || media.seeking || nudgeOf(state.phase) !== 0 || magnitude >= tuning.deadBandSec) return { state: 'correcting', driftMs };
  return { state: 'in-sync', driftMs };
}

export type { LagKind };
