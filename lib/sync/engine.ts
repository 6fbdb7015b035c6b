/**
 * The playback sync engine of one media element (issue 2, Part C; server-contract.md §6.4, §6.7).
 * Framework-free: it listens to a MediaLike's events, talks through a SyncTransport (the room socket)
 * and decides with the pure functions of ./correction.ts.
 *
 * - Local user play, pause, seek (on `seeked`) and rate change → STATUS {isPlaying, currentTime, playbackRate}.
 * - Received STATUS / CHECK_STATUS / SYNC → applied: rate, a seek when off by more than the threshold
 *   (0.3 s), then play or pause.
 * - Settling: an element stands still while it starts or seeks (and its clock starts a little after
 *   `playing`), so after each start or seek it is measured once it runs and corrected to within 50 ms,
 *   at most SETTLE_CHECKS times, leading later seeks by the lag it learned. (Issue 3 replaces the
 *   small corrections with playbackRate nudges; ./correction.ts is where they go.)
 * - Never echoes what it applied itself: every programmatic change registers the event it will fire
 *   (./expected-events.ts) and that event is not published.
 * - Late joiner: `loadTarget` takes `GET /movie/current`'s status and seeks there once metadata is loaded.
 * - SYNC after the socket opens, on demand (the sync button) and every `syncIntervalMs`; a reply is
 *   advanced by half the measured round trip × rate.
 * - Live movies only follow play/pause and publish nothing (the server forces live to playing, §6.4).
 */
import type { PlaybackState } from '@/lib/ws/room-socket';
import {
  compensateSyncReply,
  decideCorrection,
  DEFAULT_SEEK_THRESHOLD_SEC,
  positionAt,
  targetAt,
  type RoomTarget,
} from './correction';
import { ExpectedEvents } from './expected-events';
import { HAVE_METADATA, isBuffered, readLocal, type MediaLike } from './media';

/** What the engine sends; the room socket implements it. Both return false when the message was dropped. */
export interface SyncTransport {
  sendStatus(status: PlaybackState): boolean;
  sendSync(): boolean;
}

/** Outcome of starting playback: played, played muted after the browser refused sound, or refused. */
export type AutoplayOutcome = 'ok' | 'muted' | 'blocked';

export interface SyncEngineOptions {
  media: MediaLike;
  transport: SyncTransport;
  /** Local clock, Unix ms. */
  now?: () => number;
  live?: boolean;
  /** Whether the user may set the room status (SetCurrentStatus, or room/site admin). */
  canControl?: boolean;
  seekThresholdSec?: number;
  /** Period of the drift-correcting SYNC (ms); 0 disables it. */
  syncIntervalMs?: number;
  /** Window (ms) in which further `seeked` events (scrubbing) collapse into one trailing STATUS. */
  seekPublishDelayMs?: number;
  onAutoplay?: (outcome: AutoplayOutcome) => void;
  /** A local play/pause/seek/rate change by a user who may not control playback; the engine restores the room state. */
  onControlDenied?: () => void;
  /** The reply to a manual sync (`manualSync`) was applied. */
  onManualSynced?: () => void;
}

export const DEFAULT_SYNC_INTERVAL_MS = 5000;
/**
 * Drift (s) tolerated once the element really plays after a start, a seek or a stall. The seek
 * threshold decides *whether* to correct; this decides how exact the correction must end up: the
 * element stands still while it starts or seeks, so it resumes behind the room by that time.
 */
export const SETTLE_TOLERANCE_SEC = 0.05;
/**
 * Wait (ms) after `playing` before measuring the drift: the media clock starts some time after the
 * event (audio output start-up, ~0.1 s in Chromium), so an earlier reading is not yet the steady offset.
 */
