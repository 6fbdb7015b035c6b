'use client';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { z } from 'zod/mini';
import { contractName, contractString, formErrorText } from '@/components/common/form-rules';
import { useFormAction } from '@/components/common/use-form-action';
import { Notice } from '@/components/common/notice';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import { CaptchaField, SendCodeConfirm, useEmailCodeSender } from '@/components/auth/captcha';
import { useAccountActions } from '@/hooks/data/account';
import { validateEmail, validateEmailCode, validateNewUserPassword, validateUsername } from '@/lib/contract/validation';
import { useT } from '@/lib/i18n';
import { notifySuccess } from '@/lib/notify';
import '@/lib/i18n/messages/auth';
import '@/lib/i18n/messages/account';
import '@/lib/i18n/messages/user';

interface InlineFormProps {
  /** Called after success and on cancel. */
  onDone: () => void;
}

const renameSchema = z.object({ username: contractName(validateUsername) });

/** `POST /api/user/username` (§4.2), then the session's user is reloaded. */
export function RenameForm({ onDone, current }: InlineFormProps & { current: string }) {
  const t = useT();
  const actions = useAccountActions();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm({ resolver: zodResolver(renameSchema), defaultValues: { username: current } });
  const { failure, run } = useFormAction(setError, { username: 'username' });
  const submit = handleSubmit(({ username }) =>
    run(async () => {
      await actions.rename(username);
      notifySuccess(t('profile.renamed'));
      onDone();
    }),
  );
  return (
    <form onSubmit={submit} noValidate className="space-y-3" data-testid="rename-form">
      <TextField id="rename-username" label={t('profile.newUsername')} autoFocus error={formErrorText(t, errors.username?.message)} {...register('username')} />
      {failure ? <Notice tone="error">{failure}</Notice> : null}
      <FormButtons busy={isSubmitting} onCancel={onDone} testId="rename" />
    </form>
  );
}

const passwordSchema = z
  .object({ password: contractString(validateNewUserPassword), passwordConfirm: z.string() })
  .check(z.refine((form) => form.password === form.passwordConfirm, { message: 'register.mismatch', path: ['passwordConfirm'] }));

/** `POST /api/user/password` (§4.2): the answer's new token replaces the old one, which stops working. */
export function PasswordForm({ onDone }: InlineFormProps) {
  const t = useT();
  const actions = useAccountActions();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm({ resolver: zodResolver(passwordSchema), defaultValues: { password: '', passwordConfirm: '' } });
  const { failure, run } = useFormAction(setError, { password: 'password' });
  const submit = handleSubmit(({ password }) =>
    run(async () => {
      await actions.changePassword(password);
      notifySuccess(t('profile.passwordChanged'));
      onDone();
    }),
  );
  return (
    <form onSubmit={submit} noValidate className="space-y-3" data-testid="password-form">
      <TextField
        id="new-password"
        label={t('account.newPassword')}
        hint={t('auth.newPasswordHint')}
        type="password"
        autoComplete="new-password"
        autoFocus
        error={formErrorText(t, errors.password?.message)}
        {...register('password')}
      />
      <TextField
        id="new-password-confirm"
        label={t('auth.passwordConfirm')}
        type="password"
        autoComplete="new-password"
        error={formErrorText(t, errors.passwordConfirm?.message)}
        {...register('passwordConfirm')}
      />
      {failure ? <Notice tone="error">{failure}</Notice> : null}
      <FormButtons busy={isSubmitting} onCancel={onDone} testId="password" />
    </form>
  );
}

const bindSchema = z.object({
  email: contractString(validateEmail),
  answer: z.string(),
  code: contractString(validateEmailCode),
});

/**
 * Email binding (§4.2): address + image captcha → `POST /api/user/bind/email/captcha` mails a code →
 * `POST /api/user/bind/email {email, captcha}`; then the session's user is reloaded.
 */
export function BindEmailForm({ onDone }: InlineFormProps) {
  const t = useT();
  const actions = useAccountActions();
  const form = useForm({ resolver: zodResolver(bindSchema), defaultValues: { email: '', answer: '', code: '' } });
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = form;
  const { failure, setFailure, run } = useFormAction(setError, { email: 'email', captcha: 'code' });
  const sender = useEmailCodeSender('bind', form, { setFailure, run });
  const { captcha, sentTo, sending, send } = sender;
  const submit = handleSubmit(({ email, code }) =>
    run(async () => {
      await actions.bindEmail(email, code);
      notifySuccess(t('profile.emailBound'));
      onDone();
    }),
  );

  return (
    <form onSubmit={submit} noValidate className="space-y-3" data-testid="bind-email-form">
      <TextField id="bind-address" label={t('account.email')} type="email" autoComplete="email" autoFocus error={formErrorText(t, errors.email?.message)} {...register('email')} />
      <CaptchaField id="bind-answer" state={captcha} error={formErrorText(t, errors.answer?.message)} {...register('answer')} />
      <Button variant="outline" className="w-full" data-testid="bind-send" loading={sending} onClick={() => void send()}>
        {sending ? t('account.sendingCode') : t('account.sendCode')}
      </Button>
      {sentTo ? (
        <Notice tone="info" testId="bind-sent">
          {t('account.codeSent', { email: sentTo })}
        </Notice>
      ) : null}
      <TextField id="bind-code" label={t('account.emailCode')} autoComplete="one-time-code" error={formErrorText(t, errors.code?.message)} {...register('code')} />
      {failure ? <Notice tone="error">{failure}</Notice> : null}
      <FormButtons busy={isSubmitting} onCancel={onDone} testId="bind" />
      <SendCodeConfirm sender={sender} />
    </form>
  );
}

function FormButtons({ busy, onCancel, testId }: { busy: boolean; onCancel: () => void; testId: string }) {
  const t = useT();
  return (
    <div className="flex gap-2">
      <Button type="submit" size="sm" data-testid={`${testId}-submit`} loading={busy} disabled={busy}>
        {t('profile.save')}
      </Button>
      <Button variant="ghost" size="sm" data-testid={`${testId}-cancel`} onClick={onCancel}>
        {t('profile.cancel')}
      </Button>
    </div>
  );
}
