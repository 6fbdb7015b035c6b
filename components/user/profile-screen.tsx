'use client';
import { useAtomValue } from 'jotai';
import { LogOut, Plus, ShieldCheck, Trash2, UserRound } from 'lucide-react';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { lazy, Suspense, useState, type ReactNode } from 'react';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { PageHeading } from '@/components/common/page-heading';
import { RelativeTime } from '@/components/common/relative-time';
import { useSignOut } from '@/hooks/use-sign-out';
import { Button, buttonClasses } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { useAccountActions } from '@/hooks/data/account';
import { useLocale, useT } from '@/lib/i18n';
import { notifyError, notifySuccess } from '@/lib/notify';
import { formatLongDate } from '@/lib/time-format';
import { Role } from '@/lib/contract/roles';
import { publicSettingsAtom, userAtom } from '@/lib/session';
import { AccountRooms } from './account-rooms';
import { LinkedProviders } from './linked-providers';
import { Platforms } from './platforms';
import { roleNameKey } from './role-name';
import '@/lib/i18n/messages/user';
import '@/lib/i18n/messages/vendors';

// The forms (react-hook-form, zod, captcha) load when one is opened, not with the page.
const RenameForm = lazy(() => import('./account-forms').then((m) => ({ default: m.RenameForm })));
const PasswordForm = lazy(() => import('./account-forms').then((m) => ({ default: m.PasswordForm })));
const BindEmailForm = lazy(() => import('./account-forms').then((m) => ({ default: m.BindEmailForm })));

type Editing = 'rename' | 'password' | 'email' | null;
type Confirming = 'unbindEmail' | 'deleteAccount' | null;

/**
 * `/user/me` (docs/reference-client.md §1.6): profile (username, role, join date, email), rename, change
 * password, email bind/unbind, linked sign-in providers, vendor platforms (./platforms.tsx), my rooms (delete) and joined rooms (leave),
 * a sign-out that only clears this device's session, and "delete account" (`POST /api/user/logout`,
 * which deletes the account on SyncTV) only behind a confirmation that names the consequence.
 */
