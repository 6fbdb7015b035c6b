'use client';
import { zodResolver } from '@hookform/resolvers/zod';
import { useAtomValue } from 'jotai';
import { LogIn } from 'lucide-react';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { FormCard } from '@/components/common/form-card';
import { formErrorText, placeFormError } from '@/components/common/form-rules';
import { Notice } from '@/components/common/notice';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import { signupAllowed } from '@/config/menu';
import { login } from '@/lib/api/user';
import { safeRedirect } from '@/lib/guard';
import { useT } from '@/lib/i18n';
import { notifySuccess } from '@/lib/notify';
import { publicSettingsAtom } from '@/lib/session';
import { loginSchema, type LoginForm } from './schemas';
import { useCompleteSignIn } from '@/hooks/use-complete-sign-in';
import '@/lib/i18n/messages/auth';

/**
 * `/auth/login` (reference-client.md §1.3): username and password, `POST /api/user/login`, then
 * `GET /api/user/me`, then back to `?redirect=` (same-site paths only) or home.
 */
export function LoginScreen() {
  const t = useT();
  const router = useRouter();
  const settings = useAtomValue(publicSettingsAtom);
  const completeSignIn = useCompleteSignIn();
  const [failure, setFailure] = useState<string | null>(null);
  const [hasRedirect, setHasRedirect] = useState(false);
  // The query exists only in the real URL (the page was prerendered without it), so read it after mount.
  useEffect(() => setHasRedirect(safeRedirect(new URLSearchParams(window.location.search).get('redirect')) !== '/'), []);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<LoginForm>({ resolver: zodResolver(loginSchema), defaultValues: { username: '', password: '' } });

  const onSubmit = handleSubmit(async (credentials) => {
    setFailure(null);
    try {
      const refusal = await completeSignIn(await login(credentials));
      if (refusal) {
        setFailure(refusal);
        return;
      }
      notifySuccess(t('login.success'));
      router.replace(safeRedirect(new URLSearchParams(window.location.search).get('redirect')));
    } catch (error) {
      setFailure(placeFormError(error, { username: 'username', password: 'password' }, setError));
    }
  });

  return (
    <FormCard
      testId="page-login"
      icon={<LogIn />}
      title={t('route.login')}
      subtitle={t('login.subtitle')}
      footer={
        settings === null || signupAllowed(settings) ? (
          <>
            {t('login.noAccount')}{' '}
            <Link href="/auth/register" className="font-medium text-brand-600 hover:underline dark:text-brand-400">
              {t('login.registerNow')}
            </Link>
          </>
        ) : null
      }
    >
      {hasRedirect ? (
        <Notice tone="info" className="mb-5">
          {t('login.redirectHint')}
        </Notice>
      ) : null}
      <form onSubmit={onSubmit} noValidate className="space-y-5">
        <TextField
          id="login-username"
          label={t('auth.username')}
          error={formErrorText(t, errors.username?.message)}
          autoComplete="username"
          autoFocus
          {...register('username')}
        />
        <TextField
          id="login-password"
          label={t('auth.password')}
          error={formErrorText(t, errors.password?.message)}
          type="password"
          autoComplete="current-password"
          {...register('password')}
        />
        {failure ? <Notice tone="error">{failure}</Notice> : null}
        <Button type="submit" data-testid="login-submit" className="w-full" size="lg" loading={isSubmitting}>
          {t('login.submit')}
        </Button>
      </form>
    </FormCard>
  );
}
