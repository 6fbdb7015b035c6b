/**
 * The playback sync engine of one media element (docs/sync.md, docs/contract.md §6.4, §6.7): the
 * shell around the sync machine (./machine.ts). The machine decides; the shell listens to the
 * element's events and the room's messages, turns them into the machine's events, and carries out
 * what it returns on the element, the socket and the one phase timer. The shell keeps what is not a
 * decision: the clock (./clock.ts, sampled by every SYNC reply), the SYNC requests in flight and
 * their schedule, and the echo filter (./expected-events.ts: the events the engine's own play, pause
 * and seek will fire, so that they are never taken for a person's).
 */
import type { PlaybackState } from '@/lib/contract/playback';
import { DEFAULT_SYNC_SCHEDULE, nextSyncDelayMs, ServerClock, type SyncSchedule } from './clock';
import { DEFAULT_TUNING, type RoomTarget, type SyncIndicator, type SyncTuning } from './correction';
import { ExpectedEvents } from './expected-events';
import { indicatorOf, initialState, phaseTimerAt, step, targetOnServerClock, type MachineState, type StepContext, type SyncEffect, type SyncEvent } from './machine';
import type { MediaLike } from './media';
import type { HttpStatus, SyncEngineOptions } from './engine-options';
import { canTransition, DecisionLog, type SyncDebug } from './phase';
import { BROWSER_AFTER_OWN_PAUSE_MS, BROWSER_AFTER_UNMUTE_MS, DEFAULT_SEEK_PUBLISH_DELAY_MS, DEFAULT_TICK_MS, MAX_PENDING_SYNCS, RATE_UNMUTE_MS } from './tuning';

export type { AutoplayOutcome, HttpStatus, SyncEngineOptions, SyncTransport } from './engine-options';
export type { LagKind } from './latency';
export type { SyncDebug, SyncPhase } from './phase';
export { COMMON_LEAD_SEC, CONFIRM_TIMEOUT_MS, DEFAULT_SEEK_PUBLISH_DELAY_MS, DEFAULT_TICK_MS, SETTLE_MS } from './tuning';

/** A SYNC in flight: when it was sent (ms), the outgoing sequence number then, and what its reply may do. */
type PendingSync = { sentAtMs: number; seq: number; manual: boolean; acquire: boolean };

const MEDIA_EVENTS = ['play', 'pause', 'seeking', 'seeked', 'ratechange', 'emptied', 'loadedmetadata', 'playing', 'waiting', 'canplay'] as const;
type MediaEventType = (typeof MEDIA_EVENTS)[number];

export class SyncEngine {
  readonly clock: ServerClock;
  private readonly media: MediaLike;
  private readonly options: SyncEngineOptions;
  private readonly now: () => number;
  private readonly tuning: SyncTuning;
  private readonly schedule: SyncSchedule;
  private readonly expected: ExpectedEvents;
  private readonly listener = (event: Event) => this.onMediaEvent(event.type as MediaEventType);
  private readonly volumeListener = () => this.onVolumeChange();
  /** The element's `muted` as last seen (an unmute is a change from true to false). */
  private lastMuted: boolean;
  /** When (local ms) the engine last changed the element's playbackRate, and when an unmute that no person made came. */
  private rateSetAtMs = Number.NEGATIVE_INFINITY;
  /** Learned once: a rate change of this element unmutes it (WebKitGTK), so a muted one is corrected by seeks. */
  private rateUnmutes = false;
  private unaskedUnmuteAtMs = Number.NEGATIVE_INFINITY;
  /** When (local ms) the engine last paused the element itself (a `pause` effect). */
  private ownPauseAtMs = Number.NEGATIVE_INFINITY;
  private state: MachineState;
  private live: boolean;
  private canControl: boolean;
  private connected = false;
  private everConnected = false;
  private destroyed = false;
  private pendingSyncs: PendingSync[] = [];
  private syncsSinceConnect = 0;
  private acquireNextSync = false;
  /** Outgoing messages counted, and the count at our last STATUS (replies to older SYNCs describe the room before it). */
  private seq = 0;
  private lastStatusSeq = -1;
  private readonly timers: Record<'phase' | 'publish' | 'sync', { handle: ReturnType<typeof setTimeout>; atMs: number } | null> = { phase: null, publish: null, sync: null };
  private readonly tickTimer: ReturnType<typeof setInterval>;
  private invalidTransitions = 0;
  private readonly decisions = new DecisionLog();

