/**
 * The mails of the email flows (docs/contract.md §4.2) in Chinese and English: the language is
 * the first of the request's `Accept-Language` that we have (zh → Chinese, anything else → English).
 */
import type { MailMessage } from './mailer';
import { VERIFICATION_TTL_MS } from '../rules/verification';

export type MailLanguage = 'zh' | 'en';

/** `zh` when the request prefers Chinese, else `en`. */
export function mailLanguage(acceptLanguage: string | undefined): MailLanguage {
  const first = (acceptLanguage ?? '').split(',')[0]?.trim().toLowerCase() ?? '';
  return first.startsWith('zh') ? 'zh' : 'en';
}

const MINUTES = VERIFICATION_TTL_MS / 60_000;

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

function message(to: string, subject: string, lines: string[], link?: string): MailMessage {
  const text = [...lines, ...(link ? ['', link] : [])].join('\n');
  const html = [
    ...lines.map((line) => `<p>${escapeHtml(line)}</p>`),
    ...(link ? [`<p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>`] : []),
  ].join('\n');
  return { to, subject, text, html };
}

/** The sign-up or email-binding code mail. */
export function codeMail(language: MailLanguage, to: string, code: string, purpose: 'signup' | 'bind'): MailMessage {
  if (language === 'zh') {
    const action = purpose === 'signup' ? '注册' : '绑定邮箱';
    return message(to, `SyncTV ${action}验证码：${code}`, [
      `你的${action}验证码是：${code}`,
      `验证码 ${MINUTES} 分钟内有效，只能使用一次。`,
      '如果这不是你本人的操作，请忽略这封邮件。',
    ]);
  }
  const action = purpose === 'signup' ? 'sign-up' : 'email binding';
  return message(to, `Your SyncTV ${action} code: ${code}`, [
    `Your ${action} code is: ${code}`,
    `It is valid for ${MINUTES} minutes and can be used once.`,
    'If you did not ask for it, ignore this mail.',
  ]);
}

/** The password-reset mail: the code and a link that opens the reset screen with it filled in. */
export function retrieveMail(language: MailLanguage, to: string, code: string, link: string): MailMessage {
  if (language === 'zh') {
    return message(
      to,
      `SyncTV 重置密码验证码：${code}`,
      [`你的重置密码验证码是：${code}`, `验证码 ${MINUTES} 分钟内有效，只能使用一次。也可以打开下面的链接设置新密码：`],
      link,
    );
  }
  return message(
    to,
    `Your SyncTV password reset code: ${code}`,
    [`Your password reset code is: ${code}`, `It is valid for ${MINUTES} minutes and can be used once. You can also open this link to set a new password:`],
    link,
  );
}

/** The admin console's test mail (§4.6 `POST /api/admin/email/test`), naming who sent it. */
export function testMail(language: MailLanguage, to: string, sentBy: string): MailMessage {
  if (language === 'zh') {
    return message(to, 'SyncTV 测试邮件', [
      `这是管理员 ${sentBy} 从 SyncTV 管理后台发送的测试邮件。`,
      '收到这封邮件说明邮件设置是正确的。',
    ]);
  }
  return message(to, 'SyncTV test mail', [
    `This test mail was sent by the administrator ${sentBy} from the SyncTV admin console.`,
    'If you can read it, the email settings work.',
  ]);
}
