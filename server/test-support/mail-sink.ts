/**
 * A real SMTP server for the tests (the `smtp-server` package, plain TCP, no auth): it receives
 * what the companion server's mailer sends and parses each message with mailparser, so tests read
 * codes and links out of real mails.
 */
import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** One received mail. */
export interface ReceivedMail {
  to: string;
  subject: string;
  text: string;
}

export interface MailSink {
  port: number;
  /** Every mail so far, oldest first. */
  mails: ReceivedMail[];
  /** The first mail to `to` received after `since` mails (default: any), waiting up to `timeoutMs`. */
  next(to: string, timeoutMs?: number): Promise<ReceivedMail>;
  /** The site settings that point the companion server at this sink. */
  settings(): { enable_email: true; smtp_host: string; smtp_port: number; smtp_protocol: 'TCP'; smtp_from: string };
  close(): Promise<void>;
}

/** Starts a sink on a random port of 127.0.0.1. */
export async function startMailSink(): Promise<MailSink> {
  const mails: ReceivedMail[] = [];
  const taken = new Set<ReceivedMail>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream).then(
        (parsed) => {
          const to = Array.isArray(parsed.to) ? parsed.to.map((a) => a.text).join(', ') : (parsed.to?.text ?? '');
          mails.push({ to, subject: parsed.subject ?? '', text: parsed.text ?? '' });
          callback();
        },
        (error: Error) => callback(error),
      );
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    mails,
    async next(to, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const mail = mails.find((m) => !taken.has(m) && m.to.includes(to));
        if (mail) {
          taken.add(mail);
          return mail;
        }
        if (Date.now() > deadline) throw new Error(`no mail to ${to} within ${timeoutMs} ms (received: ${mails.map((m) => m.to).join('; ')})`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    settings: () => ({ enable_email: true, smtp_host: '127.0.0.1', smtp_port: port, smtp_protocol: 'TCP', smtp_from: 'SyncTV <noreply@synctv.test>' }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The 6-character code in a code mail's text. */
export function codeIn(mail: ReceivedMail): string {
  const match = /[:：]\s*([A-Z0-9]{6})\b/.exec(mail.text);
  if (!match) throw new Error(`no code in mail: ${mail.text}`);
  return match[1];
}

/** The first http(s) link in a mail's text. */
export function linkIn(mail: ReceivedMail): string {
  const match = /https?:\/\/\S+/.exec(mail.text);
  if (!match) throw new Error(`no link in mail: ${mail.text}`);
  return match[0];
}
