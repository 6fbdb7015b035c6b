/**
 * The playback sync engine of one media element (docs/contract.md §6.4, §6.7).
 * Framework-free: it listens to a MediaLike's events, talks through a SyncTransport (the room socket),
 * keeps time with a ServerClock (./clock.ts) and decides with the pure functions of ./correction.ts.
 *
 * The room's authoritative status is kept with the time it refers to:
 * - SYNC reply: the reply's `timestamp` (server ms) — the server extrapolated the status to it;
 * - STATUS / CHECK_STATUS broadcast (no timestamp): local receipt time − the one-way delay (rtt/2).
 *   That is only provisional: a busy page runs the message handler tens of ms after the frame
 *   arrived, so every remote action is confirmed at once with a SYNC, whose reply carries the server
 *   time; the correction loop measures against the position only after the confirmation (or
 *   CONFIRM_TIMEOUT_MS);
 * - `GET /movie/current`: the response time − the one-way delay (the server extrapolated at read time).
 * The expected position at any moment is currentTime + elapsed × rate while playing.
 *
 * Correction, every TICK_MS while the room plays and the element runs steadily:
 * - |drift| under the dead band: nothing; above it: playbackRate nudged proportionally within
 *   0.95–1.05 × the room rate until the drift is closed, then back to the room rate;
 * - above the seek threshold (1 s), or above 0.1 s right after a remote action: one hard seek as a
 *   "scheduled start": pause, seek ahead of the room by a lead that covers the seek (and the
 *   confirmation's round trip), and play() when the room arrives there, less the element's start
 *   latency. The start time is computed when the element is ready, from the latest status, so the
 *   seek's own duration does not matter.
 * - Latencies are learned, not guessed: after each start the engine measures how long the element's
 *   clock stood still (wall time elapsed − media time advanced / rate).
 * A common start: a user's play starts the room COMMON_LEAD_SEC later for everyone, the user
 *   included. The STATUS carries the position the room has now if it reaches the user's position
 *   then; the user's element waits there, and so does every paused member the room is about to reach
 *   (no seek needed), each starting when the room arrives less its own learned start latency. A
 *   member farther away than the lead waits a little ahead of the room instead. A seek while playing
 *   is published when it starts (`seeking`, not `seeked`), as the position the element will have once
 *   its clock runs again (position − latency × rate: the learned one inside the buffer, a far start's
 *   outside it), so the others hear of it a seek's duration sooner and do not start ahead of it.
 * A start is timed on the provisional position of a STATUS and re-timed by the confirming SYNC reply
 *   if that comes first; a scheduled start made before the confirmation leads by this page's learned
 *   handling lag more, so the confirmation does not overtake it.
 *
 * Measured in Chromium 156 on the 30 fps HLS clip (headless): currentTime reads are exact to 0.1 ms;
 * play() runs the clock 40–75 ms later; a buffered seek while paused completes in 10–20 ms; switching
 * the rate away from 1 costs a ~25 ms step (time-stretch start-up), changes between non-1 rates and
 * back to 1 almost nothing; an element paused while playing resumes up to ~80 ms past the currentTime
 * it reported at the pause, unless it was seeked meanwhile (so every pause is followed by a seek to
 * the paused position). The rate step is why the dead band is 15 ms and a nudge holds one rate until
 * the gap is closed. A busy page handles socket messages tens of ms late (up to 170 ms seen under
 * load), hence the confirming SYNC.
 *
 * Never echoes what it applied itself: play/pause/seek register the event they will fire
 * (./expected-events.ts) and a `ratechange` to the rate the engine set is its own. A user's own
 * play, pause, seek or rate change is published as STATUS with the room rate (not a nudged one).
 * Buffering never pauses the room and is not published; a stalled element catches up when it runs
 * again, like after a remote action (seek from 0.1 s, else nudge). A freeze without any event shows
 * as a jump of the drift between two measurements and is treated the same; such catch-up seeks are
 * limited to one per RECOVERY_COOLDOWN_MS. Live movies follow play/pause only.
 *
 * SYNC: a burst after each (re)connect, then a slow refresh (./clock.ts DEFAULT_SYNC_SCHEDULE), plus
 * one confirmation per remote action. Each reply is a clock sample; replies to requests older than
 * our own last STATUS are ignored.
 */
import type { PlaybackState } from '@/lib/contract/playback';
import { DEFAULT_SYNC_SCHEDULE, nextSyncDelayMs, ServerClock, type SyncSchedule } from './clock';
import {
  decideTracking,
  DEFAULT_TUNING,
  isPastEnd,
  nudgedRate,
  positionAt,
  seekTarget,
  type RoomTarget,
  type SyncIndicator,
  type SyncTuning,
} from './correction';
import { ExpectedEvents } from './expected-events';
import { FAR_LEAD_MAX_SEC, Latencies, MAX_LAG_SEC, type LagKind } from './latency';
import { canSeekTo, HAVE_FUTURE_DATA, HAVE_METADATA, isBuffered, readLocal, seekLanding, type MediaLike } from './media';
import { rateSwitchAtMs, type RateSwitch } from './rate-switch';
import { StruggleGuard } from './struggle';
import { canTransition, DecisionLog, type SyncDebug, type SyncDecisionKind, type SyncPhase } from './phase';
import {
  DEFAULT_TICK_MS,
  SETTLE_MS,
  CONFIRM_TIMEOUT_MS,
  DEFAULT_SEEK_PUBLISH_DELAY_MS,
  USER_SEEK_MIN_SEC,
  ACTION_JUMP_SEC,
  SCHEDULED_SEEK_TOLERANCE_SEC,
  DRIFT_JUMP_SEC,
  RECOVERY_COOLDOWN_MS,
  STRUGGLE_SEEKS,
  STRUGGLE_WINDOW_MS,
  STRUGGLE_MS,
  STRUGGLE_SEEK_SEC,
  JUMP_WINDOW_MS,
  MAX_PENDING_SYNCS,
  START_AT_ONCE_SEC,
  CATCH_UP_MAX_SEC,
  CATCH_UP_SEC,
  CATCH_UP_MAX_NUDGE,
  CATCH_UP_BUFFER_SEC,
  COMMON_LEAD_SEC,
  NO_SEEK_CATCH_UP_MAX_SEC,
  UNREACHABLE_RECHECK_MS,
  DENIED_RESYNC_MS,
} from './tuning';
import { SEEK_MATCH_TOLERANCE_SEC } from './expected-events';

export type { LagKind } from './latency';
export type { SyncDebug, SyncPhase } from './phase';
export { COMMON_LEAD_SEC, CONFIRM_TIMEOUT_MS, DEFAULT_SEEK_PUBLISH_DELAY_MS, DEFAULT_TICK_MS, SETTLE_MS } from './tuning';

/** What the engine sends; the room socket implements it. Both return false when the message was dropped. */
export interface SyncTransport {
  sendStatus(status: PlaybackState): boolean;
  sendSync(): boolean;
}

/** Outcome of starting playback: played, played muted after the browser refused sound, or refused. */
export type AutoplayOutcome = 'ok' | 'muted' | 'blocked';

/** The room status of `GET /api/room/movie/current` with the local times (Unix ms) of its request and response. */
export interface HttpStatus {
  status: PlaybackState;
  requestedAtMs: number;
  receivedAtMs: number;
}

export interface SyncEngineOptions {
  media: MediaLike;
  transport: SyncTransport;
  /** The server clock estimate; shared with the socket's outgoing timestamps. Default: a new one on `now`. */
  clock?: ServerClock;
  /** Local clock, Unix ms. Default `Date.now`. */
  now?: () => number;
  live?: boolean;
  /** Whether the user may set the room status (SetCurrentStatus, or room/site admin). */
  canControl?: boolean;
  tuning?: Partial<SyncTuning>;
  schedule?: Partial<SyncSchedule>;
  /** Period (ms) of the correction loop. */
  tickMs?: number;
  /** Window (ms) in which further `seeked` events (scrubbing) collapse into one trailing STATUS. */
  seekPublishDelayMs?: number;
  /** Jitter source in [0, 1). */
  random?: () => number;
  onAutoplay?: (outcome: AutoplayOutcome) => void;
  /** A local play/pause/seek/rate change by a user who may not control playback; the engine restores the room state. */
  onControlDenied?: () => void;
  /** The reply to a manual sync (`manualSync`) was applied. */
  onManualSynced?: () => void;
  /**
   * The room status the engine follows changed: a remote STATUS or SYNC reply, the HTTP status, or
   * this user's own action at once (what the hall's "playing / paused" label shows). `atMs`: the
   * local time (Unix ms) at which the room was at `status.currentTime` (the HTTP status's is when
   * the server answered, not when the engine took it).
   */
  onTarget?: (status: PlaybackState, atMs: number) => void;
}

