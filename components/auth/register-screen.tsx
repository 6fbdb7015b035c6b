'use client';
import { zodResolver } from '@hookform/resolvers/zod';
import { useAtomValue } from 'jotai';
import { UserPlus } from 'lucide-react';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { lazy, Suspense, useEffect, useState } from 'react';
import { clsx } from 'clsx';
import { signup, signupWithEmail } from '@/hooks/data/account';
import { Role } from '@/lib/contract/roles';
import type { PublicSettings, TokenResponse } from '@/lib/contract/types';
import { useForm } from 'react-hook-form';
import { FormCard } from '@/components/common/form-card';
import { formErrorText } from '@/components/common/form-rules';
import { useFormAction } from '@/components/common/use-form-action';
import { Notice } from '@/components/common/notice';
import { Button, buttonClasses } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import { loginPath, safeRedirect } from '@/lib/guard';
import { useT } from '@/lib/i18n';
import { notifySuccess } from '@/lib/notify';
import { publicSettingsAtom } from '@/lib/session';
import { registerSchema, type RegisterForm } from './schemas';
import { useCompleteSignIn } from '@/hooks/use-complete-sign-in';
import '@/lib/i18n/messages/auth';

// Loaded only when their method is picked (the password form is the default).
const EmailCodeForm = lazy(() => import('./email-code-form').then((m) => ({ default: m.EmailCodeForm })));
const OAuthButtons = lazy(() => import('./oauth-buttons').then((m) => ({ default: m.OAuthButtons })));

type SignupMethod = 'password' | 'email' | 'oauth';

/** The sign-up methods the public settings allow, in the reference order (§1.3). */
export function signupMethods(settings: PublicSettings): SignupMethod[] {
  const methods: SignupMethod[] = [];
  if (!settings.passwordDisableSignup) methods.push('password');
  if (settings.emailEnable && !settings.emailDisableSignup) methods.push('email');
  if (!settings.oauth2DisableSignup) methods.push('oauth');
  return methods;
}

const METHOD_LABELS = { password: 'register.methodPassword', email: 'register.methodEmail', oauth: 'register.methodOAuth' } as const;

/**
 * `/auth/register` (docs/reference-client.md §1.3): the methods the public settings allow: username and
 * password (`POST /api/user/signup`), email with an image captcha and a mailed code (`POST
 * /api/user/signup/email`), or an OAuth2 provider that allows sign-up. A new account under review
 * gets a clear "pending" message; otherwise the user is signed in and goes home.
 */
export function RegisterScreen() {
  const t = useT();
  const router = useRouter();
  const settings = useAtomValue(publicSettingsAtom);
  const completeSignIn = useCompleteSignIn();
  const [picked, setPicked] = useState<SignupMethod | null>(null);
  const [pending, setPending] = useState(false);
  // Where to go once signed up (`?redirect=`, same-site paths only); read after mount, as on the login screen.
  const [redirect, setRedirect] = useState('/');
  useEffect(() => setRedirect(safeRedirect(new URLSearchParams(window.location.search).get('redirect'))), []);
  const loginHref = redirect === '/' ? '/auth/login' : loginPath(redirect);
  const methods = settings ? signupMethods(settings) : ['password' as const];
  const method = picked && methods.includes(picked) ? picked : methods[0];

  /** Signs in with the answer, or says why not (pending gets its own screen). */
  const finish = async (answer: TokenResponse): Promise<string | null> => {
    const refusal = await completeSignIn(answer);
    if (refusal) {
      if (answer.role === Role.Pending) {
        setPending(true);
        return null;
      }
      return refusal;
    }
    notifySuccess(t('register.success'));
    router.replace(safeRedirect(new URLSearchParams(window.location.search).get('redirect')));
    return null;
  };
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<RegisterForm>({
    resolver: zodResolver(registerSchema),
    defaultValues: { username: '', password: '', passwordConfirm: '' },
  });

  const { failure, setFailure, run } = useFormAction(setError, { username: 'username', password: 'password' });
  const onSubmit = handleSubmit(({ username, password }) => run(async () => setFailure(await finish(await signup({ username, password })))));

  const footer = (
    <>
      {t('register.haveAccount')}{' '}
      <Link href={loginHref} className="font-medium text-brand-600 hover:underline dark:text-brand-400">
        {t('register.loginNow')}
      </Link>
    </>
  );

  if (pending) {
    return (
      <FormCard testId="page-register" icon={<UserPlus />} title={t('route.register')}>
        <Notice tone="info" testId="register-pending">
          {t('register.pending')}
        </Notice>
        <Link href={loginHref} className={buttonClasses('primary', 'lg', 'mt-6 w-full')}>
          {t('register.loginNow')}
        </Link>
      </FormCard>
    );
  }

  if (!method) {
    return (
      <FormCard testId="page-register" icon={<UserPlus />} title={t('route.register')}>
        <Notice tone="warning" testId="register-disabled">
          <p className="font-medium">{t('register.noneAllowed')}</p>
          <p className="mt-1">{t('register.disabledBody')}</p>
        </Notice>
        <Link href={loginHref} className={buttonClasses('primary', 'lg', 'mt-6 w-full')}>
          {t('register.loginNow')}
        </Link>
      </FormCard>
    );
  }

  return (
    <FormCard testId="page-register" icon={<UserPlus />} title={t('route.register')} subtitle={t('register.subtitle')} footer={footer}>
      {methods.length > 1 ? (
        <div
          role="group"
          aria-label={t('register.method')}
          className="mb-5 grid gap-1 rounded-lg bg-zinc-100 p-1 dark:bg-zinc-800"
          style={{ gridTemplateColumns: `repeat(${methods.length}, minmax(0, 1fr))` }}
        >
          {methods.map((option) => (
            <button
              key={option}
              type="button"
              aria-pressed={method === option}
              data-testid={`register-method-${option}`}
              onClick={() => {
                setPicked(option);
                setFailure(null);
              }}
              className={clsx(
                'min-h-9 cursor-pointer rounded-md px-1 text-sm font-medium',
                method === option ? 'bg-white shadow-sm dark:bg-zinc-900' : 'text-zinc-600 dark:text-zinc-300',
              )}
            >
              {t(METHOD_LABELS[option])}
            </button>
          ))}
        </div>
      ) : null}
      {method === 'email' ? (
        <Suspense fallback={null}>
          <EmailCodeForm
            flow="signup"
            testId="register-email"
            submitLabel={t('register.submit')}
            onSubmit={async ({ email, code, password }) => finish(await signupWithEmail({ email, captcha: code, password }))}
          />
        </Suspense>
      ) : method === 'oauth' ? (
        <Suspense fallback={null}>
          <p className="mb-4 text-sm text-zinc-500 dark:text-zinc-400">{t('register.oauthHint')}</p>
          <OAuthButtons purpose="signup" redirect={redirect} />
        </Suspense>
      ) : (
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
            hint={t('auth.newPasswordHint')}
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
      )}
    </FormCard>
  );
}
