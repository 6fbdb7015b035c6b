'use client';
/**
 * A visitor watching as a guest: what an account adds (chat, the movie list, adding movies) and the
 * two ways to get one, each coming back to this room. The hall downloads it only for a visitor.
 */
import { SignInLinks } from '@/components/auth/sign-in-links';
import { cinemaPath } from '@/config/routes';
import { useT } from '@/lib/i18n';
import '@/lib/i18n/messages/cinema';

export default function GuestBanner({ roomId }: { roomId: string }) {
  const t = useT();
  return (
    <div data-testid="guest-banner" className="flex flex-wrap items-center gap-x-4 gap-y-2 rounded-2xl border border-brand-200 bg-brand-50 px-4 py-3 text-sm text-brand-900 dark:border-brand-500/30 dark:bg-brand-500/10 dark:text-brand-100">
      <p className="min-w-0 flex-1 basis-64">{t('cinema.guest.banner')}</p>
      <SignInLinks back={cinemaPath(roomId)} testIdPrefix="guest" loginLabel={t('cinema.deny.login')} registerLabel={t('cinema.deny.register')} />
    </div>
  );
}
