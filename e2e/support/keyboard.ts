/**
 * Keyboard-only driving for the accessibility tests: reach a control with Tab (as a person without a
 * mouse does, never by a click or a programmatic focus) and check that whatever holds the focus shows
 * it.
 */
import { expect, type Locator, type Page } from '@playwright/test';

/** What the focused element looks like: enough to tell whether a focus indicator is drawn. */
interface FocusLook {
  description: string;
  outline: boolean;
  ring: boolean;
  visible: boolean;
}

/** Describes `document.activeElement` (through open shadow roots: the element that really has focus). */
async function focusLook(page: Page): Promise<FocusLook | null> {
  return page.evaluate(() => {
    let element = document.activeElement;
    while (element?.shadowRoot?.activeElement) element = element.shadowRoot.activeElement;
    if (!element || element === document.body) return null;
    // media-chrome draws its ring on the host (`:host(:focus-visible)`), so look at the host too.
    const host = document.activeElement as HTMLElement;
    const styled = [element, host].map((candidate) => getComputedStyle(candidate));
    const box = host.getBoundingClientRect();
    return {
      description: `${host.tagName.toLowerCase()}${host.dataset.testid ? `[data-testid=${host.dataset.testid}]` : ''}${host.id ? `#${host.id}` : ''}`,
      outline: styled.some((style) => style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0),
      ring: styled.some((style) => style.boxShadow !== 'none'),
      visible: box.width > 0 && box.height > 0,
    };
  });
}

/** Fails unless the focused element is on screen and draws an outline or a ring. */
export async function expectVisibleFocus(page: Page): Promise<void> {
  const look = await focusLook(page);
  expect(look, 'something has the focus').not.toBeNull();
  expect(look!.visible, `${look!.description} is on screen`).toBe(true);
  expect(look!.outline || look!.ring, `${look!.description} shows that it has the focus`).toBe(true);
}

/** Whether `target` (or, for a custom element, its shadow content) has the focus. */
async function hasFocus(target: Locator): Promise<boolean> {
  return target.evaluate((element) => element === document.activeElement || element.contains(document.activeElement));
}

/**
 * Presses Tab (Shift+Tab when `backwards`) until `target` has the focus, at most `limit` times,
 * checking on arrival that the focus is visible. Fails with the last focused element's description.
 */
export async function tabTo(page: Page, target: Locator, { limit = 80, backwards = false } = {}): Promise<void> {
  await target.waitFor({ state: 'visible' });
  for (let presses = 0; presses <= limit; presses += 1) {
    if (await hasFocus(target)) {
      await expectVisibleFocus(page);
      return;
    }
    await page.keyboard.press(backwards ? 'Shift+Tab' : 'Tab');
  }
  const look = await focusLook(page);
  throw new Error(`Tab did not reach the target within ${limit} presses (focus on ${look?.description ?? 'nothing'})`);
}

/** Fails unless the focus is inside `container`. */
export async function expectFocusWithin(container: Locator): Promise<void> {
  await expect.poll(() => container.evaluate((element) => element.contains(document.activeElement))).toBe(true);
}

/** Fails unless `target` itself has the focus. */
export async function expectFocused(target: Locator): Promise<void> {
  await expect.poll(() => hasFocus(target)).toBe(true);
}
