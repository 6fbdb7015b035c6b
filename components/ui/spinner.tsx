import { clsx } from 'clsx';
import { LoaderCircle } from 'lucide-react';

export interface SpinnerProps {
  className?: string;
  /** Accessible label; without one the spinner is decorative. */
  label?: string;
}

export function Spinner({ className, label }: SpinnerProps) {
  return (
    <LoaderCircle
      className={clsx('animate-spin', className)}
      aria-hidden={label ? undefined : true}
      aria-label={label}
      role={label ? 'status' : undefined}
    />
  );
}
