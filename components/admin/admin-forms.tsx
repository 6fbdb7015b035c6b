'use client';
/**
 * The console's small forms, each in a modal: add a user (§4.6 `user/add`), and one-value forms for
 * a new username, a user's new password and a room's password. They check the contract's rules
 * (lib/contract/validation.ts, shared with the server) before sending, show a refusal at its field
 * once, and keep the submit disabled while it runs.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { z } from 'zod/mini';
import { contractName, contractString, formErrorText } from '@/components/common/form-rules';
import { useFormAction } from '@/components/common/use-form-action';
import { Notice } from '@/components/common/notice';
import { Button } from '@/components/ui/button';
import { Field, TextField } from '@/components/ui/field';
import { Select } from '@/components/ui/input';
import { roleNameKey } from '@/components/user/role-name';
import type { ErrorField } from '@/lib/i18n/error-text';
import { Role } from '@/lib/contract/roles';
import { validateNewUserPassword, validateUsername } from '@/lib/contract/validation';
import { useT } from '@/lib/i18n';
import '@/lib/i18n/messages/admin';

const addUserSchema = z.object({
  username: contractName(validateUsername),
  password: contractString(validateNewUserPassword),
  role: z.coerce.number(),
});

export interface AddUserFormProps {
  /** Whether the viewer is root (only root adds admins and roots). */
  asRoot: boolean;
  onSubmit: (username: string, password: string, role: number) => Promise<void>;
  onCancel: () => void;
}

/** Username, password (shown as typed: the admin hands it over) and role, User by default. */
export function AddUserForm({ asRoot, onSubmit, onCancel }: AddUserFormProps) {
  const t = useT();
  const roles = asRoot ? [Role.User, Role.Pending, Role.Banned, Role.Admin, Role.Root] : [Role.User, Role.Pending, Role.Banned];
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm({ resolver: zodResolver(addUserSchema), defaultValues: { username: '', password: '', role: Role.User } });
  const { failure, run } = useFormAction(setError, { username: 'username', password: 'password' });
  const submit = handleSubmit(({ username, password, role }) =>
    run(async () => {
      await onSubmit(username, password, role);
    }),
  );
  return (
    <form onSubmit={submit} noValidate className="space-y-3" data-testid="add-user-form">
      <TextField id="add-username" label={t('admin.form.username')} autoComplete="off" data-autofocus error={formErrorText(t, errors.username?.message)} {...register('username')} />
      <TextField id="add-password" label={t('admin.form.password')} hint={t('admin.form.passwordRule')} autoComplete="new-password" error={formErrorText(t, errors.password?.message)} {...register('password')} />
      <Field id="add-role" label={t('admin.form.role')} hint={asRoot ? undefined : t('admin.form.roleHint')}>
        <Select id="add-role" data-testid="add-role" aria-describedby={asRoot ? undefined : 'add-role-hint'} {...register('role')}>
          {roles.map((role) => (
            <option key={role} value={role}>
              {t(roleNameKey(role))}
            </option>
          ))}
        </Select>
      </Field>
      {failure ? <Notice tone="error">{failure}</Notice> : null}
      <FormButtons busy={isSubmitting} onCancel={onCancel} submitLabel={t('admin.form.create')} testId="add-user" />
    </form>
  );
}

export interface ValueFormProps {
  id: string;
  label: string;
  hint?: string;
  /** `password` fields are shown as typed (the admin hands the value over) but not autofilled. */
  kind: 'text' | 'password';
  initial?: string;
  /** The contract rule of the value (returns the error text, or null). */
  validate: (value: string) => string | null;
  /** Which error field of the server's answers belongs to this input. */
  errorField: ErrorField;
  onSubmit: (value: string) => Promise<void>;
  onCancel: () => void;
}

/** One value: a new username, a user's password, a room's password. */
export function ValueForm({ id, label, hint, kind, initial = '', validate, errorField, onSubmit, onCancel }: ValueFormProps) {
  const t = useT();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm({ resolver: zodResolver(z.object({ value: contractString(validate) })), defaultValues: { value: initial } });
  const { failure, run } = useFormAction(setError, { [errorField]: 'value' });
  const submit = handleSubmit(({ value }) =>
    run(async () => {
      await onSubmit(value);
    }),
  );
  return (
    <form onSubmit={submit} noValidate className="space-y-3" data-testid={`${id}-form`}>
      <TextField
        id={id}
        label={label}
        hint={hint}
        autoComplete={kind === 'password' ? 'new-password' : 'off'}
        data-autofocus
        error={formErrorText(t, errors.value?.message)}
        {...register('value')}
      />
      {failure ? <Notice tone="error">{failure}</Notice> : null}
      <FormButtons busy={isSubmitting} onCancel={onCancel} submitLabel={t('admin.save')} testId={id} />
    </form>
  );
}

function FormButtons({ busy, onCancel, submitLabel, testId }: { busy: boolean; onCancel: () => void; submitLabel: string; testId: string }) {
  const t = useT();
  return (
    <div className="flex justify-end gap-2 pt-1">
      <Button variant="ghost" size="sm" onClick={onCancel}>
        {t('admin.cancel')}
      </Button>
      <Button type="submit" size="sm" data-testid={`${testId}-submit`} loading={busy} disabled={busy}>
        {submitLabel}
      </Button>
    </div>
  );
}
