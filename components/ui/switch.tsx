'use client';
import { clsx } from 'clsx';

export interface SwitchProps {
  id: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  label: string;
  hint?: string;
  /** Why it cannot be changed: the switch is disabled and this is its description. */
  disabledReason?: string;
  busy?: boolean;
  testId?: string;
}

/** An on/off setting: a `role="switch"` button with its label and hint (Space or Enter toggles it). */
export function Switch({ id, checked, onChange, label, hint, disabledReason, busy, testId }: SwitchProps) {
  const disabled = Boolean(disabledReason) || busy;
  return (
    <div className="flex items-start justify-between gap-4 py-2">
      <div className="min-w-0 text-sm">
        <label htmlFor={id} className="font-medium text-zinc-800 dark:text-zinc-200">
          {label}
        </label>
        {hint ? (
          <p id={`${id}-hint`} className="text-xs text-zinc-600 dark:text-zinc-400">
            {hint}
          </p>
        ) : null}
      </div>
      <button
        id={id}
        type="button"
        role="switch"
        aria-checked={checked}
        aria-describedby={hint ? `${id}-hint` : undefined}
        title={disabledReason}
        disabled={disabled}
        data-testid={testId}
        onClick={() => onChange(!checked)}
        // The button is a 44 px touch target; the track inside it is what is drawn.
        className="-my-2.5 inline-flex h-11 w-14 shrink-0 cursor-pointer items-center justify-center disabled:cursor-not-allowed disabled:opacity-50"
      >
        <span
          aria-hidden
          className={clsx(
            'inline-flex h-6 w-11 items-center rounded-full transition-colors',
            checked ? 'bg-brand-600' : 'bg-zinc-300 dark:bg-zinc-600',
          )}
        >
          <span className={clsx('inline-block h-5 w-5 rounded-full bg-white shadow transition-transform', checked ? 'translate-x-5' : 'translate-x-0.5')} />
        </span>
      </button>
    </div>
  );
}
