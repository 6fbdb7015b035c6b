import { expect, type Page } from '@playwright/test';
import { webUrl } from '../support/urls';

/** `/auth/login` (testids `login-*`). */
export class LoginPage {
  constructor(
    private readonly page: Page,
    private readonly origin: string,
  ) {}

  async goto(): Promise<void> {
    await this.page.goto(webUrl(this.origin, '/auth/login'));
    await expect(this.page.getByTestId('page-login')).toBeVisible();
  }

  /** Fills and submits the form, then waits until the header shows the user's name. */
  async login(username: string, password: string): Promise<void> {
    await this.page.getByTestId('login-username').fill(username);
    await this.page.getByTestId('login-password').fill(password);
    await this.page.getByTestId('login-submit').click();
    await expect(this.page.getByTestId('header-username')).toContainText(username);
  }
}
