import { expect, type Page } from '@playwright/test';
import { webUrl } from '../support/urls';

/** `/auth/register` (testids `register-*`). */
export class RegisterPage {
  constructor(
    private readonly page: Page,
    private readonly origin: string,
  ) {}

  async goto(): Promise<void> {
    await this.page.goto(webUrl(this.origin, '/auth/register'));
    await expect(this.page.getByTestId('page-register')).toBeVisible();
  }

  /** Fills and submits the form, then waits until the header shows the new user's name. */
  async register(username: string, password: string): Promise<void> {
    await this.page.getByTestId('register-username').fill(username);
    await this.page.getByTestId('register-password').fill(password);
    await this.page.getByTestId('register-password-confirm').fill(password);
    await this.page.getByTestId('register-submit').click();
    await expect(this.page.getByTestId('header-username')).toContainText(username);
  }
}
