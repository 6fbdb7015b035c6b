'use client';
import Link from 'next/link';
import { useState, type ReactNode } from 'react';
import { RefreshCw } from 'lucide-react';
import { clsx } from 'clsx';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { LoadError } from '@/components/common/load-error';
import { RelativeTime } from '@/components/common/relative-time';
import { Badge } from '@/components/ui/badge';
import { Button, buttonClasses } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { Pagination } from '@/components/ui/pagination';
import { ListToolbar } from '@/components/common/list-toolbar';
import { Skeleton } from '@/components/ui/skeleton';
import { joinRoomPath } from '@/config/routes';
import { usePaginationLabels } from '@/hooks/use-pagination-labels';
import { useAccountActions, useAccountRooms, type AccountRoomFilter, type AccountRoomScope } from '@/hooks/data/account';
import { MemberRole, MemberStatus, RoomStatus } from '@/lib/contract/roles';
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

/** My membership in a joined room (§5.3), in words. */
const MEMBER_STATUS: Record<number, MessageKey> = {
  [MemberStatus.Active]: 'profile.memberActive',
  [MemberStatus.Pending]: 'profile.memberPending',
  [MemberStatus.Banned]: 'profile.memberBanned',
};
const MEMBER_ROLE: Record<number, MessageKey> = {
  [MemberRole.Member]: 'profile.roleMember',
  [MemberRole.Admin]: 'profile.roleAdmin',
  [MemberRole.Creator]: 'profile.roleCreator',
};

/** The room-status filter: `all` lists every status (not a v0.9.11 value, so the server applies no filter). */
type StatusFilter = AccountRoomFilter;
const FILTERS: readonly { value: StatusFilter; label: MessageKey }[] = [
  { value: 'all', label: 'profile.filterAll' },
  { value: 'active', label: 'profile.statusActive' },
  { value: 'pending', label: 'profile.statusPending' },
  { value: 'banned', label: 'profile.statusBanned' },
];
type Scope = AccountRoomScope;
const SCOPES: readonly { value: Scope; label: MessageKey }[] = [
  { value: 'all', label: 'profile.scopeAll' },
  { value: 'name', label: 'profile.scopeName' },
  { value: 'id', label: 'profile.scopeId' },
];

export interface AccountRoomsProps {
  /** `created`: `GET /api/user/rooms` (any status), delete; `joined`: `GET /api/user/rooms/joined`, leave. */
  kind: 'created' | 'joined';
  /** Shown when the list is empty and nothing is filtered. */
  empty: ReactNode;
}

/**
 * The rooms of the user center (docs/reference-client.md §1.2 "my/joined rooms", §1.6), paged by the
 * server: a status filter, a search by name or id, sort and order; each room's name, status,
 * viewers and when it was created, and for a joined room my status and role in it; Open, and Delete
 * (`POST /api/user/room/delete`) or Leave (`POST /api/user/room/exit`), each after a confirmation
 * naming the room. A v0.9.11 server filters joined rooms by nothing but the search.
 */
export function AccountRooms({ kind, empty }: AccountRoomsProps) {
  const t = useT();
  const labels = usePaginationLabels();
  const [target, setTarget] = useState<RoomListItem | null>(null);
  const rooms = useAccountRooms(kind, PAGE_SIZE, { filter: 'all', scope: 'all', sort: 'createdAt', order: 'desc' });
  const actions = useAccountActions();
  const { query, update, rows, total } = rooms;
  const filtered = query.filter !== 'all' || query.keyword.trim() !== '';

  const act = async () => {
    if (!target) return;
    try {
      if (kind === 'created') await actions.deleteMyRoom(target.roomId);
      else await actions.leaveRoom(target.roomId);
      notifySuccess(t(kind === 'created' ? 'profile.roomDeleted' : 'profile.roomLeft'));
    } catch (error) {
      notifyError(error);
    }
    await rooms.mutate();
  };

  return (
    <div className="space-y-4">
      <div className="flex items-start gap-2">
        <div className="min-w-0 flex-1">
          <ListToolbar
            testId={`rooms-${kind}`}
            filterLabel="profile.filterStatus"
            filters={FILTERS}
            searchLabel="profile.searchRooms"
            scopes={SCOPES}
            query={query}
            onChange={update}
          />
        </div>
        <Button variant="ghost" size="icon" aria-label={t('profile.refreshRooms')} title={t('profile.refreshRooms')} data-testid={`rooms-${kind}-refresh`} onClick={() => void rooms.mutate()}>
          <RefreshCw className={clsx('h-4 w-4', rooms.isValidating && 'animate-spin')} aria-hidden />
        </Button>
      </div>
      {rooms.error ? (
        <LoadError title="rooms.loadFailed" error={rooms.error} onRetry={() => void rooms.mutate()} />
      ) : rooms.isLoading ? (
        <Skeleton className="h-24 w-full" />
      ) : rows.length === 0 ? (
        <EmptyState title={filtered ? t('profile.roomsNoMatch') : empty} />
      ) : (
        <ul className="divide-y divide-zinc-200 rounded-2xl border border-zinc-200 bg-white dark:divide-zinc-800 dark:border-zinc-800 dark:bg-zinc-900" data-testid={`rooms-${kind}`}>
          {rows.map((room) => {
            const status = STATUS[room.status];
            const membership = 'memberStatus' in room ? room : null;
            return (
              <li key={room.roomId} data-testid="account-room" data-room-id={room.roomId} className="flex flex-wrap items-center gap-3 p-4">
                <div className="min-w-0 flex-1">
                  <p className="flex min-w-0 items-center gap-2">
                    <span className="truncate font-medium" data-testid="account-room-name">
                      {room.roomName}
                    </span>
                    {status ? <Badge tone={status.tone}>{t(status.key)}</Badge> : null}
                  </p>
                  <p className="flex flex-wrap gap-x-3 text-xs text-zinc-600 dark:text-zinc-400">
                    <span>
                      {t('profile.roomCreated')} <RelativeTime timeMs={room.createdAt} />
                    </span>
                    <span>{t('profile.roomViewers', { count: room.viewerCount })}</span>
                    {membership ? (
                      <span data-testid="account-room-membership">
                        {t('profile.myMembership', {
                          status: t(MEMBER_STATUS[membership.memberStatus] ?? 'profile.memberUnknown'),
                          role: t(MEMBER_ROLE[membership.memberRole] ?? 'profile.memberUnknown'),
                        })}
                      </span>
                    ) : null}
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
      <Pagination page={query.page} pageSize={PAGE_SIZE} total={total} onPageChange={(page) => update({ page })} labels={labels} />
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