  constructor(options: SyncEngineOptions) {
    this.options = options;
    this.media = options.media;
    this.now = options.now ?? Date.now;
    this.clock = options.clock ?? new ServerClock(this.now);
    this.tuning = { ...DEFAULT_TUNING, ...options.tuning };
    this.schedule = { ...DEFAULT_SYNC_SCHEDULE, ...options.schedule };
    this.live = options.live ?? false;
    this.canControl = options.canControl ?? true;
    this.expected = new ExpectedEvents(this.now);
    this.state = initialState(this.tuning);
    this.lastMuted = this.media.muted;
    for (const type of MEDIA_EVENTS) this.media.addEventListener(type, this.listener as () => void);
    this.media.addEventListener('volumechange', this.volumeListener);
    this.tickTimer = setInterval(() => this.dispatch({ type: 'tick' }), options.tickMs ?? DEFAULT_TICK_MS);
  }

  /** Stops listening and all timers. */
  destroy(): void {
    this.destroyed = true;
    this.state = { ...this.state, phase: { name: 'idle' } };
    for (const type of MEDIA_EVENTS) this.media.removeEventListener(type, this.listener as () => void);
    this.media.removeEventListener('volumechange', this.volumeListener);
    for (const name of ['phase', 'publish', 'sync'] as const) this.setTimer(name, null, () => undefined);
    clearInterval(this.tickTimer);
    this.expected.clear();
  }

  /** The room status the engine follows, on the server clock; null before any status arrived. */
  currentTarget(): RoomTarget | null {
    return targetOnServerClock(this.state.target, this.clock.offsetMs);
  }

  setLive(live: boolean): void {
    this.live = live;
  }

  setCanControl(canControl: boolean): void {
    this.canControl = canControl;
  }

  /** The socket opened (true) or closed (false). On open the SYNC burst starts: after a reconnect it re-reads the room status and re-samples the clock. */
  setConnected(connected: boolean): void {
    if (connected === this.connected) return;
    this.connected = connected;
    // Replies to requests of a previous connection will never come.
    this.pendingSyncs = [];
    this.setTimer('sync', null, () => undefined);
    this.dispatch({ type: 'connection', connected });
    if (!connected) return;
    if (this.everConnected) this.clock.restart();
    this.everConnected = true;
    this.acquireNextSync = true;
    // A clock that already has its samples (a new movie on an open socket) needs no burst.
    this.syncsSinceConnect = this.clock.sampleCount >= this.schedule.burstCount ? this.schedule.burstCount - 1 : 0;
    this.runSyncSchedule();
  }

  /** The room status from `GET /api/room/movie/current` (a late joiner, a re-read); a socket status newer than the request wins. */
  loadTarget({ status, requestedAtMs, receivedAtMs }: HttpStatus): void {
    this.dispatch({ type: 'http-status', status, requestedAtMs, receivedAtMs });
  }

  /** A STATUS (another person's action) or CHECK_STATUS (a server correction) received now. */
  onRemoteStatus(status: PlaybackState): void {
    this.dispatch({ type: 'remote-status', status });
  }