interface PendingSync {
  sentAtMs: number;
  /** Sequence number of outgoing messages at send time (for ordering against our own STATUS). */
  seq: number;
  manual: boolean;
  /** The reply may re-position the element with a seek (first after connect, manual). */
  acquire: boolean;
}

/** The followed status and the time it refers to, on the server's clock or (when derived from a local receipt) the local one. */
interface Target {
  status: PlaybackState;
  atMs: number;
  clock: 'server' | 'local';
}

/** How a user's action is published (see `publish`). */
type PublishKind = 'common' | 'resume' | 'rate' | null;

/** A start whose outcome teaches a latency: where the element was (s) and when (local ms). */
interface PendingLearn {
  kind: 'start' | 'resume';
  position: number;
  atMs: number;
}

/** A scheduled start: paused at `seekTo` (s), waiting until the room arrives there. */
interface ScheduledStart {
  seekTo: number;
  far: boolean;
  calledAtMs: number;
  /** The element reached `seekTo` and could play (its ready latency was learned then). */
  ready: boolean;
  timer: ReturnType<typeof setTimeout> | null;
}

const MEDIA_EVENTS = ['play', 'pause', 'seeking', 'seeked', 'ratechange', 'emptied', 'loadedmetadata', 'playing', 'waiting', 'canplay'] as const;
type MediaEvent = (typeof MEDIA_EVENTS)[number];

export class SyncEngine {
  readonly clock: ServerClock;
  private readonly media: MediaLike;
  private readonly transport: SyncTransport;
  private readonly now: () => number;
  private readonly options: SyncEngineOptions;
  private readonly tuning: SyncTuning;
  private readonly schedule: SyncSchedule;
  private readonly expected: ExpectedEvents;
  private readonly handlers: Record<MediaEvent, () => void>;
  private live: boolean;
  private canControl: boolean;
  private target: Target | null = null;
  /** Local time (ms) a status last arrived over the socket; an HTTP status requested before that is stale. */
  private socketTargetAtMs = -Infinity;
  private waitingForMetadata = false;
  private connected = false;
  private everConnected = false;
  private pendingSyncs: PendingSync[] = [];
  private syncsSinceConnect = 0;
  private acquireNextSync = false;
  private seq = 0;
  private lastStatusSeq = -1;
  private syncTimer: ReturnType<typeof setTimeout> | null = null;
  private tickTimer: ReturnType<typeof setInterval> | null = null;
  private seekPublishTimer: ReturnType<typeof setTimeout> | null = null;
  private lastSeekPublishAtMs = -Infinity;
  /** True while the engine's own seek is in flight. */
  private engineSeeking = false;
  /** Where the engine's last seek was sent (s), until its `seeked`: the element may land elsewhere (`isEngineLanding`). */
  private engineSeekTo: number | null = null;
  /** Local time (ms) the engine last found the room out of this element's reach (`unreachable`). */
  private unreachableCheckedAtMs = -Infinity;
  /** Local time (ms) of the last refused local change of a viewer without control (DENIED_RESYNC_MS). */
  private lastDeniedAtMs = -Infinity;
  /** The farthest gap (s of media) the running catch-up may close (CATCH_UP_MAX_SEC, or NO_SEEK_CATCH_UP_MAX_SEC without a seek). */
  private catchUpLimitSec = CATCH_UP_MAX_SEC;
  /** True while a user's seek is in flight that was handled at its `seeking` (its `seeked` adds nothing). */
  private userSeeking = false;
  /** The room rate followed, and the rate the engine last set on the element (null: none, or the user changed it since). */
  private roomRate = 1;
  private engineRate: number | null = null;
  /** The nudge in force: a signed fraction of the room rate (0 = none). */
  private nudge = 0;
  /** One hard seek is allowed from the acquire threshold (set by a remote action, cleared by the next decision). */
  private acquiring = false;
  /** Why `acquiring` was set: another user's action (or this user's), or a stall or freeze (`recover`). */
  private acquiringCause: 'action' | 'recovery' = 'action';
  /**
   * Set by the start of an action's scheduled seek: if the first measurement after it still misses
   * the room by the acquire threshold (a start that took longer than learned, e.g. on a loaded
   * machine), one more scheduled start is allowed, with the start latency just learned, instead of a
   * 5 % nudge that needs seconds. Once per action (`acquire()` re-arms it).
   */
  private retryStart: 'armed' | 'pending' | 'spent' = 'spent';
  /** The next measurement follows a start or an action: it corrects from the finer settle band. */
  private fine = false;
  /** The last steady measurement, to notice a stall that fired no event; null after anything that moves the element. */
  private lastMeasure: { driftSec: number; atMs: number; jumping: boolean } | null = null;
  private lastRecoveryAtMs = -Infinity;
  /** Local time (ms) until which a remote action's position waits for its confirming SYNC reply. */
  private confirmUntilMs = -Infinity;
  /** The element stalled for data while the room plays (local ms since; null: not stalled). */
  private stalledSinceMs: number | null = null;
  /** Local time (ms) until which the element's clock is not steady yet. */
  private settleUntilMs = -Infinity;
  private pendingLearn: PendingLearn | null = null;
  private readonly latencies: Latencies;
  /** What the engine is doing (./phase.ts), changed only through `enter`. */
  private phase: SyncPhase = 'idle';
  private invalidTransitions = 0;
  private readonly decisions = new DecisionLog();
  private scheduled: ScheduledStart | null = null;
  /** A rate change of the playing room waiting for its instant (`applyRateSwitch`); null when none. */
  private rateSwitch: RateSwitch | null = null;
  /** A late start running faster than the room until it is level (`catchUp`); null when none. */
  private catchUpTimer: ReturnType<typeof setTimeout> | null = null;
  private destroyed = false;
  /** Whether this page keeps up with its catch-up seeks (docs/sync.md "Slow devices"). */
  private readonly struggle = new StruggleGuard();

  constructor(options: SyncEngineOptions) {
    this.options = options;
    this.media = options.media;
    this.transport = options.transport;
    this.now = options.now ?? Date.now;
    this.clock = options.clock ?? new ServerClock(this.now);
    this.tuning = { ...DEFAULT_TUNING, ...options.tuning };
    this.schedule = { ...DEFAULT_SYNC_SCHEDULE, ...options.schedule };
    this.live = options.live ?? false;
    this.canControl = options.canControl ?? true;
    this.expected = new ExpectedEvents(this.now);
    this.latencies = new Latencies(this.tuning.acquireThresholdSec);
    this.handlers = {
      play: () => this.onPlayOrPause('play'),
      pause: () => this.onPlayOrPause('pause'),
      seeking: () => this.onSeeking(),
      seeked: () => this.onSeeked(),
      ratechange: () => this.onRateChange(),
      emptied: () => this.onEmptied(),
      loadedmetadata: () => this.onLoadedMetadata(),
      playing: () => this.onPlaying(),
      waiting: () => this.onWaiting(),
      canplay: () => this.maybeStartScheduled(),
    };
    for (const event of MEDIA_EVENTS) this.media.addEventListener(event, this.handlers[event]);
    this.tickTimer = setInterval(() => this.tick(), options.tickMs ?? DEFAULT_TICK_MS);
  }

  /** Stops listening and all timers. */
  destroy(): void {
    this.destroyed = true;
    this.phase = 'idle';
    for (const event of MEDIA_EVENTS) this.media.removeEventListener(event, this.handlers[event]);
    if (this.syncTimer !== null) clearTimeout(this.syncTimer);
    if (this.tickTimer !== null) clearInterval(this.tickTimer);
    if (this.seekPublishTimer !== null) clearTimeout(this.seekPublishTimer);
    if (this.scheduled?.timer) clearTimeout(this.scheduled.timer);
    if (this.catchUpTimer !== null) clearTimeout(this.catchUpTimer);
    if (this.rateSwitch?.timer) clearTimeout(this.rateSwitch.timer);
    this.catchUpTimer = null;
    this.rateSwitch = null;
    this.syncTimer = null;
    this.tickTimer = null;
    this.seekPublishTimer = null;
    this.scheduled = null;
    this.expected.clear();
  }

  /** The room status the engine follows, on the server clock; null before any status arrived. */
  currentTarget(): RoomTarget | null {
    return this.roomTarget();
  }

