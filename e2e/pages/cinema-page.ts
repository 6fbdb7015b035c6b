import { expect, type Locator, type Page } from '@playwright/test';
import { webUrl } from '../support/urls';
import { sampleMedia, type MediaSample } from '../support/playback';

/** A movie to push: `url` and `name` as in MovieBase (docs/contract.md §7.1). */
export interface MovieInput {
  url: string;
  name: string;
  live?: boolean;
}

/** `/cinema/{roomId}`: the player, movie list, push form and chat (testids in the team brief). */
export class CinemaPage {
  readonly root: Locator;
  readonly video: Locator;
  readonly currentMovieName: Locator;
  readonly viewerCount: Locator;
  readonly mutedNotice: Locator;
  readonly chatMessages: Locator;

  constructor(
    private readonly page: Page,
    private readonly origin: string,
  ) {
    this.root = page.getByTestId('page-cinema');
    this.video = page.getByTestId('player-video');
    this.currentMovieName = page.getByTestId('current-movie-name');
    this.viewerCount = page.getByTestId('viewer-count');
    this.mutedNotice = page.getByTestId('autoplay-muted-notice');
    this.chatMessages = page.getByTestId('chat-message');
  }

  async goto(roomId: string): Promise<void> {
    await this.page.goto(webUrl(this.origin, `/cinema/${roomId}`));
    await expect(this.root).toBeVisible();
  }

  /** Waits until the room's WebSocket is open (`ws-state` data-state=open). */
  async waitConnected(): Promise<void> {
    await expect(this.page.getByTestId('ws-state')).toHaveAttribute('data-state', 'open');
  }

  movieItem(name: string): Locator {
    return this.page.getByTestId('movie-item').filter({ hasText: name });
  }

  /** Opens the playlist's folders `names` one inside the other, each waited for in the breadcrumb. */
  async openFolders(...names: string[]): Promise<void> {
    for (const name of names) {
      await this.movieItem(name).getByTestId('movie-open-folder').click();
      await expect(this.page.getByTestId('movie-breadcrumb')).toContainText(name);
    }
  }

  /** Opens "Add a movie" if it is closed (the form downloads on first open), and waits for the form. */
  async openPushForm(): Promise<void> {
    const open = this.page.getByTestId('movie-push-open');
    if ((await open.getAttribute('aria-expanded')) !== 'true') await open.click();
    await expect(this.page.getByTestId('movie-push-url')).toBeVisible();
  }

  /** Pushes a movie through the form and waits for it in the movie list. */
  async pushMovie(movie: MovieInput): Promise<void> {
    await this.openPushForm();
    await this.page.getByTestId('movie-push-url').fill(movie.url);
    await this.page.getByTestId('movie-push-name').fill(movie.name);
    await this.page.getByTestId('movie-push-live').setChecked(movie.live ?? false);
    await this.page.getByTestId('movie-push-submit').click();
    await expect(this.movieItem(movie.name)).toHaveCount(1);
  }

  /** Opens a listed movie's row menu (its items are then `movie-play`, `movie-delete`, … on the page). */
  async openMovieActions(name: string): Promise<void> {
    await this.movieItem(name).getByTestId('movie-actions').click();
    // The row's menu (Radix), not the player's settings menu, which is a menu too.
    await expect(this.page.locator('[data-radix-menu-content][role="menu"]')).toBeVisible();
  }

  /** Chooses "play this" in a listed movie's menu and waits for it to become the current movie. */
  async playMovie(name: string): Promise<void> {
    await this.openMovieActions(name);
    await this.page.getByTestId('movie-play').click();
    await expect(this.currentMovieName).toContainText(name);
  }

  /** Waits until the player has decoded the current frame (readyState >= HAVE_CURRENT_DATA). */
  async waitMediaLoaded(): Promise<void> {
    await expect
      .poll(async () => (await this.media()).readyState, { message: 'player-video never loaded the movie', timeout: 15_000 })
      .toBeGreaterThanOrEqual(2);
  }

  media(): Promise<MediaSample> {
    return sampleMedia(this.page);
  }

