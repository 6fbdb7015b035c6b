'use client';
/**
 * The members panel of the viewing hall (docs/reference-client.md §1.5 "User list drawer";
 * docs/contract.md §4.3, §4.4): every member with online state, role and status; filters (all,
 * admins, waiting, banned) and a search; for room admins, each row's actions in a menu (approve, ban,
 * unban, remove, make admin / member, permissions) and the guests' permissions on the guest row.
 * Loaded when the panel is first opened. The list refreshes every few seconds while open, so that
 * newcomers waiting for approval and online states show up without a reload.
 */
import { useAtomValue } from 'jotai';
import { useDeferredValue, useState } from 'react';
import { Ban, Check, KeyRound, MoreHorizontal, Search, ShieldCheck, ShieldOff, UserMinus, Undo2 } from 'lucide-react';
import { clsx } from 'clsx';
import { RelativeTime } from '@/components/common/relative-time';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { ActionMenu, type ActionMenuItem } from '@/components/ui/action-menu';
import { Badge } from '@/components/ui/badge';
import { buttonClasses } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { Pagination } from '@/components/ui/pagination';
import { Skeleton } from '@/components/ui/skeleton';
import { usePaginationLabels } from '@/hooks/use-pagination-labels';
import { describeError } from '@/lib/i18n/error-text';
import { useRoomAdminActions, useRoomMembers } from '@/hooks/data/room-admin';
import { DefaultPermissions, GUEST_USER_ID, MemberRole, MemberStatus } from '@/lib/contract/roles';
import type { MemberListQuery, RoomMember } from '@/lib/contract/types';
import { useT, type MessageKey } from '@/lib/i18n';
import { notifyError, notifySuccess } from '@/lib/notify';
import { roomAbilitiesAtom, roomMemberAtom, roomSettingsAtom } from '@/lib/room/atoms';
import { Drawer } from '@/components/ui/drawer';
import { memberActions, type MemberActionId } from './member-actions';
import { PermissionEditor, type PermissionTarget } from './permission-editor';
import '@/lib/i18n/messages/room-admin';
import '@/lib/i18n/messages/errors';

/** Members per page. */
const PAGE_SIZE = 20;
/** Refresh period (ms) while the panel is open. */
const REFRESH_MS = 4000;

type Filter = 'all' | 'admins' | 'pending' | 'banned';
const FILTERS: Filter[] = ['all', 'admins', 'pending', 'banned'];

/** The list query of a filter (the admin list reads `status`; "" = every status). */
function filterQuery(filter: Filter): Pick<MemberListQuery, 'role' | 'status'> {
  if (filter === 'admins') return { role: 'admin', status: '' };
  if (filter === 'pending') return { role: '', status: 'pending' };
  if (filter === 'banned') return { role: '', status: 'banned' };
  return { role: '', status: '' };
}

const ACTION_ICONS: Record<MemberActionId, React.ReactNode> = {
  approve: <Check />,
  ban: <Ban />,
  unban: <Undo2 />,
  remove: <UserMinus />,
  makeAdmin: <ShieldCheck />,
  makeMember: <ShieldOff />,
  permissions: <KeyRound />,
  guestPermissions: <KeyRound />,
};

