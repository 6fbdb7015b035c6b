'use client';
/**
 * The presets offered once right after a room was created: pick who controls playback, or later.
 * Once a movie plays, the offer folds into one line above the player (its Choose button opens the
 * presets), so that the player and its controls stay on the screen (1280×800 included).
 */
import { useState } from 'react';
import { useAtomValue, useSetAtom } from 'jotai';
import { Card } from '@/components/ui/card';
import { Button } from '@/components/ui/button';
import { useT } from '@/lib/i18n';
import { hasCurrentMovie } from '@/hooks/data/movies';
import { currentMovieAtom, roomSettingsAtom } from '@/lib/room/atoms';
import { PresetPicker } from './preset-picker';
import '@/lib/i18n/messages/room-admin';

export function SetupOffer({ roomId, onDone }: { roomId: string; onDone: () => void }) {
  const t = useT();
  const settings = useAtomValue(roomSettingsAtom);
  const setSettings = useSetAtom(roomSettingsAtom);
  const playing = hasCurrentMovie(useAtomValue(currentMovieAtom)?.current);
  const [expanded, setExpanded] = useState(false);
  if (playing && !expanded) {
    return (
      <Card className="flex flex-wrap items-center gap-2 px-4 py-2" data-testid="room-setup" data-compact="true">
        <p className="min-w-0 flex-1 text-sm font-medium">{t('roomAdmin.setup.title')}</p>
        <Button size="sm" variant="secondary" data-testid="room-setup-expand" onClick={() => setExpanded(true)}>
          {t('roomAdmin.setup.choose')}
        </Button>
        <Button variant="ghost" size="sm" data-testid="room-setup-dismiss" onClick={onDone}>
          {t('roomAdmin.setup.dismiss')}
        </Button>
      </Card>
    );
  }
  return (
    <Card className="p-4" data-testid="room-setup">
      <section aria-labelledby="room-setup-title" className="space-y-3">
        <div className="flex flex-wrap items-start justify-between gap-2">
          <div>
            <h2 id="room-setup-title" className="text-base font-semibold">
              {t('roomAdmin.setup.title')}
            </h2>
            <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('roomAdmin.setup.body')}</p>
          </div>
          <Button variant="ghost" size="sm" data-testid="room-setup-dismiss" onClick={onDone}>
            {t('roomAdmin.setup.dismiss')}
          </Button>
        </div>
        <PresetPicker
          roomId={roomId}
          settings={settings}
          compact
          onApplied={(patch) => {
            if (settings) setSettings({ ...settings, ...patch });
            onDone();
          }}
        />
      </section>
    </Card>
  );
}
