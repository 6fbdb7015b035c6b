/**
 * `<synctv-playback-rate-menu>`: media-chrome's speed menu showing the room's rate while the sync
 * engine nudges the element's (./room-rate.ts), so that its items stay as they are under the
 * person's pointer, and asking for a rate only when a person picks one. Defined with the rest of
 * the controls (./chrome.ts calls `defineRoomRateMenu`: a module imported for its side effect
 * alone is dropped by the build, package.json `sideEffects`).
 */
import { MediaPlaybackRateMenu } from 'media-chrome/menu/media-playback-rate-menu.js';
import { shownRate } from './room-rate';

/** The attribute media-controller sets on the menu to the element's `playbackRate`. */
const MEDIA_PLAYBACK_RATE = 'mediaplaybackrate';

/**
 * The rate each menu shows now (none before the first). Kept outside the instance, and read by
 * functions outside the class: media-chrome's constructor already renders, before a subclass's
 * own fields and private methods exist.
 */
const shownRates = new WeakMap<Element, number>();

/**
 * Menus redrawing for a rate the element has now. media-chrome's redraw checks the item by setting
 * the menu's `value`, which fires `change` when the checked item changes, and its `change` handler
 * asks the player for that rate (`mediaplaybackraterequest`): with the room's rate shown, a
 * catch-up at 1.71× checked "1.75x" and asked for 1.75×, which the room then took as the viewer's pick.
 */
const redrawing = new WeakSet<Element>();

/** Stops a `change` of a redraw at its menu, before media-chrome's handler (added later, in connectedCallback) sees it. */
function stopRedrawChange(this: Element, event: Event): void {
  if (redrawing.has(this)) event.stopImmediatePropagation();
}

/** The rates `menu` lists (its `rates` attribute, as numbers). */
function listedRates(menu: MediaPlaybackRateMenu): number[] {
  return Array.from(menu.rates ?? [], Number).filter((rate) => rate > 0);
}

class RoomPlaybackRateMenu extends MediaPlaybackRateMenu {
  constructor() {
    super();
    this.addEventListener('change', stopRedrawChange);
  }

  /** The room's rate for the element's, read by media-chrome's render. */
  override get mediaPlaybackRate(): number {
    return shownRate(super.mediaPlaybackRate, listedRates(this), shownRates.get(this) ?? null);
  }

  override set mediaPlaybackRate(value: number) {
    super.mediaPlaybackRate = value;
  }

  override attributeChangedCallback(name: string, oldValue: string | null, newValue: string | null): void {
    if (name !== MEDIA_PLAYBACK_RATE || newValue === null) {
      super.attributeChangedCallback(name, oldValue, newValue);
      return;
    }
    const before = shownRates.get(this);
    const shown = shownRate(Number(newValue), listedRates(this), before ?? null);
    // A nudge of the rate shown: nothing to redraw (media-chrome rebuilt every item here).
    if (shown === before) return;
    shownRates.set(this, shown);
    redrawing.add(this);
    try {
      super.attributeChangedCallback(name, before === undefined ? oldValue : String(before), String(shown));
    } finally {
      redrawing.delete(this);
    }
  }
}

/** Defines `<synctv-playback-rate-menu>` once (a second call does nothing). */
export function defineRoomRateMenu(): void {
  if (!customElements.get('synctv-playback-rate-menu')) customElements.define('synctv-playback-rate-menu', RoomPlaybackRateMenu);
}
