'use client';
import { useAtomValue } from 'jotai';
import { KeyRound } from 'lucide-react';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useEffect, useState } from 'react';
import { FormCard } from '@/components/common/form-card';
import { Notice } from '@/components/common/notice';
import { useCompleteSignIn } from '@/hooks/use-complete-sign-in';
import { resetPassword } from '@/hooks/data/account';
import { useT } from '@/lib/i18n';
import { notifySuccess } from '@/lib/notify';
import { publicSettingsAtom } from '@/lib/session';
import { EmailCodeForm } from './email-code-form';
import '@/lib/i18n/messages/auth';
import '@/lib/i18n/messages/account';

/**
 * `/auth/reset` (docs/reference-client.md §1.3): email + image captcha → mailed code → new password
 * (`POST /api/user/retrieve/email`), which signs the user in. The mailed link
 * `?email=…&captcha=…` opens it with both filled in.
 */
export function ResetScreen() {
  const t = useT();
  const router = useRouter();
  const settings = useAtomValue(publicSettingsAtom);
  const completeSignIn = useCompleteSignIn();
  // The query exists only in the real URL (the page was prerendered without it): read it after mount.
  const [initial, setInitial] = useState<{ email: string; code: string } | null>(null);
  useEffect(() => {
    const query = new URLSearchParams(window.location.search);
    setInitial({ email: query.get('email') ?? '', code: query.get('captcha') ?? '' });
  }, []);

  const footer = (
    <Link href="/auth/login" className="font-medium text-brand-600 hover:underline dark:text-brand-400">
      {t('callback.back')}
    </Link>
  );

  return (
    <FormCard testId="page-reset" icon={<KeyRound />} title={t('route.reset')} subtitle={t('reset.subtitle')} footer={footer}>
      {settings && !settings.emailEnable ? (
        <Notice tone="warning" testId="reset-email-off">
          {t('reset.emailOff')}
        </Notice>
      ) : initial ? (
        <EmailCodeForm
          flow="retrieve"
          testId="reset"
          initial={initial}
          submitLabel={t('reset.submit')}
          onSubmit={async (values) => {
            const refusal = await completeSignIn(await resetPassword({ email: values.email, captcha: values.code, password: values.password }));
            if (refusal) return refusal;
            notifySuccess(t('reset.success'));
            router.replace('/');
            return null;
          }}
        />
      ) : null}
    </FormCard>
  );
}
