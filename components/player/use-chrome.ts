/**
 * When the player's controls (media-chrome, ./chrome.ts) come: 1.5 s after the movie's first frame
 * once the page is idle, as soon as the viewer reaches for them (a pointer, a tap, the keyboard), or
 * after CHROME_FALLBACK_MS whatever happens, so the picture and the first sync come first
 * (docs/player.md "Controls").
 */
import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';

/** The controls load at the latest this long (ms) after mount, even if no frame ever comes. */
const CHROME_FALLBACK_MS = 6000;
/** How long (ms) after the first frame the controls wait, unless the viewer reaches for them. */
const CHROME_DELAY_MS = 1500;
/** Longest wait (ms) for an idle moment after the first frame before the controls load anyway. */
const CHROME_IDLE_TIMEOUT_MS = 1000;

let chromeModule: Promise<typeof import('@/components/player/chrome')> | null = null;
/** Downloads (once) and defines the control layer's custom elements. */
export function loadChrome() {
  chromeModule ??= import('@/components/player/chrome');
  return chromeModule;
}

/**
 * Loads the controls for the player of `videoRef` inside `controllerRef` (the media-controller).
 * `ready`: the controls' elements are defined; `reach`: the viewer reached for them (the controller
 * then shows them as on a pointer move, not hidden under the finger); `load`: load them now (a
 * broadcast's off-air notice lives in their centre).
 */
export function useChrome(videoRef: RefObject<HTMLVideoElement | null>, controllerRef: RefObject<HTMLElement | null>) {
  const [ready, setReady] = useState(false);
  const load = useCallback(() => {
    void loadChrome().then(() => setReady(true), () => undefined);
  }, []);
  const reached = useRef(false);
  const reach = useCallback(() => {
    reached.current = true;
    load();
  }, [load]);
  useEffect(() => {
    if (!ready || !reached.current || typeof PointerEvent !== 'function') return;
    controllerRef.current?.dispatchEvent(new PointerEvent('pointermove', { pointerType: 'mouse', bubbles: true }));
  }, [ready, controllerRef]);
  useEffect(() => {
    const video = videoRef.current;
    if (!video) return;
    // After the first frame, when the page is idle: the picture's own requests, and the sync engine's
    // first seek to the room's position, go first (evaluating the controls is a long task that would
    // otherwise delay hls.js's appends right when a late joiner catches up).
    let idle: number | undefined;
    let delay: ReturnType<typeof setTimeout> | undefined;
    const whenIdle = () => {
      idle = typeof requestIdleCallback === 'function' ? requestIdleCallback(load, { timeout: CHROME_IDLE_TIMEOUT_MS }) : window.setTimeout(load, 0);
    };
    const afterFirstFrame = () => {
      delay = setTimeout(whenIdle, CHROME_DELAY_MS);
    };
    video.addEventListener('loadeddata', afterFirstFrame, { once: true });
    const fallback = setTimeout(load, CHROME_FALLBACK_MS);
    return () => {
      video.removeEventListener('loadeddata', afterFirstFrame);
      clearTimeout(fallback);
      clearTimeout(delay);
      if (idle !== undefined && typeof cancelIdleCallback === 'function') cancelIdleCallback(idle);
    };
  }, [videoRef, load]);
  return { ready, reach, load };
}
