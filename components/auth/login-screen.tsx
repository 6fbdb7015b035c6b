'use client';
import { zodResolver } from '@hookform/resolvers/zod';
import { useAtomValue } from 'jotai';
import { LogIn } from 'lucide-react';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { FormCard } from '@/components/common/form-card';
import { formErrorText } from '@/components/common/form-rules';
import { useFormAction } from '@/components/common/use-form-action';
import { describeError } from '@/lib/i18n/error-text';
import { Notice } from '@/components/common/notice';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { TextField } from '@/components/ui/field';
import { signupAllowed } from '@/config/menu';
import { login } from '@/hooks/data/account';
import { clsx } from 'clsx';
import { registerPath, safeRedirect } from '@/lib/guard';
import { useT } from '@/lib/i18n';
import { notifySuccess } from '@/lib/notify';
import { publicSettingsAtom } from '@/lib/session';
import { readRememberedUsername, writeRememberedUsername } from '@/lib/storage';
import { loginFormSchemas, type LoginFormValues } from './schemas';
import { useCompleteSignIn } from '@/hooks/use-complete-sign-in';
import '@/lib/i18n/messages/auth';

// The provider buttons load after the form: most sites enable none, and the form must not wait.
const OAuthButtons = lazy(() => import('./oauth-buttons').then((m) => ({ default: m.OAuthButtons })));

type LoginMode = 'username' | 'email';

/**
 * `/auth/login` (docs/reference-client.md §1.3): username or bound email, and password (`POST
 * /api/user/login`), or an OAuth2 provider the server enables; then `GET /api/user/me` and back to
 * `?redirect=` (same-site paths only) or home. "Forgot password" when the site has email.
 */
export function LoginScreen() {
  const t = useT();
  const router = useRouter();
  const settings = useAtomValue(publicSettingsAtom);
  const completeSignIn = useCompleteSignIn();
  const [redirect, setRedirect] = useState('/');
  const [mode, setMode] = useState<LoginMode>('username');
  // Kept signed in on this device (the default), or in this tab only; the username is then remembered too.
  const [remember, setRemember] = useState(true);
  // The query exists only in the real URL (the page was prerendered without it), so read it after mount.
  useEffect(() => setRedirect(safeRedirect(new URLSearchParams(window.location.search).get('redirect'))), []);
  const hasRedirect = redirect !== '/';
  const {
    register,
    handleSubmit,
    setError,
    clearErrors,
    setValue,
    formState: { errors, isSubmitting },
  } = useForm<LoginFormValues>({
    resolver: zodResolver(loginFormSchemas[mode]),
    defaultValues: { username: '', email: '', password: '' },
  });
  // The remembered username (this device's storage, read after mount like the query).
  useEffect(() => {
    const username = readRememberedUsername();
    if (username) setValue('username', username);
  }, [setValue]);
  const { failure, setFailure, run } = useFormAction(setError, { username: 'username', email: 'email', password: 'password' });
  const switchMode = (next: LoginMode) => {
    setMode(next);
    setFailure(null);
    clearErrors();
  };

  /** Signs in with the name or address and the password; null when those were wrong (said at the password). */
  const logIn = async (credentials: { username: string } | { email: string }, password: string) => {
    try {
      return await login({ ...credentials, password });
    } catch (error) {
      // Neither server says which of the two was wrong in a way worth showing at one field: the
      // companion server answers an unknown name as a wrong password, v0.9.11 tells them apart.
      const text = describeError(error).text;
      if (text !== 'password incorrect' && text !== 'user not found') throw error;
      const message = t(mode === 'email' ? 'login.wrongEmailCredentials' : 'login.wrongCredentials');
      setError('password', { type: 'server', message }, { shouldFocus: true });
      return null;
    }
  };

  const onSubmit = handleSubmit(({ username, email, password }) =>
    run(async () => {
      const answer = await logIn(mode === 'email' ? { email } : { username }, password);
      if (!answer) return;
      const refusal = await completeSignIn(answer, remember);
      if (refusal) {
        setFailure(refusal);
        return;
      }
      if (mode === 'username') writeRememberedUsername(remember ? username : '');
      notifySuccess(t('login.success'));
      router.replace(safeRedirect(new URLSearchParams(window.location.search).get('redirect')));
    }),
  );

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
            <Link href={hasRedirect ? registerPath(redirect) : '/auth/register'} className="font-medium text-brand-600 hover:underline dark:text-brand-400">
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
      {settings?.emailEnable ? (
        <div role="group" aria-label={t('route.login')} className="mb-5 grid grid-cols-2 gap-1 rounded-lg bg-zinc-100 p-1 dark:bg-zinc-800">
          {(['username', 'email'] as const).map((option) => (
            <button
              key={option}
              type="button"
              aria-pressed={mode === option}
              data-testid={`login-mode-${option}`}
              onClick={() => switchMode(option)}
              className={clsx(
                'min-h-9 cursor-pointer rounded-md text-sm font-medium',
                mode === option ? 'bg-white shadow-sm dark:bg-zinc-900' : 'text-zinc-600 dark:text-zinc-300',
              )}
            >
              {t(option === 'username' ? 'login.byUsername' : 'login.byEmail')}
            </button>
          ))}
        </div>
      ) : null}
      <form onSubmit={onSubmit} noValidate className="space-y-5">
        {mode === 'email' ? (
          <TextField
            key="email"
            id="login-email"
            label={t('login.email')}
            type="email"
            error={formErrorText(t, errors.email?.message)}
            autoComplete="email"
            autoFocus
            {...register('email')}
          />
        ) : (
          <TextField
            key="username"
            id="login-username"
            label={t('auth.username')}
            error={formErrorText(t, errors.username?.message)}
            autoComplete="username"
            autoFocus
            {...register('username')}
          />
        )}
        <TextField
          id="login-password"
          label={t('auth.password')}
          error={formErrorText(t, errors.password?.message)}
          type="password"
          autoComplete="current-password"
          {...register('password')}
        />
        <div className="-mt-2 flex flex-wrap items-center justify-between gap-2 text-sm">
          <Checkbox
            id="login-remember"
            data-testid="login-remember"
            label={t('login.remember')}
            hint={t('login.rememberHint')}
            checked={remember}
            onChange={(event) => setRemember(event.target.checked)}
          />
          {settings?.emailEnable ? (
            <Link href="/auth/reset" data-testid="login-forgot" className="text-brand-600 hover:underline dark:text-brand-400">
              {t('login.forgot')}
            </Link>
          ) : null}
        </div>
        {failure ? <Notice tone="error">{failure}</Notice> : null}
        <Button type="submit" data-testid="login-submit" className="w-full" size="lg" loading={isSubmitting}>
          {t('login.submit')}
        </Button>
      </form>
      <Suspense fallback={null}>
        <div className="mt-6">
          <OAuthButtons purpose="login" redirect={redirect} withHeading />
        </div>
      </Suspense>
    </FormCard>
  );
}