  setLive(live: boolean): void {
    this.live = live;
  }

  setCanControl(canControl: boolean): void {
    this.canControl = canControl;
  }

  /**
   * The socket opened (true) or closed (false). On open the SYNC burst starts: after a reconnect it
   * re-reads the room status (and re-samples the clock) before the user notices.
   */
  setConnected(connected: boolean): void {
    if (connected === this.connected) return;
    this.connected = connected;
    // Replies to requests of a previous connection will never come.
    this.pendingSyncs = [];
    this.confirmUntilMs = -Infinity;
    if (this.syncTimer !== null) clearTimeout(this.syncTimer);
    this.syncTimer = null;
    if (!connected) return;
    if (this.everConnected) this.clock.restart();
    this.everConnected = true;
    this.acquireNextSync = true;
    // A clock that already has its samples (a new movie on an open socket) needs no burst.
    this.syncsSinceConnect = this.clock.sampleCount >= this.schedule.burstCount ? this.schedule.burstCount - 1 : 0;
    this.runSyncSchedule();
  }

  /**
   * The room status from `GET /api/room/movie/current` (late joiner, re-read after reconnect or
   * CURRENT). A socket status that arrived after the request was sent is newer, so it wins.
   */
  loadTarget({ status, requestedAtMs, receivedAtMs }: HttpStatus): void {
    if (requestedAtMs < this.socketTargetAtMs) return;
    // The server extrapolated the status when it handled the request: about one one-way delay before the response.
    const referenceMs = this.clock.rttMs === null ? (requestedAtMs + receivedAtMs) / 2 : Math.max(requestedAtMs, receivedAtMs - this.clock.oneWayMs);
    this.setTarget({ status, atMs: referenceMs, clock: 'local' }, true);
    this.apply();
  }

  /**
   * A STATUS (another user's action) or CHECK_STATUS (server correction) received now. Play state,
   * rate and a paused position apply at once; a playing position is confirmed by a SYNC first.
   */
  onRemoteStatus(status: PlaybackState): void {
    const now = this.now();
    this.socketTargetAtMs = now;
    this.pendingLearn = null;
    this.setTarget({ status, atMs: now - this.clock.oneWayMs, clock: 'local' }, true);
    if (status.isPlaying && !this.live && this.requestSync()) this.confirmUntilMs = now + CONFIRM_TIMEOUT_MS;
    this.apply();
  }

  /**
   * A SYNC reply: `status` is the room status at `serverTimeMs` (the reply's `timestamp`). The round
   * trip is a clock sample. A reply to a request sent before our own last STATUS describes the room
   * before that action and is ignored (it would undo the user's action).
   */
  onSyncReply(status: PlaybackState, serverTimeMs: number): void {
    const now = this.now();
    const request = this.pendingSyncs.shift();
    if (request) this.clock.addSample(request.sentAtMs, now, serverTimeMs);
    if (request && (request.seq < this.lastStatusSeq || this.seekPublishTimer !== null)) return;
    const next: Target = serverTimeMs > 0 ? { status, atMs: serverTimeMs, clock: 'server' } : { status, atMs: now - this.clock.oneWayMs, clock: 'local' };
    if (this.awaitingConfirm()) this.learnHandling(next);
    this.socketTargetAtMs = now;
    // Every reply is at least as new as the STATUS that asked for a confirmation.
    this.confirmUntilMs = -Infinity;
    this.setTarget(next, !request || request.acquire || this.differsFromTarget(next));
    this.apply();
    if (request?.manual) this.options.onManualSynced?.();
  }

  /**
   * The user pressed the sync button. Inside that click, playback may start even where autoplay is
   * blocked, so a room known to be playing is resumed right away; then SYNC fetches the exact status
   * and may re-position the element once.
   */
  manualSync(): boolean {
    if (this.target?.status.isPlaying && this.media.paused && !this.scheduled && this.media.readyState >= HAVE_METADATA && !this.media.ended) {
      this.expected.expect('play');
      void this.startPlayback();
    }
    return this.requestSync(true);
  }

  /** Sends SYNC and remembers when, for the clock sample and the reply's handling. */
  requestSync(manual = false): boolean {
    if (!this.connected || this.destroyed) return false;
    const sentAtMs = this.now();
    if (!this.transport.sendSync()) return false;
    this.seq += 1;
    this.pendingSyncs.push({ sentAtMs, seq: this.seq, manual, acquire: manual || this.acquireNextSync });
    this.acquireNextSync = false;
    if (this.pendingSyncs.length > MAX_PENDING_SYNCS) this.pendingSyncs.shift();
    return true;
  }

  /** The sync indicator: in sync, correcting or out of sync with the drift (ms), live, or idle (nothing to follow yet). */
  indicator(): SyncIndicator {
    const target = this.roomTarget();
    if (this.destroyed || !target || this.media.readyState < HAVE_METADATA) return { state: 'idle', driftMs: null };
    if (this.live) return { state: 'live', driftMs: null };
    const local = readLocal(this.media);
    if (this.phase === 'unreachable') {
      const roomNow = positionAt(target, this.clock.serverNow());
      return { state: 'cannot-seek', driftMs: Math.round((local.currentTime - roomNow) * 1000) };
    }
    const roomAt = positionAt(target, this.clock.serverNow());
    const pastEnd = isPastEnd(roomAt, local);
    const drift = local.currentTime - (pastEnd ? local.duration : roomAt);
    const driftMs = Math.round(drift * 1000);
    const magnitude = Math.abs(drift);
    if (pastEnd && (local.ended || magnitude <= this.tuning.pausedToleranceSec)) return { state: 'ended', driftMs: null };
    if (!target.status.isPlaying || pastEnd) {
      const settled = (local.paused || local.ended) && !this.media.seeking && magnitude <= this.tuning.pausedToleranceSec;
      return { state: settled ? 'in-sync' : 'correcting', driftMs };
    }
    if (this.struggling() && !this.scheduled && !local.paused) return { state: magnitude < this.tuning.deadBandSec ? 'in-sync' : 'struggling', driftMs };
    if (this.stalledSinceMs !== null || (local.paused && !this.scheduled) || magnitude >= this.tuning.seekThresholdSec) return { state: 'out-of-sync', driftMs };
    if (this.scheduled || this.media.seeking || this.nudge !== 0 || magnitude >= this.tuning.deadBandSec) return { state: 'correcting', driftMs };
    return { state: 'in-sync', driftMs };
  }

  /** The phase, figures and last decisions for the `?debug=sync` overlay (./phase.ts `SyncDebug`). */
  debug(): SyncDebug {
    const { driftMs } = this.indicator();
    return {
      phase: this.phase,
      driftMs,
      playbackRate: this.media.playbackRate,
      roomRate: this.roomRate,
      clockOffsetMs: Math.round(this.clock.offsetMs),
      rttMs: this.clock.rttMs === null ? null : Math.round(this.clock.rttMs),
      latencySec: this.latencies.snapshot(),
      invalidTransitions: this.invalidTransitions,
      decisions: this.decisions.list(),
    };
  }

  /**
   * Moves to `phase` (./phase.ts PHASE_TRANSITIONS; a transition outside the table is counted in
   * `invalidTransitions`, which the tests require to stay 0) and logs the decision `kind`, if any.
   */
  private enter(phase: SyncPhase, kind: SyncDecisionKind | null, detail = ''): void {
    if (!canTransition(this.phase, phase)) this.invalidTransitions += 1;
    this.phase = phase;
    if (kind) this.decide(kind, detail);
  }

  /** Logs a decision in the current phase. */
  private decide(kind: SyncDecisionKind, detail: string): void {
    this.decisions.add({ atMs: this.now(), kind, phase: this.phase, detail });
  }

  private roomTarget(): RoomTarget | null {
    const target = this.target;
    if (!target) return null;
    return { status: target.status, serverTimeMs: this.serverTimeOf(target) };
  }

  /** When (server Unix ms) the room was at `target`'s position. */
  private serverTimeOf(target: Target): number {
    return target.clock === 'server' ? target.atMs : target.atMs + this.clock.offsetMs;
  }

  private setTarget(target: Target, acquire: boolean): void {
    this.follow(target);
    this.lastMeasure = null;
    if (acquire) this.acquire();
  }

