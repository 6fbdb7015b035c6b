import { clsx } from 'clsx';
import type { ReactNode } from 'react';

export interface EmptyStateProps {
  icon?: ReactNode;
  title: ReactNode;
  description?: ReactNode;
  action?: ReactNode;
  className?: string;
}

/** A centred message for "nothing here", "not yet available" and error states. */
export function EmptyState({ icon, title, description, action, className }: EmptyStateProps) {
  return (
    <div
      className={clsx(
        'flex flex-col items-center justify-center gap-3 rounded-2xl border border-dashed border-zinc-300 px-6 py-12 text-center dark:border-zinc-700',
        className,
      )}
    >
      {icon ? <div className="text-zinc-400 dark:text-zinc-500 [&_svg]:h-10 [&_svg]:w-10">{icon}</div> : null}
      <p className="text-base font-medium text-zinc-800 dark:text-zinc-200">{title}</p>
      {description ? <p className="max-w-md text-sm text-zinc-500 dark:text-zinc-400">{description}</p> : null}
      {action ? <div className="mt-2">{action}</div> : null}
    </div>
  );
}
