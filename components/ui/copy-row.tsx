import type { ReactNode } from 'react';

export interface CopyRowProps {
  id: string;
  label: string;
  value: string;
  /** What to do when copying failed, shown under the row; null when it did not. */
  failure: string | null;
  /** `password` hides a secret until shown. */
  type?: 'text' | 'password';
  /** The buttons beside the value (copy, show). */
  children: ReactNode;
}

/**
 * A labelled read-only value (selected whole on focus) with its copy button beside it, and what to
 * do when the copy failed under it. The input's id is also its test id.
 */
export function CopyRow({ id, label, value, failure, type = 'text', children }: CopyRowProps) {
  return (
    <div className="space-y-1.5">
      <label htmlFor={id} className="text-sm font-medium text-zinc-800 dark:text-zinc-200">
        {label}
      </label>
      <div className="flex gap-2">
        <input
          id={id}
          data-testid={id}
          readOnly
          type={type}
          value={value}
          onFocus={(event) => event.target.select()}
          className="h-10 min-w-0 flex-1 rounded-lg border border-zinc-300 bg-zinc-50 px-3 font-mono text-xs dark:border-zinc-700 dark:bg-zinc-950"
        />
        {children}
      </div>
      {failure ? (
        <p role="alert" className="text-sm text-amber-700 dark:text-amber-400">
          {failure}
        </p>
      ) : null}
    </div>
  );
}