  /**
   * Plays the element as the player's play button does. The app answers with a common start: it
   * pauses the element at once and starts it with everyone a moment later, which ends this play()
   * with an AbortError (the button ignores it too); any other refusal is thrown.
   */
  async play(): Promise<void> {
    await this.video.evaluate((video: HTMLVideoElement) =>
      video.play().catch((error: unknown) => {
        if ((error as { name?: string }).name !== 'AbortError') throw error;
      }),
    );
  }

  async pause(): Promise<void> {
    await this.video.evaluate((video: HTMLVideoElement) => video.pause());
  }

  /** Seeks the element, as dragging the progress bar does. */
  async seek(seconds: number): Promise<void> {
    await this.video.evaluate((video: HTMLVideoElement, to: number) => {
      video.currentTime = to;
    }, seconds);
  }

  /** The control bar's play/pause button, once the controls have loaded (a viewer who may control playback). */
  playButton(): Locator {
    return this.page.getByTestId('player-play');
  }

  /** Presses the control bar's play/pause button as a person does, with the pointer. */
  async pressPlayButton(): Promise<void> {
    await this.playButton().click();
  }

  /**
   * Clicks the control bar's seek bar at `fraction` (0–1) of its width, as a person drags the
   * progress bar to a point (media-chrome's media-time-range).
   */
  async clickSeekBar(fraction: number): Promise<void> {
    const bar = this.page.getByTestId('player-seek');
    const box = await bar.boundingBox();
    if (!box) throw new Error('the seek bar is not on the screen');
    await this.page.mouse.click(box.x + box.width * fraction, box.y + box.height / 2);
  }

  /**
   * Picks a speed (e.g. `1.5x`) in the settings menu's Speed submenu, as a person does. The submenu
   * opens upwards from the bar, where a toast or (with the page scrolled down to the playlist) the
   * sticky header can lie over its items and catch the click (both seen in CI): like a person, the
   * test first brings the player into view and lets the toasts go.
   */
  async pickSpeed(label: string): Promise<void> {
    await this.page.getByTestId('player').evaluate((player) => player.scrollIntoView({ block: 'start' }));
    await expect(this.page.locator('[data-sonner-toast]')).toHaveCount(0, { timeout: 10_000 });
    await this.page.getByTestId('player-settings').click();
    await this.page.getByRole('menuitem', { name: 'Speed' }).click();
    await this.page.getByRole('menuitemradio', { name: label, exact: true }).click();
    await this.page.keyboard.press('Escape');
    // Closed before anything else is done (it fades out: a menu opened meanwhile would meet it).
    await expect(this.page.locator('media-settings-menu')).toBeHidden();
  }

  /** The control bar's time display (`0:12 / 0:40`). */
  timeDisplay(): Locator {
    return this.page.locator('media-time-display');
  }

  async sendChat(text: string): Promise<void> {
    await this.page.getByTestId('chat-input').fill(text);
    await this.page.getByTestId('chat-send').click();
  }

  /** Opens the members panel (downloaded on first open) and waits for its list or empty state. */
  async openMembers(): Promise<Locator> {
    await this.page.getByTestId('open-members').click();
    const panel = this.page.getByTestId('members-panel');
    await expect(panel).toBeVisible();
    return panel;
  }

  /** Opens the room settings panel and waits for its controls. */
  async openSettings(): Promise<Locator> {
    await this.page.getByTestId('open-settings').click();
    const panel = this.page.getByTestId('settings-panel');
    await expect(panel.getByTestId('setting-hidden')).toBeVisible();
    return panel;
  }

  /** A member's row in the open members panel. */
  memberRow(username: string): Locator {
    return this.page.getByTestId('member-row').and(this.page.locator(`[data-username="${username}"]`));
  }

  /** Chooses an action (`member-approve`, `member-ban`, …) in a member's row menu. */
  async memberAction(username: string, action: string): Promise<void> {
    await this.memberRow(username).getByTestId('member-actions').click();
    await this.page.getByTestId(`member-${action}`).click();
  }

  /** Closes the open panel or dialog with Escape. */
  async closePanel(): Promise<void> {
    await this.page.keyboard.press('Escape');
    await expect(this.page.getByRole('dialog')).toHaveCount(0);
  }
}
