'use client';
/**
 * The Radix part of `ConfirmDialog` (focus trap, Escape, screen-reader title and description). It is
 * its own module so that the viewing hall downloads Radix Dialog only when a confirmation is first
 * asked for; use `ConfirmDialog`, which keeps the busy state.
 */
import * as Dialog from '@radix-ui/react-dialog';
import { Button } from '@/components/ui/button';
import { useReturnFocus } from '@/components/ui/return-focus';

export interface ConfirmDialogPanelProps {
  open: boolean;
  title: string;
  description: string;
  confirmLabel: string;
  cancelLabel: string;
  /** True while the action runs: the confirm button spins, cancel and dismissing are disabled. */
  busy: boolean;
  onConfirm: () => void;
  onOpenChange: (open: boolean) => void;
}

/** The modal itself: title, description, cancel and a red confirm button (`confirm-*` test ids). */
export function ConfirmDialogPanel({ open, title, description, confirmLabel, cancelLabel, busy, onConfirm, onOpenChange }: ConfirmDialogPanelProps) {
  const returnFocus = useReturnFocus();
  return (
    <Dialog.Root open={open} onOpenChange={(next) => !busy && onOpenChange(next)}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-black/50 animate-fade-in" />
        <Dialog.Content
          {...returnFocus}
          data-testid="confirm-dialog"
          className="fixed left-1/2 top-1/2 z-50 w-[calc(100%-2rem)] max-w-sm -translate-x-1/2 -translate-y-1/2 rounded-2xl border border-zinc-200 bg-white p-5 shadow-xl dark:border-zinc-800 dark:bg-zinc-900"
        >
          <Dialog.Title className="text-base font-semibold">{title}</Dialog.Title>
          <Dialog.Description className="mt-2 break-words text-sm text-zinc-600 dark:text-zinc-400">{description}</Dialog.Description>
          <div className="mt-5 flex justify-end gap-2">
            <Dialog.Close asChild>
              <Button variant="outline" size="sm" data-testid="confirm-cancel" disabled={busy}>
                {cancelLabel}
              </Button>
            </Dialog.Close>
            <Button variant="danger" size="sm" data-testid="confirm-ok" loading={busy} onClick={onConfirm}>
              {confirmLabel}
            </Button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
