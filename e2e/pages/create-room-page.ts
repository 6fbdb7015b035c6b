import { expect, type Page } from '@playwright/test';
import { webUrl } from '../support/urls';

const CINEMA_PATH = /\/web\/cinema\/([0-9a-f]{32})\/?$/;

/** `/createRoom` (testids `create-room-*`). */
export class CreateRoomPage {
  constructor(
    private readonly page: Page,
    private readonly origin: string,
  ) {}

  async goto(): Promise<void> {
    await this.page.goto(webUrl(this.origin, '/createRoom'));
    await expect(this.page.getByTestId('page-createRoom')).toBeVisible();
  }

  /** Submits the form and waits for the app to open the new room's cinema; returns the room id (32 hex). */
  async create(name: string, password = ''): Promise<string> {
    await this.page.getByTestId('create-room-name').fill(name);
    if (password) await this.page.getByTestId('create-room-password').fill(password);
    await this.page.getByTestId('create-room-submit').click();
    await expect(this.page).toHaveURL((url) => CINEMA_PATH.test(url.pathname));
    return CINEMA_PATH.exec(new URL(this.page.url()).pathname)![1];
  }
}
