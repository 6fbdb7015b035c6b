'use client';
/**
 * "Add an account" of a vendor (docs/vendors.md): address, user name and password, checked in the
 * browser first, then `POST /api/vendor/{alist,emby}/login`. AList takes an empty user name (its
 * guest); Emby and Jellyfin need one. A wrong password shows at the password, an address the server
 * may not or cannot reach at the address, anything else above the buttons. Loaded when first opened.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { z } from 'zod/mini';
import { formErrorText } from '@/components/common/form-rules';
import { useFormAction } from '@/components/common/use-form-action';
import { Notice } from '@/components/common/notice';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import { useVendorActions } from '@/hooks/data/vendors';
import type { BindableVendor } from '@/lib/contract/types';
import { useT } from '@/lib/i18n';
import { notifySuccess } from '@/lib/notify';
import '@/lib/i18n/messages/vendors';
import '@/lib/i18n/messages/errors';

/** An http(s) address; the server normalizes it further (docs/vendors.md). */
const schema = z.object({
  host: z.string().check(
    z.refine((value) => value.trim() !== '', { message: 'contract.host is required' }),
    z.refine((value) => value.trim() === '' || /^https?:\/\/[^\s/]+/i.test(value.trim()), { message: 'contract.host is invalid' }),
  ),
  username: z.string(),
  password: z.string(),
});

export function VendorBindForm({ vendor, onDone }: { vendor: BindableVendor; onDone: () => void }) {
  const t = useT();
  const actions = useVendorActions();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm({ resolver: zodResolver(schema), defaultValues: { host: '', username: '', password: '' } });
  const { failure, run } = useFormAction(setError, { url: 'host', password: 'password', username: 'username' });
  const submit = handleSubmit(({ host, username, password }) =>
    run(async () => {
      if (vendor === 'emby' && !username.trim()) {
        setError('username', { message: t('contract.username is required') }, { shouldFocus: true });
        return;
      }
      if (vendor === 'alist' && username.trim() && !password) {
        setError('password', { message: t('contract.password is required') }, { shouldFocus: true });
        return;
      }
      await actions.bind(vendor, host.trim(), username.trim(), password);
      notifySuccess(t('platforms.bound', { host: host.trim() }));
      onDone();
    }),
  );
  return (
    <form onSubmit={submit} noValidate className="space-y-3" data-testid={`${vendor}-bind-form`}>
      <TextField
        id={`${vendor}-host`}
        label={t(vendor === 'emby' ? 'platforms.embyHost' : 'platforms.host')}
        hint={t(vendor === 'emby' ? 'platforms.embyHostHint' : 'platforms.hostHint')}
        type="url"
        inputMode="url"
        autoComplete="url"
        placeholder={vendor === 'emby' ? 'https://jellyfin.example.com' : 'https://alist.example.com'}
        autoFocus
        error={formErrorText(t, errors.host?.message)}
        {...register('host')}
      />
      <TextField
        id={`${vendor}-username`}
        label={t('platforms.username')}
        hint={vendor === 'alist' ? t('platforms.usernameHint') : undefined}
        autoComplete="off"
        error={formErrorText(t, errors.username?.message)}
        {...register('username')}
      />
      <TextField
        id={`${vendor}-password`}
        label={t('platforms.password')}
        hint={t(vendor === 'emby' ? 'platforms.embyPasswordSecure' : 'platforms.passwordSecure')}
        type="password"
        autoComplete="off"
        error={formErrorText(t, errors.password?.message)}
        {...register('password')}
      />
      {failure ? <Notice tone="error">{failure}</Notice> : null}
      <div className="flex gap-2">
        <Button type="submit" size="sm" data-testid={`${vendor}-bind-submit`} loading={isSubmitting} disabled={isSubmitting}>
          {t('platforms.bind')}
        </Button>
        <Button variant="ghost" size="sm" data-testid={`${vendor}-bind-cancel`} onClick={onDone}>
          {t('platforms.cancel')}
        </Button>
      </div>
    </form>
  );
}
