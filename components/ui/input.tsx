import { clsx } from 'clsx';
import type { ComponentProps } from 'react';

export const inputClasses =
  'block h-10 rounded-lg border border-zinc-300 bg-white px-3 text-sm text-zinc-900 shadow-sm ' +
  'placeholder:text-zinc-400 focus:border-brand-500 focus:outline-2 focus:outline-offset-0 focus:outline-brand-500/30 ' +
  'disabled:cursor-not-allowed disabled:opacity-60 aria-invalid:border-red-500 ' +
  'dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100 dark:placeholder:text-zinc-500';

export function Input({ className, ...props }: ComponentProps<'input'>) {
  return <input className={clsx(inputClasses, 'w-full', className)} {...props} />;
}

export function Select({ className, ...props }: ComponentProps<'select'>) {
  return <select className={clsx(inputClasses, 'cursor-pointer pr-8', className ?? 'w-full')} {...props} />;
}
