'use client';
/**
 * Administrators (§4.6 `admin/add`, `admin/delete`, root only): the admins and roots of the site,
 * with "remove admin" on each admin; and a search among active users to appoint a new one. A site
 * admin who is not root sees the list and the reason they cannot change it.
 */
import { useAtomValue } from 'jotai';
import { ShieldCheck, ShieldOff } from 'lucide-react';
import { useDeferredValue, useState } from 'react';
import { Notice } from '@/components/common/notice';
import { RelativeTime } from '@/components/common/relative-time';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { roleNameKey } from '@/components/user/role-name';
import { useAdminCandidates, useSiteAdminActions, useStaff } from '@/hooks/data/admin';
import { Role } from '@/lib/contract/roles';
import type { UserInfo } from '@/lib/contract/types';
import { useT } from '@/lib/i18n';
import { notifyError, notifySuccess } from '@/lib/notify';
import { userAtom } from '@/lib/session';
import { ListState } from './list-state';
import '@/lib/i18n/messages/admin';

export function AdminsSection() {
  const t = useT();
  const me = useAtomValue(userAtom);
  const asRoot = me?.role === Role.Root;
  const actions = useSiteAdminActions();
  const staff = useStaff();
  const [keyword, setKeyword] = useState('');
  const search = useDeferredValue(keyword.trim());
  const candidates = useAdminCandidates(asRoot && search ? search : null);
  const [removing, setRemoving] = useState<UserInfo | null>(null);

  const act = async (user: UserInfo, add: boolean) => {
    try {
      await (add ? actions.grantAdmin(user.id) : actions.revokeAdmin(user.id));
      notifySuccess(t(add ? 'admin.done.makeAdmin' : 'admin.done.removeAdmin', { name: user.username }));
      if (add) setKeyword('');
    } catch (error) {
      notifyError(error);
    }
  };
  const rows = staff.data ?? [];

  return (
    <section aria-labelledby="admin-admins-title" data-testid="admin-admins" className="space-y-4">
      <h2 id="admin-admins-title" className="text-lg font-semibold">
        {t('admin.admins.title')}
      </h2>
      <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('admin.admins.hint')}</p>
      {!asRoot ? <Notice tone="info">{t('admin.admins.rootOnly')}</Notice> : null}
      <ListState loading={staff.isLoading} error={staff.error} count={rows.length} empty={t('admin.admins.empty')} onRetry={() => void staff.mutate()} page={1} pageSize={100} total={rows.length} onPageChange={() => undefined}>
        <ul className="divide-y divide-zinc-200 rounded-xl border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800" data-testid="admin-admin-list">
          {rows.map((user) => (
            <li key={user.id} data-testid="admin-admin-row" data-username={user.username} className="flex items-center gap-3 px-3 py-2.5">
              <div className="min-w-0 flex-1">
                <div className="flex min-w-0 flex-wrap items-center gap-1.5">
                  <span className="min-w-0 truncate font-medium">{user.username}</span>
                  {user.id === me?.id ? <span className="text-xs text-zinc-600 dark:text-zinc-400">({t('admin.you')})</span> : null}
                  <Badge tone="brand">{t(roleNameKey(user.role))}</Badge>
                </div>
                <p className="mt-0.5 text-xs text-zinc-600 dark:text-zinc-400">
                  {t('admin.users.joined')} <RelativeTime timeMs={user.createdAt} />
                </p>
              </div>
              {user.role === Role.Admin ? (
                <Button
                  variant="outline"
                  size="sm"
                  data-testid="admin-remove-admin"
                  disabled={!asRoot}
                  title={asRoot ? undefined : t('admin.why.rootOnly')}
                  onClick={() => setRemoving(user)}
                >
                  <ShieldOff className="h-4 w-4" aria-hidden />
                  {t('admin.action.removeAdmin')}
                </Button>
              ) : null}
            </li>
          ))}
        </ul>
      </ListState>
      {asRoot ? (
        <Card className="space-y-3 p-5">
          <h3 className="text-base font-semibold">{t('admin.admins.add')}</h3>
          <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('admin.admins.addHint')}</p>
          <label className="block">
            <span className="sr-only">{t('admin.admins.search')}</span>
            <Input type="search" data-testid="admin-candidate-search" placeholder={t('admin.admins.search')} value={keyword} onChange={(event) => setKeyword(event.target.value)} />
          </label>
          {search && candidates.data ? (
            (candidates.data.list ?? []).length === 0 ? (
              <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('admin.admins.noMatch')}</p>
            ) : (
              <ul className="space-y-1" data-testid="admin-candidates">
                {(candidates.data.list ?? []).map((user) => (
                  <li key={user.id} className="flex items-center justify-between gap-3 rounded-lg px-2 py-1.5 hover:bg-zinc-50 dark:hover:bg-zinc-800/50">
                    <span className="min-w-0 truncate">{user.username}</span>
                    <Button size="sm" data-testid="admin-make-admin" onClick={() => void act(user, true)}>
                      <ShieldCheck className="h-4 w-4" aria-hidden />
                      {t('admin.action.makeAdmin')}
                    </Button>
                  </li>
                ))}
              </ul>
            )
          ) : null}
        </Card>
      ) : null}
      <ConfirmDialog
        open={removing !== null}
        title={removing ? t('admin.confirm.removeAdmin', { name: removing.username }) : ''}
        description={t('admin.confirm.removeAdminBody')}
        confirmLabel={t('admin.action.removeAdmin')}
        onConfirm={async () => {
          if (removing) await act(removing, false);
        }}
        onOpenChange={(open) => !open && setRemoving(null)}
      />
    </section>
  );
}
