/**
 * A benchmark's viewer: a headless Chromium page of the room, signed in, in English, 1000×760 (as
 * bench/live.ts and bench/transcode.ts open them).
 */
import type { Browser, Page } from '@playwright/test';

/** Opens `origin`'s hall of `roomId` in a new context of `browser`, signed in with `token`. */
export async function openViewer(browser: Browser, origin: string, roomId: string, token: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1000, height: 760 }, locale: 'en-US' });
  await context.addInitScript((value) => window.localStorage.setItem('userToken', value), token);
  // tsx names the functions of page.evaluate's callbacks with a `__name` helper the page lacks (as in ./page-probe.ts).
  await context.addInitScript({ content: 'globalThis.__name = globalThis.__name || ((fn) => fn);' });
  const page = await context.newPage();
  await page.goto(`${origin}/web/cinema/${roomId}/`);
  return page;
}
