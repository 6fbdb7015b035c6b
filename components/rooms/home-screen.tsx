'use client';
import { DoorOpen, Flame, Plus, Popcorn } from 'lucide-react';
import Link from 'next/link';
import { buttonClasses } from '@/components/ui/button';
import { useHotRooms } from '@/hooks/use-hot-rooms';
import { useT } from '@/lib/i18n';
import { RoomGrid } from './room-grid';
import '@/lib/i18n/messages/rooms';

/** Home `/`: what the app is, ways to create or join a room, and the hot rooms (`GET /api/room/hot`). */
export function HomeScreen() {
  const t = useT();
  const { data, error, isLoading, mutate } = useHotRooms(1, 12);

  return (
    <div data-testid="page-home" className="space-y-10">
      <section className="relative overflow-hidden rounded-3xl border border-zinc-200 bg-gradient-to-br from-brand-50 via-white to-white px-6 py-10 sm:px-10 sm:py-14 dark:border-zinc-800 dark:from-brand-500/10 dark:via-zinc-900 dark:to-zinc-900">
        <Popcorn className="pointer-events-none absolute -right-6 -bottom-6 h-40 w-40 text-brand-100 sm:h-56 sm:w-56 dark:text-brand-500/10" aria-hidden />
        <div className="relative max-w-2xl space-y-4">
          <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">{t('home.heroTitle')}</h1>
          <p className="text-base text-zinc-600 sm:text-lg dark:text-zinc-300">{t('home.heroBody')}</p>
          <div className="flex flex-wrap gap-3 pt-2">
            <Link href="/createRoom" className={buttonClasses('primary', 'lg')}>
              <Plus className="h-5 w-5" aria-hidden />
              {t('route.createRoom')}
            </Link>
            <Link href="/joinRoom" className={buttonClasses('outline', 'lg')}>
              <DoorOpen className="h-5 w-5" aria-hidden />
              {t('route.joinRoom')}
            </Link>
          </div>
        </div>
      </section>

      <section aria-labelledby="hot-rooms-heading" className="space-y-4">
        <div className="flex items-center justify-between gap-4">
          <h2 id="hot-rooms-heading" className="flex items-center gap-2 text-xl font-semibold">
            <Flame className="h-5 w-5 text-orange-500" aria-hidden />
            {t('home.hot')}
          </h2>
          <Link href="/rooms" className="text-sm font-medium text-brand-600 hover:underline dark:text-brand-400">
            {t('home.browseAll')}
          </Link>
        </div>
        <RoomGrid
          rooms={data?.list}
          isLoading={isLoading}
          error={error}
          onRetry={() => void mutate()}
          ranked
          skeletons={3}
          empty={{
            icon: <Popcorn />,
            title: t('home.hotEmpty'),
            description: t('home.hotEmptyBody'),
            action: (
              <Link href="/createRoom" className={buttonClasses('primary')}>
                {t('route.createRoom')}
              </Link>
            ),
          }}
        />
      </section>
    </div>
  );
}
