/**
 * What the sync engine (./engine.ts) is given and tells: its options, the transport it sends
 * through, and the statuses it is handed (docs/sync.md).
 */
import type { PlaybackState } from '@/lib/contract/playback';
import type { ServerClock, SyncSchedule } from './clock';
import type { SyncTuning } from './correction';
import type { MediaLike } from './media';

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
  /**
   * Whether a person is acting on the page now (transient user activation). An unmute made while it
   * is false is the browser's or the engine's, and a pause right after it the autoplay policy's
   * (./engine.ts). Default: `navigator.userActivation.isActive`, false where the browser lacks it.
   */
  personActive?: () => boolean;
  /**
   * Whether a person has acted on the page since it loaded (sticky user activation): until then,
   * a pause of an audible element that the engine did not make is the autoplay policy's (WebKit
   * lets an audible start through at times and pauses it at the next rate change; ./engine.ts
   * `browserActed`). Default: `navigator.userActivation.hasBeenActive`, true where the browser
   * lacks it (so that nothing a person did is ever taken for the browser's).
   */
  personHasActed?: () => boolean;
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
