'use client';
/**
 * Users of the admin console (docs/contract.md §4.6; docs/reference-client.md §1.7 "User management"):
 * role filter, search (all, name, ID), sort and paging on the server; each row with its role badge,
 * email, join date and a menu of the actions the viewer may use (approve, reject, unban, ban,
 * make/remove admin, rooms, rename, reset password, delete); destructive ones ask first. "Add user"
 * opens the new-user form.
 */
import { useAtomValue } from 'jotai';
import { Ban, Check, DoorOpen, KeyRound, MoreHorizontal, PencilLine, ShieldCheck, ShieldOff, Trash2, Undo2, UserPlus, X } from 'lucide-react';
import { useState } from 'react';
import { RelativeTime } from '@/components/common/relative-time';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { ActionMenu, type ActionMenuItem } from '@/components/ui/action-menu';
import { Badge, type BadgeTone } from '@/components/ui/badge';
import { Button, buttonClasses } from '@/components/ui/button';
import { Modal } from '@/components/ui/modal';
import { roleNameKey } from '@/components/user/role-name';
import { ADMIN_PAGE_SIZE, useAdminUsers, useSiteAdminActions, type AdminUserFilter, type AdminUserScope } from '@/hooks/data/admin';
import { Role } from '@/lib/contract/roles';
import type { UserInfo } from '@/lib/contract/types';
import { normalizeName, validateUsername, validateNewUserPassword } from '@/lib/contract/validation';
import { useT, type MessageKey } from '@/lib/i18n';
import { notifyError, notifySuccess } from '@/lib/notify';
import { userAtom } from '@/lib/session';
import { AddUserForm, ValueForm } from './admin-forms';
import { userActions, type UserActionId } from './actions';
import { ListState } from './list-state';
import { ListToolbar } from '@/components/common/list-toolbar';
import { UserRoomsDialog } from './user-rooms-dialog';
import '@/lib/i18n/messages/admin';

type Filter = AdminUserFilter;
type Scope = AdminUserScope;

const FILTERS: { value: Filter; label: MessageKey }[] = [
  { value: '', label: 'admin.users.filter.all' },
  { value: 'pending', label: 'admin.users.filter.pending' },
  { value: 'banned', label: 'admin.users.filter.banned' },
  { value: 'user', label: 'admin.users.filter.user' },
  { value: 'admin', label: 'admin.users.filter.admin' },
  { value: 'root', label: 'admin.users.filter.root' },
];
const SCOPES: { value: Scope; label: MessageKey }[] = [
  { value: 'all', label: 'admin.scope.all' },
  { value: 'name', label: 'admin.scope.name' },
  { value: 'id', label: 'admin.scope.id' },
];

const ICONS: Record<UserActionId, React.ReactNode> = {
  approve: <Check />,
  reject: <X />,
  unban: <Undo2 />,
  ban: <Ban />,
  makeAdmin: <ShieldCheck />,
  removeAdmin: <ShieldOff />,
  rooms: <DoorOpen />,
  rename: <PencilLine />,
  password: <KeyRound />,
  delete: <Trash2 />,
};

/** Badge colour of a site role. */
export function roleTone(role: number): BadgeTone {
  if (role === Role.Banned) return 'red';
  if (role === Role.Pending) return 'amber';
  if (role >= Role.Admin) return 'brand';
  return 'neutral';
}

type Editing = { kind: 'rename' | 'password' | 'rooms'; user: UserInfo } | { kind: 'add' } | null;
type Confirming = { kind: 'ban' | 'reject' | 'delete' | 'removeAdmin'; user: UserInfo } | null;

