import type { ReactNode } from 'react';

export interface FieldProps {
  /** id of the control, tied to the label and to the error text. */
  id: string;
  label: ReactNode;
  /** Error text shown under the control (already translated). */
  error?: string;
  hint?: ReactNode;
  children: ReactNode;
}

/** A labelled form control with its hint and error text. The control itself sets `aria-describedby={id + '-error'}`. */
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
        <p className="text-xs text-zinc-500 dark:text-zinc-400">{hint}</p>
      ) : null}
    </div>
  );
}