  /** Follows `target` from now on and tells the UI (`onTarget`) when its play state, rate or position changed. */
  private follow(target: Target): void {
    const before = this.target?.status;
    const previous = this.roomTarget();
    this.target = target;
    const { status } = target;
    this.noteRateSwitch(previous, status);
    if (before && before.isPlaying === status.isPlaying && before.playbackRate === status.playbackRate && before.currentTime === status.currentTime) return;
    this.decide('follow', `${target.clock}: ${status.isPlaying ? 'play' : 'pause'} at ${status.currentTime.toFixed(2)} s × ${status.playbackRate}`);
    this.options.onTarget?.({ ...status }, this.serverTimeOf(target) - this.clock.offsetMs);
  }

  /** The element lost time on its own (a stall or freeze): catch up like after an action, but not over and over. */
  private recover(): void {
    this.fine = true;
    if (this.now() - this.lastRecoveryAtMs < RECOVERY_COOLDOWN_MS) return;
    this.lastRecoveryAtMs = this.now();
    this.acquiring = true;
    this.acquiringCause = 'recovery';
    this.enter('recovering', 'freeze', 'one catch-up allowed');
  }

  /** A remote action (or its like): one seek is allowed, and the next measurement is a fine one. */
  private acquire(): void {
    if (this.phase === 'tracking' || this.phase === 'recovering') this.enter('acquiring', 'follow', 'a new room status');
    this.acquiring = true;
    this.acquiringCause = 'action';
    this.retryStart = 'armed';
    this.fine = true;
  }

  /** Learns the handling lag from a confirmation of the same playing status: how far it moves the provisional position. */
  private learnHandling(confirmed: Target): void {
    const provisional = this.roomTarget();
    const { status } = confirmed;
    if (!provisional?.status.isPlaying || !status.isPlaying || Math.abs(status.playbackRate - provisional.status.playbackRate) > 1e-3) return;
    const serverNow = this.clock.serverNow();
    const confirmedTarget: RoomTarget = { status, serverTimeMs: this.serverTimeOf(confirmed) };
    const movedSec = (positionAt(confirmedTarget, serverNow) - positionAt(provisional, serverNow)) / status.playbackRate;
    if (Math.abs(movedSec) < ACTION_JUMP_SEC) this.learn('handling', movedSec);
  }

  /** True when `next` changes play state or rate, or moves the position, compared with the followed target. */
  private differsFromTarget(next: Target): boolean {
    const current = this.roomTarget();
    if (!current) return true;
    const { status } = next;
    if (status.isPlaying !== current.status.isPlaying || Math.abs(status.playbackRate - current.status.playbackRate) > 1e-3) return true;
    const serverNow = this.clock.serverNow();
    const nextTarget: RoomTarget = { status, serverTimeMs: this.serverTimeOf(next) };
    return Math.abs(positionAt(nextTarget, serverNow) - positionAt(current, serverNow)) > ACTION_JUMP_SEC;
  }

  private runSyncSchedule(): void {
    if (!this.connected || this.destroyed) return;
    this.requestSync();
    this.syncsSinceConnect += 1;
    const delay = nextSyncDelayMs(this.syncsSinceConnect, this.schedule, this.options.random);
    if (Number.isFinite(delay)) this.syncTimer = setTimeout(() => this.runSyncSchedule(), delay);
  }

  /** True while a remote action's playing position waits for its confirming SYNC reply. */
  private awaitingConfirm(): boolean {
    return this.now() < this.confirmUntilMs;
  }

  /**
   * Brings the element to the target right away where that is safe: play state, rate, a seek when
   * paused. Position corrections of a playing room wait for a steady element and a confirmed status
   * (the loop makes them); a start from paused happens at once, since waiting would only add delay.
   */
  private apply(): void {
    const target = this.roomTarget();
    if (this.destroyed || !target) return;
    if (this.media.readyState < HAVE_METADATA) {
      this.waitingForMetadata = true;
      return;
    }
    this.waitingForMetadata = false;
    const { status } = target;
    if (this.live) {
      this.enter('live', 'follow', status.isPlaying ? 'playing' : 'paused');
      this.cancelScheduledStart();
      if (status.isPlaying && this.media.paused) this.startElement(false);
      if (!status.isPlaying && !this.media.paused) this.pauseElement();
      return;
    }
    const local = readLocal(this.media);
    const roomAt = positionAt(target, this.clock.serverNow());
    const pastEnd = isPastEnd(roomAt, local);
    if (this.rateSwitch && (!status.isPlaying || pastEnd || local.paused)) this.cancelRateSwitch();
    if (this.rateSwitch && this.applyRateSwitch()) return;
    if (Math.abs(status.playbackRate - this.roomRate) > 1e-9 || !status.isPlaying || pastEnd) this.nudge = 0;
    this.roomRate = status.playbackRate;
    const rate = nudgedRate(this.roomRate, this.nudge);
    // A new rate shifts the element's clock by a few tens of ms (Chromium's time-stretch restarts):
    // measure only after that, still allowed the one seek of this action.
    if (!this.media.paused && Math.abs(this.media.playbackRate - rate) > 1e-9) this.settleUntilMs = this.now() + SETTLE_MS;
    this.setRate(rate);

    if (pastEnd) {
      // The room's clock runs on past the end; the element stops there and is not restarted.
      this.enter('ended', 'end', `room at ${roomAt.toFixed(2)} s`);
      this.cancelScheduledStart();
      if (!local.ended && !this.media.seeking && Math.abs(local.duration - local.currentTime) > this.tuning.pausedToleranceSec) this.seekElement(local.duration);
      if (!local.paused && !local.ended) this.pauseElement();
      this.acquiring = false;
      return;
    }

    if (!status.isPlaying) {
      this.cancelScheduledStart();
      // Chromium resumes a paused element from where its pipeline really was, up to ~80 ms past the
      // currentTime it reported at pause (audio still in flight); a seek while paused re-aligns the two.
      const wasRunning = !local.paused;
      const away = Math.abs(local.currentTime - roomAt) > this.tuning.pausedToleranceSec;
      if (away && !canSeekTo(this.media, roomAt)) {
        this.beUnreachable(roomAt);
        return;
      }
      this.enter('paused', 'hold', `at ${roomAt.toFixed(2)} s`);
      if (wasRunning) this.pauseElement();
      // Where the source cannot seek, a paused element near the room stays where it is (`seekElement` refuses).
      if (wasRunning || (!this.media.seeking && away)) this.seekElement(roomAt);
      this.acquiring = false;
      return;
    }

    if (this.scheduled) {
      // It already is this action's one seek; its start time is computed again from the latest status.
      const ahead = (this.scheduled.seekTo - roomAt) / this.roomRate;
      if (ahead >= 0 && ahead <= FAR_LEAD_MAX_SEC) {
        this.acquiring = false;
        this.maybeStartScheduled(true);
        return;
      }
      this.cancelScheduledStart();
    }

    if (local.paused && !local.ended && this.roomArrivesHere(roomAt)) {
      // A common start (someone's play or seek, published ahead): the room reaches this paused
      // element's position in a moment, so it waits there and starts with everyone, no seek needed.
      this.acquiring = false;
      this.scheduled = { seekTo: local.currentTime, far: false, calledAtMs: this.now(), ready: true, timer: null };
      this.enter('scheduled', 'schedule', `wait at ${local.currentTime.toFixed(2)} s, no seek`);
      this.pendingLearn = null;
      this.maybeStartScheduled();
      return;
    }

    if (local.paused || local.ended) {
      // Where the element will be once its clock runs, compared with where the room will be: close
      // enough, it starts at once and the nudge closes the rest within a second; farther, it waits a
      // little ahead of the room and starts as the room arrives there.
      const predicted = local.currentTime - (roomAt + this.latencies.get('start') * this.roomRate);
      if (!local.ended && this.canCatchUp(-predicted)) {
        this.catchUp(-predicted);
      } else if (local.ended || Math.abs(predicted) >= START_AT_ONCE_SEC) {
        this.scheduleStart();
      } else {
        this.startElement(true);
      }
      return;
    }

    if (this.awaitingConfirm()) {
      // A remote seek moves the element at once, to start on the provisional position; the
      // confirmation re-times the start if it comes first, else the loop measures the result.
      const drift = local.currentTime - roomAt;
      if (this.acquiring && !this.media.seeking && Math.abs(drift) >= this.tuning.acquireThresholdSec) this.scheduleStart();
      return;
    }
    if (!this.steady()) return;
    this.track();
  }

  /** True when a playing element's clock runs steadily enough to measure. */
  private steady(): boolean {
    const media = this.media;
    return (
      !media.paused &&
      !media.ended &&
      !media.seeking &&
      this.stalledSinceMs === null &&
      this.catchUpTimer === null &&
      this.rateSwitch === null &&
      media.readyState >= HAVE_FUTURE_DATA &&
      this.now() >= this.settleUntilMs &&
      !this.startPending()
    );
  }