export const SETTLE_DELAY_MS = 300;
/** Settling corrections allowed after one start or seek (each may stall again, but less: the data is then buffered). */
export const SETTLE_CHECKS = 3;
/** Largest start-up lag (s) the engine learns; anything longer is a stall, not a property of seeks. */
const MAX_LAG_SEC = 2;
export const DEFAULT_SEEK_PUBLISH_DELAY_MS = 200;
/** SYNC requests kept waiting for a reply; older ones are dropped (their replies then count as plain statuses). */
const MAX_PENDING_SYNCS = 8;

interface PendingSync {
  sentAtMs: number;
  /** Sequence number of outgoing messages at send time (for ordering against our own STATUS). */
  seq: number;
  manual: boolean;
}

const MEDIA_EVENTS = ['play', 'pause', 'seeked', 'ratechange', 'loadedmetadata', 'playing', 'waiting'] as const;
type MediaEvent = (typeof MEDIA_EVENTS)[number];

export class SyncEngine {
  private readonly media: MediaLike;
  private readonly transport: SyncTransport;
  private readonly now: () => number;
  private readonly options: SyncEngineOptions;
  private readonly expected: ExpectedEvents;
  private readonly handlers: Record<MediaEvent, () => void>;
  private live: boolean;
  private canControl: boolean;
  private target: RoomTarget | null = null;
  /** Local time (ms) a status last arrived over the socket; an HTTP status requested before that is stale. */
  private socketTargetAtMs = -Infinity;
  private waitingForMetadata = false;
  private connected = false;
  private pendingSyncs: PendingSync[] = [];
  private seq = 0;
  private lastStatusSeq = -1;
  private syncTimer: ReturnType<typeof setInterval> | null = null;
  private seekPublishTimer: ReturnType<typeof setTimeout> | null = null;
  private lastSeekPublishAtMs = -Infinity;
  /** True while the engine's own seek is in flight. */
  private engineSeeking = false;
  /**
   * Learned lag (s of wall time) between the engine seeking or starting and the element running again,
   * for targets inside and outside the buffered ranges. A seek while playing leads by it.
   */
  private readonly lagSec = { buffered: 0, unbuffered: 0 };
  /** The engine's last start or seek, to learn the lag from its outcome: the drift (s) it should give. */
  private lastCorrection: { kind: 'buffered' | 'unbuffered'; expectedDriftSec: number } | null = null;
  /** Settling checks left (after a start, seek or stall) to bring the drift under SETTLE_TOLERANCE_SEC. */
  private settleChecks = 0;
  private settleTimer: ReturnType<typeof setTimeout> | null = null;
  private destroyed = false;

  constructor(options: SyncEngineOptions) {
    this.options = options;
    this.media = options.media;
    this.transport = options.transport;
    this.now = options.now ?? Date.now;
    this.live = options.live ?? false;
    this.canControl = options.canControl ?? true;
    this.expected = new ExpectedEvents(this.now);
    this.handlers = {
      play: () => this.onPlayOrPause('play'),
      pause: () => this.onPlayOrPause('pause'),
      seeked: () => this.onSeeked(),
      ratechange: () => this.onRateChange(),
      loadedmetadata: () => this.onLoadedMetadata(),
      playing: () => this.onPlaying(),
      waiting: () => this.onWaiting(),
    };
    for (const event of MEDIA_EVENTS) this.media.addEventListener(event, this.handlers[event]);
    const interval = options.syncIntervalMs ?? DEFAULT_SYNC_INTERVAL_MS;
    if (interval > 0) this.syncTimer = setInterval(() => this.periodicSync(), interval);
  }

  /** Stops listening and all timers. */
  destroy(): void {
    this.destroyed = true;
    for (const event of MEDIA_EVENTS) this.media.removeEventListener(event, this.handlers[event]);
    if (this.syncTimer !== null) clearInterval(this.syncTimer);
    if (this.seekPublishTimer !== null) clearTimeout(this.seekPublishTimer);
    if (this.settleTimer !== null) clearTimeout(this.settleTimer);
    this.syncTimer = null;
    this.seekPublishTimer = null;
    this.settleTimer = null;
    this.expected.clear();
  }

