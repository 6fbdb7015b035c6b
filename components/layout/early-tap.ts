/**
 * A tap on the menu button before React has hydrated the page would be lost: the prerendered button
 * is on the screen before the page's script has run (seconds on a slow phone), and React only
 * replays the taps that come once it has begun to hydrate. An inline <head> script remembers such a
 * tap; the header opens the menu once it has mounted (`takeEarlyMenuTap`), and from then on its own
 * handler does the work.
 */

/** The attribute that marks the menu button for the inline script. */
export const EARLY_MENU_ATTRIBUTE = 'data-early-menu';

const STATE_KEY = '__synctvEarlyMenu';

interface EarlyMenuState {
  tapped: boolean;
  stop: () => void;
}

/**
 * The inline <head> script: a capturing click listener that notes a tap on the marked button. Plain
 * string literals: with a template expression in the middle, Next's minifier dropped the text after it.
 */
export const EARLY_TAP_SCRIPT =
  '(function(){var s={tapped:false};function h(e){var t=e.target;' +
  "if(t&&t.closest&&t.closest('[data-early-menu]'))s.tapped=true;}" +
  "s.stop=function(){document.removeEventListener('click',h,true);};" +
  "document.addEventListener('click',h,true);window.__synctvEarlyMenu=s;})();";

/**
 * Whether the menu button was tapped before the page hydrated; stops the inline script's listener, so
 * it answers true at most once. False without the script (`next dev`, unit tests).
 */
export function takeEarlyMenuTap(): boolean {
  const holder = window as unknown as Record<string, EarlyMenuState | undefined>;
  const state = holder[STATE_KEY];
  if (!state) return false;
  state.stop();
  delete holder[STATE_KEY];
  return state.tapped;
}
