import type { BrowserContext } from '@playwright/test';

/**
 * Makes the context's pages behave like desktop Chrome's autoplay policy, which headless Chromium
 * does not apply: `play()` on an unmuted media element rejects with NotAllowedError, leaving it
 * paused, until the person has clicked, tapped or typed in the document. Muted playback is allowed.
 * Only real input counts; Playwright's evaluate calls do not unlock it.
 */
export async function blockAutoplayWithSound(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    let activated = false;
    for (const type of ['pointerdown', 'keydown']) {
      window.addEventListener(type, (event) => {
        if (event.isTrusted) activated = true;
      }, { capture: true });
    }
    const play = HTMLMediaElement.prototype.play;
    HTMLMediaElement.prototype.play = function playUnderAutoplayPolicy(this: HTMLMediaElement) {
      if (!this.muted && !activated) {
        return Promise.reject(
          new DOMException("play() failed because the user didn't interact with the document first.", 'NotAllowedError'),
        );
      }
      return play.call(this);
    };
  });
}
