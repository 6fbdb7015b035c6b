/**
 * Pure sync decisions: where the room is at a given server time, and what to do to the local
 * media element to match it: nothing, a temporary playbackRate nudge, or a hard seek. No timers, no
 * DOM: the sync machine (./machine.ts) calls these and its shell (./engine.ts) executes the result.
 *
 * Units: positions and drifts in seconds of media, times in Unix ms, rates as factors.
 * Drift is always local − room: positive means the local element is ahead.
 */
import type { PlaybackState } from '@/lib/contract/playback';
import type { LocalPlayback } from './media';

/** The room's authoritative status and the server time (Unix ms) it refers to. */
export interface RoomTarget {
  status: PlaybackState;
  serverTimeMs: number;
}

/**
 * The numbers of the correction loop. Defaults and why (measured in Chromium on the 30 fps test clip,
 * see the engine's docstring):
 * - deadBandSec 0.015: in steady play a drift under half a frame is left alone: switching Chromium's
 *   rate away from 1 costs a ~25 ms step itself. Two clients at opposite edges stay within 30 ms, under
 *   the one-frame (33 ms) target.
 * - settleBandSec 0.008: right after an action (the one moment the engine measures an element it just
 *   started or moved) it corrects from 8 ms, so clients start steady play close to 0 instead of
 *   anywhere in the dead band.
 * - exitBandSec 0.004: a nudge, once started, runs until the drift is (almost) gone, not just back
 *   under the dead band, so clients rest near 0 instead of at the band's edge (inter-client drift is
 *   the sum of two clients' drifts). A nudge that overshoots turns around without passing through the
 *   room rate (changes between two non-1 rates cost Chromium nothing).
 * - nudgeHorizonSec 1: the nudge is proportional, rate offset = drift / 1 s (k = 1 /s), so a drift is
 *   worked off in about a second up to 50 ms; larger drifts run at the 5 % cap (50 ms per second).
 * - maxNudge 0.05: 0.95–1.05 × the room rate, never audible (pitch is preserved, and ±5 % tempo is
 *   below what listeners notice).
 * - seekThresholdSec 1: in steady play only a drift that the nudge would need 20 s or more for is
 *   worth a visible jump (the same 1 s as timingsrc and OpenTogetherTube).
 * - acquireThresholdSec 0.1: right after a remote action (play, pause, seek, rate change, joining,
 *   reconnecting, the end of a stall) the user expects a jump anyway, so one seek is allowed from
 *   0.1 s: the nudge would need more than the 1.5 s the issue allows to close that. (The engine
 *   allows one more when its scheduled start itself missed by that much: machine.ts `Allowance.retry`.)
 * - pausedToleranceSec 0.005: a paused element is re-seeked to the room's exact position (a seek while
 *   paused costs nothing visible), so paused viewers show the same frame; the 5 ms only absorbs rounding.
 */
export interface SyncTuning {
  deadBandSec: number;
  settleBandSec: number;
  exitBandSec: number;
  nudgeHorizonSec: number;
  maxNudge: number;
  seekThresholdSec: number;
  acquireThresholdSec: number;
  pausedToleranceSec: number;
}

export const DEFAULT_TUNING: SyncTuning = {
  deadBandSec: 0.015,
  settleBandSec: 0.008,
  exitBandSec: 0.004,
  nudgeHorizonSec: 1,
  maxNudge: 0.05,
  seekThresholdSec: 1,
  acquireThresholdSec: 0.1,
  pausedToleranceSec: 0.005,
};

/** A nudge only ever grows during one correction by at least this much (fewer rate changes). */
const NUDGE_STEP = 0.01;

/**
 * The room position (s) at server time `serverNowMs`: while playing it advances by elapsed ×
 * playbackRate from `serverTimeMs` (docs/contract.md §6.7 step 1); paused, it stays.
 */
export function positionAt(target: RoomTarget, serverNowMs: number): number {
  const { status } = target;
  if (!status.isPlaying) return status.currentTime;
  return status.currentTime + ((serverNowMs - target.serverTimeMs) / 1000) * status.playbackRate;
}

/** Signed drift (s): local − room at `serverNowMs`. */
export function driftSec(target: RoomTarget, localCurrentTime: number, serverNowMs: number): number {
  return localCurrentTime - positionAt(target, serverNowMs);
}

/** What the tracking loop does to a playing element. */
export type TrackingDecision =
  /** Leave the element as it is. */
  | { kind: 'hold' }
  /** Set playbackRate = roomRate × (1 + nudge); nudge 0 means back to the room rate. */
  | { kind: 'rate'; nudge: number; playbackRate: number }
  /** Hard seek (to the room position plus the seek's own latency; the engine computes it). */
  | { kind: 'seek' };

