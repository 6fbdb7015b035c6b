'use client';
/**
 * The states of a console list around its rows: a first load (skeleton rows), a failed load (the
 * error in words with a retry), nothing to show, or the rows, followed by the pages.
 */
import type { ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { Pagination } from '@/components/ui/pagination';
import { Skeleton } from '@/components/ui/skeleton';
import { usePaginationLabels } from '@/hooks/use-pagination-labels';
import { describeError } from '@/lib/i18n/error-text';
import { useT } from '@/lib/i18n';
import '@/lib/i18n/messages/admin';
import '@/lib/i18n/messages/errors';

export interface ListStateProps {
  loading: boolean;
  error: unknown;
  /** Rows loaded (an earlier page may still show while the next loads). */
  count: number;
  empty: string;
  onRetry: () => void;
  page: number;
  pageSize: number;
  total: number;
  onPageChange: (page: number) => void;
  children: ReactNode;
}

export function ListState({ loading, error, count, empty, onRetry, page, pageSize, total, onPageChange, children }: ListStateProps) {
  const t = useT();
  const labels = usePaginationLabels();
  if (error && count === 0) {
    return (
      <div role="alert" className="flex flex-wrap items-center justify-between gap-3 rounded-xl bg-red-50 p-4 text-sm text-red-700 dark:bg-red-500/10 dark:text-red-300">
        <span>{t('admin.loadFailed', { error: describeError(error).message })}</span>
        <Button variant="outline" size="sm" onClick={onRetry}>
          {t('admin.retry')}
        </Button>
      </div>
    );
  }
  if (loading && count === 0) {
    return (
      <div role="status" className="space-y-2" aria-busy="true" aria-label={t('admin.loading')}>
        {[0, 1, 2, 3].map((index) => (
          <Skeleton key={index} className="h-16 rounded-xl" />
        ))}
      </div>
    );
  }
  if (count === 0) return <EmptyState className="py-10" title={empty} />;
  return (
    <div className="space-y-4">
      {children}
      <Pagination page={page} pageSize={pageSize} total={total} onPageChange={onPageChange} labels={labels} />
    </div>
  );
}
