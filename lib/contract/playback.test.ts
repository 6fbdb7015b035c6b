/**
 * The room playback time math (docs/contract.md §6.4, §6.7): what a late joiner and the server
 * compute from a status, a client timestamp and the clock.
 */
import { applyClientStatus, extrapolate, isOutOfSync, latencySec, MAX_LATENCY_SEC, type RoomPlayback } from './playback';

const T0 = 1_700_000_000_000;

describe('extrapolate', () => {
  const playing: RoomPlayback = { isPlaying: true, currentTime: 10, playbackRate: 1, lastUpdateMs: T0 };

  it('advances a playing status by elapsed × rate', () => {
    expect(extrapolate(playing, T0 + 2500)).toEqual({ isPlaying: true, currentTime: 12.5, playbackRate: 1, lastUpdateMs: T0 + 2500 });
    expect(extrapolate({ ...playing, playbackRate: 1.5 }, T0 + 2000).currentTime).toBeCloseTo(13);
    expect(extrapolate({ ...playing, playbackRate: 0.5 }, T0 + 2000).currentTime).toBeCloseTo(11);
  });

  it('keeps a paused position and only moves lastUpdate', () => {
    const paused = { ...playing, isPlaying: false };
    expect(extrapolate(paused, T0 + 60_000)).toEqual({ ...paused, lastUpdateMs: T0 + 60_000 });
  });

  it('never runs backwards when the clock reads earlier than lastUpdate', () => {
    expect(extrapolate(playing, T0 - 5000).currentTime).toBe(10);
  });

  it('is additive: two reads give the same position as one', () => {
    const once = extrapolate(playing, T0 + 3000);
    const twice = extrapolate(extrapolate(playing, T0 + 1000), T0 + 3000);
    expect(twice.currentTime).toBeCloseTo(once.currentTime, 9);
  });

  it('holds a live movie at playing, 0 s, rate 1', () => {
    expect(extrapolate({ ...playing, currentTime: 99, playbackRate: 2 }, T0 + 1000, true)).toEqual({
      isPlaying: true,
      currentTime: 0,
      playbackRate: 1,
      lastUpdateMs: T0 + 1000,
    });
  });
});

describe('latencySec', () => {
  it('is (now − timestamp) in seconds', () => {
    expect(latencySec(T0, T0 + 250)).toBeCloseTo(0.25);
  });

  it('clamps to [0, 1.5]', () => {
    expect(latencySec(T0 + 5000, T0)).toBe(0); // client clock ahead
    expect(latencySec(T0, T0 + 1500)).toBe(1.5);
    expect(latencySec(T0, T0 + 60_000)).toBe(MAX_LATENCY_SEC);
  });

  it('is 0 for a zero timestamp', () => {
    expect(latencySec(0, T0)).toBe(0);
  });
});

describe('applyClientStatus', () => {
  it('credits the latency × rate to a playing status', () => {
    const stored = applyClientStatus({ isPlaying: true, currentTime: 20, playbackRate: 2 }, T0, T0 + 300);
    expect(stored.currentTime).toBeCloseTo(20.6);
    expect(stored).toMatchObject({ isPlaying: true, playbackRate: 2, lastUpdateMs: T0 + 300 });
  });

  it('credits at most 1.5 s, however late the message', () => {
    expect(applyClientStatus({ isPlaying: true, currentTime: 20, playbackRate: 1 }, T0, T0 + 10_000).currentTime).toBeCloseTo(21.5);
  });

  it('stores a paused status at the seek position', () => {
    expect(applyClientStatus({ isPlaying: false, currentTime: 20, playbackRate: 1 }, T0, T0 + 1000)).toEqual({
      isPlaying: false,
      currentTime: 20,
      playbackRate: 1,
      lastUpdateMs: T0 + 1000,
    });
  });

  it('forces a live movie to playing, 0 s, rate 1', () => {
    expect(applyClientStatus({ isPlaying: false, currentTime: 5, playbackRate: 2 }, T0, T0, true)).toMatchObject({
      isPlaying: true,
      currentTime: 0,
      playbackRate: 1,
    });
  });
});

describe('isOutOfSync (the server CHECK_STATUS rule)', () => {
  const room = { isPlaying: true, currentTime: 100, playbackRate: 1 };

  it('is in sync within 10 s either way, edges included', () => {
    expect(isOutOfSync(room, { ...room, currentTime: 110 }, 0)).toBe(false);
    expect(isOutOfSync(room, { ...room, currentTime: 90 }, 0)).toBe(false);
  });

  it('is out of sync just beyond 10 s', () => {
    expect(isOutOfSync(room, { ...room, currentTime: 110.001 }, 0)).toBe(true);
    expect(isOutOfSync(room, { ...room, currentTime: 89.999 }, 0)).toBe(true);
  });

  it('adds the latency to the client position', () => {
    expect(isOutOfSync(room, { ...room, currentTime: 89 }, 1)).toBe(false);
    expect(isOutOfSync(room, { ...room, currentTime: 109.5 }, 1)).toBe(true);
  });

  it('is out of sync when the play state or rate differs, whatever the position', () => {
    expect(isOutOfSync(room, { ...room, isPlaying: false }, 0)).toBe(true);
    expect(isOutOfSync(room, { ...room, playbackRate: 1.25 }, 0)).toBe(true);
  });
});
