'use client';
/**
 * The way into voice chat at the top of the room's chat: "Join voice", or why not (a visitor is
 * offered to log in and come back; a member without the WebRTC bit is told whom to ask). Pressing
 * it downloads the voice bar (./voice-bar.tsx) and its mesh, which then joins at once; the hall
 * downloads none of it before (size budget).
 */
import { lazy, Suspense, useState } from 'react';
import Link from 'next/link';
import { useAtomValue } from 'jotai';
import { Mic } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { cinemaPath } from '@/config/routes';
import { loginPath } from '@/lib/guard';
import { useT } from '@/lib/i18n';
import type { RoomSession } from '@/lib/room/session';
import { tokenAtom } from '@/lib/session';
import '@/lib/i18n/messages/cinema';

const VoiceBar = lazy(() => import('./voice-bar'));

export interface VoiceEntryProps {
  roomId: string;
  session: RoomSession | null;
  /** The WebRTC permission (lib/room/abilities.ts `canVoice`). */
  canVoice: boolean;
  /** The room socket is open. */
  connected: boolean;
  /** The hall's video, whose volume drops while someone speaks. */
  video: HTMLVideoElement | null;
}

export function VoiceEntry({ roomId, session, canVoice, connected, video }: VoiceEntryProps) {
  const t = useT();
  const signedIn = useAtomValue(tokenAtom) !== null;
  const [opened, setOpened] = useState(false);

  if (opened && session) {
    return (
      <Suspense fallback={<p className="px-4 py-2 text-xs text-zinc-600 dark:text-zinc-400">{t('cinema.voice.join')}…</p>}>
        <VoiceBar session={session} canVoice={canVoice} connected={connected} video={video} />
      </Suspense>
    );
  }
  if (!canVoice) {
    return (
      <div className="border-b border-zinc-200 px-4 py-2 text-xs dark:border-zinc-800" data-testid="voice-denied">
        {signedIn ? (
          <span className="text-zinc-600 dark:text-zinc-400">{t('cinema.voice.denyMember')}</span>
        ) : (
          <Link href={loginPath(cinemaPath(roomId))} className="font-medium text-brand-700 underline underline-offset-2 dark:text-brand-300">
            {t('cinema.voice.denyVisitor')}
          </Link>
        )}
      </div>
    );
  }
  return (
    <div className="flex items-center gap-2 border-b border-zinc-200 px-4 py-2 dark:border-zinc-800">
      <Button
        data-testid="voice-join"
        variant="outline"
        size="sm"
        disabled={!connected || !session}
        aria-describedby={connected ? undefined : 'voice-offline'}
        onClick={() => setOpened(true)}
      >
        <Mic className="h-4 w-4" aria-hidden />
        {t('cinema.voice.join')}
      </Button>
      {connected ? null : (
        <span id="voice-offline" className="text-xs text-zinc-600 dark:text-zinc-400">
          {t('cinema.voice.offline')}
        </span>
      )}
    </div>
  );
}