  /** The room status the engine follows, moved to now; null before any status arrived. */
  currentTarget(): RoomTarget | null {
    return this.target ? targetAt(this.target, this.now()) : null;
  }

  setLive(live: boolean): void {
    this.live = live;
  }

  setCanControl(canControl: boolean): void {
    this.canControl = canControl;
  }

  /**
   * The socket opened (true) or closed (false). On open the engine asks for the room status (SYNC):
   * after a reconnect this resyncs before the user notices.
   */
  setConnected(connected: boolean): void {
    this.connected = connected;
    // Replies to requests of a previous connection will never come.
    this.pendingSyncs = [];
    if (connected) this.requestSync();
  }

  /**
   * The room status from `GET /api/room/movie/current` (late joiner, re-read after reconnect or CURRENT).
   * `referenceMs`: local time the status refers to (the server extrapolated it at read time);
   * `requestedAtMs`: when the request was sent. A socket status that arrived after the request was
   * sent is newer, so the HTTP one is then ignored.
   */
  loadTarget(status: PlaybackState, referenceMs: number, requestedAtMs = referenceMs): void {
    if (requestedAtMs < this.socketTargetAtMs) return;
    this.target = { status, referenceMs };
    this.apply();
  }

  /** A STATUS (another user's action) or CHECK_STATUS (server correction) received now. */
  onRemoteStatus(status: PlaybackState): void {
    const now = this.now();
    this.socketTargetAtMs = now;
    this.target = { status, referenceMs: now };
    this.apply();
  }

  /**
   * A SYNC reply: `status` is the room status when the server handled the request. It is advanced by
   * half the round trip × rate. A reply to a request sent before our own last STATUS describes the room
   * before that action and is ignored (it would undo the user's action).
   */
  onSyncReply(status: PlaybackState): void {
    const now = this.now();
    const request = this.pendingSyncs.shift();
    if (!request) {
      this.onRemoteStatus(status);
      return;
    }
    // The reply describes the room before the user's own action (sent or still being debounced).
    if (request.seq < this.lastStatusSeq || this.seekPublishTimer !== null) return;
    this.socketTargetAtMs = now;
    this.target = compensateSyncReply(status, request.sentAtMs, now);
    this.apply();
    if (request.manual) this.options.onManualSynced?.();
  }

  /**
   * The user pressed the sync button. Inside that click, playback may start even where autoplay is
   * blocked, so a room known to be playing is resumed right away; then SYNC fetches the exact status.
   */
  manualSync(): boolean {
    if (this.target?.status.isPlaying && this.media.paused && !this.media.ended && this.media.readyState >= HAVE_METADATA) {
      this.expected.expect('play');
      void this.startPlayback();
    }
    return this.requestSync(true);
  }

  /** Sends SYNC and remembers when, for the round-trip compensation of its reply. */
  requestSync(manual = false): boolean {
    if (!this.connected) return false;
    const sentAtMs = this.now();
    if (!this.transport.sendSync()) return false;
    this.seq += 1;
    this.pendingSyncs.push({ sentAtMs, seq: this.seq, manual });
    if (this.pendingSyncs.length > MAX_PENDING_SYNCS) this.pendingSyncs.shift();
    return true;
  }

  private periodicSync(): void {
    if (this.destroyed || this.live || !this.target) return;
    if (this.media.readyState < HAVE_METADATA) return;
    this.requestSync();
  }

