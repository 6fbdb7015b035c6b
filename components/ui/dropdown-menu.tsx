'use client';
/**
 * A menu of actions on Radix's dropdown menu (@radix-ui/react-dropdown-menu): keyboard navigation,
 * typeahead, focus return, Escape and outside click, the `menu`/`menuitem` roles. Loaded on the first
 * open through `ActionMenu` (./action-menu.tsx), which also defines the items.
 */
import * as Menu from '@radix-ui/react-dropdown-menu';
import { clsx } from 'clsx';
import { forwardRef, useEffect, useRef, type ComponentProps } from 'react';
import type { ActionMenuItem, ActionMenuProps } from './action-menu';

export interface DropdownMenuViewProps extends ActionMenuProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Focus the first enabled item when the menu opens (it was opened from the keyboard). */
  focusFirstItem: boolean;
}

/** The open-able menu: its trigger (the same button ActionMenu drew before it loaded) and the items. */
export function DropdownMenuView({ open, onOpenChange, focusFirstItem, items, align = 'end', ...trigger }: DropdownMenuViewProps) {
  const content = useRef<HTMLDivElement>(null);
  // Radix focuses the menu itself when it opens; a keyboard user starts on the first enabled item.
  useEffect(() => {
    if (!open || !focusFirstItem) return;
    const frame = requestAnimationFrame(() => content.current?.querySelector<HTMLElement>('[role="menuitem"]:not([data-disabled])')?.focus());
    return () => cancelAnimationFrame(frame);
  }, [open, focusFirstItem]);
  return (
    <Menu.Root open={open} onOpenChange={onOpenChange} modal={false}>
      <Menu.Trigger asChild>
        <TriggerButton {...trigger} />
      </Menu.Trigger>
      <Menu.Portal>
        <Menu.Content
          ref={content}
          align={align}
          sideOffset={6}
          collisionPadding={8}
          className="z-50 min-w-52 max-w-[calc(100vw-1rem)] rounded-xl border border-zinc-200 bg-white p-1 text-sm shadow-lg data-[state=open]:animate-fade-in dark:border-zinc-700 dark:bg-zinc-900"
        >
          {items.map((item, index) =>
            item === 'separator' ? (
              <Menu.Separator key={`separator-${index}`} className="my-1 h-px bg-zinc-200 dark:bg-zinc-700" />
            ) : (
              <MenuItem key={item.id} item={item} />
            ),
          )}
        </Menu.Content>
      </Menu.Portal>
    </Menu.Root>
  );
}

function MenuItem({ item }: { item: ActionMenuItem }) {
  const disabled = Boolean(item.disabledReason);
  return (
    <Menu.Item
      data-testid={item.testId}
      disabled={disabled}
      onSelect={item.onSelect}
      className={clsx(
        'flex min-h-10 cursor-pointer select-none items-start gap-2.5 rounded-lg px-3 py-2 outline-none',
        'data-[highlighted]:bg-zinc-100 dark:data-[highlighted]:bg-zinc-800',
        'data-[disabled]:cursor-not-allowed data-[disabled]:text-zinc-400 dark:data-[disabled]:text-zinc-500',
        item.tone === 'danger' && !disabled ? 'text-red-600 dark:text-red-400' : 'text-zinc-800 dark:text-zinc-100',
      )}
    >
      {item.icon ? <span className="mt-0.5 flex h-4 w-4 shrink-0 items-center justify-center [&>svg]:h-4 [&>svg]:w-4" aria-hidden>{item.icon}</span> : null}
      <span className="min-w-0 flex-1">
        <span className="block">{item.label}</span>
        {/* Part of the item's accessible name, so a screen reader says why it is unavailable. */}
        {item.disabledReason ? <span className="block text-xs text-zinc-500 dark:text-zinc-400">{item.disabledReason}</span> : null}
      </span>
    </Menu.Item>
  );
}

type TriggerButtonProps = Omit<ActionMenuProps, 'items' | 'align'> & ComponentProps<'button'>;

/** The menu's button, the same before and after the menu code has loaded. */
export const TriggerButton = forwardRef<HTMLButtonElement, TriggerButtonProps>(function TriggerButton(
  { label, children, className, testId, ...props },
  ref,
) {
  return (
    <button ref={ref} type="button" aria-label={label} aria-haspopup="menu" data-testid={testId} className={className} {...props}>
      {children}
    </button>
  );
});
