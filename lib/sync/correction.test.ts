/** The pure sync decisions: the room position on the server clock and the tracking correction. */
import { decideTracking, DEFAULT_TUNING, nudgedRate, positionAt, proportionalNudge, seekTarget, type RoomTarget } from './correction';

const T0 = 1_700_000_000_000;
const playingAt = (currentTime: number, playbackRate = 1): RoomTarget => ({ status: { isPlaying: true, currentTime, playbackRate }, serverTimeMs: T0 });

describe('positionAt', () => {
  it('moves a playing target by elapsed server time × rate and holds a paused one', () => {
    expect(positionAt(playingAt(10, 2), T0 + 1500)).toBeCloseTo(13);
    expect(positionAt({ status: { isPlaying: false, currentTime: 10, playbackRate: 1 }, serverTimeMs: T0 }, T0 + 9000)).toBe(10);
  });
});

describe('decideTracking', () => {
  const track = (driftSec: number, nudge = 0, acquiring = false, roomRate = 1) => decideTracking({ driftSec, roomRate, nudge, acquiring });

  it('holds inside the dead band', () => {
    expect(track(0.014)).toEqual({ kind: 'hold' });
    expect(track(-0.014)).toEqual({ kind: 'hold' });
  });

  it('nudges proportionally from the dead band: faster when behind, slower when ahead', () => {
    expect(track(-0.03)).toEqual({ kind: 'rate', nudge: 0.03, playbackRate: 1.03 });
    expect(track(0.02)).toEqual({ kind: 'rate', nudge: -0.02, playbackRate: 0.98 });
  });

  it('right after an action corrects from the finer settle band', () => {
    expect(track(-0.01, 0, true)).toEqual({ kind: 'rate', nudge: 0.01, playbackRate: 1.01 });
    expect(track(-0.006, 0, true)).toEqual({ kind: 'hold' });
  });

  it('never leaves 0.95–1.05 × the room rate', () => {
    for (const drift of [-0.99, -0.5, -0.2, 0.2, 0.5, 0.99]) {
      const decision = track(drift, 0, false, 1.5);
      expect(decision.kind).toBe('rate');
      if (decision.kind !== 'rate') continue;
      expect(decision.playbackRate).toBeGreaterThanOrEqual(1.5 * 0.95 - 1e-9);
      expect(decision.playbackRate).toBeLessThanOrEqual(1.5 * 1.05 + 1e-9);
    }
    expect(proportionalNudge(-10)).toBe(DEFAULT_TUNING.maxNudge);
  });

  it('holds one rate while the gap closes, and returns to the room rate once it is (almost) gone', () => {
    expect(track(-0.04, 0.05)).toEqual({ kind: 'hold' });
    expect(track(-0.012, 0.05)).toEqual({ kind: 'hold' }); // under the dead band, but not closed yet
    expect(track(-0.003, 0.05)).toEqual({ kind: 'rate', nudge: 0, playbackRate: 1 });
  });

  it('turns an overshooting nudge around without passing through the room rate', () => {
    expect(track(0.006, 0.05)).toEqual({ kind: 'rate', nudge: -0.006, playbackRate: 0.994 });
    expect(track(0.003, 0.05)).toEqual({ kind: 'rate', nudge: 0, playbackRate: 1 });
  });

  it('grows a nudge when the gap grew during the correction (a stall)', () => {
    expect(track(-0.045, 0.02)).toEqual({ kind: 'rate', nudge: 0.045, playbackRate: 1.045 });
  });

  it('seeks from 1 s in steady play, and from 0.1 s only right after a remote action', () => {
    expect(track(-0.999).kind).toBe('rate');
    expect(track(-1).kind).toBe('seek');
    expect(track(1.2).kind).toBe('seek');
    expect(track(-0.15).kind).toBe('rate');
    expect(track(-0.15, 0, true).kind).toBe('seek');
    expect(track(0.08, 0, true).kind).toBe('rate');
  });
});

describe('seekTarget', () => {
  it('leads a seek while playing by the latency × rate, never past the end or before 0', () => {
    expect(seekTarget(10, 0.2, { isPlaying: true, currentTime: 10, playbackRate: 2 }, 120)).toBeCloseTo(10.4);
    expect(seekTarget(10, 0.2, { isPlaying: false, currentTime: 10, playbackRate: 2 }, 120)).toBe(10);
    expect(seekTarget(119.9, 0.2, { isPlaying: true, currentTime: 0, playbackRate: 1 }, 120)).toBe(120);
    expect(seekTarget(-1, 0, { isPlaying: false, currentTime: 0, playbackRate: 1 }, 120)).toBe(0);
  });
});

describe('nudgedRate', () => {
  it('scales the room rate', () => {
    expect(nudgedRate(1.5, -0.05)).toBe(1.425);
    expect(nudgedRate(1, 0)).toBe(1);
  });
});
