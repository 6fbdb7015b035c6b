'use client';
import { zodResolver } from '@hookform/resolvers/zod';
import { useAtomValue } from 'jotai';
import { UserPlus } from 'lucide-react';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { FormCard } from '@/components/common/form-card';
import { formErrorText, placeFormError } from '@/components/common/form-rules';
import { Notice } from '@/components/common/notice';
import { Button, buttonClasses } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import { signup } from '@/lib/api/user';
import { useT } from '@/lib/i18n';
import { notifySuccess } from '@/lib/notify';
import { publicSettingsAtom } from '@/lib/session';
import { registerSchema, type RegisterForm } from './schemas';
import { useCompleteSignIn } from '@/hooks/use-complete-sign-in';
import '@/lib/i18n/messages/auth';

/**
 * `/auth/register` (reference-client.md §1.3, password method): `POST /api/user/signup`, then the
 * same sign-in completion as login (unlike the reference, the header shows the name at once), then home.
 */
export function RegisterScreen() {
  const t = useT();
  const router = useRouter();
  const settings = useAtomValue(publicSettingsAtom);
  const completeSignIn = useCompleteSignIn();
  const [failure, setFailure] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<RegisterForm>({
    resolver: zodResolver(registerSchema),
    defaultValues: { username: '', password: '', passwordConfirm: '' },
  });

  const onSubmit = handleSubmit(async ({ username, password }) => {
    setFailure(null);
    try {
      const refusal = await completeSignIn(await signup({ username, password }));
      if (refusal) {
        setFailure(refusal);
        return;
      }
      notifySuccess(t('register.success'));
      router.replace('/');
    } catch (error) {
      setFailure(placeFormError(error, { username: 'username', password: 'password' }, setError));
    }
  });

  const footer = (
    <>
      {t('register.haveAccount')}{' '}
      <Link href="/auth/login" className="font-medium text-brand-600 hover:underline dark:text-brand-400">
        {t('register.loginNow')}
      </Link>
    </>
  );

  if (settings?.passwordDisableSignup) {
    return (
      <FormCard testId="page-register" icon={<UserPlus />} title={t('route.register')}>
        <Notice tone="warning" testId="register-disabled">
          <p className="font-medium">{t('register.disabled')}</p>
          <p className="mt-1">{t('register.disabledBody')}</p>
        </Notice>
        <Link href="/auth/login" className={buttonClasses('primary', 'lg', 'mt-6 w-full')}>
          {t('register.loginNow')}
        </Link>
      </FormCard>
    );
  }

  return (
    <FormCard testId="page-register" icon={<UserPlus />} title={t('route.register')} subtitle={t('register.subtitle')} footer={footer}>
      <form onSubmit={onSubmit} noValidate className="space-y-5">
        <TextField
          id="register-username"
          label={t('auth.username')}
          hint={t('auth.inputLimit')}
          error={formErrorText(t, errors.username?.message)}
          autoComplete="username"
          autoFocus
          {...register('username')}
        />
        <TextField
          id="register-password"
          label={t('auth.password')}
          error={formErrorText(t, errors.password?.message)}
          type="password"
          autoComplete="new-password"
          {...register('password')}
        />
        <TextField
          id="register-password-confirm"
          label={t('auth.passwordConfirm')}
          error={formErrorText(t, errors.passwordConfirm?.message)}
          type="password"
          autoComplete="new-password"
          {...register('passwordConfirm')}
        />
        {failure ? <Notice tone="error">{failure}</Notice> : null}
        <Button type="submit" data-testid="register-submit" className="w-full" size="lg" loading={isSubmitting}>
          {t('register.submit')}
        </Button>
      </form>
    </FormCard>
  );
}
