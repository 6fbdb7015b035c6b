'use client';
/**
 * What someone just did to the room ("Bob paused at 12:34", "Bob started …"), over the top left of
 * the picture for NOTICE_MS, in fullscreen too (it sits in the player's overlay box). The chat keeps
 * the same words (lib/room/actions.ts). A polite status: a screen reader says it once.
 */
import { useEffect, useState } from 'react';

/** The notice to show: `id` changes with every new one (the same words twice show twice); `text` null shows nothing. */
export interface ActionNotice {
  id: number;
  text: string | null;
}

/** How long (ms) a notice stays over the picture. */
export const NOTICE_MS = 3000;

export function RoomActionNotice({ notice }: { notice: ActionNotice }) {
  const [shown, setShown] = useState<number | null>(null);
  useEffect(() => {
    if (!notice.text) return;
    setShown(notice.id);
    const timer = setTimeout(() => setShown(null), NOTICE_MS);
    return () => clearTimeout(timer);
  }, [notice]);
  return (
    <p role="status" aria-live="polite" data-testid="room-action-notice" className="absolute left-2 top-2 max-w-[80%] truncate rounded-md bg-black/60 px-2 py-1 text-xs font-medium text-white empty:hidden sm:text-sm">
      {shown === notice.id && notice.text ? notice.text : ''}
    </p>
  );
}
