import type { ComponentProps, ReactNode } from 'react';
import { Input } from './input';

export interface FieldProps {
  /** id of the control, tied to the label, the hint and the error text. */
  id: string;
  label: ReactNode;
  /** Error text shown under the control (already translated); replaces the hint while shown. */
  error?: string;
  hint?: ReactNode;
  children: ReactNode;
}

/**
 * A labelled form control with its hint (`<id>-hint`) or error text (`<id>-error`). The control
 * itself points at them with `aria-describedby` (`describedBy` gives the right id).
 */
export function Field({ id, label, error, hint, children }: FieldProps) {
  return (
    <div className="space-y-1.5">
      <label htmlFor={id} className="block text-sm font-medium text-zinc-700 dark:text-zinc-300">
        {label}
      </label>
      {children}
      {error ? (
        <p id={`${id}-error`} role="alert" className="text-sm text-red-600 dark:text-red-400">
          {error}
        </p>
      ) : hint ? (
        <p id={`${id}-hint`} className="text-xs text-zinc-500 dark:text-zinc-400">
          {hint}
        </p>
      ) : null}
    </div>
  );
}

/** The `aria-describedby` of a Field's control: its error text, else its hint, else nothing. */
function describedBy(id: string, error: string | undefined, hint: ReactNode): string | undefined {
  if (error) return `${id}-error`;
  return hint ? `${id}-hint` : undefined;
}

export interface TextFieldProps extends Omit<FieldProps, 'children'>, Omit<ComponentProps<'input'>, 'id'> {}

/**
 * A Field around an Input: `id` is also the input's `data-testid`; `aria-invalid` and
 * `aria-describedby` follow `error` and `hint`. Other props (react-hook-form's `register(...)`
 * included, ref and all) go to the <input>.
 */
export function TextField({ id, label, error, hint, ...inputProps }: TextFieldProps) {
  return (
    <Field id={id} label={label} error={error} hint={hint}>
      <Input
        id={id}
        data-testid={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, error, hint)}
        {...inputProps}
      />
    </Field>
  );
}
