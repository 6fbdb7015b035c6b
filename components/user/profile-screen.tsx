'use client';
import { useAtomValue } from 'jotai';
import { LogOut, Plus, ShieldCheck, UserRound } from 'lucide-react';
import Link from 'next/link';
import { useState } from 'react';
import { PageHeading } from '@/components/common/page-heading';
import { RelativeTime } from '@/components/common/relative-time';
import { usePaginationLabels } from '@/hooks/use-pagination-labels';
import { useSignOut } from '@/hooks/use-sign-out';
import { RoomGrid } from '@/components/rooms/room-grid';
import { Button, buttonClasses } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Pagination } from '@/components/ui/pagination';
import { useMyRooms } from '@/hooks/use-my-rooms';
import { useLocale, useT } from '@/lib/i18n';
import { formatLongDate } from '@/lib/time-format';
import { Role } from '@/lib/contract/roles';
import { userAtom } from '@/lib/session';
import { roleNameKey } from './role-name';
import '@/lib/i18n/messages/user';

const MY_ROOMS_PAGE_SIZE = 6;

/**
 * `/user/me` (reference-client.md §1.6): username, role, join date, a sign-out that only clears this
 * device's session (never `POST /api/user/logout`, which deletes the account on SyncTV), and my rooms.
 */
export function ProfileScreen() {
  const t = useT();
  const [locale] = useLocale();
  const signOut = useSignOut();
  const user = useAtomValue(userAtom);
  const [page, setPage] = useState(1);
  const labels = usePaginationLabels();
  const rooms = useMyRooms(user ? { page, max: MY_ROOMS_PAGE_SIZE, sort: 'createdAt', order: 'desc' } : null);


  return (
    <div data-testid="page-myself" className="space-y-8">
      <PageHeading title={t('route.myself')} />
      {user ? (
        <div className="grid gap-6 lg:grid-cols-[20rem_1fr]">
          <div className="space-y-6">
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
                <div className="flex justify-between gap-4">
                  <dt className="text-zinc-500 dark:text-zinc-400">{t('profile.username')}</dt>
                  <dd data-testid="profile-username" className="truncate font-medium">
                    {user.username}
                  </dd>
                </div>
                <div className="flex justify-between gap-4">
                  <dt className="text-zinc-500 dark:text-zinc-400">{t('profile.role')}</dt>
                  <dd data-testid="profile-role" className="font-medium">
                    {t(roleNameKey(user.role))}
                  </dd>
                </div>
                <div className="flex justify-between gap-4">
                  <dt className="text-zinc-500 dark:text-zinc-400">{t('profile.createdAt')}</dt>
                  <dd data-testid="profile-created" className="text-right font-medium">
                    {formatLongDate(user.createdAt, locale)}
                    <span className="block text-xs font-normal text-zinc-500 dark:text-zinc-400">
                      <RelativeTime timeMs={user.createdAt} />
                    </span>
                  </dd>
                </div>
              </dl>
              {user.role >= Role.Admin ? (
                <Link href="/admin" className={buttonClasses('outline', 'sm', 'mt-5 w-full')}>
                  <ShieldCheck className="h-4 w-4" aria-hidden />
                  {t('profile.adminEntry')}
                </Link>
              ) : null}
            </Card>
            <Card className="p-6">
              <h2 className="mb-2 text-base font-semibold">{t('profile.actions')}</h2>
              <p className="mb-4 text-sm text-zinc-500 dark:text-zinc-400">{t('profile.signOutHint')}</p>
              <Button variant="outline" className="w-full" data-testid="sign-out" onClick={signOut}>
                <LogOut className="h-4 w-4" aria-hidden />
                {t('session.signOut')}
              </Button>
            </Card>
          </div>

          <section aria-labelledby="my-rooms-heading" className="space-y-4">
            <h2 id="my-rooms-heading" className="text-lg font-semibold">
              {t('profile.myRooms')}
              {rooms.data ? <span className="ml-2 text-sm font-normal text-zinc-500">({rooms.data.total})</span> : null}
            </h2>
            <RoomGrid
              rooms={rooms.data?.list}
              isLoading={rooms.isLoading}
              error={rooms.error}
              onRetry={() => void rooms.mutate()}
              showCreator={false}
              skeletons={2}
              layout="narrow"
              empty={{
                title: t('profile.myRoomsEmpty'),
                action: (
                  <Link href="/createRoom" className={buttonClasses('primary')}>
                    <Plus className="h-4 w-4" aria-hidden />
                    {t('profile.createFirst')}
                  </Link>
                ),
              }}
            />
            <Pagination
              page={page}
              pageSize={MY_ROOMS_PAGE_SIZE}
              total={rooms.data?.total ?? 0}
              onPageChange={setPage}
              labels={labels}
            />
          </section>
        </div>
      ) : null}
    </div>
  );
}
