/**
 * Keyboard only: the main journey with no mouse at all (register, create a room, add a
 * movie, play, pause, seek, chat, the members panel, a room setting, sign out), every control reached
 * with Tab and showing its focus; the skip link; and every dialog and drawer of the hall taking the
 * focus when it opens, closing on Escape and giving the focus back to what opened it.
 */
import type { Locator, Page } from '@playwright/test';
import { expect, test, USER_PASSWORD } from './fixtures';
import { uniqueName } from './support/api';
import { expectFocused, expectFocusWithin, expectVisibleFocus, tabTo } from './support/keyboard';
import { sampleMedia } from './support/playback';

test.describe.configure({ timeout: 120_000 });

/** Opens a dialog or drawer from `opener` with Enter, checks the focus went in, closes it with Escape, checks the focus came back. */
async function openAndEscape(page: Page, opener: Locator, dialog: Locator): Promise<void> {
  await tabTo(page, opener);
  await page.keyboard.press('Enter');
  await expect(dialog).toBeVisible();
  await expectFocusWithin(dialog);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expectFocused(opener);
  await expectVisibleFocus(page);
}

test('the main journey works with the keyboard alone', async ({ app, actors, media: mediaServer }) => {
  const { page, username } = await actors.visitor('kbd');
  await page.goto(app.url('/'));
  await expect(page.getByTestId('page-home')).toBeVisible();

  // The first Tab reaches the skip link, which moves the focus past the header into the content.
  await page.keyboard.press('Tab');
  const skip = page.getByTestId('skip-link');
  await expectFocused(skip);
  await expect(skip).toBeInViewport();
  await expect(skip).toHaveAccessibleName('Skip to main content');
  await page.keyboard.press('Enter');
  await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('main-content');

  await tabTo(page, page.getByTestId('nav-register'), { backwards: true });
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('page-register')).toBeVisible();

  await tabTo(page, page.getByTestId('register-username'));
  await page.keyboard.type(username);
  await tabTo(page, page.getByTestId('register-password'));
  await page.keyboard.type(USER_PASSWORD);
  await tabTo(page, page.getByTestId('register-password-confirm'));
  await page.keyboard.type(USER_PASSWORD);
  await tabTo(page, page.getByTestId('register-submit'));
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('header-username')).toContainText(username);

  await tabTo(page, page.getByTestId('nav-createRoom'), { backwards: true });
  await page.keyboard.press('Enter');
  await tabTo(page, page.getByTestId('create-room-name'));
  await page.keyboard.type(uniqueName('keyboard room'));
  await tabTo(page, page.getByTestId('create-room-submit'));
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('ws-state')).toHaveAttribute('data-state', 'open');

  // Add a movie: nothing plays yet, so it plays at once.
  await tabTo(page, page.getByTestId('movie-push-open'));
  await page.keyboard.press('Enter');
  await tabTo(page, page.getByTestId('movie-push-url'));
  await page.keyboard.type(`${mediaServer.url}/mp4/clip.mp4`);
  await tabTo(page, page.getByTestId('movie-push-name'));
  await page.keyboard.type('Keyboard clip');
  await tabTo(page, page.getByTestId('movie-push-submit'));
  await page.keyboard.press('Enter');
  const item = page.getByTestId('movie-item').filter({ hasText: 'Keyboard clip' });
  await expect(item).toHaveCount(1);
  await expect(page.getByTestId('current-movie-name')).toContainText('Keyboard clip');
  await expect.poll(async () => (await sampleMedia(page)).currentTime, { timeout: 15_000 }).toBeGreaterThan(0.5);

  // Pause and play with the player's own button, then seek with the seek bar's arrow keys.
  const playButton = page.getByTestId('player-play');
  await tabTo(page, playButton, { backwards: true });
  // At a person's pace: each press once the picture has answered the one before and a moment passed.
  await page.keyboard.press('Space');
  await expect.poll(async () => (await sampleMedia(page)).paused).toBe(true);
  await page.waitForTimeout(1000);
  await page.keyboard.press('Space');
  await expect.poll(async () => (await sampleMedia(page)).paused).toBe(false);
  await page.waitForTimeout(1000);
  const before = (await sampleMedia(page)).currentTime;
  await tabTo(page, page.getByTestId('player-seek'));
  // One arrow press moves 10 s.
  await page.keyboard.press('ArrowRight');
  await expect.poll(async () => (await sampleMedia(page)).currentTime).toBeGreaterThan(before + 8);
  await expect.poll(async () => (await sampleMedia(page)).paused).toBe(false);

  // c moves from the player to the chat.
  await page.keyboard.press('c');
  await expectFocused(page.getByTestId('chat-input'));
  await page.keyboard.type('typed without a mouse');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('chat-message')).toContainText(['typed without a mouse']);

  await openAndEscape(page, page.getByTestId('open-members'), page.getByTestId('members-panel'));
  await expect(page.getByTestId('members-panel')).toBeHidden();

  // A room setting, switched with Space inside the drawer, is saved.
  const settingsButton = page.getByTestId('open-settings');
  await tabTo(page, settingsButton);
  await page.keyboard.press('Enter');
  const review = page.getByTestId('setting-join_need_review');
  await expect(review).toHaveAttribute('aria-checked', 'false');
  await tabTo(page, review);
  await page.keyboard.press('Space');
  await expect(review).toHaveAttribute('aria-checked', 'true');
  await page.keyboard.press('Escape');
  await expectFocused(settingsButton);
  await page.reload();
  await expect(page.getByTestId('ws-state')).toHaveAttribute('data-state', 'open');
  await tabTo(page, page.getByTestId('open-settings'));
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('setting-join_need_review')).toHaveAttribute('aria-checked', 'true');
  await page.keyboard.press('Escape');

  // Sign out from the user menu: the last item.
  await tabTo(page, page.getByTestId('header-username'), { backwards: true });
  await page.keyboard.press('Enter');
  await expect(page.getByRole('menu')).toBeVisible();
  await page.keyboard.press('End');
  await expectFocused(page.getByTestId('user-menu-sign-out'));
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('header-username')).toHaveCount(0);
  await expect(page.getByTestId('nav-login')).toBeVisible();
});

