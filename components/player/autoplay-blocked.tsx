'use client';
import { Play } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { useT } from '@/lib/i18n';
import '@/lib/i18n/messages/cinema';

/**
 * Over the picture when the browser refused to start it even muted (Safari's and Firefox's "block
 * all autoplay", docs/browsers.md): one button that joins the room at its position, a press of Sync
 * inside the click the browser waits for. The refusal is neither a pause nor a seek, and the room
 * hears nothing of it (lib/sync/engine.ts).
 */
export function AutoplayBlocked({ onJoin }: { onJoin: () => void }) {
  const t = useT();
  return (
    <div role="alert" data-testid="autoplay-blocked" className="pointer-events-auto mx-4 flex max-w-sm flex-col items-center gap-3 rounded-xl bg-black/75 px-4 py-3 text-center text-white">
      <p className="text-sm font-medium sm:text-base">{t('cinema.autoplay.blocked')}</p>
      <Button size="lg" data-testid="autoplay-join" onClick={onJoin}>
        <Play className="h-4 w-4" aria-hidden />
        {t('cinema.autoplay.join')}
      </Button>
    </div>
  );
}
