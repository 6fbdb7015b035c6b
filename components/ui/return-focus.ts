'use client';
import { useRef } from 'react';

/** Handlers for Radix `Dialog.Content` that give the focus back to what opened the dialog. */
export interface ReturnFocusHandlers {
  onOpenAutoFocus: (event: Event) => void;
  onCloseAutoFocus: (event: Event) => void;
}

/**
 * Gives the focus back, when a Radix dialog closes, to the element that had it when the dialog opened.
 * Radix returns it only to a `Dialog.Trigger`; our dialogs are opened by ordinary buttons (often
 * before the dialog's code has downloaded), so without this the focus fell to <body> on close and a
 * keyboard user started again from the top of the page. A dialog opened from a menu item gives it
 * back to the button that opened the menu (the item closes with its menu); when the opener is gone
 * all the same, Radix's own behaviour applies. Spread the result on `Dialog.Content`.
 *
 * A field that should have the focus first carries `data-autofocus` rather than React's `autoFocus`:
 * autoFocus moves the focus during the commit, before the opener could be noted.
 */
export function useReturnFocus(): ReturnFocusHandlers {
  const opener = useRef<HTMLElement | null>(null);
  return {
    // Runs before Radix moves the focus in, so the active element is still the opener.
    onOpenAutoFocus: (event) => {
      opener.current = document.activeElement instanceof HTMLElement && document.activeElement !== document.body ? openerOf(document.activeElement) : null;
      const first = (event.currentTarget as HTMLElement | null)?.querySelector<HTMLElement>('[data-autofocus]');
      if (!first) return;
      event.preventDefault();
      first.focus();
    },
    onCloseAutoFocus: (event) => {
      const target = opener.current;
      opener.current = null;
      if (!target?.isConnected) return;
      event.preventDefault();
      target.focus();
    },
  };
}

/**
 * What to give the focus back to for `active`: the element itself, or, for an item of a Radix menu
 * (whose content is labelled by its trigger's id), the button that opened the menu.
 */
function openerOf(active: HTMLElement): HTMLElement {
  const menu = active.closest<HTMLElement>('[role="menu"][aria-labelledby]');
  const trigger = menu ? document.getElementById(menu.getAttribute('aria-labelledby') ?? '') : null;
  return trigger ?? active;
}
