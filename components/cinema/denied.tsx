'use client';
/**
 * Why the hall withholds something (chatting, the movie list, adding movies) and the way in: a
 * visitor is offered to log in or register and come back to this room (`?redirect=`); a member is
 * told whether the room turned the thing off for everyone or their own permissions lack it, so that
 * they know whom to ask.
 */
import Link from 'next/link';
import { clsx } from 'clsx';
import { useAtomValue } from 'jotai';
import { LogIn, UserPlus } from 'lucide-react';
import { buttonClasses } from '@/components/ui/button';
import { signupAllowed } from '@/config/menu';
import { cinemaPath } from '@/config/routes';
import { loginPath, registerPath } from '@/lib/guard';
import { useT, type MessageKey } from '@/lib/i18n';
import { roomSettingsAtom } from '@/lib/room/atoms';
import { publicSettingsAtom, tokenAtom } from '@/lib/session';
import '@/lib/i18n/messages/cinema';

/** What is withheld. */
export type DeniedThing = 'chat' | 'movies' | 'add';

/** The room switch (server-contract.md §5.5) that turns each thing off for every member. */
const SWITCHES = { chat: 'can_send_chat_message', movies: 'can_get_movie_list', add: 'can_add_movie' } as const;

const TEXTS: Record<DeniedThing, { visitor: MessageKey; roomOff: MessageKey; member: MessageKey }> = {
  chat: { visitor: 'cinema.deny.chatVisitor', roomOff: 'cinema.deny.chatRoomOff', member: 'cinema.deny.chatMember' },
  movies: { visitor: 'cinema.deny.moviesVisitor', roomOff: 'cinema.deny.moviesRoomOff', member: 'cinema.deny.moviesMember' },
  add: { visitor: 'cinema.deny.addVisitor', roomOff: 'cinema.deny.addRoomOff', member: 'cinema.deny.addMember' },
};

export interface DeniedProps {
  roomId: string;
  what: DeniedThing;
  /** Drawn on a dark surface (the empty player) in both themes. */
  onDark?: boolean;
}

export function Denied({ roomId, what, onDark = false }: DeniedProps) {
  const t = useT();
  const signedIn = useAtomValue(tokenAtom) !== null;
  const settings = useAtomValue(roomSettingsAtom);
  const canRegister = signupAllowed(useAtomValue(publicSettingsAtom));
  const texts = TEXTS[what];
  if (signedIn) {
    const roomOff = settings?.[SWITCHES[what]] === false;
    return (
      <span data-testid={`denied-${what}`} className={clsx('text-sm font-normal', onDark ? 'text-zinc-200' : 'text-zinc-600 dark:text-zinc-300')}>
        {t(roomOff ? texts.roomOff : texts.member)}
      </span>
    );
  }
  const back = cinemaPath(roomId);
  return (
    <span data-testid={`denied-${what}`} className={clsx('flex flex-col items-center gap-3 text-sm font-normal', onDark ? 'text-zinc-100' : 'text-zinc-700 dark:text-zinc-200')}>
      <span>{t(texts.visitor)}</span>
      <span className="flex flex-wrap justify-center gap-2">
        <Link href={loginPath(back)} data-testid={`denied-${what}-login`} className={buttonClasses('primary', 'sm')}>
          <LogIn className="h-4 w-4" aria-hidden />
          {t('cinema.deny.login')}
        </Link>
        {canRegister ? (
          <Link href={registerPath(back)} data-testid={`denied-${what}-register`} className={buttonClasses('outline', 'sm')}>
            <UserPlus className="h-4 w-4" aria-hidden />
            {t('cinema.deny.register')}
          </Link>
        ) : null}
      </span>
    </span>
  );
}
