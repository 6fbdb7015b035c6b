import { clsx } from 'clsx';
import type { ComponentProps, ReactNode } from 'react';

export interface CheckboxProps extends Omit<ComponentProps<'input'>, 'type'> {
  label: ReactNode;
  hint?: ReactNode;
}

export function Checkbox({ id, label, hint, className, ...props }: CheckboxProps) {
  return (
    <div className="flex items-start gap-3">
      <input
        id={id}
        type="checkbox"
        className={clsx(
          'mt-0.5 h-4 w-4 cursor-pointer rounded border-zinc-300 accent-brand-600 dark:border-zinc-600',
          className,
        )}
        {...props}
      />
      <div className="text-sm">
        <label htmlFor={id} className="cursor-pointer font-medium text-zinc-800 dark:text-zinc-200">
          {label}
        </label>
        {hint ? <p className="text-xs text-zinc-500 dark:text-zinc-400">{hint}</p> : null}
      </div>
    </div>
  );
}
