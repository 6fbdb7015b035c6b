/**
 * When the hall's parts beside the picture (the chat, the playlist, "Add a movie") may come down:
 * after the current movie's first frame, so that on a phone's link their code does not compete with
 * the player for the bandwidth and the CPU before it (docs/benchmarks.md "First-frame benchmark").
 * At once when there is no picture to wait for (nothing plays, the current movie failed to load),
 * and at the latest AFTER_FIRST_FRAME_MAX_WAIT_MS after the hall opened (a source that never shows a
 * frame must not keep the chat away).
 */
import { useEffect, useState } from 'react';
import { useFirstFrame } from '@/components/player/use-first-frame';

/** Longest wait (ms) for the first frame before the hall's other parts load anyway. */
export const AFTER_FIRST_FRAME_MAX_WAIT_MS = 4000;

/**
 * True once the hall's other parts may load, and from then on. `video`: the player's element (null
 * before it is in the page); `picture`: whether a current movie is to show a frame at all.
 */
export function useAfterFirstFrame(video: HTMLVideoElement | null, picture: boolean): boolean {
  const framed = useFirstFrame(video);
  const [due, setDue] = useState(false);
  // The wait counts from the hall's first render, not from when the element came.
  const [openedAtMs] = useState(() => Date.now());
  useEffect(() => {
    if (due) return;
    if (framed || !picture) {
      setDue(true);
      return;
    }
    const timer = window.setTimeout(() => setDue(true), Math.max(0, openedAtMs + AFTER_FIRST_FRAME_MAX_WAIT_MS - Date.now()));
    return () => window.clearTimeout(timer);
  }, [due, framed, picture, openedAtMs]);
  return due;
}