  /**
   * True while an engine start's play() has not run the element's clock yet (a loaded machine can
   * take longer than the settle time): measuring then would count the wait as drift, learn a start
   * latency that is too short and spend the action's seek on it. Bounded by MAX_LAG_SEC, after which
   * the element is measured whatever it does.
   */
  private startPending(): boolean {
    const pending = this.pendingLearn;
    if (pending?.kind !== 'start') return false;
    return this.media.currentTime === pending.position && this.now() - pending.atMs < MAX_LAG_SEC * 1000;
  }

  /** The correction loop: once the element runs steadily while the room plays, measure the drift and correct. */
  private tick(): void {
    if (this.destroyed || !this.target || this.live || this.media.readyState < HAVE_METADATA) return;
    if (this.phase === 'unreachable') {
      // The room may come within reach (it paused or seeked nearby, the element buffered more).
      if (this.now() - this.unreachableCheckedAtMs >= UNREACHABLE_RECHECK_MS) this.apply();
      return;
    }
    if (this.scheduled) {
      this.maybeStartScheduled();
      return;
    }
    if (!this.target.status.isPlaying) return;
    // A catch-up runs toward the provisional position as well; only the loop's corrections wait for the confirmation.
    if (this.catchUpTimer !== null) this.retimeCatchUp();
    else if (this.steady() && !this.awaitingConfirm()) this.track();
  }

  private track(): void {
    const target = this.roomTarget();
    if (!target?.status.isPlaying) return;
    const local = readLocal(this.media);
    const roomAt = positionAt(target, this.clock.serverNow());
    if (isPastEnd(roomAt, local)) {
      this.apply();
      return;
    }
    if (this.pendingLearn) {
      // How long the clock stood still since the start: wall time elapsed − media time advanced / rate.
      const { kind, position, atMs } = this.pendingLearn;
      if (this.nudge === 0) this.learn(kind, (this.now() - atMs) / 1000 - (local.currentTime - position) / local.playbackRate);
      this.pendingLearn = null;
    }
    const drift = local.currentTime - roomAt;
    const now = this.now();
    const last = this.lastMeasure;
    this.lastMeasure = { driftSec: drift, atMs: now, jumping: false };
    if (last && now - last.atMs <= JUMP_WINDOW_MS) {
      // Frozen (or jumping) right now: decide once the drift holds still again.
      if (Math.abs(drift - last.driftSec) >= DRIFT_JUMP_SEC) {
        this.lastMeasure.jumping = true;
        return;
      }
      if (last.jumping) this.recover();
    }
    const struggling = this.struggling();
    const tuning = { ...this.tuning, ...(this.fine ? { deadBandSec: this.tuning.settleBandSec } : {}), ...(struggling ? { seekThresholdSec: STRUGGLE_SEEK_SEC } : {}) };
    const retry = this.retryStart === 'pending';
    if (retry) this.retryStart = 'spent';
    // An action's one seek stays allowed; a catch-up (after a stall, or a start that missed) does not while struggling.
    const forAction = this.acquiring && this.acquiringCause === 'action' && !retry;
    const acquiring = forAction || (!struggling && (this.acquiring || retry));
    const decision = decideTracking({ driftSec: drift, roomRate: this.roomRate, nudge: this.nudge, acquiring, tuning });
    this.acquiring = false;
    this.fine = false;
    if (decision.kind === 'seek') {
      this.decide('seek', `drift ${Math.round(drift * 1000)} ms`);
      if (!forAction) this.noteCatchUpSeek();
      this.scheduleStart();
    } else if (decision.kind === 'rate') {
      this.enter('tracking', 'nudge', `drift ${Math.round(drift * 1000)} ms → rate ${decision.playbackRate.toFixed(3)}`);
      this.nudge = decision.nudge;
      this.setRate(decision.playbackRate);
    } else {
      this.enter('tracking', null);
    }
  }

  /** True while this page only nudges because its catch-up seeks did not hold (STRUGGLE_SEEKS). */
  private struggling(): boolean {
    return this.struggle.active(this.now());
  }

  /** Counts a catch-up seek of the loop; the STRUGGLE_SEEKS-th within STRUGGLE_WINDOW_MS stops the seeking for STRUGGLE_MS. */
  private noteCatchUpSeek(): void {
    if (!this.struggle.noteSeek(this.now())) return;
    this.decide('give-up', `${STRUGGLE_SEEKS} catch-up seeks in ${STRUGGLE_WINDOW_MS / 1000} s: nudging only for ${STRUGGLE_MS / 1000} s`);
  }

  private learn(kind: LagKind, observedSec: number): void {
    this.latencies.learn(kind, observedSec);
  }

  /**
   * The one hard seek of an action while the room plays: pause, seek ahead of the room by a lead that
   * covers the seek (and a pending confirmation), and play() when the room arrives there, less the
   * start latency. Exact whatever the seek costs, so the first frame after a join, a remote seek or a
   * long stall is already in sync.
   */
  private scheduleStart(): void {
    const target = this.roomTarget();
    if (!target) return;
    this.cancelScheduledStart();
    this.acquiring = false;
    this.nudge = 0;
    this.setRate(this.roomRate);
    const roomAt = positionAt(target, this.clock.serverNow());
    const nearLead = this.latencies.nearLeadSec();
    const far = !isBuffered(this.media, roomAt + nearLead * this.roomRate);
    let leadSec = far ? this.latencies.farLeadSec() : nearLead;
    // The position is provisional until the confirming reply, which may move it by this page's handling lag.
    if (this.awaitingConfirm()) leadSec += this.latencies.get('handling');
    const seekTo = seekTarget(roomAt, leadSec, target.status, this.media.duration);
    if (!canSeekTo(this.media, seekTo)) {
      this.startWithoutSeek(roomAt);
      return;
    }
    this.holdAt(seekTo, far);
  }

  /**
   * A start where the source cannot seek (a host without HTTP Range, docs/hosting.md): an element a
   * little ahead of the room waits there, one behind by up to NO_SEEK_CATCH_UP_MAX_SEC runs faster
   * until level, and anything else waits, paused, out of reach (`unreachable`). Never a seek: the
   * element would land on 0 instead, a position nobody chose.
   */
  private startWithoutSeek(roomAt: number): void {
    const media = this.media;
    const startSec = media.paused ? this.latencies.get('start') : 0;
    const behindSec = roomAt + startSec * this.roomRate - media.currentTime;
    if (behindSec <= 0 && -behindSec / this.roomRate <= FAR_LEAD_MAX_SEC && media.readyState >= HAVE_FUTURE_DATA && !media.seeking) {
      if (!media.paused) this.pauseElement();
      this.scheduled = { seekTo: media.currentTime, far: false, calledAtMs: this.now(), ready: true, timer: null };
      this.enter('scheduled', 'schedule', `wait at ${media.currentTime.toFixed(2)} s: the source cannot seek`);
      this.pendingLearn = null;
      this.maybeStartScheduled();
    } else if (this.canCatchUp(behindSec, NO_SEEK_CATCH_UP_MAX_SEC)) {
      this.catchUp(behindSec, NO_SEEK_CATCH_UP_MAX_SEC);
    } else {
      this.beUnreachable(roomAt);
    }
  }

  /** The room is out of this element's reach (`unreachable`): it waits, paused, and the indicator says the source cannot seek. */
  private beUnreachable(roomAt: number): void {
    this.unreachableCheckedAtMs = this.now();
    this.acquiring = false;
    if (!this.media.paused) this.pauseElement();
    if (this.phase !== 'unreachable') this.enter('unreachable', 'unreachable', `room at ${roomAt.toFixed(2)} s: the source cannot seek there`);
  }

  /** Pauses the element at `position` (s) with a seek, for a scheduled start there. */
  private holdAt(position: number, far: boolean): void {
    this.enter('scheduled', 'schedule', `${far ? 'far' : 'near'} seek to ${position.toFixed(2)} s`);
    if (!this.media.paused) this.pauseElement();
    this.scheduled = { seekTo: position, far, calledAtMs: this.now(), ready: false, timer: null };
    this.pendingLearn = null;
    this.seekElement(position);
  }

  /**
   * True when the room, playing, reaches a paused element's position soon enough for the element to
   * wait there: no sooner than its start latency and no later than the longest lead, with the data
   * at hand.
   */
  private roomArrivesHere(roomAt: number): boolean {
    if (this.media.seeking || this.media.readyState < HAVE_FUTURE_DATA) return false;
    const aheadSec = (this.media.currentTime - roomAt) / this.roomRate;
    return aheadSec >= this.latencies.get('start') && aheadSec <= FAR_LEAD_MAX_SEC && isBuffered(this.media, this.media.currentTime + 0.1);
  }

