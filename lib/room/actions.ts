/**
 * Who did what to the room's playback (docs/features.md "Who did it"): a STATUS frame from another
 * member carries its `sender` (docs/contract.md §6.7), and comparing it with the status the room had
 * tells whether they played, paused, jumped or changed the speed. The STATUS this tab sends is
 * compared the same way, so that the person sees their own action as the others do. The hall says it
 * in the chat (one line per person per ACTION_LINE_GAP_MS, the latest action winning) and briefly
 * over the picture.
 */
import type { PlaybackState } from '@/lib/contract/playback';

/** What a member did: `currentTime` (s) where the room is after it, `playbackRate` its rate. */
export interface RoomAction {
  kind: 'play' | 'pause' | 'seek' | 'rate';
  currentTime: number;
  playbackRate: number;
}

/**
 * A room action with who did it and when (local Unix ms); `id` tells two equal actions apart.
 * `own`: the action was this user's, from this tab (a STATUS it sent) or another of theirs; the hall
 * says "You paused at 0:22", so that a browser acting on its own is noticed by its person.
 */
export interface RoomActionEvent {
  id: number;
  username: string;
  own: boolean;
  action: RoomAction;
  atMs: number;
}

/**
 * A member's further actions within this long (ms) of their last chat line replace that line rather
 * than add one (scrubbing through a film sends a STATUS per stop).
 */
export const ACTION_LINE_GAP_MS = 2000;

/**
 * A jump of the position (s) beyond where the room would be by then that counts as a seek. A
 * status also moves by a play's or a rate change's lead (0.2 s, lib/sync/tuning.ts COMMON_LEAD_SEC)
 * and the network's delay; a person's seek is seconds.
 */
const SEEK_SEC = 1;

/**
 * What `next` (a STATUS received at local Unix ms `atMs`) did to the room whose status was
 * `previous` (at local Unix ms `previousAtMs`), or null when it changed nothing a person would
 * notice (a correction, a repeat). A pause or play wins over a move; a move over a new speed.
 */
export function describeRoomAction(previous: { status: PlaybackState; atMs: number } | null, next: PlaybackState, atMs: number): RoomAction | null {
  const action = (kind: RoomAction['kind']): RoomAction => ({ kind, currentTime: next.currentTime, playbackRate: next.playbackRate });
  if (!previous) return null;
  const before = previous.status;
  if (before.isPlaying !== next.isPlaying) return action(next.isPlaying ? 'play' : 'pause');
  const expected = before.isPlaying ? before.currentTime + ((atMs - previous.atMs) / 1000) * before.playbackRate : before.currentTime;
  if (Math.abs(next.currentTime - expected) > SEEK_SEC) return action('seek');
  if (Math.abs(next.playbackRate - before.playbackRate) > 1e-3) return action('rate');
  return null;
}

/** A position as a player shows it: `m:ss`, or `h:mm:ss` from an hour on (`seconds` ≥ 0). */
export function formatPosition(seconds: number): string {
  const total = Math.max(0, Math.floor(seconds));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const rest = String(total % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${rest}` : `${minutes}:${rest}`;
}
