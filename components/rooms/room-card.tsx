'use client';
import { clsx } from 'clsx';
import { Lock, LockOpen, UserRound, Users } from 'lucide-react';
import Link from 'next/link';
import { RelativeTime } from '@/components/common/relative-time';
import { Badge } from '@/components/ui/badge';
import { buttonClasses } from '@/components/ui/button';
import type { RoomListItem } from '@/lib/contract/types';
import { useT } from '@/lib/i18n';
import { joinRoomPath } from '@/config/routes';
import '@/lib/i18n/messages/rooms';

export interface RoomCardProps {
  room: RoomListItem;
  /** Position in the hot list (1-based); omitted elsewhere. */
  rank?: number;
  /** Hide the creator on lists of the user's own rooms. */
  showCreator?: boolean;
}

/**
 * One room of a list: name, viewers, password tag, creator, relative creation time and a Join link,
 * which goes through the join screen's flow (password prompt, membership, guest access).
 */
export function RoomCard({ room, rank, showCreator = true }: RoomCardProps) {
  const t = useT();
  return (
    <article
      data-testid="room-card"
      data-room-id={room.roomId}
      className="group flex min-w-0 flex-col gap-4 rounded-2xl border border-zinc-200 bg-white p-4 shadow-sm transition hover:border-brand-300 hover:shadow-md dark:border-zinc-800 dark:bg-zinc-900 dark:hover:border-brand-500/50"
    >
      <div className="flex items-start gap-3">
        {rank !== undefined ? (
          <span
            className={clsx(
              'inline-flex h-8 w-8 shrink-0 items-center justify-center rounded-lg text-sm font-bold',
              rank <= 3 ? 'bg-brand-600 text-white' : 'bg-zinc-100 text-zinc-600 dark:bg-zinc-800 dark:text-zinc-300',
            )}
          >
            {rank}
          </span>
        ) : null}
        <div className="min-w-0 flex-1">
          <h3 className="truncate text-base font-semibold" title={room.roomName}>
            {room.roomName}
          </h3>
          <p
            className={clsx(
              'mt-1 inline-flex items-center gap-1 text-sm font-medium',
              room.viewerCount > 0 ? 'text-emerald-700 dark:text-emerald-400' : 'text-zinc-600 dark:text-zinc-400',
            )}
          >
            <Users className="h-4 w-4" aria-hidden />
            {t('rooms.viewers', { n: room.viewerCount })}
          </p>
        </div>
        {room.needPassword ? (
          <Badge tone="red">
            <Lock className="h-3 w-3" aria-hidden />
            {t('rooms.hasPassword')}
          </Badge>
        ) : (
          <Badge tone="green">
            <LockOpen className="h-3 w-3" aria-hidden />
            {t('rooms.noPassword')}
          </Badge>
        )}
      </div>

      <dl className={clsx('grid gap-2 text-xs text-zinc-500 dark:text-zinc-400', showCreator ? 'grid-cols-2' : 'grid-cols-1')}>
        {showCreator ? (
          <div className="min-w-0">
            <dt className="sr-only">{t('rooms.creator')}</dt>
            <dd className="flex items-center gap-1 truncate">
              <UserRound className="h-3.5 w-3.5 shrink-0" aria-hidden />
              <span className="truncate">{room.creator}</span>
            </dd>
          </div>
        ) : null}
        <div className={clsx('min-w-0', showCreator ? 'text-right' : '')}>
          <dt className="sr-only">{t('rooms.createdAt')}</dt>
          <dd>
            <RelativeTime timeMs={room.createdAt} />
          </dd>
        </div>
      </dl>

      <Link
        href={joinRoomPath(room.roomId)}
        data-testid="room-join"
        aria-label={t('rooms.joinRoom', { name: room.roomName })}
        className={buttonClasses('secondary', 'sm', 'mt-auto w-full group-hover:bg-brand-600 group-hover:text-white')}
      >
        {t('rooms.join')}
      </Link>
    </article>
  );
}
