'use client';
/**
 * Why the hall withholds something (chatting, the movie list, adding movies) and the way in: for a
 * visitor the reason is a link to log in and come back to this room (`?redirect=`), next to the
 * hall's guest banner (./guest-banner.tsx) that also offers registering; a member is told whether the room
 * turned the thing off for everyone or their own permissions lack it, so that they know whom to ask.
 */
import Link from 'next/link';
import { clsx } from 'clsx';
import { useAtomValue } from 'jotai';
import { cinemaPath } from '@/config/routes';
import { loginPath } from '@/lib/guard';
import { useT, type MessageKey } from '@/lib/i18n';
import { roomSettingsAtom } from '@/lib/room/atoms';
import { tokenAtom } from '@/lib/session';
import '@/lib/i18n/messages/cinema';

/** What is withheld. */
export type DeniedThing = 'chat' | 'movies' | 'add';

/** The room switch (docs/contract.md §5.5) that turns each thing off for every member. */
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
  const texts = TEXTS[what];
  if (signedIn) {
    const roomOff = settings?.[SWITCHES[what]] === false;
    return (
      <span data-testid={`denied-${what}`} className={clsx('text-sm font-normal', onDark ? 'text-zinc-200' : 'text-zinc-600 dark:text-zinc-300')}>
        {t(roomOff ? texts.roomOff : texts.member)}
      </span>
    );
  }
  // A visitor: the reason is itself the way in (the hall's guest banner also offers registering).
  return (
    <Link
      href={loginPath(cinemaPath(roomId))}
      data-testid={`denied-${what}-login`}
      className={clsx('text-sm font-medium underline underline-offset-2', onDark ? 'text-brand-200' : 'text-brand-700 dark:text-brand-300')}
    >
      <span data-testid={`denied-${what}`}>{t(texts.visitor)}</span>
    </Link>
  );
}
