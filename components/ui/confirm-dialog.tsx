'use client';
/**
 * A small confirmation dialog (Radix Dialog: focus trap, Escape, screen-reader title) for
 * destructive movie actions. Radix loads the first time the dialog opens, not with the hall.
 */
import { lazy, Suspense, useState } from 'react';
import { useT } from '@/lib/i18n';
import '@/lib/i18n/messages/cinema';

const ConfirmDialogPanel = lazy(() => import('./confirm-dialog-panel').then((m) => ({ default: m.ConfirmDialogPanel })));

export interface ConfirmDialogProps {
  open: boolean;
  title: string;
  description: string;
  confirmLabel: string;
  /** Runs the action; the dialog stays open (busy) until it settles, then closes. */
  onConfirm: () => Promise<void>;
  onOpenChange: (open: boolean) => void;
}

/**
 * Asks "really?" before `onConfirm` runs: `confirm-dialog` with `confirm-cancel` and `confirm-ok`.
 * Nothing is rendered (or downloaded) until `open` first becomes true.
 */
export function ConfirmDialog({ open, title, description, confirmLabel, onConfirm, onOpenChange }: ConfirmDialogProps) {
  const t = useT();
  const [busy, setBusy] = useState(false);
  // Becomes true on the first open and stays: later opens are instant. Adjusted during render so that
  // the opening render already asks for the panel (no extra effect pass).
  const [used, setUsed] = useState(open);
  if (open && !used) setUsed(true);

  const confirm = async () => {
    setBusy(true);
    try {
      await onConfirm();
    } finally {
      setBusy(false);
      onOpenChange(false);
    }
  };

  if (!used) return null;
  return (
    <Suspense fallback={null}>
      <ConfirmDialogPanel
        open={open}
        title={title}
        description={description}
        confirmLabel={confirmLabel}
        cancelLabel={t('cinema.dialog.cancel')}
        busy={busy}
        onConfirm={() => void confirm()}
        onOpenChange={onOpenChange}
      />
    </Suspense>
  );
}
