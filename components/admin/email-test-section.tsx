'use client';
/**
 * The test mail (§4.6 `POST /api/admin/email/test`): sends one mail with the current SMTP settings
 * to the address given, or to the admin's bound email when the field is empty.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { useAtomValue } from 'jotai';
import { Send } from 'lucide-react';
import { useForm } from 'react-hook-form';
import { z } from 'zod/mini';
import { formErrorText } from '@/components/common/form-rules';
import { useFormAction } from '@/components/common/use-form-action';
import { Notice } from '@/components/common/notice';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { TextField } from '@/components/ui/field';
import { useSiteAdminActions } from '@/hooks/data/admin';
import { validateEmail } from '@/lib/contract/validation';
import { useT } from '@/lib/i18n';
import { notifySuccess } from '@/lib/notify';
import { userAtom } from '@/lib/session';
import '@/lib/i18n/messages/admin';

const schema = z.object({
  email: z.string().check(
    z.trim(),
    z.superRefine((value, ctx) => {
      const error = value ? validateEmail(value) : null;
      if (error) ctx.addIssue({ code: 'custom', message: error, input: value });
    }),
  ),
});

export function EmailTestSection({ onOpenSettings }: { onOpenSettings: () => void }) {
  const t = useT();
  const me = useAtomValue(userAtom);
  const { sendTestMail } = useSiteAdminActions();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm({ resolver: zodResolver(schema), defaultValues: { email: '' } });
  const { failure, run } = useFormAction(setError, { email: 'email' });
  const submit = handleSubmit(({ email }) =>
    run(async () => {
      await sendTestMail(email);
      notifySuccess(email ? t('admin.email.sent', { email }) : t('admin.email.sentBound'));
    }),
  );
  return (
    <section aria-labelledby="admin-email-title" data-testid="admin-email" className="space-y-4">
      <h2 id="admin-email-title" className="text-lg font-semibold">
        {t('admin.email.title')}
      </h2>
      <Card className="max-w-xl p-5">
        <form onSubmit={submit} noValidate className="space-y-3" data-testid="test-mail-form">
          <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('admin.email.hint')}</p>
          <TextField
            id="test-mail-address"
            type="email"
            label={t('admin.email.address')}
            hint={me?.email ? t('admin.email.addressHint', { email: me.email }) : t('admin.email.addressHintNone')}
            autoComplete="email"
            error={formErrorText(t, errors.email?.message)}
            {...register('email')}
          />
          {failure ? <Notice tone="error">{failure}</Notice> : null}
          <div className="flex flex-wrap justify-between gap-2">
            <Button variant="ghost" size="sm" onClick={onOpenSettings}>
              {t('admin.email.settings')}
            </Button>
            <Button type="submit" size="sm" data-testid="test-mail-send" loading={isSubmitting} disabled={isSubmitting}>
              <Send className="h-4 w-4" aria-hidden />
              {t('admin.email.send')}
            </Button>
          </div>
        </form>
      </Card>
    </section>
  );
}