  /**
   * Once the scheduled seek landed and the element can play: wait for the room, then start. Timed on
   * the latest status, provisional or confirmed; `retime`: a newer status arrived, so a start already
   * timed is timed again (a confirmation that comes before it).
   */
  private maybeStartScheduled(retime = false): void {
    const scheduled = this.scheduled;
    if (!scheduled || this.destroyed) return;
    if (scheduled.timer !== null) {
      if (!retime) return;
      clearTimeout(scheduled.timer);
      scheduled.timer = null;
    }
    if (this.media.seeking || this.media.readyState < HAVE_FUTURE_DATA) return;
    const target = this.roomTarget();
    if (!target?.status.isPlaying) {
      this.cancelScheduledStart();
      return;
    }
    if (!scheduled.ready) {
      scheduled.ready = true;
      this.learn(scheduled.far ? 'readyFar' : 'readyNear', (this.now() - scheduled.calledAtMs) / 1000);
    }
    const roomAt = positionAt(target, this.clock.serverNow());
    const waitMs = ((this.media.currentTime - roomAt) / this.roomRate - this.latencies.get('start')) * 1000;
    const dueAtMs = this.now() + Math.max(0, waitMs);
    const start = () => {
      if (this.scheduled !== scheduled) return;
      this.scheduled = null;
      if (!this.roomTarget()?.status.isPlaying) return;
      // A busy page runs the timer late (a page that has just loaded, a phone): that much is known
      // to be lost, so level it by running faster, as for a seek that outlasted its lead.
      const timerLateSec = ((this.now() - dueAtMs) / 1000) * this.roomRate;
      if (this.canCatchUp(timerLateSec)) this.catchUp(timerLateSec);
      else this.startElement(true);
    };
    const lateSec = (-waitMs / 1000) * this.roomRate;
    if (this.canCatchUp(lateSec)) {
      // The seek took longer than its lead: level by running faster, not by another seek.
      this.scheduled = null;
      this.catchUp(lateSec);
    } else if (waitMs <= 1) start();
    else scheduled.timer = setTimeout(start, waitMs);
  }

  /**
   * Cancels whatever start is pending: a scheduled start, or a catch-up still running faster (its
   * rate goes back to the room's, unless the user set one meanwhile).
   */
  private cancelScheduledStart(): void {
    if (this.scheduled?.timer) clearTimeout(this.scheduled.timer);
    this.scheduled = null;
    if (this.catchUpTimer === null) return;
    clearTimeout(this.catchUpTimer);
    this.catchUpTimer = null;
    this.finishCatchUp();
  }

  /** Ends a catch-up: the element returns to the room rate, unless the user set one meanwhile. */
  private finishCatchUp(): void {
    this.nudge = 0;
    if (this.engineRate !== null) this.setRate(this.roomRate);
  }

  /**
   * Starts measuring afresh after the engine changed the element's course (a start, a rate switch, the
   * end of a catch-up): the next measurement is a fine one, taken once SETTLE_MS have passed.
   */
  private restartMeasuring(): void {
    this.lastMeasure = null;
    this.fine = true;
    this.settleUntilMs = this.now() + SETTLE_MS;
  }

  /**
   * Notes a rate change of a playing room (`previous` had the old rate, `next` has the new one) for
   * `applyRateSwitch`; a status that pauses or changes the rate again drops a switch in waiting.
   */
  private noteRateSwitch(previous: RoomTarget | null, next: PlaybackState): void {
    if (previous?.status.isPlaying && next.isPlaying && !this.live && Math.abs(previous.status.playbackRate - next.playbackRate) > 1e-3) {
      this.cancelRateSwitch();
      this.rateSwitch = { from: previous, rate: next.playbackRate, timer: null };
    } else if (this.rateSwitch && (!next.isPlaying || Math.abs(next.playbackRate - this.rateSwitch.rate) > 1e-3)) {
      this.cancelRateSwitch();
    }
  }

  /**
   * Times the waiting rate switch on the followed status (again when a confirmation moved it): the
   * element keeps the old rate until the old and the new status meet, then takes the new one. Returns
   * false (and drops the switch) when that instant has passed or lies too far ahead to be meant: the
   * new rate then applies at once and the loop corrects what is left.
   */
  private applyRateSwitch(): boolean {
    const pending = this.rateSwitch;
    const target = this.roomTarget();
    if (!pending || !target) return false;
    if (pending.timer !== null) clearTimeout(pending.timer);
    pending.timer = null;
    const waitMs = rateSwitchAtMs(pending.from, target) - this.clock.serverNow();
    if (!(waitMs > 0 && waitMs <= FAR_LEAD_MAX_SEC * 1000)) {
      this.rateSwitch = null;
      return false;
    }
    this.roomRate = target.status.playbackRate;
    this.nudge = 0;
    this.setRate(pending.from.status.playbackRate);
    pending.timer = setTimeout(() => {
      if (this.rateSwitch !== pending) return;
      this.rateSwitch = null;
      this.setRate(this.roomRate);
      this.decide('rate', `× ${this.roomRate} now`);
      this.restartMeasuring();
    }, waitMs);
    this.decide('schedule', `rate × ${target.status.playbackRate} in ${Math.round(waitMs)} ms`);
    return true;
  }

  private cancelRateSwitch(): void {
    if (this.rateSwitch?.timer) clearTimeout(this.rateSwitch.timer);
    this.rateSwitch = null;
  }

  /**
   * True when a paused element `lateSec` (s of media) behind where the room will be once it runs can
   * catch up by rate (up to `maxSec`, CATCH_UP_MAX_SEC unless the source cannot seek): the gap is small, the element is not seeking, and the data
   * for the gap and a second beyond it is buffered.
   */
  private canCatchUp(lateSec: number, maxSec = CATCH_UP_MAX_SEC): boolean {
    const media = this.media;
    if (!(lateSec >= START_AT_ONCE_SEC && lateSec <= maxSec) || this.live || media.seeking || media.readyState < HAVE_FUTURE_DATA) return false;
    const through = media.currentTime + lateSec + CATCH_UP_BUFFER_SEC * this.roomRate;
    return isBuffered(media, media.currentTime) && isBuffered(media, Number.isFinite(media.duration) ? Math.min(through, media.duration) : through);
  }

  /**
   * Starts a paused element that is `lateSec` (s of media) behind the room at a faster rate, and
   * returns it to the room rate once the gap is closed (timed: the start latency, then gap / (nudge ×
   * room rate); re-timed every tick from the measured gap by retimeCatchUp). The loop does not correct
   * meanwhile; its next measurement, a fine one, still has the action's one seek if the catch-up
   * missed by the acquire threshold.
   */
  private catchUp(lateSec: number, maxSec = CATCH_UP_MAX_SEC): void {
    this.cancelScheduledStart();
    const nudge = this.catchUpNudge(lateSec);
    const runSec = lateSec / (nudge * this.roomRate);
    this.nudge = nudge;
    this.catchUpLimitSec = maxSec;
    this.setRate(nudgedRate(this.roomRate, nudge));
    if (this.media.paused) {
      this.startElement(false);
    } else {
      // Already running (a source that cannot seek, behind): it only runs faster.
      this.enter('acquiring', null);
      this.pendingLearn = null;
      this.restartMeasuring();
    }
    this.decide('catch-up', `${Math.round(lateSec * 1000)} ms late: rate ${this.media.playbackRate.toFixed(2)} for ${runSec.toFixed(2)} s`);
    this.timeCatchUpEnd(this.latencies.get('start') + runSec);
  }

  /** The nudge (fraction above the room rate, at most CATCH_UP_MAX_NUDGE) that closes `gapSec` (s of media) in CATCH_UP_SEC. */
  private catchUpNudge(gapSec: number): number {
    return Math.min(CATCH_UP_MAX_NUDGE, gapSec / (CATCH_UP_SEC * this.roomRate));
  }

  /** (Re)arms the end of the running catch-up `inSec` (s of wall time) from now. */
  private timeCatchUpEnd(inSec: number): void {
    if (this.catchUpTimer !== null) clearTimeout(this.catchUpTimer);
    this.catchUpTimer = setTimeout(() => {
      this.catchUpTimer = null;
      this.finishCatchUp();
      this.restartMeasuring();
    }, Math.max(0, inSec * 1000));
  }

