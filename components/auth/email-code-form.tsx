'use client';
import { zodResolver } from '@hookform/resolvers/zod';
import { useAtomValue } from 'jotai';
import { publicSettingsAtom } from '@/lib/session';
import { useForm } from 'react-hook-form';
import { formErrorText } from '@/components/common/form-rules';
import { useFormAction } from '@/components/common/use-form-action';
import { Notice } from '@/components/common/notice';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import type { EmailFlow } from '@/hooks/data/account';
import { useT } from '@/lib/i18n';
import { CaptchaField, SendCodeConfirm, useEmailCodeSender } from './captcha';
import { emailCodeSchema, type EmailCodeForm } from './schemas';
import '@/lib/i18n/messages/auth';
import '@/lib/i18n/messages/account';

export interface EmailCodeFormProps {
  /** `signup` or `retrieve` (password reset). */
  flow: Extract<EmailFlow, 'signup' | 'retrieve'>;
  /** Prefill (the reset mail's link: `?email=…&captcha=…`), read when the form mounts; with a code, it shows as sent. */
  initial?: { email: string; code: string };
  submitLabel: string;
  testId: string;
  /** Runs the final call with the mailed code; resolves to a refusal to show, or null when done. Throws `ApiError`. */
  onSubmit: (values: { email: string; code: string; password: string }) => Promise<string | null>;
}

/**
 * Email + image captcha → "send code" (`POST /api/user/{flow}/email/captcha`) → mailed code + new
 * password → `onSubmit` (docs/contract.md §4.2, docs/reference-client.md §1.3). Errors show at their
 * field: a wrong captcha at the captcha (with a fresh image), a wrong code at the code.
 */
export function EmailCodeForm({ flow, initial, submitLabel, testId, onSubmit }: EmailCodeFormProps) {
  const t = useT();
  const settings = useAtomValue(publicSettingsAtom);
  // Sign-up only accepts the whitelisted domains (§4.1); say which before the server refuses.
  const whitelist = flow === 'signup' && settings?.emailWhitelistEnabled ? settings.emailWhitelist.join(', ') : '';
  const form = useForm<EmailCodeForm>({
    resolver: zodResolver(emailCodeSchema),
    defaultValues: { email: initial?.email ?? '', answer: '', code: initial?.code ?? '', password: '', passwordConfirm: '' },
  });
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = form;
  const action = useFormAction(setError, { email: 'email', captcha: 'code', password: 'password' });
  const { failure, setFailure, run } = action;
  const sender = useEmailCodeSender(flow, form, action, initial?.code ? initial.email : null);
  const { captcha, sentTo, sending, send } = sender;

  const submit = handleSubmit(({ email, code, password }) =>
    run(async () => {
      const refusal = await onSubmit({ email, code, password });
      if (refusal) setFailure(refusal);
    }),
  );

  return (
    <form onSubmit={submit} noValidate className="space-y-5" data-testid={testId}>
      <TextField
        id={`${testId}-email`}
        label={t('account.email')}
        type="email"
        autoComplete="email"
        hint={whitelist ? t('account.whitelist', { domains: whitelist }) : undefined}
        error={formErrorText(t, errors.email?.message)}
        {...register('email')}
      />
      <CaptchaField id={`${testId}-answer`} state={captcha} error={formErrorText(t, errors.answer?.message)} {...register('answer')} />
      <div>
        <Button variant="outline" className="w-full" data-testid={`${testId}-send`} loading={sending} onClick={() => void send()}>
          {sending ? t('account.sendingCode') : t('account.sendCode')}
        </Button>
        {sentTo ? (
          <Notice tone="info" className="mt-3" testId={`${testId}-sent`}>
            {t(flow === 'retrieve' ? 'reset.stepCode' : 'account.codeSent', { email: sentTo })}
          </Notice>
        ) : (
          <p className="mt-1.5 text-xs text-zinc-500 dark:text-zinc-400">{t('account.codeHint')}</p>
        )}
      </div>
      <TextField
        id={`${testId}-code`}
        label={t('account.emailCode')}
        autoComplete="one-time-code"
        error={formErrorText(t, errors.code?.message)}
        {...register('code')}
      />
      <TextField
        id={`${testId}-password`}
        label={t(flow === 'retrieve' ? 'account.newPassword' : 'auth.password')}
        hint={t('auth.newPasswordHint')}
        type="password"
        autoComplete="new-password"
        error={formErrorText(t, errors.password?.message)}
        {...register('password')}
      />
      <TextField
        id={`${testId}-password-confirm`}
        label={t('auth.passwordConfirm')}
        type="password"
        autoComplete="new-password"
        error={formErrorText(t, errors.passwordConfirm?.message)}
        {...register('passwordConfirm')}
      />
      {failure ? <Notice tone="error">{failure}</Notice> : null}
      <Button type="submit" className="w-full" size="lg" data-testid={`${testId}-submit`} loading={isSubmitting} disabled={isSubmitting}>
        {submitLabel}
      </Button>
      <SendCodeConfirm sender={sender} />
    </form>
  );
}
