import { renderHook } from '@testing-library/react';
import { DUCK_RELEASE_MS, DUCKED_VOLUME, useDucking } from './use-ducking';

describe('ducking the movie under voices', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('lowers the volume while someone speaks and brings it back after a pause', () => {
    const video = document.createElement('video');
    video.volume = 0.8;
    const { rerender } = renderHook(({ active }) => useDucking(video, active), { initialProps: { active: false } });
    expect(video.volume).toBe(0.8);
    rerender({ active: true });
    expect(video.volume).toBeCloseTo(0.8 * DUCKED_VOLUME);
    // A short pause between words does not bring the film back.
    rerender({ active: false });
    jest.advanceTimersByTime(DUCK_RELEASE_MS / 2);
    rerender({ active: true });
    jest.advanceTimersByTime(DUCK_RELEASE_MS);
    expect(video.volume).toBeCloseTo(0.8 * DUCKED_VOLUME);
    rerender({ active: false });
    jest.advanceTimersByTime(DUCK_RELEASE_MS);
    expect(video.volume).toBe(0.8);
  });

  it('keeps a volume the viewer set while it was lowered, and restores on leaving', () => {
    const video = document.createElement('video');
    video.volume = 1;
    const { rerender, unmount } = renderHook(({ active }) => useDucking(video, active), { initialProps: { active: true } });
    expect(video.volume).toBeCloseTo(DUCKED_VOLUME);
    video.volume = 0.5;
    rerender({ active: false });
    jest.advanceTimersByTime(DUCK_RELEASE_MS);
    expect(video.volume).toBe(0.5);

    rerender({ active: true });
    expect(video.volume).toBeCloseTo(0.5 * DUCKED_VOLUME);
    unmount();
    expect(video.volume).toBe(0.5);
  });
});
