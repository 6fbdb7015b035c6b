'use client';
import { useMemo } from 'react';
import type { PaginationLabels } from '@/components/ui/pagination';
import { useT } from '@/lib/i18n';

/** Translated labels for `<Pagination>`. */
export function usePaginationLabels(): PaginationLabels {
  const t = useT();
  return useMemo(
    () => ({
      nav: t('pagination.nav'),
      previous: t('pagination.previous'),
      next: t('pagination.next'),
      page: (page: number) => t('pagination.page', { page }),
    }),
    [t],
  );
}
