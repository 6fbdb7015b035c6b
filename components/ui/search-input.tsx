'use client';
/**
 * A search box: a magnifier inside the field, a label for screen readers only, `type="search"`.
 * Shared by the playlist's folder search and the AList picker.
 */
import type { InputHTMLAttributes } from 'react';
import { clsx } from 'clsx';
import { Search } from 'lucide-react';

export interface SearchInputProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'type'> {
  /** Read by screen readers (the placeholder is not a label). */
  label: string;
  /** Classes of the label that wraps the field (its width in the row). */
  className?: string;
}

export function SearchInput({ label, className, ...inputProps }: SearchInputProps) {
  return (
    <label className={clsx('relative min-w-0 flex-1', className)}>
      <span className="sr-only">{label}</span>
      <Search className="pointer-events-none absolute left-2.5 top-1/2 h-3.5 w-3.5 -translate-y-1/2 text-zinc-500" aria-hidden />
      <input type="search" className="h-9 w-full rounded-lg border border-zinc-300 bg-white pl-8 pr-2 text-sm dark:border-zinc-700 dark:bg-zinc-950" {...inputProps} />
    </label>
  );
}
