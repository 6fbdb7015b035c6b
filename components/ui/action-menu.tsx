'use client';
/**
 * A button that opens a menu of actions. The menu itself (Radix, ./dropdown-menu.tsx) is downloaded
 * on the first open, not with the page: most visits never open a given menu. Until then the button
 * is a plain one with the same look; a click, Enter, Space or ArrowDown loads the menu and opens it.
 */
import { useState, type ComponentType, type KeyboardEvent, type ReactNode } from 'react';
import type { DropdownMenuViewProps } from './dropdown-menu';

/** One action of the menu. */
export interface ActionMenuItem {
  /** Unique within the menu. */
  id: string;
  label: ReactNode;
  icon?: ReactNode;
  onSelect: () => void;
  /** Why the action is unavailable: the item is shown disabled, with this text under its label. */
  disabledReason?: string;
  tone?: 'danger';
  testId?: string;
}

export interface ActionMenuProps {
  /** The button's accessible name ("Actions for …", "Account menu"). */
  label: string;
  /** What the button shows. */
  children: ReactNode;
  className?: string;
  testId?: string;
  items: Array<ActionMenuItem | 'separator'>;
  /** The menu's edge aligned with the button's. */
  align?: 'start' | 'end';
}

let loadedView: ComponentType<DropdownMenuViewProps> | null = null;

export function ActionMenu(props: ActionMenuProps) {
  const [View, setView] = useState<ComponentType<DropdownMenuViewProps> | null>(() => loadedView);
  const [open, setOpen] = useState(false);
  const [focusFirstItem, setFocusFirstItem] = useState(false);
  const [loading, setLoading] = useState(false);

  const openFirst = (fromKeyboard: boolean) => {
    if (loading) return;
    setLoading(true);
    import('./dropdown-menu')
      .then((module) => {
        loadedView = module.DropdownMenuView;
        setFocusFirstItem(fromKeyboard);
        setView(() => module.DropdownMenuView);
        setOpen(true);
      })
      .catch((error: unknown) => console.error('Could not load the menu', error))
      .finally(() => setLoading(false));
  };

  if (View) {
    return (
      <View
        {...props}
        open={open}
        focusFirstItem={focusFirstItem}
        onOpenChange={(next) => {
          setOpen(next);
          if (!next) setFocusFirstItem(false);
        }}
      />
    );
  }
  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (event.key !== 'ArrowDown' && event.key !== 'Enter' && event.key !== ' ') return;
    event.preventDefault();
    openFirst(true);
  };
  return (
    <button
      type="button"
      aria-label={props.label}
      aria-haspopup="menu"
      aria-expanded={false}
      aria-busy={loading || undefined}
      data-testid={props.testId}
      className={props.className}
      onClick={() => openFirst(false)}
      onKeyDown={onKeyDown}
    >
      {props.children}
    </button>
  );
}
