'use client';
/**
 * A side panel over the viewing hall (Radix Dialog: focus moves in and back out, Escape and an
 * outside click close it, the title names it for screen readers). Full width on phones, up to 40 rem
 * on wider screens; its body scrolls on its own.
 */
import * as Dialog from '@radix-ui/react-dialog';
import { X } from 'lucide-react';
import { useEffect, type ReactNode } from 'react';
import { markDrawerOpen } from './open-drawers';
import { useReturnFocus } from './return-focus';

export interface DrawerProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  /** Accessible name of the close button. */
  closeLabel: string;
  testId?: string;
  children: ReactNode;
}

export function Drawer({ open, onOpenChange, title, closeLabel, testId, children }: DrawerProps) {
  const returnFocus = useReturnFocus();
  useEffect(() => (open ? markDrawerOpen() : undefined), [open]);
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-zinc-950/50 data-[state=open]:animate-fade-in" />
        <Dialog.Content
          {...returnFocus}
          aria-describedby={undefined}
          data-testid={testId}
          className="fixed inset-y-0 right-0 z-50 flex w-full max-w-2xl flex-col border-l border-zinc-200 bg-white shadow-xl focus:outline-none data-[state=open]:animate-slide-in-right dark:border-zinc-800 dark:bg-zinc-900"
        >
          <div className="flex items-center justify-between gap-3 border-b border-zinc-200 px-4 py-3 dark:border-zinc-800">
            <Dialog.Title className="min-w-0 truncate text-base font-semibold">{title}</Dialog.Title>
            <Dialog.Close
              aria-label={closeLabel}
              className="inline-flex h-10 w-10 cursor-pointer items-center justify-center rounded-lg text-zinc-600 hover:bg-zinc-100 dark:text-zinc-300 dark:hover:bg-zinc-800"
            >
              <X className="h-5 w-5" aria-hidden />
            </Dialog.Close>
          </div>
          <div className="min-h-0 flex-1 overflow-y-auto px-4 py-4">{children}</div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

export interface ModalProps extends DrawerProps {
  description?: ReactNode;
}

/** A centred dialog (the permission editor, sharing) with the same behaviour as the drawer. */
export function Modal({ open, onOpenChange, title, description, closeLabel, testId, children }: ModalProps) {
  const returnFocus = useReturnFocus();
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-zinc-950/50 data-[state=open]:animate-fade-in" />
        <Dialog.Content
          {...returnFocus}
          {...(description ? {} : { 'aria-describedby': undefined })}
          data-testid={testId}
          className="fixed left-1/2 top-1/2 z-50 flex max-h-[calc(100dvh-2rem)] w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 flex-col rounded-2xl border border-zinc-200 bg-white shadow-xl focus:outline-none dark:border-zinc-800 dark:bg-zinc-900"
        >
          <div className="flex items-start justify-between gap-3 px-5 pt-4">
            <div className="min-w-0">
              <Dialog.Title className="break-words text-base font-semibold">{title}</Dialog.Title>
              {description ? <Dialog.Description className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">{description}</Dialog.Description> : null}
            </div>
            <Dialog.Close
              aria-label={closeLabel}
              className="-mr-2 inline-flex h-10 w-10 shrink-0 cursor-pointer items-center justify-center rounded-lg text-zinc-600 hover:bg-zinc-100 dark:text-zinc-300 dark:hover:bg-zinc-800"
            >
              <X className="h-5 w-5" aria-hidden />
            </Dialog.Close>
          </div>
          <div className="min-h-0 overflow-y-auto px-5 pb-5 pt-3">{children}</div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