  /**
   * Brings the element to the target, or waits for metadata first. Position is not corrected while a
   * seek is in flight: the element's position stands still until it completes, and settling checks it
   * afterwards. A correction that seeks or starts playback arms SETTLE_CHECKS settling checks;
   * `settling` marks one of those (tighter tolerance, arms nothing).
   */
  private apply(settling = false): void {
    if (this.destroyed || !this.target) return;
    if (this.media.readyState < HAVE_METADATA) {
      this.waitingForMetadata = true;
      return;
    }
    this.waitingForMetadata = false;
    const now = this.now();
    const roomPlaying = this.target.status.isPlaying;
    const roomAt = positionAt(this.target, now);
    const kind = isBuffered(this.media, roomAt) ? 'buffered' : 'unbuffered';
    const threshold = settling ? SETTLE_TOLERANCE_SEC : (this.options.seekThresholdSec ?? DEFAULT_SEEK_THRESHOLD_SEC);
    const correction = decideCorrection(this.target, readLocal(this.media), now, {
      live: this.live,
      seekThresholdSec: this.media.seeking ? Infinity : threshold,
      seekLeadSec: this.lagSec[kind],
    });
    if (correction.playbackRate !== undefined) {
      this.expected.expect('ratechange', correction.playbackRate);
      this.media.playbackRate = correction.playbackRate;
    }
    if (correction.seekTo !== undefined) {
      this.expected.expect('seeked', correction.seekTo);
      this.engineSeeking = true;
      if (roomPlaying) {
        this.lastCorrection = { kind, expectedDriftSec: correction.seekTo - roomAt };
        if (!settling) this.settleChecks = SETTLE_CHECKS;
      }
      this.media.currentTime = correction.seekTo;
    }
    if (correction.play) {
      this.expected.expect('play');
      // Starting stalls until data arrives; the settling checks make up for it once it really plays.
      if (correction.seekTo === undefined) this.lastCorrection = { kind, expectedDriftSec: this.media.currentTime - roomAt };
      if (!settling) this.settleChecks = SETTLE_CHECKS;
      void this.startPlayback();
    }
    if (correction.pause) {
      this.expected.expect('pause');
      this.media.pause();
    }
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

  private onLoadedMetadata(): void {
    if (this.waitingForMetadata) this.apply();
    // The HTTP status may be a little stale by now; ask for the exact one.
    this.requestSync();
  }

  /** The element really plays again (after a start, a seek or a stall): measure once its clock runs. */
  private onPlaying(): void {
    if (this.settleChecks <= 0 || this.live) return;
    if (this.settleTimer !== null) clearTimeout(this.settleTimer);
    this.settleTimer = setTimeout(() => {
      this.settleTimer = null;
      this.settle();
    }, SETTLE_DELAY_MS);
  }

  /**
   * A settling check: the element stood still while it started or seeked, so it runs behind the room
   * by about that time. Learn that lag from the last correction's outcome, then correct to within
   * SETTLE_TOLERANCE_SEC (leading by the learned lag), a bounded number of times.
   */
  private settle(): void {
    const target = this.target;
    if (this.destroyed || this.settleChecks <= 0 || !target?.status.isPlaying || this.live) return;
    // Not running (yet): the next `playing` schedules the check again.
    if (this.media.paused || this.media.seeking) return;
    const now = this.now();
    const driftSec = this.media.currentTime - positionAt(target, now);
    if (this.lastCorrection) {
      const { kind, expectedDriftSec } = this.lastCorrection;
      const lag = Math.min(MAX_LAG_SEC, Math.max(0, (expectedDriftSec - driftSec) / target.status.playbackRate));
      this.lagSec[kind] = this.lagSec[kind] === 0 ? lag : (this.lagSec[kind] + lag) / 2;
      this.lastCorrection = null;
    }
    // Settled: leftover checks must not fire on some later, unrelated `playing`.
    this.settleChecks = Math.abs(driftSec) <= SETTLE_TOLERANCE_SEC ? 0 : this.settleChecks - 1;
    this.apply(true);
  }

  /**
   * The element stalls for data: it will resume behind the room. Stalls during the engine's own seek
   * are already covered (and must not re-arm settling, or a slow network could seek forever).
   */
  private onWaiting(): void {
    if (!this.engineSeeking) this.settleChecks = Math.max(this.settleChecks, 1);
  }

  private onPlayOrPause(kind: 'play' | 'pause'): void {
    if (this.expected.consume(kind)) return;
    if (this.media.readyState < HAVE_METADATA) return;
    const isPlaying = kind === 'play';
    const target = this.target ? targetAt(this.target, this.now()) : null;
    if (target && target.status.isPlaying === isPlaying) {
      // Nothing to tell the room; a play that resumes a stale element still has to catch up.
      if (isPlaying) this.apply();
      return;
    }
    if (isPlaying) this.settleAfterUserAction();
    this.publish();
  }

  /**
   * The user's own element also stands still for a moment after their play or seek, while the room
   * (told the position at that instant) moves on: settle it like a correction of the engine's.
   */
  private settleAfterUserAction(): void {
    if (this.live || !this.canControl) return;
    this.settleChecks = SETTLE_CHECKS;
    this.lastCorrection = null;
  }

  private onSeeked(): void {
    const position = this.media.currentTime;
    // Any `seeked` ends the seek in flight (a user's seek aborts the engine's).
    this.engineSeeking = false;
    if (this.expected.consume('seeked', position)) return;
    if (this.media.readyState < HAVE_METADATA) return;
    const now = this.now();
    if (this.target) {
      // A seek that lands where the room already is (e.g. the player skipping a gap) changes nothing.
      const threshold = this.options.seekThresholdSec ?? DEFAULT_SEEK_THRESHOLD_SEC;
      if (Math.abs(position - positionAt(this.target, now)) <= threshold) return;
    }
    if (!this.allowLocalChange()) return;
    // The user's position becomes the target now, so nothing snaps back while the STATUS is delayed
    // (SYNC replies are ignored meanwhile: they describe the room before the seek).
    this.target = { status: this.localStatus(), referenceMs: now };
    this.settleAfterUserAction();
    const delayMs = this.options.seekPublishDelayMs ?? DEFAULT_SEEK_PUBLISH_DELAY_MS;
    // A single seek goes out at once; further seeks of a burst (scrubbing) collapse into one trailing STATUS.
    if (this.seekPublishTimer === null && now - this.lastSeekPublishAtMs >= delayMs) {
      this.lastSeekPublishAtMs = now;
      this.publish();
      return;
    }
    if (this.seekPublishTimer !== null) clearTimeout(this.seekPublishTimer);
    this.seekPublishTimer = setTimeout(() => {
      this.seekPublishTimer = null;
      this.lastSeekPublishAtMs = this.now();
      this.publish();
    }, delayMs);
  }

  private onRateChange(): void {
    if (this.expected.consume('ratechange', this.media.playbackRate)) return;
    if (this.media.readyState < HAVE_METADATA) return;
    if (this.target && Math.abs(this.target.status.playbackRate - this.media.playbackRate) < 1e-3) return;
    this.publish();
  }

  private localStatus(): PlaybackState {
    return { isPlaying: !this.media.paused, currentTime: this.media.currentTime, playbackRate: this.media.playbackRate };
  }

  /**
   * Live movies publish nothing; a user without the permission gets the room state back instead
   * of a server error.
   */
  private allowLocalChange(): boolean {
    if (this.live) return false;
    if (this.canControl) return true;
    this.options.onControlDenied?.();
    this.requestSync();
    return false;
  }

  private publish(): void {
    if (this.destroyed || !this.allowLocalChange()) return;
    if (this.seekPublishTimer !== null) {
      clearTimeout(this.seekPublishTimer);
      this.seekPublishTimer = null;
    }
    const status = this.localStatus();
    this.target = { status, referenceMs: this.now() };
    if (!this.transport.sendStatus(status)) return;
    this.seq += 1;
    this.lastStatusSeq = this.seq;
  }
}

function isNotAllowed(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { name?: unknown }).name === 'NotAllowedError';
}
