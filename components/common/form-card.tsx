import type { ReactNode } from 'react';
import { Card } from '@/components/ui/card';

export interface FormCardProps {
  /** Root test id of the screen (`page-<routeName>`). */
  testId: string;
  icon?: ReactNode;
  title: ReactNode;
  subtitle?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
}

/** A centred card for single-form screens (login, register, create and join room). */
export function FormCard({ testId, icon, title, subtitle, children, footer }: FormCardProps) {
  return (
    <section data-testid={testId} className="flex flex-1 items-start justify-center py-4 sm:py-10">
      <Card className="w-full max-w-md p-6 sm:p-8">
        <div className="mb-6 space-y-2 text-center">
          {icon ? (
            <div className="mx-auto inline-flex h-12 w-12 items-center justify-center rounded-2xl bg-brand-50 text-brand-600 dark:bg-brand-500/15 dark:text-brand-300 [&_svg]:h-6 [&_svg]:w-6">
              {icon}
            </div>
          ) : null}
          <h1 className="text-2xl font-bold tracking-tight">{title}</h1>
          {subtitle ? <p className="text-sm text-zinc-500 dark:text-zinc-400">{subtitle}</p> : null}
        </div>
        {children}
        {footer ? <div className="mt-6 text-center text-sm text-zinc-500 dark:text-zinc-400">{footer}</div> : null}
      </Card>
    </section>
  );
}
