'use client';
/**
 * Rooms of the admin console (docs/contract.md §4.6; docs/reference-client.md §1.7 "Room management"):
 * every room, hidden ones too, with status filter, search (all, name, creator, ID), sort and paging
 * on the server; each row with its creator, viewers online, password, age and status, and a menu of
 * what the viewer may do (open, approve, ban/unban, set password, delete). Banning or deleting
 * disconnects everyone in the room, so both ask first.
 */
import { useAtomValue } from 'jotai';
import { Ban, Check, DoorOpen, KeyRound, Lock, MoreHorizontal, Trash2, Undo2, Users } from 'lucide-react';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { RelativeTime } from '@/components/common/relative-time';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { ActionMenu, type ActionMenuItem } from '@/components/ui/action-menu';
import { Badge } from '@/components/ui/badge';
import { buttonClasses } from '@/components/ui/button';
import { Modal } from '@/components/ui/modal';
import { joinRoomPath } from '@/config/routes';
import { ADMIN_PAGE_SIZE, useAdminRooms, useSiteAdminActions, type AdminRoomFilter, type AdminRoomScope } from '@/hooks/data/admin';
import { Role, RoomStatus } from '@/lib/contract/roles';
import type { RoomListItem } from '@/lib/contract/types';
import { validateRoomPassword } from '@/lib/contract/validation';
import { useT, type MessageKey } from '@/lib/i18n';
import { notifyError, notifySuccess } from '@/lib/notify';
import { userAtom } from '@/lib/session';
import { ValueForm } from './admin-forms';
import { roomActions, type RoomActionId, type Viewer } from './actions';
import { ListState } from './list-state';
import { ListToolbar } from '@/components/common/list-toolbar';
import { creatorRole, useStaffRoles } from './staff-roles';
import '@/lib/i18n/messages/admin';

type Filter = AdminRoomFilter;
type Scope = AdminRoomScope;

const FILTERS: { value: Filter; label: MessageKey }[] = [
  { value: '', label: 'admin.rooms.filter.all' },
  { value: 'pending', label: 'admin.rooms.filter.pending' },
  { value: 'active', label: 'admin.rooms.filter.active' },
  { value: 'banned', label: 'admin.rooms.filter.banned' },
];
const SCOPES: { value: Scope; label: MessageKey }[] = [
  { value: 'all', label: 'admin.scope.all' },
  { value: 'name', label: 'admin.scope.name' },
  { value: 'creator', label: 'admin.scope.creator' },
  { value: 'id', label: 'admin.scope.id' },
];

const ICONS: Record<RoomActionId, React.ReactNode> = {
  open: <DoorOpen />,
  approve: <Check />,
  ban: <Ban />,
  unban: <Undo2 />,
  password: <KeyRound />,
  delete: <Trash2 />,
};

/** A room's status as a badge (§5.2). */
export function RoomStatusBadge({ status }: { status: number }) {
  const t = useT();
  if (status === RoomStatus.Banned) return <Badge tone="red">{t('admin.status.banned')}</Badge>;
  if (status === RoomStatus.Pending) return <Badge tone="amber">{t('admin.status.pending')}</Badge>;
  return <Badge tone="green">{t('admin.status.active')}</Badge>;
}

export interface RoomRowsProps {
  rooms: RoomListItem[];
  viewer: Viewer;
  staff: Map<string, number>;
  testId?: string;
}