  /** A SYNC reply: `status` is the room at `serverTimeMs` (the reply's `timestamp`); its round trip is a clock sample. */
  onSyncReply(status: PlaybackState, serverTimeMs: number): void {
    const request = this.pendingSyncs.shift();
    if (request) this.clock.addSample(request.sentAtMs, this.now(), serverTimeMs);
    const asked = request ? { acquire: request.acquire, manual: request.manual, beforeOwnStatus: request.seq < this.lastStatusSeq } : null;
    this.dispatch({ type: 'sync-reply', status, serverTimeMs, request: asked });
  }

  /** The person pressed sync: a room known to play resumes inside the click, then SYNC fetches the exact status. */
  manualSync(): boolean {
    this.dispatch({ type: 'manual-sync' });
    return this.requestSync(true);
  }

  /** Sends SYNC and remembers when, for the clock sample and the reply's handling. */
  requestSync(manual = false, acquire = false): boolean {
    if (!this.connected || this.destroyed) return false;
    const sentAtMs = this.now();
    if (!this.options.transport.sendSync()) return false;
    this.seq += 1;
    this.pendingSyncs.push({ sentAtMs, seq: this.seq, manual, acquire: manual || acquire || this.acquireNextSync });
    this.acquireNextSync = false;
    if (this.pendingSyncs.length > MAX_PENDING_SYNCS) this.pendingSyncs.shift();
    return true;
  }

  /** The sync indicator: in sync, correcting or out of sync with the drift (ms), live, or idle. */
  indicator(): SyncIndicator {
    if (this.destroyed) return { state: 'idle', driftMs: null };
    return indicatorOf(this.state, this.context());
  }

  /** The phase, figures and last decisions for the `?debug=sync` overlay (./phase.ts `SyncDebug`). */
  debug(): SyncDebug {
    return {
      phase: this.state.phase.name,
      phaseData: this.state.phase,
      nowMs: this.now(),
      driftMs: this.indicator().driftMs,
      playbackRate: this.media.playbackRate,
      roomRate: this.state.roomRate,
      clockOffsetMs: Math.round(this.clock.offsetMs),
      rttMs: this.clock.rttMs === null ? null : Math.round(this.clock.rttMs),
      latencySec: this.state.latencies.snapshot(),
      invalidTransitions: this.invalidTransitions,
      decisions: this.decisions.list(),
    };
  }

  private context(): StepContext {
    return {
      nowMs: this.now(),
      serverNowMs: this.clock.serverNow(),
      clock: { offsetMs: this.clock.offsetMs, oneWayMs: this.clock.oneWayMs, rttMs: this.clock.rttMs },
      media: this.media,
      tuning: this.tuning,
      live: this.live,
      canControl: this.canControl,
      connected: this.connected,
      seekPublishDelayMs: this.options.seekPublishDelayMs ?? DEFAULT_SEEK_PUBLISH_DELAY_MS,
      rateUnmutes: this.rateUnmutes,
    };
  }

  /** Runs one event through the machine and carries out its effects (a transition outside ./phase.ts's table is counted). */
  private dispatch(event: SyncEvent): void {
    if (this.destroyed) return;
    const from = this.state.phase.name;
    const { state, effects } = step(this.state, event, this.context());
    this.state = state;
    if (!canTransition(from, state.phase.name)) this.invalidTransitions += 1;
    for (const effect of effects) this.run(effect, event);
    // Whatever effects ran (an element may fire events at once), the timers follow the latest state.
    this.syncTimers();
  }

  private onMediaEvent(type: MediaEventType): void {
    const position = this.media.currentTime;
    if (type === 'pause' || type === 'play') {
      const own = this.expected.consume(type);
      const browsers = !own && this.browserActed(type);
      this.dispatch({ type, own: own || browsers });
      // Not a person's pause or play: nothing to tell; back to the room as a press of sync would (muted if sound is refused).
      if (browsers) this.dispatch({ type: 'manual-sync' });
    } else if (type === 'seeking') this.dispatch({ type, expected: this.expected.pending('seeked', position) });
    else if (type === 'seeked') this.dispatch({ type, expected: this.expected.consume('seeked', position, this.media.paused ? 0 : this.media.playbackRate) });
    else this.dispatch({ type });
  }

