/** When the hall's parts beside the picture load (./use-after-first-frame.ts). */
import { act, renderHook } from '@testing-library/react';
import { AFTER_FIRST_FRAME_MAX_WAIT_MS, useAfterFirstFrame } from './use-after-first-frame';

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

describe('useAfterFirstFrame', () => {
  it('is due at once when there is no picture to wait for', () => {
    const { result } = renderHook(() => useAfterFirstFrame(null, false));
    expect(result.current).toBe(true);
  });

  it("waits for the video's first frame, and stays due after it", () => {
    const video = document.createElement('video');
    const { result, rerender } = renderHook(({ picture }) => useAfterFirstFrame(video, picture), { initialProps: { picture: true } });
    expect(result.current).toBe(false);
    act(() => void video.dispatchEvent(new Event('loadeddata')));
    expect(result.current).toBe(true);
    rerender({ picture: true });
    expect(result.current).toBe(true);
  });

  it('is due before the element exists once the wait is over (a source that never shows a frame)', () => {
    const { result } = renderHook(() => useAfterFirstFrame(null, true));
    act(() => void jest.advanceTimersByTime(AFTER_FIRST_FRAME_MAX_WAIT_MS - 1));
    expect(result.current).toBe(false);
    act(() => void jest.advanceTimersByTime(1));
    expect(result.current).toBe(true);
  });

  it('counts the wait from the first render, not from when the element came', () => {
    const video = document.createElement('video');
    const { result, rerender } = renderHook(({ element }) => useAfterFirstFrame(element, true), { initialProps: { element: null as HTMLVideoElement | null } });
    act(() => void jest.advanceTimersByTime(AFTER_FIRST_FRAME_MAX_WAIT_MS - 500));
    rerender({ element: video });
    expect(result.current).toBe(false);
    act(() => void jest.advanceTimersByTime(500));
    expect(result.current).toBe(true);
  });

  it('is due when the current movie turns out to be none while it waited', () => {
    const { result, rerender } = renderHook(({ picture }) => useAfterFirstFrame(null, picture), { initialProps: { picture: true } });
    expect(result.current).toBe(false);
    rerender({ picture: false });
    expect(result.current).toBe(true);
  });
});
