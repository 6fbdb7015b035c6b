/** Who did what to the room's playback (./actions.ts): the kind of action a STATUS is, and positions in words. */
import { describeRoomAction, formatPosition } from './actions';

const playing = { isPlaying: true, currentTime: 60, playbackRate: 1 };

describe('describeRoomAction', () => {
  it('tells a pause, a play, a seek and a new speed apart', () => {
    const before = { status: playing, atMs: 1_000 };
    expect(describeRoomAction(before, { isPlaying: false, currentTime: 62, playbackRate: 1 }, 3_000)).toEqual({ kind: 'pause', currentTime: 62, playbackRate: 1 });
    expect(describeRoomAction({ status: { ...playing, isPlaying: false }, atMs: 1_000 }, playing, 9_000)?.kind).toBe('play');
    expect(describeRoomAction(before, { ...playing, currentTime: 300 }, 3_000)).toEqual({ kind: 'seek', currentTime: 300, playbackRate: 1 });
    expect(describeRoomAction(before, { ...playing, currentTime: 10 }, 3_000)?.kind).toBe('seek');
    // A rate change moves the position by its lead only: a new speed, not a seek.
    expect(describeRoomAction(before, { ...playing, currentTime: 61.9, playbackRate: 1.5 }, 3_000)).toEqual({ kind: 'rate', currentTime: 61.9, playbackRate: 1.5 });
  });

  it('finds nothing in a repeat of where the room is, or without a status to compare with', () => {
    expect(describeRoomAction({ status: playing, atMs: 1_000 }, { ...playing, currentTime: 65.1 }, 6_000)).toBeNull();
    expect(describeRoomAction({ status: { ...playing, isPlaying: false }, atMs: 1_000 }, { ...playing, isPlaying: false, currentTime: 60.2 }, 60_000)).toBeNull();
    expect(describeRoomAction(null, playing, 0)).toBeNull();
  });
});

describe('formatPosition', () => {
  it('writes minutes and seconds, and hours from an hour on', () => {
    expect(formatPosition(0)).toBe('0:00');
    expect(formatPosition(754.9)).toBe('12:34');
    expect(formatPosition(3723)).toBe('1:02:03');
    expect(formatPosition(-3)).toBe('0:00');
  });
});