  /**
   * An unmute that no person made (no user activation): after the engine's own rate change it is
   * WebKitGTK's pipeline taking its mute from the rate, undone at once; either way a pause or a play
   * that follows within BROWSER_AFTER_UNMUTE_MS without a person acting is the browser's, not a
   * person's (the autoplay policy's pause; WebKitGTK's start of the paused element it unmuted).
   */
  private onVolumeChange(): void {
    const wasMuted = this.lastMuted;
    this.lastMuted = this.media.muted;
    if (!wasMuted || this.media.muted || this.personActive()) return;
    const nowMs = this.now();
    this.unaskedUnmuteAtMs = nowMs;
    if (nowMs - this.rateSetAtMs > RATE_UNMUTE_MS) return;
    this.media.muted = true;
    this.lastMuted = true;
    this.rateUnmutes = true;
    this.decisions.add({ atMs: nowMs, kind: 'browser', phase: this.state.phase.name, detail: 'unmuted by a rate change: muted again; corrected by seeks while muted', event: 'volumechange' });
  }

  /**
   * True when a pause or play that the engine did not make is the browser's, no person acting now:
   * it follows an unmute no person made (within BROWSER_AFTER_UNMUTE_MS), or it is a play that undoes
   * the engine's own pause (within BROWSER_AFTER_OWN_PAUSE_MS: WebKitGTK with hls.js plays again when
   * the seek that was in flight at the pause lands), or it is a pause of an audible element on a page
   * where no person has acted yet: the autoplay policy stopping sound that no gesture allowed
   * (WebKitGTK lets such a start through at times and pauses it at the next rate change). The
   * element is then muted, as a start without a gesture would have been, and the hall offers Unmute
   * (docs/browsers.md "No browser moves the room").
   */
  private browserActed(type: 'pause' | 'play'): boolean {
    const nowMs = this.now();
    const afterUnmute = nowMs - this.unaskedUnmuteAtMs <= BROWSER_AFTER_UNMUTE_MS;
    const undoesPause = type === 'play' && nowMs - this.ownPauseAtMs <= BROWSER_AFTER_OWN_PAUSE_MS;
    const soundRefused = type === 'pause' && !this.media.ended && !this.media.muted && (this.media.volume ?? 1) > 0 && !this.personHasActed();
    if ((!afterUnmute && !undoesPause && !soundRefused) || this.personActive()) return false;
    const detail = afterUnmute
      ? `${type === 'pause' ? 'paused' : 'played'} by the browser after an unmute: not told to the room`
      : undoesPause
        ? "played by the browser right after the engine's pause: not told to the room"
        : 'paused by the browser: sound that no gesture allowed; muted, not told to the room';
    this.decisions.add({ atMs: nowMs, kind: 'browser', phase: this.state.phase.name, detail, event: type });
    if (soundRefused && !afterUnmute) {
      this.media.muted = true;
      this.lastMuted = true;
      this.options.onAutoplay?.('muted');
    }
    return true;
  }

  /** Whether a person is acting now (the page has transient user activation); false where the browser cannot tell. */
  private personActive(): boolean {
    if (this.options.personActive) return this.options.personActive();
    return userActivation()?.isActive === true;
  }

  /** Whether a person has acted on the page since it loaded (sticky user activation); true where the browser cannot tell. */
  private personHasActed(): boolean {
    if (this.options.personHasActed) return this.options.personHasActed();
    return userActivation()?.hasBeenActive ?? true;
  }