export interface TrackingInput {
  /** Local − room (s), measured while the element plays steadily. */
  driftSec: number;
  roomRate: number;
  /** The nudge in force: a signed fraction of the room rate (+0.03 = 3 % faster), 0 for none. */
  nudge: number;
  /** True right after a remote action: one seek is allowed from `acquireThresholdSec`. */
  acquiring: boolean;
  tuning?: SyncTuning;
}

/**
 * Decides the tracking correction of a playing element:
 * - |drift| ≥ seekThresholdSec, or ≥ acquireThresholdSec while acquiring → seek;
 * - no nudge in force: |drift| under the dead band (the settle band while acquiring) → hold; else
 *   nudge = −drift / horizon, capped at ±maxNudge;
 * - a nudge in force ends (back to the room rate) once |drift| ≤ exitBandSec; it turns around when
 *   the drift changed sign, grows when the drift needs a clearly larger one (a stall during the
 *   correction), and otherwise holds: one rate per correction, few `ratechange` events.
 */
export function decideTracking(input: TrackingInput): TrackingDecision {
  const tuning = input.tuning ?? DEFAULT_TUNING;
  const { driftSec: drift, roomRate, nudge } = input;
  const magnitude = Math.abs(drift);
  if (magnitude >= tuning.seekThresholdSec || (input.acquiring && magnitude >= tuning.acquireThresholdSec)) return { kind: 'seek' };
  const wanted = proportionalNudge(drift, tuning);
  if (nudge === 0) {
    const band = input.acquiring ? tuning.settleBandSec : tuning.deadBandSec;
    if (magnitude < band || wanted === 0) return { kind: 'hold' };
    return rate(wanted, roomRate);
  }
  // The nudge pushes against the drift: positive (faster) when behind.
  if (magnitude <= tuning.exitBandSec || wanted === 0) return rate(0, roomRate);
  if (Math.sign(wanted) !== Math.sign(nudge)) return rate(wanted, roomRate);
  if (Math.abs(wanted) >= Math.abs(nudge) + NUDGE_STEP) return rate(wanted, roomRate);
  return { kind: 'hold' };
}

/** −drift / horizon, capped to ±maxNudge, rounded to 0.1 % (rates that differ by less do the same). */
export function proportionalNudge(drift: number, tuning: SyncTuning = DEFAULT_TUNING): number {
  const raw = -drift / tuning.nudgeHorizonSec;
  const capped = Math.max(-tuning.maxNudge, Math.min(tuning.maxNudge, raw));
  return Math.round(capped * 1000) / 1000;
}

function rate(nudge: number, roomRate: number): TrackingDecision {
  return { kind: 'rate', nudge, playbackRate: nudgedRate(roomRate, nudge) };
}

/** roomRate × (1 + nudge), rounded to 1e-6 so repeated settings compare equal. */
export function nudgedRate(roomRate: number, nudge: number): number {
  return Math.round(roomRate * (1 + nudge) * 1e6) / 1e6;
}

/**
 * Where a hard seek should go: the room position `roomAtSec` plus `leadSec` of wall time × rate
 * while playing (the element stands still while the seek completes), kept inside [0, duration].
 */
export function seekTarget(roomAtSec: number, leadSec: number, status: PlaybackState, duration: number): number {
  const lead = status.isPlaying ? leadSec * status.playbackRate : 0;
  const to = Math.max(0, roomAtSec + lead);
  return Number.isFinite(duration) && duration > 0 ? Math.min(to, duration) : to;
}

/** True when the room position lies past the end of a finite media (the room's clock keeps counting there). */
export function isPastEnd(roomAtSec: number, local: Pick<LocalPlayback, 'duration'>): boolean {
  return Number.isFinite(local.duration) && local.duration > 0 && roomAtSec >= local.duration;
}

/** What a user sees in the sync indicator. */
/**
 * `ended`: the room has passed the end of the movie (the element stops there, nothing to correct).
 * `struggling`: this page cannot keep up (catch-up seeks did not hold); it only nudges for a while.
 * `cannot-seek`: the source cannot seek to where the room is (a host without HTTP Range); the
 * element waits, paused.
 */
export type SyncState = 'in-sync' | 'correcting' | 'out-of-sync' | 'struggling' | 'cannot-seek' | 'ended' | 'live' | 'idle';

/** The indicator's state and the drift (ms, local − room, rounded; null when there is none to show). */
export interface SyncIndicator {
  state: SyncState;
  driftMs: number | null;
}
