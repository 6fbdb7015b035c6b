/**
 * Pure sync decisions: where the room is now, and what to do to the local media element to match.
 * No timers, no DOM: the engine (./engine.ts) executes the result. Issue 3's rate nudging slots in
 * here as another kind of correction.
 */
import type { PlaybackState } from '@/lib/ws/room-socket';
import type { LocalPlayback } from './media';

/** A room status and the local time (Unix ms) it refers to. */
export interface RoomTarget {
  status: PlaybackState;
  referenceMs: number;
}

/** Drift (s) above which the local element is re-seeked. The reference client used 2 s; we hold far tighter. */
export const DEFAULT_SEEK_THRESHOLD_SEC = 0.3;

/** Tolerance (s) for "the same rate" when comparing rates that went through float math. */
const RATE_EPSILON = 1e-3;

/**
 * The room position (s) at local time `nowMs`: while playing it advances by elapsed × playbackRate
 * from `referenceMs` (server-contract.md §6.7 step 1); paused, it stays.
 */
export function positionAt(target: RoomTarget, nowMs: number): number {
  const { status } = target;
  if (!status.isPlaying) return status.currentTime;
  return status.currentTime + (Math.max(0, nowMs - target.referenceMs) / 1000) * status.playbackRate;
}

/** The target moved to `nowMs`: same play state and rate, position extrapolated. */
export function targetAt(target: RoomTarget, nowMs: number): RoomTarget {
  return { status: { ...target.status, currentTime: positionAt(target, nowMs) }, referenceMs: nowMs };
}

/**
 * A SYNC reply's status made current on receipt: the server read it when it handled the request,
 * about half a round trip ago, so while playing it is advanced by rtt/2 × rate.
 * `sentAtMs` / `receivedAtMs` are local Unix ms of the request and the reply.
 */
export function compensateSyncReply(status: PlaybackState, sentAtMs: number, receivedAtMs: number): RoomTarget {
  const halfRttSec = Math.max(0, receivedAtMs - sentAtMs) / 2000;
  const currentTime = status.isPlaying ? status.currentTime + halfRttSec * status.playbackRate : status.currentTime;
  return { status: { ...status, currentTime }, referenceMs: receivedAtMs };
}

/** What to do to the media element; every field is optional, an empty object means "nothing". */
export interface Correction {
  playbackRate?: number;
  seekTo?: number;
  play?: true;
  pause?: true;
}

export interface CorrectionOptions {
  /** Live movies skip position and rate sync but keep play/pause. */
  live: boolean;
  seekThresholdSec: number;
  /** Added to a seek while playing (s of media): the video stands still while a seek completes. */
  seekLeadSec?: number;
}

/** Signed drift (s): local − room. Positive means the local element is ahead. */
export function driftSec(target: RoomTarget, local: LocalPlayback, nowMs: number): number {
  return local.currentTime - positionAt(target, nowMs);
}

/**
 * Decides how to bring `local` to `target` at `nowMs`:
 * - rate: set when it differs (VOD only);
 * - seek: when |drift| > threshold (VOD only), to the room position (+ lead while playing), never
 *   past the end of a finite media;
 * - play / pause: when the play state differs. A room still "playing" past the end of the media
 *   does not restart an element that has ended.
 */
export function decideCorrection(target: RoomTarget, local: LocalPlayback, nowMs: number, options: CorrectionOptions): Correction {
  const correction: Correction = {};
  const { status } = target;
  if (!options.live) {
    if (status.playbackRate > 0 && Math.abs(status.playbackRate - local.playbackRate) > RATE_EPSILON) {
      correction.playbackRate = status.playbackRate;
    }
    const roomAt = positionAt(target, nowMs);
    const finite = Number.isFinite(local.duration) && local.duration > 0;
    const pastEnd = finite && roomAt >= local.duration;
    if (pastEnd) {
      if (!local.ended && Math.abs(local.duration - local.currentTime) > options.seekThresholdSec) {
        correction.seekTo = local.duration;
      }
      if (!local.paused && !local.ended) correction.pause = true;
      return correction;
    }
    if (Math.abs(local.currentTime - roomAt) > options.seekThresholdSec) {
      const lead = status.isPlaying ? (options.seekLeadSec ?? 0) * status.playbackRate : 0;
      const seekTo = Math.max(0, roomAt + lead);
      correction.seekTo = finite ? Math.min(seekTo, local.duration) : seekTo;
    }
  }
  if (status.isPlaying && local.paused) correction.play = true;
  if (!status.isPlaying && !local.paused) correction.pause = true;
  return correction;
}

/** True when a correction changes nothing. */
export function isNoop(correction: Correction): boolean {
  return correction.playbackRate === undefined && correction.seekTo === undefined && !correction.play && !correction.pause;
}
