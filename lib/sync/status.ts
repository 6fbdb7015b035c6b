/**
 * Normalises the two wire forms of a playback status into one PlaybackState:
 * the JSON of `GET /api/room/movie/current` (keys omitted when false/0, docs/contract.md §7.3) and
 * the protobuf `Status` of STATUS / SYNC / CHECK_STATUS (§6.3). A rate of 0 is never valid playback,
 * so it is read as 1.
 */
import type { PlaybackStatus } from '@/lib/contract/types';
import type { PlaybackState } from '@/lib/contract/playback';

/** JSON status (missing keys default to false / 0 / 1) → PlaybackState. */
export function fromJsonStatus(status: Partial<PlaybackStatus> | null | undefined): PlaybackState {
  return {
    isPlaying: Boolean(status?.isPlaying),
    currentTime: finiteOr(status?.currentTime, 0),
    playbackRate: finiteOr(status?.playbackRate, 0) > 0 ? (status?.playbackRate as number) : 1,
  };
}

/** Protobuf Status (proto3 defaults) → PlaybackState. */
export function fromWireStatus(status: PlaybackState): PlaybackState {
  return {
    isPlaying: status.isPlaying,
    currentTime: finiteOr(status.currentTime, 0),
    playbackRate: finiteOr(status.playbackRate, 0) > 0 ? status.playbackRate : 1,
  };
}

function finiteOr(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
}
