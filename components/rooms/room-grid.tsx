'use client';
import { Inbox } from 'lucide-react';
import type { ReactNode } from 'react';
import { LoadError } from '@/components/common/load-error';
import { EmptyState } from '@/components/ui/empty-state';
import { Skeleton } from '@/components/ui/skeleton';
import type { RoomListItem } from '@/lib/contract/types';
import { RoomCard } from './room-card';
import '@/lib/i18n/messages/rooms';

export interface RoomGridProps {
  rooms: RoomListItem[] | null | undefined;
  isLoading: boolean;
  error: unknown;
  onRetry: () => void;
  empty: { title: ReactNode; description?: ReactNode; action?: ReactNode; icon?: ReactNode };
  /** Number the cards (hot list), starting at `rankOffset + 1`. */
  ranked?: boolean;
  rankOffset?: number;
  showCreator?: boolean;
  /** Skeleton cards while loading. */
  skeletons?: number;
  /** `narrow` for a grid inside a side column (at most two cards per row). */
  layout?: 'wide' | 'narrow';
}

const gridClasses = {
  wide: 'grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3',
  narrow: 'grid grid-cols-1 gap-4 sm:grid-cols-2',
};

/** A room list with its loading, error and empty states. */
export function RoomGrid({
  rooms,
  isLoading,
  error,
  onRetry,
  empty,
  ranked,
  rankOffset = 0,
  showCreator,
  skeletons = 6,
  layout = 'wide',
}: RoomGridProps) {
  if (error && !rooms) return <LoadError title="rooms.loadFailed" error={error} onRetry={onRetry} />;
  if (!rooms && isLoading) {
    return (
      <div className={gridClasses[layout]} aria-busy>
        {Array.from({ length: skeletons }, (_, i) => (
          <div key={i} className="space-y-4 rounded-2xl border border-zinc-200 bg-white p-4 dark:border-zinc-800 dark:bg-zinc-900">
            <Skeleton className="h-5 w-2/3" />
            <Skeleton className="h-4 w-1/3" />
            <Skeleton className="h-8 w-full" />
          </div>
        ))}
      </div>
    );
  }
  if (!rooms || rooms.length === 0) {
    return <EmptyState icon={empty.icon ?? <Inbox />} title={empty.title} description={empty.description} action={empty.action} />;
  }
  return (
    <div className={gridClasses[layout]}>
      {rooms.map((room, i) => (
        <RoomCard key={room.roomId} room={room} rank={ranked ? rankOffset + i + 1 : undefined} showCreator={showCreator} />
      ))}
    </div>
  );
}
