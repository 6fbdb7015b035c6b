'use client';
import { clsx } from 'clsx';
import { ChevronLeft, ChevronRight } from 'lucide-react';

export interface PaginationLabels {
  /** aria-label of the <nav>. */
  nav: string;
  previous: string;
  next: string;
  /** aria-label of a page button, e.g. `(n) => 'Page ' + n`. */
  page: (page: number) => string;
}

export interface PaginationProps {
  /** Current page, 1-based. */
  page: number;
  pageSize: number;
  total: number;
  onPageChange: (page: number) => void;
  labels: PaginationLabels;
  className?: string;
}

/** Page numbers shown around the current page: at most `width` consecutive pages. */
export function pageWindow(page: number, pageCount: number, width = 5): number[] {
  const start = Math.max(1, Math.min(page - Math.floor(width / 2), pageCount - width + 1));
  const end = Math.min(pageCount, start + width - 1);
  return Array.from({ length: end - start + 1 }, (_, i) => start + i);
}

const itemClasses =
  'inline-flex h-9 min-w-9 items-center justify-center rounded-lg px-2 text-sm font-medium transition-colors cursor-pointer ' +
  'disabled:pointer-events-none disabled:opacity-40';

/** Prev / numbered pages / next. Hidden when everything fits on one page. */
export function Pagination({ page, pageSize, total, onPageChange, labels, className }: PaginationProps) {
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  if (pageCount <= 1) return null;
  return (
    <nav aria-label={labels.nav} className={clsx('flex flex-wrap items-center justify-center gap-1', className)}>
      <button
        type="button"
        className={clsx(itemClasses, 'text-zinc-700 hover:bg-zinc-100 dark:text-zinc-300 dark:hover:bg-zinc-800')}
        onClick={() => onPageChange(page - 1)}
        disabled={page <= 1}
        aria-label={labels.previous}
      >
        <ChevronLeft className="h-4 w-4" aria-hidden />
      </button>
      {pageWindow(page, pageCount).map((n) => (
        <button
          key={n}
          type="button"
          onClick={() => onPageChange(n)}
          aria-label={labels.page(n)}
          aria-current={n === page ? 'page' : undefined}
          className={clsx(
            itemClasses,
            n === page
              ? 'bg-brand-600 text-white'
              : 'text-zinc-700 hover:bg-zinc-100 dark:text-zinc-300 dark:hover:bg-zinc-800',
          )}
        >
          {n}
        </button>
      ))}
      <button
        type="button"
        className={clsx(itemClasses, 'text-zinc-700 hover:bg-zinc-100 dark:text-zinc-300 dark:hover:bg-zinc-800')}
        onClick={() => onPageChange(page + 1)}
        disabled={page >= pageCount}
        aria-label={labels.next}
      >
        <ChevronRight className="h-4 w-4" aria-hidden />
      </button>
    </nav>
  );
}
