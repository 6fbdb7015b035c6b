/**
 * The room playback time math of SyncTV v0.9.11 (docs/contract.md §6.4, §6.7), shared by the
 * companion server (authoritative status) and the client (late joiners, expected position).
 * Units: `currentTime` seconds, `playbackRate` a factor, times in Unix milliseconds.
 */

/**
 * A playback status: playing or paused, the position `currentTime` in seconds and `playbackRate` as a
 * factor (1 = normal speed). The one shape of the protobuf `Status` (§6.3), of what the client
 * publishes as STATUS / CHECK_STATUS (§6.4) and of the room status the server keeps (§6.7); the JSON of
 * `GET /api/room/movie/current` omits its zero keys (`PlaybackStatus` in ./types.ts, §7.3).
 */
export interface PlaybackState {
  isPlaying: boolean;
  currentTime: number;
  playbackRate: number;
}

/** The room's authoritative status at `lastUpdateMs` (server wall clock, Unix ms). */
export interface RoomPlayback extends PlaybackState {
  lastUpdateMs: number;
}

/** Largest latency (seconds) the server credits to an incoming STATUS (§6.4). */
export const MAX_LATENCY_SEC = 1.5;

/**
 * Extrapolates a status to `nowMs` (§6.7 step 1): while playing, currentTime advances by
 * elapsed × playbackRate. A paused status only moves `lastUpdateMs`. Live movies keep (playing, 0, 1).
 */
export function extrapolate(status: RoomPlayback, nowMs: number, live = false): RoomPlayback {
  if (live) return { isPlaying: true, currentTime: 0, playbackRate: 1, lastUpdateMs: nowMs };
  if (!status.isPlaying) return { ...status, lastUpdateMs: nowMs };
  const elapsedSec = Math.max(0, nowMs - status.lastUpdateMs) / 1000;
  return { ...status, currentTime: status.currentTime + elapsedSec * status.playbackRate, lastUpdateMs: nowMs };
}

/**
 * Latency credited to a message stamped `timestampMs` (client clock, Unix ms) on arrival at
 * `nowMs` (server clock): (now − timestamp) in seconds clamped to [0, 1.5]; 0 when the stamp is 0 (§6.4).
 */
export function latencySec(timestampMs: number, nowMs: number): number {
  if (!timestampMs) return 0;
  return Math.min(MAX_LATENCY_SEC, Math.max(0, (nowMs - timestampMs) / 1000));
}

/**
 * The status the server stores on a client STATUS (§6.7 step 2):
 * currentTime = seek + latency × rate while playing, else seek; lastUpdate = now.
 */
export function applyClientStatus(
  seek: PlaybackState,
  timestampMs: number,
  nowMs: number,
  live = false,
): RoomPlayback {
  if (live) return { isPlaying: true, currentTime: 0, playbackRate: 1, lastUpdateMs: nowMs };
  const latency = seek.isPlaying ? latencySec(timestampMs, nowMs) : 0;
  return {
    isPlaying: seek.isPlaying,
    currentTime: seek.currentTime + latency * seek.playbackRate,
    playbackRate: seek.playbackRate,
    lastUpdateMs: nowMs,
  };
}

/** Largest drift (seconds) v0.9.11 tolerates before CHECK_STATUS answers (§6.4). */
export const CHECK_STATUS_MAX_INTERVAL_SEC = 10;

/**
 * The server's CHECK_STATUS rule (§6.4): out of sync when play state or rate differ, or when the
 * client's position plus latency is more than 10 s away from the room's extrapolated position.
 */
export function isOutOfSync(
  room: PlaybackState,
  client: PlaybackState,
  latency: number,
): boolean {
  if (room.isPlaying !== client.isPlaying) return true;
  if (room.playbackRate !== client.playbackRate) return true;
  const clientAt = client.currentTime + latency;
  return room.currentTime + CHECK_STATUS_MAX_INTERVAL_SEC < clientAt || room.currentTime - CHECK_STATUS_MAX_INTERVAL_SEC > clientAt;
}
