/**
 * Outgoing mail of the companion server through nodemailer, configured by the email group of the
 * site settings (docs/contract.md §5.6): `smtp_host`, `smtp_port`, `smtp_protocol` (TLS = STARTTLS,
 * SSL = implicit TLS, TCP = plain), `smtp_username`/`smtp_password` (no auth when empty), `smtp_from`,
 * `smtp_pool_size`. Settings are read on every send, so a change takes effect at once; one pooled
 * transport is kept per distinct configuration.
 */
import nodemailer, { type Transporter } from 'nodemailer';
import type { SiteSettings } from '../db';

/** One message: plain text and the same content as simple HTML. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

type SmtpSettings = Pick<
  SiteSettings,
  'smtp_host' | 'smtp_port' | 'smtp_protocol' | 'smtp_username' | 'smtp_password' | 'smtp_from' | 'smtp_pool_size'
>;

/** Sends mail with the current SMTP settings. */
export class Mailer {
  private transport: { key: string; transporter: Transporter } | null = null;

  /**
   * Sends `message`. Throws Error `smtp is not configured` when `smtp_host` is empty, and nodemailer's
   * error when the SMTP server refuses or cannot be reached (the routes turn it into a 500).
   */
  async send(settings: SmtpSettings, message: MailMessage): Promise<void> {
    if (!settings.smtp_host) throw new Error('smtp is not configured');
    const transporter = this.transporterFor(settings);
    await transporter.sendMail({ from: settings.smtp_from || settings.smtp_username, ...message });
  }

  /** Closes the pooled connections. */
  close(): void {
    this.transport?.transporter.close();
    this.transport = null;
  }

  private transporterFor(settings: SmtpSettings): Transporter {
    const protocol = settings.smtp_protocol.toUpperCase();
    const options = {
      pool: true,
      maxConnections: Math.min(Math.max(settings.smtp_pool_size, 1), 100),
      host: settings.smtp_host,
      port: settings.smtp_port,
      secure: protocol === 'SSL',
      requireTLS: protocol === 'TLS',
      ignoreTLS: protocol === 'TCP',
      auth: settings.smtp_username ? { user: settings.smtp_username, pass: settings.smtp_password } : undefined,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 20_000,
    };
    const key = JSON.stringify(options);
    if (this.transport?.key !== key) {
      this.transport?.transporter.close();
      this.transport = { key, transporter: nodemailer.createTransport(options) };
    }
    return this.transport.transporter;
  }
}