export function UsersSection({ initialFilter = '' }: { initialFilter?: Filter }) {
  const t = useT();
  const me = useAtomValue(userAtom);
  const actions = useSiteAdminActions();
  const viewer = { id: me?.id ?? '', role: me?.role ?? Role.User };
  const list = useAdminUsers({ filter: initialFilter, scope: 'all', sort: 'createdAt', order: 'desc' });
  const [editing, setEditing] = useState<Editing>(null);
  const [confirming, setConfirming] = useState<Confirming>(null);

  const run = async (id: UserActionId, user: UserInfo) => {
    try {
      if (id === 'approve') await actions.approveUser(user.id);
      else if (id === 'unban') await actions.unbanUser(user.id);
      else if (id === 'ban' || id === 'reject') await actions.banUser(user.id);
      else if (id === 'delete') await actions.deleteUser(user.id);
      else if (id === 'makeAdmin') await actions.grantAdmin(user.id);
      else if (id === 'removeAdmin') await actions.revokeAdmin(user.id);
      notifySuccess(t(`admin.done.${id === 'reject' ? 'ban' : id}` as MessageKey, { name: user.username }));
    } catch (error) {
      notifyError(error);
    }
  };

  const select = (id: UserActionId, user: UserInfo) => {
    if (id === 'rename' || id === 'password' || id === 'rooms') setEditing({ kind: id, user });
    else if (id === 'ban' || id === 'reject' || id === 'delete' || id === 'removeAdmin') setConfirming({ kind: id, user });
    else void run(id, user);
  };

  const confirmText = confirming
    ? {
        ban: ['admin.confirm.banUser', 'admin.confirm.banUserBody', 'admin.action.ban'],
        reject: ['admin.confirm.banUser', 'admin.confirm.banUserBody', 'admin.action.reject'],
        delete: ['admin.confirm.deleteUser', 'admin.confirm.deleteUserBody', 'admin.action.delete'],
        removeAdmin: ['admin.confirm.removeAdmin', 'admin.confirm.removeAdminBody', 'admin.action.removeAdmin'],
      }[confirming.kind] as [MessageKey, MessageKey, MessageKey]
    : null;

  return (
    <section aria-labelledby="admin-users-title" data-testid="admin-users" className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="admin-users-title" className="text-lg font-semibold">
          {t('admin.nav.users')}
          {list.data ? <span className="ml-2 text-sm font-normal text-zinc-600 dark:text-zinc-400">{t('admin.users.count', { count: list.total })}</span> : null}
        </h2>
        <Button size="sm" data-testid="admin-add-user" onClick={() => setEditing({ kind: 'add' })}>
          <UserPlus className="h-4 w-4" aria-hidden />
          {t('admin.users.add')}
        </Button>
      </div>
      <ListToolbar
        testId="admin-users"
        filterLabel="admin.users.filter"
        filters={FILTERS}
        searchLabel="admin.users.search"
        scopes={SCOPES}
        query={list.query}
        onChange={list.update}
      />
      <ListState
        loading={list.isLoading}
        error={list.error}
        count={list.rows.length}
        empty={t(list.query.filter === 'pending' ? 'admin.users.emptyPending' : 'admin.users.empty')}
        onRetry={() => void list.mutate()}
        page={list.query.page}
        pageSize={ADMIN_PAGE_SIZE}
        total={list.total}
        onPageChange={(page) => list.update({ page })}
      >
        <ul className="divide-y divide-zinc-200 rounded-xl border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800" data-testid="admin-user-list">
          {list.rows.map((user) => {
            const items: ActionMenuItem[] = userActions(user, viewer).map((action) => ({
              id: action.id,
              testId: `admin-user-${action.id}`,
              icon: ICONS[action.id],
              label: t(`admin.action.${action.id}` as MessageKey),
              tone: action.id === 'ban' || action.id === 'reject' || action.id === 'delete' ? 'danger' : undefined,
              disabledReason: action.disabledReason ? t(action.disabledReason) : undefined,
              onSelect: () => select(action.id, user),
            }));
            return (
              <li key={user.id} data-testid="admin-user-row" data-username={user.username} className="flex items-center gap-3 px-3 py-2.5">
                <div className="min-w-0 flex-1">
                  <div className="flex min-w-0 flex-wrap items-center gap-1.5">
                    <span className="min-w-0 truncate font-medium" title={user.id}>
                      {user.username}
                    </span>
                    {user.id === viewer.id ? <span className="text-xs text-zinc-600 dark:text-zinc-400">({t('admin.you')})</span> : null}
                    <Badge tone={roleTone(user.role)}>{t(roleNameKey(user.role))}</Badge>
                  </div>
                  <div className="mt-0.5 flex min-w-0 flex-wrap gap-x-3 text-xs text-zinc-600 dark:text-zinc-400">
                    <span className="min-w-0 truncate">{user.email || t('admin.users.noEmail')}</span>
                    <span>
                      {t('admin.users.joined')} <RelativeTime timeMs={user.createdAt} />
                    </span>
                    <span className="hidden font-mono sm:inline">{user.id}</span>
                  </div>
                </div>
                {user.role === Role.Pending ? (
                  <Button size="sm" variant="outline" data-testid="admin-user-approve-quick" onClick={() => void run('approve', user)}>
                    <Check className="h-4 w-4" aria-hidden />
                    <span className="hidden sm:inline">{t('admin.action.approve')}</span>
                  </Button>
                ) : null}
                <ActionMenu label={t('admin.users.actions', { name: user.username })} testId="admin-user-actions" className={buttonClasses('ghost', 'icon', 'shrink-0')} align="end" items={items}>
                  <MoreHorizontal className="h-5 w-5" aria-hidden />
                </ActionMenu>
              </li>
            );
          })}
        </ul>
      </ListState>

      <Modal open={editing?.kind === 'add'} onOpenChange={(open) => !open && setEditing(null)} title={t('admin.form.addTitle')} closeLabel={t('admin.cancel')} testId="admin-add-user-dialog">
        <AddUserForm
          asRoot={viewer.role === Role.Root}
          onCancel={() => setEditing(null)}
          onSubmit={async (username, password, role) => {
            await actions.addUser(username, password, role);
            notifySuccess(t('admin.done.add', { name: username }));
            setEditing(null);
          }}
        />
      </Modal>
      <Modal
        open={editing?.kind === 'rename'}
        onOpenChange={(open) => !open && setEditing(null)}
        title={editing?.kind === 'rename' ? t('admin.form.renameTitle', { name: editing.user.username }) : ''}
        closeLabel={t('admin.cancel')}
      >
        {editing?.kind === 'rename' ? (
          <ValueForm
            id="admin-rename"
            kind="text"
            label={t('admin.form.newUsername')}
            initial={editing.user.username}
            validate={validateUsername}
            errorField="username"
            onCancel={() => setEditing(null)}
            onSubmit={async (value) => {
              const username = normalizeName(value);
              await actions.renameUser(editing.user.id, username);
              notifySuccess(t('admin.done.rename', { name: username }));
              setEditing(null);
            }}
          />
        ) : null}
      </Modal>
      <Modal
        open={editing?.kind === 'password'}
        onOpenChange={(open) => !open && setEditing(null)}
        title={editing?.kind === 'password' ? t('admin.form.passwordTitle', { name: editing.user.username }) : ''}
        closeLabel={t('admin.cancel')}
      >
        {editing?.kind === 'password' ? (
          <ValueForm
            id="admin-password"
            kind="password"
            label={t('admin.form.newPassword')}
            hint={t('admin.form.passwordHint')}
            validate={validateNewUserPassword}
            errorField="password"
            onCancel={() => setEditing(null)}
            onSubmit={async (password) => {
              await actions.setUserPassword(editing.user.id, password);
              notifySuccess(t('admin.done.password', { name: editing.user.username }));
              setEditing(null);
            }}
          />
        ) : null}
      </Modal>
      <UserRoomsDialog user={editing?.kind === 'rooms' ? editing.user : null} onClose={() => setEditing(null)} />
      <ConfirmDialog
        open={confirming !== null}
        title={confirming && confirmText ? t(confirmText[0], { name: confirming.user.username }) : ''}
        description={confirmText ? t(confirmText[1]) : ''}
        confirmLabel={confirmText ? t(confirmText[2]) : ''}
        onConfirm={async () => {
          if (confirming) await run(confirming.kind, confirming.user);
        }}
        onOpenChange={(open) => !open && setConfirming(null)}
      />
    </section>
  );
}