  /**
   * Re-times a running catch-up from the gap measured now (every tick once the element's clock runs):
   * its end was first timed from the learned start latency, and a start that takes longer (a loaded
   * machine) would end it early, still behind. Ends it at once when the element has reached the room
   * (or the user set a rate); a gap that grew past what the rate can close in CATCH_UP_SEC raises the
   * rate, up to CATCH_UP_MAX_NUDGE; a gap past its limit (CATCH_UP_MAX_SEC, more where the source
   * cannot seek) ends it and leaves it to the loop.
   */
  private retimeCatchUp(): void {
    const media = this.media;
    const target = this.roomTarget();
    if (!target?.status.isPlaying || media.paused || media.seeking || this.stalledSinceMs !== null || this.startPending()) return;
    const gap = positionAt(target, this.clock.serverNow()) - media.currentTime;
    if (this.engineRate === null || gap <= 0 || gap > this.catchUpLimitSec) {
      this.timeCatchUpEnd(0);
      return;
    }
    const needed = this.catchUpNudge(gap);
    if (needed > this.nudge) {
      this.nudge = needed;
      this.setRate(nudgedRate(this.roomRate, needed));
    }
    this.timeCatchUpEnd(gap / (this.nudge * this.roomRate));
  }

  /** play() by the engine; `learn`: measure the start latency once the element runs. */
  private startElement(learn: boolean): void {
    if (!this.live) this.enter('acquiring', 'start', `at ${this.media.currentTime.toFixed(2)} s`);
    if (learn && this.retryStart === 'armed') this.retryStart = 'pending';
    else if (this.retryStart === 'pending') this.retryStart = 'spent';
    this.pendingLearn = learn ? { kind: 'start', position: this.media.currentTime, atMs: this.now() } : null;
    this.restartMeasuring();
    this.expected.expect('play');
    void this.startPlayback();
  }

  private pauseElement(): void {
    this.expected.expect('pause');
    this.media.pause();
  }

  /**
   * Seeks the element to `to` (s), as the engine's own (never published). Returns false, without
   * seeking, where the source cannot seek there: the element would land on the nearest seekable
   * point instead (0 for a host without HTTP Range).
   */
  private seekElement(to: number): boolean {
    if (!canSeekTo(this.media, to)) return false;
    this.lastMeasure = null;
    this.expected.expect('seeked', to);
    this.engineSeeking = true;
    this.engineSeekTo = to;
    this.settleUntilMs = this.now() + SETTLE_MS;
    this.media.currentTime = to;
    return true;
  }

  /**
   * True when the element moves to where the engine's seek in flight lands: its target, or the
   * nearest point the source can seek to, where the element puts a seek it cannot make (its seekable
   * ranges changed since the engine checked). That position is the engine's, never a person's.
   */
  private isEngineLanding(position: number): boolean {
    if (!this.engineSeeking || this.engineSeekTo === null) return false;
    const landing = seekLanding(this.media, this.engineSeekTo);
    return landing !== null && Math.abs(position - landing) <= SEEK_MATCH_TOLERANCE_SEC;
  }

  private setRate(rate: number): void {
    this.engineRate = rate;
    if (Math.abs(this.media.playbackRate - rate) > 1e-9) this.media.playbackRate = rate;
  }

  /**
   * play() with the autoplay fallback: refused with NotAllowedError → mute and retry; refused again →
   * report 'blocked' so the UI asks the user to press play or sync.
   */
  private async startPlayback(): Promise<void> {
    try {
      await this.media.play();
      this.options.onAutoplay?.('ok');
      return;
    } catch (error) {
      // Only a NotAllowedError is raised before the `play` event; other rejections (AbortError) come after it.
      if (!isNotAllowed(error) || this.destroyed) return;
      this.expected.cancel('play');
    }
    this.media.muted = true;
    this.expected.expect('play');
    try {
      await this.media.play();
      this.options.onAutoplay?.('muted');
    } catch (error) {
      if (!isNotAllowed(error) || this.destroyed) return;
      this.expected.cancel('play');
      this.options.onAutoplay?.('blocked');
    }
  }

  /**
   * The element dropped its source (another URL of the same movie: another of its sources, a link
   * refreshed after EXPIRED, the proxy turned on): whatever was under way no longer applies. Its
   * `loadedmetadata` brings it back to the room.
   */
  private onEmptied(): void {
    this.cancelScheduledStart();
    this.cancelRateSwitch();
    this.expected.clear();
    this.engineSeeking = false;
    this.engineSeekTo = null;
    this.userSeeking = false;
    this.stalledSinceMs = null;
    this.pendingLearn = null;
    this.lastMeasure = null;
    this.acquiring = false;
    if (this.phase !== 'idle') this.enter('idle', null);
  }

  /** Metadata of a (new) source: the element goes to where the room is, the engine's own doing, never published. */
  private onLoadedMetadata(): void {
    this.lastMeasure = null;
    if (this.waitingForMetadata || this.target) this.apply();
  }

  /** The element runs again (after a start, a seek or a stall). The end of a long stall may re-position it once. */
  private onPlaying(): void {
    this.settleUntilMs = this.now() + SETTLE_MS;
    this.lastMeasure = null;
    if (this.stalledSinceMs !== null) {
      this.stalledSinceMs = null;
      this.recover();
    }
  }

  /** The element stalls for data while playing: the room goes on, nothing is published; it catches up when it runs again. */
  private onWaiting(): void {
    if (this.media.seeking || this.engineSeeking || this.scheduled || this.media.paused || !this.target?.status.isPlaying) return;
    if (this.stalledSinceMs === null) this.enter('recovering', 'stall', `at ${this.media.currentTime.toFixed(2)} s`);
    this.stalledSinceMs ??= this.now();
    this.pendingLearn = null;
  }

  private onPlayOrPause(kind: 'play' | 'pause'): void {
    if (this.expected.consume(kind)) return;
    if (this.media.readyState < HAVE_METADATA) return;
    const isPlaying = kind === 'play';
    this.cancelScheduledStart();
    const target = this.target;
    if (target && target.status.isPlaying === isPlaying) {
      // Nothing to tell the room; a play that resumes a stale element still has to catch up.
      if (isPlaying) {
        this.acquire();
        this.settleUntilMs = this.now() + SETTLE_MS;
      }
      return;
    }
    this.publish(isPlaying ? 'common' : null);
    // The user paused a running element: re-align its pipeline with the position just published (see apply()).
    if (!isPlaying && this.media.paused && !this.media.seeking) this.seekElement(this.media.currentTime);
  }

  /**
   * A seek starts. The engine's own (its target is expected) waits for its `seeked`; a user's is
   * handled now, at its target, so the room hears of it while the element is still seeking rather
   * than after (the seek's own duration, 30–100 ms inside the buffer, more outside it).
   */
  private onSeeking(): void {
    const position = this.media.currentTime;
    if (this.expected.pending('seeked', position)) return;
    if (this.isScheduledSeek(position) || this.isEngineLanding(position)) return;
    if (this.media.readyState < HAVE_METADATA) return;
    // A user's seek aborts the engine's.
    this.engineSeeking = false;
    this.userSeeking = true;
    this.settleUntilMs = this.now() + SETTLE_MS;
    this.onUserSeek(position);
  }

  /** Whether a seek to `position` (s) is a scheduled start's, which the player may move a little (hls.js snapping to a fragment). */
  private isScheduledSeek(position: number): boolean {
    return this.scheduled !== null && Math.abs(position - this.scheduled.seekTo) <= SCHEDULED_SEEK_TOLERANCE_SEC;
  }

  private onSeeked(): void {
    const position = this.media.currentTime;
    const engineLanding = this.isEngineLanding(position);
    // Any `seeked` ends the seek in flight (a user's seek aborts the engine's).
    this.engineSeeking = false;
    this.engineSeekTo = null;
    this.settleUntilMs = this.now() + SETTLE_MS;
    if (this.expected.consume('seeked', position) || this.isScheduledSeek(position) || engineLanding) {
      // A landing elsewhere leaves its expectation behind: drop it, so no later seek is taken for it.
      if (engineLanding) this.expected.cancel('seeked');
      this.userSeeking = false;
      this.maybeStartScheduled();
      return;
    }
    if (this.userSeeking) {
      // Published at its `seeking` already.
      this.userSeeking = false;
      return;
    }
    if (this.media.readyState < HAVE_METADATA) return;
    this.onUserSeek(position);
  }

