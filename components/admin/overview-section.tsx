'use client';
/**
 * The console's first view: how many users and rooms the site has, how many wait for approval (with
 * a way to review them), and how many people are watching in listed rooms right now. Counts come
 * from the lists' `total` (§4.6) and the hot list's viewer counts (§4.3), so they work against any
 * SyncTV v0.9.11 server.
 */
import { DoorOpen, Eye, UserRound } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { useAdminFigures } from '@/hooks/data/admin';
import { describeError } from '@/lib/i18n/error-text';
import { useT } from '@/lib/i18n';
import '@/lib/i18n/messages/admin';
import '@/lib/i18n/messages/errors';

/** Section names the overview links to, with the filter to open them with. */
export type OverviewTarget = { section: 'users'; filter: 'pending' | '' } | { section: 'rooms'; filter: 'pending' | '' };

export function OverviewSection({ onOpen }: { onOpen: (target: OverviewTarget) => void }) {
  const t = useT();
  const { data, error, mutate } = useAdminFigures();
  if (error && !data) {
    return (
      <div role="alert" className="flex flex-wrap items-center justify-between gap-3 rounded-xl bg-red-50 p-4 text-sm text-red-700 dark:bg-red-500/10 dark:text-red-300">
        <span>{t('admin.loadFailed', { error: describeError(error).message })}</span>
        <Button variant="outline" size="sm" onClick={() => void mutate()}>
          {t('admin.retry')}
        </Button>
      </div>
    );
  }
  return (
    <section aria-labelledby="admin-overview-title" data-testid="admin-overview" className="space-y-4">
      <h2 id="admin-overview-title" className="text-lg font-semibold">
        {t('admin.nav.overview')}
      </h2>
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3">
        <Figure icon={<UserRound />} label={t('admin.overview.users')} value={data?.users} testId="overview-users" onOpen={() => onOpen({ section: 'users', filter: '' })} openLabel={t('admin.overview.open')}>
          {data && data.pendingUsers > 0 ? (
            <PendingLink count={data.pendingUsers} label={t('admin.overview.pendingUsers')} review={t('admin.overview.review')} testId="overview-pending-users" onClick={() => onOpen({ section: 'users', filter: 'pending' })} />
          ) : null}
        </Figure>
        <Figure icon={<DoorOpen />} label={t('admin.overview.rooms')} value={data?.rooms} testId="overview-rooms" onOpen={() => onOpen({ section: 'rooms', filter: '' })} openLabel={t('admin.overview.open')}>
          {data && data.pendingRooms > 0 ? (
            <PendingLink count={data.pendingRooms} label={t('admin.overview.pendingRooms')} review={t('admin.overview.review')} testId="overview-pending-rooms" onClick={() => onOpen({ section: 'rooms', filter: 'pending' })} />
          ) : null}
        </Figure>
        <Figure icon={<Eye />} label={t('admin.overview.watching')} value={data?.watching} testId="overview-watching" hint={t('admin.overview.watchingHint')} />
      </div>
    </section>
  );
}

function Figure(props: { icon: ReactNode; label: string; value: number | undefined; testId: string; hint?: string; onOpen?: () => void; openLabel?: string; children?: ReactNode }) {
  return (
    <Card className="flex flex-col gap-2 p-5">
      <div className="flex items-center justify-between gap-2 text-sm text-zinc-600 dark:text-zinc-400">
        <span className="inline-flex items-center gap-2 [&_svg]:h-4 [&_svg]:w-4">
          {props.icon}
          {props.label}
        </span>
        {props.onOpen ? (
          <Button variant="ghost" size="sm" onClick={props.onOpen}>
            {props.openLabel}
          </Button>
        ) : null}
      </div>
      {props.value === undefined ? (
        <Skeleton className="h-9 w-20 rounded-lg" />
      ) : (
        <p className="text-3xl font-bold tabular-nums" data-testid={props.testId}>
          {props.value}
        </p>
      )}
      {props.hint ? <p className="text-xs text-zinc-600 dark:text-zinc-400">{props.hint}</p> : null}
      {props.children}
    </Card>
  );
}

function PendingLink({ count, label, review, testId, onClick }: { count: number; label: string; review: string; testId: string; onClick: () => void }) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-2 rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:bg-amber-500/10 dark:text-amber-200">
      <span>
        {label}: <strong data-testid={testId}>{count}</strong>
      </span>
      <Button variant="outline" size="sm" onClick={onClick}>
        {review}
      </Button>
    </div>
  );
}
