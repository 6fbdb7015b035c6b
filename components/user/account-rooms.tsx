'use client';
import Link from 'next/link';
import { useState, type ReactNode } from 'react';
import useSWR from 'swr';
import { ConfirmDialog } from '@/components/cinema/confirm-dialog';
import { LoadError } from '@/components/common/load-error';
import { RelativeTime } from '@/components/common/relative-time';
import { Badge } from '@/components/ui/badge';
import { Button, buttonClasses } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { Pagination } from '@/components/ui/pagination';
import { Skeleton } from '@/components/ui/skeleton';
import { joinRoomPath } from '@/config/routes';
import { usePaginationLabels } from '@/hooks/use-pagination-labels';
import { deleteMyRoom, exitRoom } from '@/lib/api/account';
import { getJoinedRooms, getMyRooms } from '@/lib/api/user';
import { RoomStatus } from '@/lib/contract/roles';
import type { RoomListItem } from '@/lib/contract/types';
import { useT, type MessageKey } from '@/lib/i18n';
import { notifyError, notifySuccess } from '@/lib/notify';
import '@/lib/i18n/messages/rooms';
import '@/lib/i18n/messages/user';

const PAGE_SIZE = 6;

const STATUS: Record<number, { key: MessageKey; tone: 'green' | 'amber' | 'red' }> = {
  [RoomStatus.Active]: { key: 'profile.statusActive', tone: 'green' },
  [RoomStatus.Pending]: { key: 'profile.statusPending', tone: 'amber' },
  [RoomStatus.Banned]: { key: 'profile.statusBanned', tone: 'red' },
};

export interface AccountRoomsProps {
  /** `created`: `GET /api/user/rooms` (any status), delete; `joined`: `GET /api/user/rooms/joined`, leave. */
  kind: 'created' | 'joined';
  /** Shown when the list is empty. */
  empty: ReactNode;
}

/**
 * The rooms of the user center (reference-client.md §1.6), paged: name, status badge, viewers,
 * relative creation time, Open, and Delete (`POST /api/user/room/delete`) or Leave (`POST
 * /api/user/room/exit`), each after a confirmation naming the room.
 */
export function AccountRooms({ kind, empty }: AccountRoomsProps) {
  const t = useT();
  const labels = usePaginationLabels();
  const [page, setPage] = useState(1);
  const [target, setTarget] = useState<RoomListItem | null>(null);
  const query = { page, max: PAGE_SIZE, sort: 'createdAt' as const, order: 'desc' as const };
  // `status=all` is not a v0.9.11 value, so the server applies no status filter: pending and banned rooms show too.
  const rooms = useSWR(['/api/user/rooms', kind, query], () =>
    kind === 'created' ? getMyRooms({ ...query, status: 'all' }) : getJoinedRooms(query),
  );
  const list = rooms.data?.list ?? [];

  const act = async () => {
    if (!target) return;
    try {
      if (kind === 'created') await deleteMyRoom(target.roomId);
      else await exitRoom(target.roomId);
      notifySuccess(t(kind === 'created' ? 'profile.roomDeleted' : 'profile.roomLeft'));
    } catch (error) {
      notifyError(error);
    }
    await rooms.mutate();
  };

  if (rooms.error) return <LoadError title="rooms.loadFailed" error={rooms.error} onRetry={() => void rooms.mutate()} />;
  return (
    <div className="space-y-4">
      {rooms.isLoading ? (
        <Skeleton className="h-24 w-full" />
      ) : list.length === 0 ? (
        <EmptyState title={empty} />
      ) : (
        <ul className="divide-y divide-zinc-200 rounded-2xl border border-zinc-200 bg-white dark:divide-zinc-800 dark:border-zinc-800 dark:bg-zinc-900" data-testid={`rooms-${kind}`}>
          {list.map((room) => {
            const status = STATUS[room.status];
            return (
              <li key={room.roomId} data-testid="account-room" data-room-id={room.roomId} className="flex flex-wrap items-center gap-3 p-4">
                <div className="min-w-0 flex-1">
                  <p className="flex items-center gap-2">
                    <span className="truncate font-medium">{room.roomName}</span>
                    {status ? <Badge tone={status.tone}>{t(status.key)}</Badge> : null}
                  </p>
                  <p className="text-xs text-zinc-500 dark:text-zinc-400">
                    <RelativeTime timeMs={room.createdAt} />
                  </p>
                </div>
                <div className="flex gap-2">
                  <Link href={joinRoomPath(room.roomId)} className={buttonClasses('outline', 'sm')}>
                    {t('profile.open')}
                  </Link>
                  <Button variant="ghost" size="sm" data-testid={kind === 'created' ? 'room-delete' : 'room-leave'} onClick={() => setTarget(room)}>
                    {t(kind === 'created' ? 'profile.deleteRoom' : 'profile.leaveRoom')}
                  </Button>
                </div>
              </li>
            );
          })}
        </ul>
      )}
      <Pagination page={page} pageSize={PAGE_SIZE} total={rooms.data?.total ?? 0} onPageChange={setPage} labels={labels} />
      <ConfirmDialog
        open={target !== null}
        onOpenChange={(open) => !open && setTarget(null)}
        title={t(kind === 'created' ? 'profile.deleteRoom' : 'profile.leaveRoom')}
        description={t(kind === 'created' ? 'profile.deleteRoomConfirm' : 'profile.leaveRoomConfirm', { name: target?.roomName ?? '' })}
        confirmLabel={t(kind === 'created' ? 'profile.deleteRoom' : 'profile.leaveRoom')}
        onConfirm={act}
      />
    </div>
  );
}