export function ProfileScreen() {
  const t = useT();
  const [locale] = useLocale();
  const router = useRouter();
  const signOut = useSignOut();
  const user = useAtomValue(userAtom);
  const actions = useAccountActions();
  const settings = useAtomValue(publicSettingsAtom);
  const [editing, setEditing] = useState<Editing>(null);
  const [confirming, setConfirming] = useState<Confirming>(null);
  const [tab, setTab] = useState<'created' | 'joined'>('created');
  const done = () => setEditing(null);

  const confirmAction = async () => {
    try {
      if (confirming === 'unbindEmail') {
        await actions.unbindEmail();
        notifySuccess(t('profile.emailUnbound'));
      } else if (confirming === 'deleteAccount') {
        await actions.deleteAccount();
        notifySuccess(t('profile.accountDeleted'));
        router.replace('/');
      }
    } catch (error) {
      notifyError(error);
    }
  };

  if (!user) return <div data-testid="page-myself" />;
  const showEmail = settings?.emailEnable || Boolean(user.email);
  return (
    <div data-testid="page-myself" className="space-y-8">
      <PageHeading title={t('route.myself')} />
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-[22rem_1fr]">
        <div className="min-w-0 space-y-6">
          <Card className="p-6">
            <div className="mb-5 flex items-center gap-3">
              <span className="inline-flex h-12 w-12 items-center justify-center rounded-full bg-brand-100 text-brand-700 dark:bg-brand-500/20 dark:text-brand-300">
                <UserRound className="h-6 w-6" aria-hidden />
              </span>
              <div className="min-w-0">
                <h2 className="truncate text-lg font-semibold">{user.username}</h2>
                <p className="text-sm text-zinc-500 dark:text-zinc-400">{t(roleNameKey(user.role))}</p>
              </div>
            </div>
            <dl className="space-y-3 text-sm">
              <Row label={t('profile.username')}>
                <span data-testid="profile-username" className="block truncate font-medium">
                  {user.username}
                </span>
              </Row>
              <Row label={t('profile.role')}>
                <span data-testid="profile-role" className="font-medium">
                  {t(roleNameKey(user.role))}
                </span>
              </Row>
              <Row label={t('profile.createdAt')}>
                <span data-testid="profile-created" className="text-right font-medium">
                  {formatLongDate(user.createdAt, locale)}
                  <span className="block text-xs font-normal text-zinc-500 dark:text-zinc-400">
                    <RelativeTime timeMs={user.createdAt} />
                  </span>
                </span>
              </Row>
              <Row label={t('profile.email')}>
                <span data-testid="profile-email" className="block truncate font-medium">
                  {user.email || t('profile.noEmail')}
                </span>
              </Row>
            </dl>
            {user.role >= Role.Admin ? (
              <Link href="/admin" className={buttonClasses('outline', 'sm', 'mt-5 w-full')}>
                <ShieldCheck className="h-4 w-4" aria-hidden />
                {t('profile.adminEntry')}
              </Link>
            ) : null}
          </Card>

          <Card className="space-y-4 p-6">
            <h2 className="text-base font-semibold">{t('profile.actions')}</h2>
            {editing === 'rename' ? (
              <Suspense fallback={null}>
                <RenameForm current={user.username} onDone={done} />
              </Suspense>
            ) : editing === 'password' ? (
              <Suspense fallback={null}>
                <PasswordForm onDone={done} />
              </Suspense>
            ) : (
              <div className="flex flex-wrap gap-2">
                <Button variant="outline" size="sm" data-testid="rename" onClick={() => setEditing('rename')}>
                  {t('profile.rename')}
                </Button>
                <Button variant="outline" size="sm" data-testid="change-password" onClick={() => setEditing('password')}>
                  {t('profile.changePassword')}
                </Button>
              </div>
            )}
            <div className="border-t border-zinc-200 pt-4 dark:border-zinc-800">
              <p className="mb-3 text-sm text-zinc-500 dark:text-zinc-400">{t('profile.signOutHint')}</p>
              <Button variant="outline" className="w-full" data-testid="sign-out" onClick={signOut}>
                <LogOut className="h-4 w-4" aria-hidden />
                {t('session.signOut')}
              </Button>
            </div>
          </Card>

          {showEmail ? (
            <Card className="space-y-3 p-6" data-testid="email-card">
              <h2 className="text-base font-semibold">{t('profile.email')}</h2>
              <p className="text-sm text-zinc-500 dark:text-zinc-400">{t('profile.emailHint')}</p>
              {editing === 'email' ? (
                <Suspense fallback={null}>
                  <BindEmailForm onDone={done} />
                </Suspense>
              ) : (
                <div className="flex flex-wrap gap-2">
                  {settings?.emailEnable ? (
                    <Button variant="outline" size="sm" data-testid="bind-email" onClick={() => setEditing('email')}>
                      {t(user.email ? 'profile.rebindEmail' : 'profile.bindEmail')}
                    </Button>
                  ) : null}
                  {user.email ? (
                    <Button variant="ghost" size="sm" data-testid="unbind-email" onClick={() => setConfirming('unbindEmail')}>
                      {t('profile.unbindEmail')}
                    </Button>
                  ) : null}
                </div>
              )}
            </Card>
          ) : null}

          <Card className="space-y-3 p-6">
            <h2 className="text-base font-semibold">{t('profile.providers')}</h2>
            <p className="text-sm text-zinc-500 dark:text-zinc-400">{t('profile.providersHint')}</p>
            <LinkedProviders />
          </Card>

          <Card className="space-y-3 p-6" id="platforms">
            <h2 className="text-base font-semibold">{t('platforms.title')}</h2>
            <p className="text-sm text-zinc-500 dark:text-zinc-400">{t('platforms.hint')}</p>
            <Platforms />
          </Card>

          <Card className="space-y-3 border-red-200 p-6 dark:border-red-900/50">
            <h2 className="text-base font-semibold text-red-700 dark:text-red-400">{t('profile.deleteAccount')}</h2>
            <p className="text-sm text-zinc-500 dark:text-zinc-400">{t('profile.deleteAccountHint')}</p>
            <Button variant="danger" size="sm" data-testid="delete-account" onClick={() => setConfirming('deleteAccount')}>
              <Trash2 className="h-4 w-4" aria-hidden />
              {t('profile.deleteAccount')}
            </Button>
          </Card>
        </div>

        <section aria-label={t('profile.tabsLabel')} className="min-w-0 space-y-4">
          <div role="tablist" aria-label={t('profile.tabsLabel')} className="flex gap-1 border-b border-zinc-200 dark:border-zinc-800">
            {(['created', 'joined'] as const).map((option) => (
              <button
                key={option}
                type="button"
                role="tab"
                aria-selected={tab === option}
                data-testid={`tab-${option}`}
                onClick={() => setTab(option)}
                className={
                  tab === option
                    ? '-mb-px min-h-11 cursor-pointer border-b-2 border-brand-600 px-3 text-sm font-semibold'
                    : 'min-h-11 cursor-pointer px-3 text-sm text-zinc-500 dark:text-zinc-400'
                }
              >
                {t(option === 'created' ? 'profile.myRooms' : 'profile.joinedRooms')}
              </button>
            ))}
          </div>
          <div role="tabpanel">
            {tab === 'created' ? (
              <AccountRooms
                key="created"
                kind="created"
                empty={
                  <span className="flex flex-col items-center gap-3">
                    {t('profile.myRoomsEmpty')}
                    <Link href="/createRoom" className={buttonClasses('primary')}>
                      <Plus className="h-4 w-4" aria-hidden />
                      {t('profile.createFirst')}
                    </Link>
                  </span>
                }
              />
            ) : (
              <AccountRooms key="joined" kind="joined" empty={t('profile.joinedRoomsEmpty')} />
            )}
          </div>
        </section>
      </div>
      <ConfirmDialog
        open={confirming !== null}
        onOpenChange={(open) => !open && setConfirming(null)}
        title={t(confirming === 'deleteAccount' ? 'profile.deleteAccount' : 'profile.unbindEmail')}
        description={
          confirming === 'deleteAccount'
            ? t('profile.deleteAccountConfirm', { name: user.username })
            : t('profile.unbindEmailConfirm')
        }
        confirmLabel={t(confirming === 'deleteAccount' ? 'profile.deleteAccount' : 'profile.unbindEmail')}
        onConfirm={confirmAction}
      />
    </div>
  );
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex justify-between gap-4">
      <dt className="shrink-0 text-zinc-500 dark:text-zinc-400">{label}</dt>
      <dd className="min-w-0 text-right">{children}</dd>
    </div>
  );
}