  private run(effect: SyncEffect, event: SyncEvent): void {
    const { media, options } = this;
    switch (effect.type) {
      case 'play':
        this.expected.expect('play');
        return void this.startPlayback();
      case 'pause':
        this.expected.expect('pause');
        this.ownPauseAtMs = this.now();
        return media.pause();
      case 'seek':
        this.expected.expect('seeked', effect.to);
        media.currentTime = effect.to;
        return;
      case 'set-rate':
        if (Math.abs(media.playbackRate - effect.rate) <= 1e-9) return;
        this.rateSetAtMs = this.now();
        media.playbackRate = effect.rate;
        return;
      case 'send-status':
        if (!options.transport.sendStatus(effect.status)) return;
        this.seq += 1;
        this.lastStatusSeq = this.seq;
        return;
      case 'send-sync':
        return void this.requestSync(false, effect.acquire);
      case 'arm-timer':
      case 'cancel-timer':
        return this.syncTimers();
      case 'target':
        return options.onTarget?.(effect.status, effect.atMs);
      case 'control-denied':
        return options.onControlDenied?.();
      case 'manual-synced':
        return options.onManualSynced?.();
      case 'forget-seek':
        return this.expected.cancel('seeked');
      case 'forget-expected':
        return this.expected.clear();
      case 'log':
        return this.decisions.add({ atMs: this.now(), kind: effect.kind, phase: effect.phase, detail: effect.detail, event: event.type });
    }
  }

  /** Arms the phase and publish timers for the state's due times (one each; a changed time re-arms). */
  private syncTimers(): void {
    this.setTimer('phase', phaseTimerAt(this.state.phase), () => this.dispatch({ type: 'timer' }));
    this.setTimer('publish', this.state.publish.dueAtMs, () => this.dispatch({ type: 'publish-timer' }));
  }

  private setTimer(name: 'phase' | 'publish' | 'sync', atMs: number | null, fire: () => void): void {
    const current = this.timers[name];
    if (current && current.atMs === atMs) return;
    if (current) clearTimeout(current.handle);
    this.timers[name] = null;
    if (atMs === null || this.destroyed) return;
    const handle = setTimeout(() => {
      this.timers[name] = null;
      fire();
    }, Math.max(0, atMs - this.now()));
    this.timers[name] = { handle, atMs };
  }

  private runSyncSchedule(): void {
    if (!this.connected || this.destroyed) return;
    this.requestSync();
    this.syncsSinceConnect += 1;
    const delay = nextSyncDelayMs(this.syncsSinceConnect, this.schedule, this.options.random);
    if (Number.isFinite(delay)) this.setTimer('sync', this.now() + delay, () => this.runSyncSchedule());
  }

  /** play() with the autoplay fallback: refused with NotAllowedError → mute and retry; refused again → 'blocked' (the hall asks for a press). */
  private async startPlayback(): Promise<void> {
    const { media, options } = this;
    try {
      await media.play();
      options.onAutoplay?.('ok');
      return;
    } catch (error) {
      // Only a NotAllowedError is raised before the `play` event; other rejections (AbortError) come after it.
      if (!isNotAllowed(error) || this.destroyed) return;
      this.expected.cancel('play');
    }
    media.muted = true;
    // Its own mute: an unmute that comes before this mute's `volumechange` is dispatched (WebKitGTK's
    // pipeline unmutes inside the play() below when a rate was set while paused) is then still seen.
    this.lastMuted = true;
    this.expected.expect('play');
    try {
      await media.play();
      options.onAutoplay?.('muted');
    } catch (error) {
      if (!isNotAllowed(error) || this.destroyed) return;
      this.expected.cancel('play');
      options.onAutoplay?.('blocked');
    }
  }
}

/** The page's user activation (navigator.userActivation), where the browser has it. */
function userActivation(): { isActive: boolean; hasBeenActive: boolean } | undefined {
  return typeof navigator === 'undefined' ? undefined : (navigator as Navigator & { userActivation?: { isActive: boolean; hasBeenActive: boolean } }).userActivation;
}

function isNotAllowed(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { name?: unknown }).name === 'NotAllowedError';
}
