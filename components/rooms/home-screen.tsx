'use client';
import { DoorOpen, Flame, Plus, Popcorn, RefreshCw } from 'lucide-react';
import Link from 'next/link';
import { useState } from 'react';
import { clsx } from 'clsx';
import { Button, buttonClasses } from '@/components/ui/button';
import { Pagination } from '@/components/ui/pagination';
import { useHotRooms } from '@/hooks/data/rooms';
import { usePaginationLabels } from '@/hooks/use-pagination-labels';
import { useT } from '@/lib/i18n';
import { RoomGrid } from './room-grid';
import '@/lib/i18n/messages/rooms';

/** Hot rooms per page of the home page. */
const HOT_PAGE_SIZE = 12;

/**
 * Home `/`: what the app is, ways to create or join a room, and the hot rooms (`GET /api/room/hot`),
 * paged, refreshed every 30 s and on demand (docs/reference-client.md §1.2: 热度榜 with 更新列表 and paging).
 */
export function HomeScreen() {
  const t = useT();
  const labels = usePaginationLabels();
  const [page, setPage] = useState(1);
  const { data, error, isLoading, isValidating, mutate } = useHotRooms(page, HOT_PAGE_SIZE);

  return (
    <div data-testid="page-home" className="space-y-10">
      <section className="relative overflow-hidden rounded-3xl border border-zinc-200 bg-gradient-to-br from-brand-50 via-white to-white px-6 py-10 sm:px-10 sm:py-14 dark:border-zinc-800 dark:from-brand-500/10 dark:via-zinc-900 dark:to-zinc-900">
        <Popcorn className="pointer-events-none absolute -right-6 -bottom-6 h-40 w-40 text-brand-100 sm:h-56 sm:w-56 dark:text-brand-500/10" aria-hidden />
        <div className="relative max-w-2xl space-y-4">
          <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">{t('home.heroTitle')}</h1>
          <p className="text-base text-zinc-600 sm:text-lg dark:text-zinc-300">{t('home.heroBody')}</p>
          <div className="flex flex-wrap gap-3 pt-2">
            <Link href="/createRoom" className={buttonClasses('primary', 'lg')}>
              <Plus className="h-5 w-5" aria-hidden />
              {t('route.createRoom')}
            </Link>
            <Link href="/joinRoom" className={buttonClasses('outline', 'lg')}>
              <DoorOpen className="h-5 w-5" aria-hidden />
              {t('route.joinRoom')}
            </Link>
          </div>
        </div>
      </section>

      <section aria-labelledby="hot-rooms-heading" className="space-y-4">
        <div className="flex items-center justify-between gap-4">
          <h2 id="hot-rooms-heading" className="flex items-center gap-2 text-xl font-semibold">
            <Flame className="h-5 w-5 text-orange-500" aria-hidden />
            {t('home.hot')}
          </h2>
          <div className="flex items-center gap-3">
            <Button variant="ghost" size="sm" data-testid="hot-refresh" onClick={() => void mutate()}>
              <RefreshCw className={clsx('h-3.5 w-3.5', isValidating && 'animate-spin')} aria-hidden />
              {t('home.refresh')}
            </Button>
            <Link href="/rooms" className="text-sm font-medium text-brand-600 hover:underline dark:text-brand-400">
              {t('home.browseAll')}
            </Link>
          </div>
        </div>
        <RoomGrid
          rooms={data?.list}
          isLoading={isLoading}
          error={error}
          onRetry={() => void mutate()}
          ranked
          rankOffset={(page - 1) * HOT_PAGE_SIZE}
          skeletons={3}
          empty={{
            icon: <Popcorn />,
            title: t('home.hotEmpty'),
            description: t('home.hotEmptyBody'),
            action: (
              <Link href="/createRoom" className={buttonClasses('primary')}>
                {t('route.createRoom')}
              </Link>
            ),
          }}
        />
        <Pagination page={page} pageSize={HOT_PAGE_SIZE} total={data?.total ?? 0} onPageChange={setPage} labels={labels} />
      </section>
    </div>
  );
}
