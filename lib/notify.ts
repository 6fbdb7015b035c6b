/**
 * Notifications (sonner). Errors carry the title "错误"/"Error" and the server's `error` text or the
 * error's message; every notification lasts 4500 ms (reference-client.md §7).
 */
import { toast } from 'sonner';
import { errorMessage } from '@/lib/api/error';
import { t } from '@/lib/i18n';

/** How long a notification stays, in ms. */
export const NOTIFY_DURATION_MS = 4500;

/** Shows an error notification for any thrown value. */
export function notifyError(error: unknown): void {
  toast.error(t('notify.errorTitle'), { description: errorMessage(error), duration: NOTIFY_DURATION_MS });
}

/** Shows a success notification. */
export function notifySuccess(title: string, description?: string): void {
  toast.success(title, { description, duration: NOTIFY_DURATION_MS });
}

/** Shows a warning or informational notification. */
export function notifyInfo(title: string, description?: string): void {
  toast.info(title, { description, duration: NOTIFY_DURATION_MS });
}

/** Shows a warning notification. */
export function notifyWarning(title: string, description?: string): void {
  toast.warning(title, { description, duration: NOTIFY_DURATION_MS });
}
