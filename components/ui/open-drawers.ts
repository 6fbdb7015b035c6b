/**
 * How many side panels (./drawer.tsx) are open, for the toaster: while one covers the right of a
 * wide window, toasts move to the left, over the dimmed page instead of over the panel's controls.
 */
let count = 0;
const listeners = new Set<() => void>();

/** Counts a panel as open until the returned function is called. */
export function markDrawerOpen(): () => void {
  count += 1;
  listeners.forEach((listener) => listener());
  let closed = false;
  return () => {
    if (closed) return;
    closed = true;
    count -= 1;
    listeners.forEach((listener) => listener());
  };
}

/** Whether a panel is open now (useSyncExternalStore's snapshot). */
export function isDrawerOpen(): boolean {
  return count > 0;
}

/** Subscribes to changes (useSyncExternalStore's subscribe). */
export function subscribeDrawers(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
