'use client';
import { ArrowDown, ArrowUp, RefreshCw } from 'lucide-react';
import { useState } from 'react';
import { PageHeading } from '@/components/common/page-heading';
import { usePaginationLabels } from '@/hooks/use-pagination-labels';
import { Button } from '@/components/ui/button';
import { Select } from '@/components/ui/input';
import { Pagination } from '@/components/ui/pagination';
import { useRoomList } from '@/hooks/data/rooms';
import type { RoomListQuery } from '@/lib/contract/types';
import { useT } from '@/lib/i18n';
import { RoomGrid } from './room-grid';
import '@/lib/i18n/messages/rooms';

/** Rooms per page of the list screens. */
export const ROOMS_PAGE_SIZE = 12;

type Sort = NonNullable<RoomListQuery['sort']>;
type Order = NonNullable<RoomListQuery['order']>;

/** `/rooms`: every public room (`GET /api/room/list`), sortable by name or creation time, paginated. */
export function RoomsScreen() {
  const t = useT();
  const labels = usePaginationLabels();
  const [page, setPage] = useState(1);
  const [sort, setSort] = useState<Sort>('createdAt');
  const [order, setOrder] = useState<Order>('desc');
  const { data, error, isLoading, isValidating, mutate } = useRoomList({ page, max: ROOMS_PAGE_SIZE, sort, order });

  return (
    <div data-testid="page-rooms" className="space-y-6">
      <PageHeading
        title={t('route.rooms')}
        description={data ? t('rooms.total', { n: data.total }) : t('rooms.subtitle')}
        actions={
          <>
            <label htmlFor="rooms-sort" className="sr-only">
              {t('rooms.sortBy')}
            </label>
            <Select
              id="rooms-sort"
              value={sort}
              onChange={(event) => {
                setSort(event.target.value as Sort);
                setPage(1);
              }}
              className="w-auto"
            >
              <option value="createdAt">{t('rooms.sort.createdAt')}</option>
              <option value="name">{t('rooms.sort.name')}</option>
            </Select>
            <Button
              variant="outline"
              size="icon"
              className="h-10 w-10"
              onClick={() => {
                setOrder(order === 'desc' ? 'asc' : 'desc');
                setPage(1);
              }}
              aria-label={t('rooms.order.toggle', { order: t(order === 'desc' ? 'rooms.order.desc' : 'rooms.order.asc') })}
              title={t(order === 'desc' ? 'rooms.order.desc' : 'rooms.order.asc')}
            >
              {order === 'desc' ? <ArrowDown className="h-4 w-4" aria-hidden /> : <ArrowUp className="h-4 w-4" aria-hidden />}
            </Button>
            <Button
              variant="outline"
              size="icon"
              className="h-10 w-10"
              onClick={() => void mutate()}
              aria-label={t('action.refresh')}
              title={t('action.refresh')}
            >
              <RefreshCw className={isValidating ? 'h-4 w-4 animate-spin' : 'h-4 w-4'} aria-hidden />
            </Button>
          </>
        }
      />
      <RoomGrid
        rooms={data?.list}
        isLoading={isLoading}
        error={error}
        onRetry={() => void mutate()}
        empty={{ title: t('rooms.empty'), description: t('rooms.emptyBody') }}
      />
      <Pagination page={page} pageSize={ROOMS_PAGE_SIZE} total={data?.total ?? 0} onPageChange={setPage} labels={labels} />
    </div>
  );
}