  /** A user's seek to `position` (s): the room follows it (published at once, or once a burst of seeks ends). */
  private onUserSeek(position: number): void {
    // A seek while the element waits for a common start, or holds still between the seeks of a burst
    // (scrubbing on), is a seek while playing: the room plays, and only the engine paused the element.
    const enginePaused = this.scheduled !== null || this.seekPublishTimer !== null;
    const playing = !this.media.paused || (enginePaused && this.target?.status.isPlaying === true);
    this.cancelScheduledStart();
    const now = this.now();
    const target = this.roomTarget();
    if (target) {
      // A seek that lands where the room already is (e.g. the player skipping a gap) changes nothing.
      const tolerance = playing ? USER_SEEK_MIN_SEC : this.tuning.pausedToleranceSec;
      if (Math.abs(position - positionAt(target, this.clock.serverNow())) <= tolerance) return;
    }
    if (!this.allowLocalChange()) return;
    // The user's position becomes the target now, so nothing snaps back while the STATUS is delayed
    // (SYNC replies are ignored meanwhile: they describe the room before the seek).
    const status = this.localStatus(playing);
    this.follow({ status, atMs: now, clock: 'local' });
    this.lastMeasure = null;
    this.nudge = 0;
    this.setRate(status.playbackRate);
    this.acquiring = false;
    const delayMs = this.options.seekPublishDelayMs ?? DEFAULT_SEEK_PUBLISH_DELAY_MS;
    // A single seek goes out at once; further seeks of a burst (scrubbing) collapse into one trailing STATUS.
    if (this.seekPublishTimer === null && now - this.lastSeekPublishAtMs >= delayMs) {
      this.lastSeekPublishAtMs = now;
      this.publish(this.seekPublishKind(playing), playing);
      return;
    }
    if (this.seekPublishTimer !== null) clearTimeout(this.seekPublishTimer);
    this.seekPublishTimer = setTimeout(() => {
      this.seekPublishTimer = null;
      this.lastSeekPublishAtMs = this.now();
      this.publish(this.media.paused && playing ? 'common' : null, playing);
    }, delayMs);
  }

  private onRateChange(): void {
    const rate = this.media.playbackRate;
    if (this.engineRate !== null && Math.abs(rate - this.engineRate) < 1e-9) return;
    if (this.media.readyState < HAVE_METADATA) return;
    // The user's own rate: no nudge on top of it, and the room hears it unless it is the room's already.
    this.engineRate = null;
    this.nudge = 0;
    if (Math.abs(rate - this.roomRate) < 1e-3) return;
    this.publish(this.media.paused ? null : 'rate');
  }

  /** The element's status with the room rate instead of a nudged one. */
  private localStatus(playing = !this.media.paused): PlaybackState {
    const rate = this.media.playbackRate;
    const nominal = this.engineRate !== null && Math.abs(rate - this.engineRate) < 1e-9 ? this.roomRate : rate;
    return { isPlaying: playing, currentTime: this.media.currentTime, playbackRate: nominal };
  }

  /**
   * Live movies publish nothing; a user without the permission gets the room state back instead
   * of a server error.
   */
  private allowLocalChange(): boolean {
    if (this.live) return false;
    if (this.canControl) return true;
    const now = this.now();
    if (now - this.lastDeniedAtMs < DENIED_RESYNC_MS) return false;
    this.lastDeniedAtMs = now;
    this.options.onControlDenied?.();
    this.acquireNextSync = true;
    this.requestSync();
    return false;
  }

  /**
   * How a user's seek is published: while the element runs it keeps running from the new position,
   * and the STATUS is led back by the latency until its clock runs again (`resume`, learned); while it
   * waits for a common start, it waits at the new position instead (`common`); paused, it is plain.
   * (A seek as a common start for everyone was tried: the user's own element then has to pause and
   * seek once more, which a loaded machine makes late, docs/sync.md "Common start".)
   */
  private seekPublishKind(playing: boolean): PublishKind {
    if (!playing) return null;
    return this.media.paused ? 'common' : 'resume';
  }

  /**
   * Sends the user's status (`playing`: whether the user's element plays, or waits for a common start
   * to play). `kind`:
   * - `common`: a play from paused (or a seek while waiting for one). The room then starts
   *   COMMON_LEAD_SEC from now, for everyone at once: the STATUS carries the position the room has now if it reaches the user's position then
   *   (the contract's STATUS has no start time; a v0.9.11 server extrapolates it like any other, and
   *   the reference client plays from it), and the user's element waits at its position and starts at
   *   that instant like the others' (a scheduled start, which also teaches its start latency). The
   *   element was paused there, so its data is at hand.
   * - `resume`: a seek while playing; the STATUS carries the position the element will have when its
   *   clock runs again, and the outcome teaches that latency.
   * - `rate`: a rate change while playing (see below).
   */
  private publish(kind: PublishKind, playing = !this.media.paused): void {
    if (this.destroyed || !this.allowLocalChange()) return;
    if (this.seekPublishTimer !== null) {
      clearTimeout(this.seekPublishTimer);
      this.seekPublishTimer = null;
    }
    const status = this.localStatus(playing);
    this.pendingLearn = null;
    this.cancelScheduledStart();
    this.cancelRateSwitch();
    let holdAt: { position: number; far: boolean } | null = null;
    if (kind === 'resume' && status.isPlaying) {
      // A seek outside the buffer runs again once its data came, as a far scheduled start does; only
      // one inside it teaches the resume latency.
      const buffered = isBuffered(this.media, status.currentTime);
      const lagSec = buffered ? this.latencies.get('resume') : this.latencies.get('readyFar') + this.latencies.get('start');
      if (buffered) this.pendingLearn = { kind, position: status.currentTime, atMs: this.now() };
      status.currentTime = Math.max(0, status.currentTime - lagSec * status.playbackRate);
    } else if (kind === 'common' && status.isPlaying) {
      const rate = status.playbackRate;
      const buffered = isBuffered(this.media, status.currentTime + COMMON_LEAD_SEC * rate);
      // Without the data at hand nobody can start sooner than it arrives.
      const leadSec = buffered ? COMMON_LEAD_SEC : this.latencies.farLeadSec(COMMON_LEAD_SEC);
      // A room cannot start before 0: right at the start, everyone starts a lead later into the movie.
      const position = Math.max(status.currentTime, leadSec * rate);
      // Where the source cannot seek to hold there (a host without HTTP Range), the room plays from here, now.
      if (canSeekTo(this.media, position)) {
        status.currentTime = position - leadSec * rate;
        holdAt = { position, far: !buffered };
      }
    }
    // A rate change while playing: the element keeps the old rate for COMMON_LEAD_SEC and everyone
    // switches at that instant; the STATUS carries the position that makes the new rate meet it then.
    const fromRate = this.roomRate;
    const position = status.currentTime;
    const switchRate = kind === 'rate' && status.isPlaying && Math.abs(fromRate - status.playbackRate) > 1e-3;
    if (switchRate) status.currentTime = Math.max(0, position + COMMON_LEAD_SEC * (fromRate - status.playbackRate));
    this.follow({ status, atMs: this.now(), clock: 'local' });
    this.decide('publish', `${kind ?? 'plain'}: ${status.isPlaying ? 'play' : 'pause'} at ${status.currentTime.toFixed(2)} s × ${status.playbackRate}`);
    if (!status.isPlaying) this.enter('paused', null);
    else if (!holdAt && !this.live) this.enter('acquiring', null);
    this.lastMeasure = null;
    // The user's element is the reference now: no nudge left on it. Once it runs steadily, it is
    // measured like everyone else's, and may be re-positioned once if its start was misjudged.
    this.roomRate = status.playbackRate;
    this.nudge = 0;
    this.setRate(status.playbackRate);
    if (switchRate) {
      // Timed on this element itself, so that the switch is exact here.
      const from: PlaybackState = { isPlaying: true, currentTime: position, playbackRate: fromRate };
      this.rateSwitch = { from: { status: from, serverTimeMs: this.clock.serverNow() }, rate: status.playbackRate, timer: null };
      this.applyRateSwitch();
    }
    this.acquiring = status.isPlaying;
    this.acquiringCause = 'action';
    this.fine = status.isPlaying;
    this.confirmUntilMs = -Infinity;
    if (status.isPlaying) this.settleUntilMs = this.now() + SETTLE_MS;
    if (holdAt) this.holdAt(holdAt.position, holdAt.far);
    if (!this.transport.sendStatus(status)) return;
    this.seq += 1;
    this.lastStatusSeq = this.seq;
  }
}

function isNotAllowed(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { name?: unknown }).name === 'NotAllowedError';
}
