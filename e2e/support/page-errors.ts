import type { Page } from '@playwright/test';

/**
 * Collects a page's uncaught exceptions (`pageerror`), which include React hydration errors
 * (#418/#423). Console errors are deliberately not collected: prefetch 404s of unknown routes log
 * harmless console errors (docs/static-export.md §1.3).
 * Returns the live array; read it at the end of the test.
 */
export function collectPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`${page.url()}: ${error.message}`));
  return errors;
}
