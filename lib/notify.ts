/**
 * Notifications (sonner). Errors carry the title "错误"/"Error" and the failure in words for people
 * (lib/i18n/error-text.ts: the catalogue's message for a contract text, the raw text only when it is
 * unknown); every notification lasts 4500 ms (docs/reference-client.md §7). The same notification asked
 * for again while it is shown does not stack: it replaces the one on screen (one toast id per
 * kind, title and text). Forms show their errors at the field instead and do not call notifyError.
 *
 * sonner and the error catalogue are loaded on first use: they are not needed until something goes
 * wrong or succeeds, so they stay off the JavaScript a screen downloads before it is usable (size
 * budgets). The first notify* call starts `import('sonner')` and the catalogue's import; calls made while the import runs are queued and shown in call
 * order once it resolves, later calls show at once. `AppToaster` mounts sonner's Toaster when the
 * module has loaded.
 */
import { describeError, loadErrorCatalogue } from '@/lib/i18n/error-text';
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
    loading = Promise.all([import('sonner'), loadErrorCatalogue()]).then(
      ([module]) => {
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

type Kind = 'error' | 'success' | 'info' | 'warning';

/** Shows one toast; the id makes a repeat of the same toast replace it instead of stacking. */
function toastOf(kind: Kind, title: string, description: string | undefined): ShowToast {
  const id = `${kind}\n${title}\n${description ?? ''}`;
  return (toast) => toast[kind](title, { id, description, duration: NOTIFY_DURATION_MS });
}

/** Shows an error notification for any thrown value, in words for people (see the module comment). */
export function notifyError(error: unknown): void {
  // Described when shown: the catalogue arrives with sonner.
  show((toast) => toastOf('error', t('notify.errorTitle'), describeError(error).message)(toast));
}

/** Shows a success notification. */
export function notifySuccess(title: string, description?: string): void {
  show(toastOf('success', title, description));
}

/** Shows an informational notification. */
export function notifyInfo(title: string, description?: string): void {
  show(toastOf('info', title, description));
}

/** Shows a warning notification. */
export function notifyWarning(title: string, description?: string): void {
  show(toastOf('warning', title, description));
}
