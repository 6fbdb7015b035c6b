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
 * `ready`: the controls' elements are defined; `reach`: the viewer reached for them (a pointer, a tap
 * or the focus on the controller; see below); `load`: load them now (a broadcast's off-air notice
 * lives in their centre).
 *
 * A reach before media-chrome defined the controller went unseen by it, so once the controls are
 * there they are shown as on a pointer move, not left hidden under the finger. A tap is shown only
 * after the finger is up: media-chrome takes the lift of a tap over visible controls for "hide
 * them". A reach on a controller that is already defined (a second player on the page, e.g. after
 * coming back to the room) is media-chrome's own: showing them as well would turn the tap that
 * shows them into one that hides them.
 */
export function useChrome(videoRef: RefObject<HTMLVideoElement | null>, controllerRef: RefObject<HTMLElement | null>) {
  const [ready, setReady] = useState(false);
  const load = useCallback(() => {
    void loadChrome().then(() => setReady(true), () => undefined);
  }, []);
  /** An unseen reach, shown once the controls are there; `touching`: its finger is still down. */
  const reached = useRef<{ touching: boolean; onLift?: () => void } | null>(null);
  const reach = useCallback(
    (event: React.SyntheticEvent) => {
      load();
      if (controllerRef.current?.matches(':defined')) return;
      const touching = event.type === 'pointerdown' && (event.nativeEvent as PointerEvent).pointerType === 'touch';
      if (reached.current && !touching) return;
      const state: { touching: boolean; onLift?: () => void } = { touching };
      reached.current = state;
      if (!touching) return;
      const lift = () => {
        window.removeEventListener('pointerup', lift);
        window.removeEventListener('pointercancel', lift);
        state.touching = false;
        state.onLift?.();
      };
      window.addEventListener('pointerup', lift);
      window.addEventListener('pointercancel', lift);
    },
    [load, controllerRef],
  );
  useEffect(() => {
    const controller = controllerRef.current;
    const state = reached.current;
    if (!ready || !state || !controller || typeof PointerEvent !== 'function') return;
    const show = () => {
      reached.current = null;
      controller.dispatchEvent(new PointerEvent('pointermove', { pointerType: 'mouse', bubbles: true }));
    };
    if (!state.touching) return show();
    // After media-chrome's own handler of the same lift, which ran first on the controller.
    let after: ReturnType<typeof setTimeout> | undefined;
    state.onLift = () => {
      after = setTimeout(show, 0);
    };
    return () => {
      state.onLift = undefined;
      clearTimeout(after);
    };
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