/** The rows of a room list with their menus, dialogs and confirmations (shared with a user's rooms). */
export function RoomRows({ rooms, viewer, staff, testId = 'admin-room-list' }: RoomRowsProps) {
  const t = useT();
  const actions = useSiteAdminActions();
  const router = useRouter();
  const [confirming, setConfirming] = useState<{ kind: 'ban' | 'delete'; room: RoomListItem } | null>(null);
  const [passwordFor, setPasswordFor] = useState<RoomListItem | null>(null);

  const run = async (id: RoomActionId, room: RoomListItem) => {
    try {
      if (id === 'approve') await actions.approveRoom(room.roomId);
      else if (id === 'ban') await actions.banRoom(room.roomId);
      else if (id === 'unban') await actions.unbanRoom(room.roomId);
      else if (id === 'delete') await actions.deleteRoom(room.roomId);
      notifySuccess(t(`admin.roomDone.${id}` as MessageKey, { name: room.roomName }));
    } catch (error) {
      notifyError(error);
    }
  };
  const select = (id: RoomActionId, room: RoomListItem) => {
    if (id === 'open') router.push(joinRoomPath(room.roomId));
    else if (id === 'password') setPasswordFor(room);
    else if (id === 'ban' || id === 'delete') setConfirming({ kind: id, room });
    else void run(id, room);
  };

  return (
    <>
      <ul className="divide-y divide-zinc-200 rounded-xl border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800" data-testid={testId}>
        {rooms.map((room) => {
          const items: ActionMenuItem[] = roomActions(room, viewer, creatorRole(staff, room.creatorId)).map((action) => ({
            id: action.id,
            testId: `admin-room-${action.id}`,
            icon: ICONS[action.id],
            label: t(`admin.roomAction.${action.id}` as MessageKey),
            tone: action.id === 'ban' || action.id === 'delete' ? 'danger' : undefined,
            disabledReason: action.disabledReason ? t(action.disabledReason) : undefined,
            onSelect: () => select(action.id, room),
          }));
          return (
            <li key={room.roomId} data-testid="admin-room-row" data-room-name={room.roomName} className="flex items-center gap-3 px-3 py-2.5">
              <div className="min-w-0 flex-1">
                <div className="flex min-w-0 flex-wrap items-center gap-1.5">
                  <span className="min-w-0 truncate font-medium" title={room.roomId}>
                    {room.roomName}
                  </span>
                  <RoomStatusBadge status={room.status} />
                  {room.needPassword ? (
                    <Badge>
                      <Lock className="h-3 w-3" aria-hidden />
                      {t('admin.rooms.password')}
                    </Badge>
                  ) : null}
                </div>
                <div className="mt-0.5 flex min-w-0 flex-wrap gap-x-3 text-xs text-zinc-600 dark:text-zinc-400">
                  <span className="min-w-0 truncate">{t('admin.rooms.creator', { name: room.creator })}</span>
                  <span className="inline-flex items-center gap-1" data-testid="admin-room-viewers">
                    <Users className="h-3 w-3" aria-hidden />
                    {t('admin.rooms.viewers', { count: room.viewerCount })}
                  </span>
                  <span>
                    {t('admin.rooms.created')} <RelativeTime timeMs={room.createdAt} />
                  </span>
                </div>
              </div>
              <ActionMenu label={t('admin.rooms.actions', { name: room.roomName })} testId="admin-room-actions" className={buttonClasses('ghost', 'icon', 'shrink-0')} align="end" items={items}>
                <MoreHorizontal className="h-5 w-5" aria-hidden />
              </ActionMenu>
            </li>
          );
        })}
      </ul>
      <Modal
        open={passwordFor !== null}
        onOpenChange={(open) => !open && setPasswordFor(null)}
        title={passwordFor ? t('admin.form.roomPasswordTitle', { name: passwordFor.roomName }) : ''}
        closeLabel={t('admin.cancel')}
      >
        {passwordFor ? (
          <ValueForm
            id="admin-room-password"
            kind="password"
            label={t('admin.form.roomPassword')}
            hint={t('admin.form.roomPasswordHint')}
            validate={(value) => (value ? validateRoomPassword(value) : 'room password empty')}
            errorField="roomPassword"
            onCancel={() => setPasswordFor(null)}
            onSubmit={async (password) => {
              await actions.setRoomPassword(passwordFor.roomId, password);
              notifySuccess(t('admin.roomDone.password', { name: passwordFor.roomName }));
              setPasswordFor(null);
            }}
          />
        ) : null}
      </Modal>
      <ConfirmDialog
        open={confirming !== null}
        title={confirming ? t(confirming.kind === 'ban' ? 'admin.confirm.banRoom' : 'admin.confirm.deleteRoom', { name: confirming.room.roomName }) : ''}
        description={confirming ? t(confirming.kind === 'ban' ? 'admin.confirm.banRoomBody' : 'admin.confirm.deleteRoomBody') : ''}
        confirmLabel={confirming ? t(confirming.kind === 'ban' ? 'admin.roomAction.ban' : 'admin.roomAction.delete') : ''}
        onConfirm={async () => {
          if (confirming) await run(confirming.kind, confirming.room);
        }}
        onOpenChange={(open) => !open && setConfirming(null)}
      />
    </>
  );
}

export function RoomsSection({ initialFilter = '' }: { initialFilter?: Filter }) {
  const t = useT();
  const me = useAtomValue(userAtom);
  const staff = useStaffRoles();
  const viewer = { id: me?.id ?? '', role: me?.role ?? Role.User };
  const list = useAdminRooms({ filter: initialFilter, scope: 'all', sort: 'createdAt', order: 'desc' });

  return (
    <section aria-labelledby="admin-rooms-title" data-testid="admin-rooms" className="space-y-4">
      <h2 id="admin-rooms-title" className="text-lg font-semibold">
        {t('admin.nav.rooms')}
        {list.data ? <span className="ml-2 text-sm font-normal text-zinc-600 dark:text-zinc-400">{t('admin.rooms.count', { count: list.total })}</span> : null}
      </h2>
      <ListToolbar
        testId="admin-rooms"
        filterLabel="admin.rooms.filter"
        filters={FILTERS}
        searchLabel="admin.rooms.search"
        scopes={SCOPES}
        query={list.query}
        onChange={list.update}
      />
      <ListState
        loading={list.isLoading}
        error={list.error}
        count={list.rows.length}
        empty={t(list.query.filter === 'pending' ? 'admin.rooms.emptyPending' : 'admin.rooms.empty')}
        onRetry={() => void list.mutate()}
        page={list.query.page}
        pageSize={ADMIN_PAGE_SIZE}
        total={list.total}
        onPageChange={(page) => list.update({ page })}
      >
        <RoomRows rooms={list.rows} viewer={viewer} staff={staff} />
      </ListState>
    </section>
  );
}
