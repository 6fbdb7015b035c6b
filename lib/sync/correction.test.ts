/** The pure sync decisions: room position, SYNC reply compensation and the correction to apply. */
import { compensateSyncReply, decideCorrection, isNoop, positionAt, type RoomTarget } from './correction';
import type { LocalPlayback } from './media';

const T0 = 1_700_000_000_000;
const options = { live: false, seekThresholdSec: 0.3 };
const local = (overrides: Partial<LocalPlayback> = {}): LocalPlayback => ({
  currentTime: 0,
  playbackRate: 1,
  paused: true,
  ended: false,
  duration: 120,
  ...overrides,
});
const playingAt = (currentTime: number, playbackRate = 1): RoomTarget => ({ status: { isPlaying: true, currentTime, playbackRate }, referenceMs: T0 });

describe('positionAt', () => {
  it('moves a playing target by elapsed × rate and holds a paused one', () => {
    expect(positionAt(playingAt(10, 2), T0 + 1500)).toBeCloseTo(13);
    expect(positionAt({ status: { isPlaying: false, currentTime: 10, playbackRate: 1 }, referenceMs: T0 }, T0 + 9000)).toBe(10);
  });
});

describe('compensateSyncReply', () => {
  it('adds half the round trip × rate while playing, nothing while paused', () => {
    expect(compensateSyncReply({ isPlaying: true, currentTime: 10, playbackRate: 1.5 }, T0, T0 + 400)).toEqual({
      status: { isPlaying: true, currentTime: 10.3, playbackRate: 1.5 },
      referenceMs: T0 + 400,
    });
    expect(compensateSyncReply({ isPlaying: false, currentTime: 10, playbackRate: 1 }, T0, T0 + 400).status.currentTime).toBe(10);
  });
});

describe('decideCorrection', () => {
  it('does nothing when in sync', () => {
    expect(isNoop(decideCorrection(playingAt(10), local({ currentTime: 10.2, paused: false }), T0, options))).toBe(true);
  });

  it('seeks beyond the threshold, in either direction', () => {
    expect(decideCorrection(playingAt(10), local({ currentTime: 10.31, paused: false }), T0, options)).toEqual({ seekTo: 10 });
    expect(decideCorrection(playingAt(10), local({ currentTime: 9.69, paused: false }), T0, options)).toEqual({ seekTo: 10 });
  });

  it('leads a seek while playing by the seek lead × rate', () => {
    expect(decideCorrection(playingAt(10, 2), local({ playbackRate: 2, paused: false }), T0, { ...options, seekLeadSec: 0.2 }).seekTo).toBeCloseTo(10.4);
  });

  it('plays, pauses and sets the rate', () => {
    expect(decideCorrection(playingAt(0, 1.25), local(), T0, options)).toEqual({ playbackRate: 1.25, play: true });
    expect(decideCorrection({ status: { isPlaying: false, currentTime: 0, playbackRate: 1 }, referenceMs: T0 }, local({ paused: false }), T0, options)).toEqual({ pause: true });
  });

  it('never seeks past the end, and does not restart an ended element', () => {
    expect(decideCorrection(playingAt(200), local({ currentTime: 50, paused: false }), T0, options)).toEqual({ seekTo: 120, pause: true });
    expect(isNoop(decideCorrection(playingAt(200), local({ currentTime: 120, ended: true }), T0, options))).toBe(true);
  });

  it('for a live movie only follows play/pause', () => {
    expect(decideCorrection(playingAt(500, 2), local({ duration: Infinity }), T0, { ...options, live: true })).toEqual({ play: true });
  });
});
