import { clsx } from 'clsx';
import type { ComponentProps, ReactNode } from 'react';

export interface CheckboxProps extends Omit<ComponentProps<'input'>, 'type'> {
  label: ReactNode;
  hint?: ReactNode;
}

export function Checkbox({ id, label, hint, className, ...props }: CheckboxProps) {
  // The label wraps the box, so the whole line is the touch target (44 px high on phones, globals.css).
  return (
    <div>
      <label htmlFor={id} className="flex cursor-pointer items-start gap-3 text-sm font-medium text-zinc-800 dark:text-zinc-200">
        <input
          id={id}
          type="checkbox"
          className={clsx('mt-0.5 h-4 w-4 shrink-0 cursor-pointer rounded border-zinc-300 accent-brand-600 dark:border-zinc-600', className)}
          {...props}
        />
        <span>{label}</span>
      </label>
      {hint ? <p className="ml-7 text-xs text-zinc-500 dark:text-zinc-400">{hint}</p> : null}
    </div>
  );
}