export interface MembersPanelProps {
  roomId: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

export function MembersPanel({ roomId, open, onOpenChange }: MembersPanelProps) {
  const t = useT();
  const abilities = useAtomValue(roomAbilitiesAtom);
  const me = useAtomValue(roomMemberAtom);
  const defaultPermissions = useAtomValue(roomSettingsAtom)?.user_default_permissions ?? DefaultPermissions;
  const paginationLabels = usePaginationLabels();
  const [filter, setFilter] = useState<Filter>('all');
  const [keyword, setKeyword] = useState('');
  const deferredKeyword = useDeferredValue(keyword.trim());
  const [sort, setSort] = useState<'name' | 'join'>('name');
  const [order, setOrder] = useState<'asc' | 'desc'>('asc');
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<PermissionTarget | null>(null);
  const [confirm, setConfirm] = useState<{ action: 'ban' | 'remove'; member: RoomMember } | null>(null);

  const asAdmin = abilities.isRoomAdmin;
  const query: MemberListQuery = { page, max: PAGE_SIZE, sort, order, keyword: deferredKeyword, search: 'all', ...filterQuery(filter) };
  const { data, error, isLoading } = useRoomMembers(roomId, asAdmin, query, open, REFRESH_MS);
  const actions = useRoomAdminActions(roomId);

  const name = (member: RoomMember) => (member.userId === GUEST_USER_ID ? t('roomAdmin.role.guest') : member.username);

  const run = async (id: MemberActionId, member: RoomMember) => {
    try {
      if (id === 'approve') await actions.approveMember(member.userId);
      else if (id === 'unban') await actions.unbanMember(member.userId);
      else if (id === 'ban') await actions.banMember(member.userId);
      else if (id === 'remove') await actions.removeMember(member.userId);
      else if (id === 'makeAdmin') await actions.promoteToAdmin(member.userId, member.adminPermissions);
      else if (id === 'makeMember') await actions.demoteToMember(member.userId, member.role === MemberRole.Admin ? defaultPermissions : member.permissions);
      notifySuccess(t(`roomAdmin.done.${id}` as MessageKey, { name: name(member) }));
    } catch (failure) {
      notifyError(failure);
    }
  };

  const select = (id: MemberActionId, member: RoomMember) => {
    if (id === 'ban' || id === 'remove') setConfirm({ action: id, member });
    else if (id === 'permissions' || id === 'guestPermissions') {
      const kind = id === 'guestPermissions' ? 'guest' : member.role === MemberRole.Admin ? 'admin' : 'member';
      setEditing({ userId: member.userId, username: name(member), kind, mask: kind === 'admin' ? member.adminPermissions : member.permissions });
    } else void run(id, member);
  };

  const rows = data?.list ?? [];
  const total = data?.total ?? 0;
  const filters = asAdmin ? FILTERS : (['all', 'admins'] as Filter[]);

  return (
    <Drawer
      open={open}
      onOpenChange={onOpenChange}
      title={
        <>
          {t('roomAdmin.members.title')}
          {data ? <span className="ml-2 text-sm font-normal text-zinc-500 dark:text-zinc-400">{t('roomAdmin.members.count', { count: total })}</span> : null}
        </>
      }
      closeLabel={t('roomAdmin.close')}
      testId="members-panel"
    >
      <div className="space-y-3">
        {!asAdmin ? <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('roomAdmin.members.readOnly')}</p> : null}
        <div role="group" aria-label={t('roomAdmin.members.filter')} className="flex flex-wrap gap-1.5">
          {filters.map((value) => (
            <button
              key={value}
              type="button"
              aria-pressed={filter === value}
              data-testid={`members-filter-${value}`}
              onClick={() => {
                setFilter(value);
                setPage(1);
              }}
              className={clsx(
                'min-h-9 cursor-pointer rounded-full px-3 text-sm font-medium ring-1 ring-inset transition-colors',
                filter === value
                  ? 'bg-brand-600 text-white ring-brand-600'
                  : 'text-zinc-700 ring-zinc-300 hover:bg-zinc-100 dark:text-zinc-300 dark:ring-zinc-700 dark:hover:bg-zinc-800',
              )}
            >
              {t(`roomAdmin.members.filter.${value}` as MessageKey)}
            </button>
          ))}
        </div>
        <div className="flex flex-wrap items-center gap-2">
          <label className="relative min-w-0 flex-1 basis-48">
            <span className="sr-only">{t('roomAdmin.members.search')}</span>
            <Search className="pointer-events-none absolute left-3 top-1/2 h-4 w-4 -translate-y-1/2 text-zinc-500" aria-hidden />
            <input
              type="search"
              data-testid="members-search"
              value={keyword}
              placeholder={t('roomAdmin.members.search')}
              onChange={(event) => {
                setKeyword(event.target.value);
                setPage(1);
              }}
              className="h-10 w-full rounded-lg border border-zinc-300 bg-white pl-9 pr-3 text-sm dark:border-zinc-700 dark:bg-zinc-950"
            />
          </label>
          <select
            aria-label={t('roomAdmin.members.sortName')}
            value={sort}
            onChange={(event) => setSort(event.target.value as 'name' | 'join')}
            className="h-10 rounded-lg border border-zinc-300 bg-white px-2 text-sm dark:border-zinc-700 dark:bg-zinc-950"
          >
            <option value="name">{t('roomAdmin.members.sortName')}</option>
            <option value="join">{t('roomAdmin.members.sortJoin')}</option>
          </select>
          <select
            aria-label={t('roomAdmin.members.order')}
            value={order}
            onChange={(event) => setOrder(event.target.value as 'asc' | 'desc')}
            className="h-10 rounded-lg border border-zinc-300 bg-white px-2 text-sm dark:border-zinc-700 dark:bg-zinc-950"
          >
            <option value="asc">{t('roomAdmin.members.asc')}</option>
            <option value="desc">{t('roomAdmin.members.desc')}</option>
          </select>
        </div>

        {error && !data ? (
          <p role="alert" className="rounded-lg bg-red-50 p-3 text-sm text-red-700 dark:bg-red-500/10 dark:text-red-300">
            {t('roomAdmin.members.loadFailed', { error: describeError(error).message })}
          </p>
        ) : isLoading && !data ? (
          <div className="space-y-2" aria-busy="true">
            {[0, 1, 2].map((index) => (
              <Skeleton key={index} className="h-14 rounded-xl" />
            ))}
          </div>
        ) : rows.length === 0 ? (
          <EmptyState className="py-10" title={t(filter === 'pending' ? 'roomAdmin.members.emptyPending' : 'roomAdmin.members.empty')} />
        ) : (
          <ul className="divide-y divide-zinc-200 rounded-xl border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800" data-testid="members-list">
            {rows.map((member) => {
              const actions = memberActions(member, me?.userId ?? '', abilities);
              const items: ActionMenuItem[] = actions.map((action) => ({
                id: action.id,
                testId: `member-${action.id}`,
                icon: ACTION_ICONS[action.id],
                label: t(`roomAdmin.action.${action.id}` as MessageKey),
                tone: action.id === 'ban' || action.id === 'remove' ? 'danger' : undefined,
                disabledReason: action.disabledReason ? t(action.disabledReason) : undefined,
                onSelect: () => select(action.id, member),
              }));
              return (
                <li key={member.userId} data-testid="member-row" data-username={member.username} className="flex items-center gap-3 px-3 py-2.5">
                  <span
                    aria-hidden
                    className={clsx('h-2.5 w-2.5 shrink-0 rounded-full', member.onlineCount > 0 ? 'bg-emerald-500' : 'bg-zinc-300 dark:bg-zinc-600')}
                  />
                  <div className="min-w-0 flex-1">
                    <div className="flex min-w-0 flex-wrap items-center gap-1.5">
                      <span className="min-w-0 truncate font-medium" title={member.userId}>
                        {name(member)}
                      </span>
                      {member.userId === me?.userId ? <span className="text-xs text-zinc-500 dark:text-zinc-400">({t('roomAdmin.members.you')})</span> : null}
                      <RoleBadge member={member} />
                      {member.status === MemberStatus.Pending ? <Badge tone="amber">{t('roomAdmin.status.pending')}</Badge> : null}
                      {member.status === MemberStatus.Banned ? <Badge tone="red">{t('roomAdmin.status.banned')}</Badge> : null}
                    </div>
                    <div className="mt-0.5 flex flex-wrap gap-x-3 text-xs text-zinc-600 dark:text-zinc-400">
                      <span data-testid="member-online">
                        {member.onlineCount > 0 ? t('roomAdmin.members.online', { count: member.onlineCount }) : t('roomAdmin.members.offline')}
                      </span>
                      {member.joinAt > 0 ? (
                        <span>
                          {t('roomAdmin.members.joined')} <RelativeTime timeMs={member.joinAt} />
                        </span>
                      ) : null}
                    </div>
                  </div>
                  {items.length > 0 ? (
                    <ActionMenu
                      label={t('roomAdmin.members.actions', { name: name(member) })}
                      testId="member-actions"
                      className={buttonClasses('ghost', 'icon', 'shrink-0')}
                      align="end"
                      items={items}
                    >
                      <MoreHorizontal className="h-5 w-5" aria-hidden />
                    </ActionMenu>
                  ) : null}
                </li>
              );
            })}
          </ul>
        )}
        <Pagination page={page} pageSize={PAGE_SIZE} total={total} onPageChange={setPage} labels={paginationLabels} />
      </div>

      <PermissionEditor roomId={roomId} target={editing} onClose={() => setEditing(null)} />
      <ConfirmDialog
        open={confirm !== null}
        title={confirm ? t(confirm.action === 'ban' ? 'roomAdmin.confirm.ban' : 'roomAdmin.confirm.remove', { name: name(confirm.member) }) : ''}
        description={confirm ? t(confirm.action === 'ban' ? 'roomAdmin.confirm.banBody' : 'roomAdmin.confirm.removeBody') : ''}
        confirmLabel={confirm ? t(confirm.action === 'ban' ? 'roomAdmin.action.ban' : 'roomAdmin.action.remove') : ''}
        onConfirm={async () => {
          if (confirm) await run(confirm.action, confirm.member);
        }}
        onOpenChange={(next) => !next && setConfirm(null)}
      />
    </Drawer>
  );
}

function RoleBadge({ member }: { member: RoomMember }) {
  const t = useT();
  if (member.userId === GUEST_USER_ID) return <Badge>{t('roomAdmin.role.guest')}</Badge>;
  if (member.role === MemberRole.Creator) return <Badge tone="brand">{t('roomAdmin.role.creator')}</Badge>;
  if (member.role === MemberRole.Admin) return <Badge tone="green">{t('roomAdmin.role.admin')}</Badge>;
  return <Badge>{t('roomAdmin.role.member')}</Badge>;
}
