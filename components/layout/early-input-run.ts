/**
 * What the early-input script does in the page before hydration (./early-input.ts explains why):
 * compiled on its own by scripts/inline-scripts.mjs from ./early-input.inline.ts.
 */
/** The attribute that marks the menu button for the inline script. */
export const EARLY_MENU_ATTRIBUTE = 'data-early-menu';

/** Where the inline script keeps its state on `window`. */
export const EARLY_INPUT_STATE_KEY = '__synctvEarlyInput';

/** The inline script's state. */
export interface EarlyInputState {
  /** The menu button was tapped; null once the header has taken it (and the click listener is gone). */
  tapped: boolean | null;
  /** The last form sent before hydration; null once taken, and nothing is noted after that. */
  form: HTMLFormElement | null | undefined;
  stopTap: () => void;
}

/** Remembers a tap on the menu button and cancels (and remembers) the browser's own sending of a form. */
export function installEarlyInput(): void {
  const state: EarlyInputState = { tapped: false, form: undefined, stopTap: () => document.removeEventListener('click', onClick, true) };
  function onClick(event: Event): void {
    const target = event.target as Element | null;
    if (target?.closest?.(`[${EARLY_MENU_ATTRIBUTE}]`)) state.tapped = true;
  }
  document.addEventListener('click', onClick, true);
  (window as unknown as Record<string, EarlyInputState>)[EARLY_INPUT_STATE_KEY] = state;
  window.addEventListener('submit', (event) => {
    const form = event.target as HTMLFormElement | null;
    if (event.defaultPrevented || !form || form.tagName !== 'FORM' || form.hasAttribute('action')) return;
    event.preventDefault();
    if (state.form !== null) state.form = form;
  });
}
