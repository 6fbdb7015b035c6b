import { clsx } from 'clsx';
import { CircleExclamationPoint, Info, TriangleExclamationPoint } from 'lucide-react';
import type { ReactNode } from 'react';

export type NoticeTone = 'info' | 'warning' | 'error';

const tones: Record<NoticeTone, string> = {
  info: 'border-brand-200 bg-brand-50 text-brand-800 dark:border-brand-500/30 dark:bg-brand-500/10 dark:text-brand-200',
  warning: 'border-amber-200 bg-amber-50 text-amber-900 dark:border-amber-500/30 dark:bg-amber-500/10 dark:text-amber-200',
  error: 'border-red-200 bg-red-50 text-red-800 dark:border-red-500/30 dark:bg-red-500/10 dark:text-red-200',
};

const icons = { info: Info, warning: TriangleExclamationPoint, error: CircleExclamationPoint };

export interface NoticeProps {
  tone?: NoticeTone;
  children: ReactNode;
  className?: string;
  testId?: string;
}

/** An inline message box; errors are announced to screen readers. */
export function Notice({ tone = 'info', children, className, testId }: NoticeProps) {
  const Icon = icons[tone];
  return (
    <div
      role={tone === 'error' ? 'alert' : 'status'}
      data-testid={testId}
      className={clsx('flex items-start gap-2 rounded-xl border px-3 py-2.5 text-sm', tones[tone], className)}
    >
      <Icon className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
      <div className="min-w-0 flex-1">{children}</div>
    </div>
  );
}
