/**
 * Notifications (sonner). Errors carry the title "错误"/"Error" and the server's `error` text or the
 * error's message; every notification lasts 4500 ms (reference-client.md §7).
 *
 * sonner is loaded on first use: it is not needed until something goes wrong or succeeds, so it stays
 * off the JavaScript a screen downloads before it is usable (issue 4 size budgets). The first notify*
 * call starts `import('sonner')`; calls made while the import runs are queued and shown in call
 * order once it resolves, later calls show at once. `AppToaster` mounts sonner's Toaster when the
 * module has loaded.
 */
import { errorMessage } from '@/lib/api/error';
import { t } from '@/lib/i18n';

/** How long a notification stays, in ms. */
export const NOTIFY_DURATION_MS = 4500;

/** The sonner module, as `import('sonner')` resolves it. */
export type SonnerModule = typeof import('sonner');
type ShowToast = (toast: SonnerModule['toast']) => void;

let sonner: SonnerModule | null = null;
let loading: Promise<SonnerModule> | null = null;
const queue: ShowToast[] = [];
const listeners = new Set<() => void>();

/**
 * Loads sonner once. On success the queued toasts are shown in call order, then the subscribers
 * (AppToaster) learn that the module is there and mount its Toaster. sonner keeps toasts created
 * before a Toaster subscribes and replays them on subscribe (Observer.subscribe in sonner 2.x), so
 * none is lost. A failed import (e.g. the chunk could not be downloaded while offline) is logged and
 * forgotten: the toasts stay queued and the next notify* call tries again.
 */
function loadSonner(): Promise<SonnerModule> {
  if (!loading) {
    loading = import('sonner').then(
      (module) => {
        sonner = module;
        for (const showToast of queue.splice(0)) showToast(module.toast);
        for (const listener of listeners) listener();
        return module;
      },
      (error: unknown) => {
        loading = null;
        console.error('Could not load the notification module (sonner)', error);
        throw error;
      },
    );
  }
  return loading;
}

/**
 * The sonner module once the first notification has loaded it, else null. AppToaster reads it with
 * `useSyncExternalStore` and mounts `Toaster` from it, the same module instance the toasts use.
 */
export function loadedSonner(): SonnerModule | null {
  return sonner;
}

/** Subscribes to `loadedSonner` changes (it changes once, when sonner has loaded); returns the unsubscribe function. */
export function subscribeLoadedSonner(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** Shows a toast now if sonner is loaded, else queues it behind the import (in call order). */
function show(showToast: ShowToast): void {
  if (sonner) {
    showToast(sonner.toast);
    return;
  }
  queue.push(showToast);
  // A rejection is already logged by loadSonner; the toast stays queued for the next attempt.
  loadSonner().catch(() => undefined);
}

/** Shows an error notification for any thrown value. */
export function notifyError(error: unknown): void {
  const title = t('notify.errorTitle');
  const description = errorMessage(error);
  show((toast) => toast.error(title, { description, duration: NOTIFY_DURATION_MS }));
}

/** Shows a success notification. */
export function notifySuccess(title: string, description?: string): void {
  show((toast) => toast.success(title, { description, duration: NOTIFY_DURATION_MS }));
}

/** Shows a warning or informational notification. */
export function notifyInfo(title: string, description?: string): void {
  show((toast) => toast.info(title, { description, duration: NOTIFY_DURATION_MS }));
}

/** Shows a warning notification. */
export function notifyWarning(title: string, description?: string): void {
  show((toast) => toast.warning(title, { description, duration: NOTIFY_DURATION_MS }));
}
