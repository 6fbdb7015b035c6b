/**
 * The accessibility sweep's tools: display preferences set before a page's first script,
 * and axe-core runs (through @axe-core/playwright) whose serious and critical findings a test
 * collects, so that one run reports every screen that fails rather than stopping at the first.
 */
import AxeBuilder from '@axe-core/playwright';
import type { BrowserContext, Page } from '@playwright/test';
import { source as axeSource } from 'axe-core';
import { STORAGE_KEYS } from '../../lib/storage';

/** One look of the app: the theme and the UI language (the `isDarkMode` and `locale` keys of lib/storage.ts). */
export interface Look {
  theme: 'light' | 'dark';
  locale: 'en' | 'zh';
}

/**
 * Both themes and both languages, each theme in one language: what axe checks depends on one of the
 * two at a time (colours and contrast on the theme; `lang`, names and text on the language; the
 * same sizes and colours in both languages), so the two other pairings found nothing these two do
 * not, and cost a minute of the suite (docs/testing.md "End to end").
 */
export const LOOKS: readonly Look[] = [
  { theme: 'light', locale: 'en' },
  { theme: 'dark', locale: 'zh' },
];

/** Stores `look` in the context's localStorage before any page script runs, on every page load. */
export async function applyLook(context: BrowserContext, look: Look): Promise<void> {
  await context.addInitScript(
    ({ keys, theme, locale }) => {
      localStorage.setItem(keys.darkMode, String(theme === 'dark'));
      localStorage.setItem(keys.locale, locale);
    },
    { keys: STORAGE_KEYS, ...look },
  );
}

/** What AxeBuilder evaluates as "axe's source" once `check` has put the real one in the document. */
const AXE_ALREADY_IN_PAGE = 'void 0';

/** WCAG 2.0 and 2.1, levels A and AA: the rules the issue asks for. */
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/**
 * Collects axe findings across a sweep. `check(page, where)` runs axe on the page as it is now (open
 * dialogs and menus included) and records every serious or critical violation as one line naming the
 * rule, `where`, and up to five offending elements; `moderate` keeps the lesser ones by rule id.
 */
export class AxeSweep {
  readonly serious: string[] = [];
  readonly moderate = new Map<string, string>();
  /** How many states were checked, so a test can tell that the sweep really ran. */
  checked = 0;

  constructor(private readonly look: Look) {}

  async check(page: Page, where: string): Promise<void> {
    // Wait for the language and theme to be applied: the shell sets both after mount.
    await page.waitForFunction(
      ({ theme, locale }) =>
        document.documentElement.classList.contains('dark') === (theme === 'dark') &&
        document.documentElement.lang === (locale === 'zh' ? 'zh-CN' : 'en'),
      this.look,
    );
    // Transitions (a dialog fading in) would make the colour checks read a half-drawn state.
    await page.evaluate(() =>
      document.getAnimations().forEach((animation) => {
        if (Number.isFinite(animation.effect?.getComputedTiming().endTime)) animation.finish();
      }),
    );
    // Legacy mode runs axe in the page in one step. The default mode finishes every run in a new blank
    // page (for cross-origin frames, which the app has none of): twice the time, 1.3 s against 0.6 s a
    // check on this machine, and the sweep makes about 150 checks.
    // axe-core (1.5 MB of script) goes into each document once: AxeBuilder would send and compile it
    // twice on every check (0.8 s a check here; 0.13 s with axe already in the page).
    if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
    // Only the violations are read: axe then keeps one node of each passed or inapplicable rule
    // rather than all (resultTypes), 13 % less time a sweep here (51 s against 44 s for one look).
    const results = await new AxeBuilder({ page, axeSource: AXE_ALREADY_IN_PAGE })
      .setLegacyMode()
      .withTags(WCAG_TAGS)
      .options({ resultTypes: ['violations'] })
      .analyze();
    this.checked += 1;
    const label = `${where} [${this.look.theme}, ${this.look.locale}]`;
    for (const violation of results.violations) {
      const targets = violation.nodes
        .slice(0, 5)
        .map((node) => `${node.target.join(' ')}${node.failureSummary ? ` (${node.failureSummary.split('\n').slice(1, 2).join('').trim()})` : ''}`)
        .join('; ');
      if (violation.impact === 'serious' || violation.impact === 'critical') {
        this.serious.push(`${label}: ${violation.id} (${violation.impact}, ${violation.nodes.length}x) ${targets}`);
      } else {
        this.moderate.set(violation.id, `${label}: ${violation.help}`);
      }
    }
  }
}
