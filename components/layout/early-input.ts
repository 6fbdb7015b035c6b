/**
 * What a person does on a page before React has hydrated it. The prerendered page is on the screen
 * before its script has run (seconds on a slow phone), and React only replays the input that comes
 * once it has begun to hydrate. An inline <head> script (`EARLY_INPUT_SCRIPT`, its code in
 * ./early-input-run.ts) takes care of two things until then:
 * - a tap on the menu button is remembered, and the header opens the menu once it has mounted
 *   (`takeEarlyMenuTap`);
 * - a form is never sent by the browser itself. Without the script, Enter in the sign-in form before
 *   hydration sent it as a GET to the page's own address, with the password in the query string
 *   (the address bar, the history, the server's log). The app sends every form by script, so the
 *   listener stays for the page's life and cancels the browser's own sending of any form without an
 *   `action` that nothing else handled: it listens on `window`, where a submit arrives after React's
 *   handlers (on the document), and leaves alone one that a handler has already cancelled. A form
 *   that no handler took before hydration is remembered and sent again, by script, once the page has
 *   hydrated (`takeEarlySubmit`, EarlyInputReplay); one that React took while hydrating is not, so
 *   it is never sent twice.
 */
import { EARLY_INPUT_STATE_KEY, type EarlyInputState } from './early-input-run';
import { EARLY_INPUT_CODE } from './early-input.generated';

export { EARLY_MENU_ATTRIBUTE } from './early-input-run';

/** The inline <head> script: ./early-input-run.ts as compiled by scripts/inline-scripts.mjs. */
export const EARLY_INPUT_SCRIPT = `(function(){${EARLY_INPUT_CODE}})();`;

function earlyInputState(): EarlyInputState | undefined {
  return (window as unknown as Record<string, EarlyInputState | undefined>)[EARLY_INPUT_STATE_KEY];
}

/**
 * Whether the menu button was tapped before the page hydrated; stops the inline script's click
 * listener, so it answers true at most once. False without the script (`next dev`, unit tests).
 */
export function takeEarlyMenuTap(): boolean {
  const state = earlyInputState();
  if (!state || state.tapped === null) return false;
  const tapped = state.tapped;
  state.stopTap();
  state.tapped = null;
  return tapped;
}

/**
 * The form sent before the page hydrated, if any and still in the page; from then on the inline
 * script notes no more (it still cancels the browser's own sending). Null without the script.
 */
export function takeEarlySubmit(): HTMLFormElement | null {
  const state = earlyInputState();
  if (!state || state.form === null) return null;
  const form = state.form;
  state.form = null;
  return form?.isConnected ? form : null;
}