test('dialogs and drawers take the focus, close on Escape and give it back', async ({ app, actors, media: mediaServer }) => {
  const owner = await actors.user('kbd dialogs');
  const { page } = owner;
  const roomId = await app.api.createRoom(owner.token!, uniqueName('keyboard dialogs'));
  await app.api.pushMovie(owner.token!, roomId, { url: `${mediaServer.url}/mp4/clip.mp4`, name: 'Dialog clip' });
  await page.goto(app.url(`/cinema/${roomId}`));
  await expect(page.getByTestId('movie-item')).toHaveCount(1);

  const dialog = page.getByRole('dialog');
  for (const opener of ['open-members', 'open-settings', 'open-share', 'movie-new-folder', 'movie-clear']) {
    await openAndEscape(page, page.getByTestId(opener), dialog);
  }

  await page.goto(app.url('/user/me'));
  await expect(page.getByTestId('profile-username')).toBeVisible();
  await openAndEscape(page, page.getByTestId('delete-account'), dialog);

  // The phone menu is a sheet.
  await page.setViewportSize({ width: 390, height: 844 });
  await openAndEscape(page, page.getByTestId('menu-toggle'), dialog);

  // On a phone the playlist's tools are in a menu: a dialog opened from one of its items gives the
  // focus back to the menu's button, each time.
  await page.goto(app.url(`/cinema/${roomId}`));
  const tools = page.getByTestId('movie-toolbar-menu');
  for (let time = 0; time < 2; time += 1) {
    await tabTo(page, tools);
    await page.keyboard.press('Enter');
    await expect(page.getByRole('menuitem', { name: 'New folder' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(dialog).toBeVisible();
    await expectFocusWithin(dialog);
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expectFocused(tools);
  }
});
