'use client';
import { useSyncExternalStore } from 'react';

/** How often relative times ("5 minutes ago") refresh, in ms (docs/reference-client.md §7). */
export const RELATIVE_TIME_REFRESH_MS = 30_000;

// One shared ticker for every relative time on the page, so a long room list does not run one timer per card.
let now = Date.now();
const listeners = new Set<() => void>();
let timer: ReturnType<typeof setInterval> | null = null;

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  if (!timer) {
    now = Date.now();
    timer = setInterval(() => {
      now = Date.now();
      listeners.forEach((notify) => notify());
    }, RELATIVE_TIME_REFRESH_MS);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer) {
      clearInterval(timer);
      timer = null;
    }
  };
}

/** The current time in Unix ms, refreshed every 30 s while any component uses it; null in the prerender. */
export function useNow(): number | null {
  return useSyncExternalStore(subscribe, () => now, () => null);
}
