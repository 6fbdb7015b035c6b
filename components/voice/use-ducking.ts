'use client';
import { useEffect, useRef } from 'react';

/** The movie's volume while someone speaks, as a share of its own. */
export const DUCKED_VOLUME = 0.3;
/** How long after the last word the movie's volume comes back, ms. */
export const DUCK_RELEASE_MS = 800;

/**
 * Lowers `video`'s volume to DUCKED_VOLUME of itself while `active`, and puts it back
 * DUCK_RELEASE_MS after `active` ends. A volume the viewer sets meanwhile is kept.
 */
export function useDucking(video: HTMLVideoElement | null, active: boolean): void {
  const ducked = useRef<{ from: number; to: number } | null>(null);
  useEffect(() => {
    if (!video) return;
    if (active) {
      if (!ducked.current) {
        const from = video.volume;
        ducked.current = { from, to: from * DUCKED_VOLUME };
        video.volume = ducked.current.to;
      }
      return;
    }
    if (!ducked.current) return;
    const timer = setTimeout(() => {
      const state = ducked.current;
      ducked.current = null;
      // The viewer moved the volume while it was lowered: theirs stands.
      if (state && Math.abs(video.volume - state.to) < 0.001) video.volume = state.from;
    }, DUCK_RELEASE_MS);
    return () => clearTimeout(timer);
  }, [video, active]);
  useEffect(
    () => () => {
      if (video && ducked.current) video.volume = ducked.current.from;
    },
    [video],
  );
}
