import { expect, type Locator, type Page } from '@playwright/test';
import { webUrl } from '../support/urls';

/** `/joinRoom/{roomId?}` (testids `join-room-*`). */
export class JoinRoomPage {
  readonly root: Locator;
  readonly roomId: Locator;
  readonly password: Locator;
  readonly submit: Locator;

  constructor(
    private readonly page: Page,
    private readonly origin: string,
  ) {
    this.root = page.getByTestId('page-joinRoom');
    this.roomId = page.getByTestId('join-room-id');
    this.password = page.getByTestId('join-room-password');
    this.submit = page.getByTestId('join-room-submit');
  }

  /** Opens the empty join form (no id in the path). */
  async goto(): Promise<void> {
    await this.page.goto(webUrl(this.origin, '/joinRoom'));
    await expect(this.root).toBeVisible();
  }

  /** Types the id (and password, if any) as a person pasting a room id would, then waits for the cinema. */
  async join(roomId: string, password = ''): Promise<void> {
    await this.roomId.fill(roomId);
    if (password) await this.password.fill(password);
    await this.submit.click();
    await expect(this.page.getByTestId('page-cinema')).toHaveAttribute('data-room-id', roomId);
  }
}
