'use client';
/**
 * The room presets as three cards with an Apply button each (./presets.ts). Applying writes the
 * settings (one `POST /api/room/admin/settings`) and, for the creator, gives every plain member the
 * preset's permission bits (`member/permissions`, one call per member that differs; §4.4 lets only
 * the creator do this). Used by the settings panel and by the offer shown right after creating a room.
 */
import { useAtomValue } from 'jotai';
import { useState } from 'react';
import { clsx } from 'clsx';
import { Button } from '@/components/ui/button';
import { useRoomAdminActions } from '@/hooks/data/room-admin';
import type { RoomSettings } from '@/lib/contract/types';
import { useT, type MessageKey } from '@/lib/i18n';
import { notifyError, notifySuccess } from '@/lib/notify';
import { roomAbilitiesAtom } from '@/lib/room/atoms';
import { matchPreset, PRESETS, type Preset } from './presets';
import '@/lib/i18n/messages/room-admin';

export interface PresetPickerProps {
  roomId: string;
  /** The room's settings now (null while unknown). */
  settings: RoomSettings | null;
  /** After a preset was applied, with the settings it wrote. */
  onApplied: (patch: Partial<RoomSettings>) => void;
  compact?: boolean;
}

export function PresetPicker({ roomId, settings, onApplied, compact }: PresetPickerProps) {
  const t = useT();
  const abilities = useAtomValue(roomAbilitiesAtom);
  const actions = useRoomAdminActions(roomId);
  const [busy, setBusy] = useState<string | null>(null);
  const current = settings ? matchPreset(settings) : null;
  const canApply = abilities.canSetRoomSettings;
  const updatesMembers = abilities.isCreator && abilities.canSetMemberPermissions;

  const apply = async (preset: Preset) => {
    setBusy(preset.id);
    const name = t(`roomAdmin.preset.${preset.id}` as MessageKey);
    try {
      await actions.updateSettings(preset.settings);
      onApplied(preset.settings);
      const count = preset.memberPermissions !== null && updatesMembers ? await actions.setEveryMemberPermissions(preset.memberPermissions) : 0;
      notifySuccess(count > 0 ? t('roomAdmin.preset.appliedMembers', { name, count }) : t('roomAdmin.preset.applied', { name }));
    } catch (failure) {
      notifyError(failure);
    } finally {
      setBusy(null);
    }
  };

  return (
    <div className="space-y-2">
      <ul className={clsx('grid gap-2', compact ? 'sm:grid-cols-3' : '')}>
        {PRESETS.map((preset) => (
          <li
            key={preset.id}
            data-testid={`preset-${preset.id}`}
            className={clsx(
              'flex flex-col gap-2 rounded-xl border p-3',
              current === preset.id ? 'border-brand-500 bg-brand-50/60 dark:bg-brand-500/10' : 'border-zinc-200 dark:border-zinc-800',
            )}
          >
            <div className="min-w-0 flex-1">
              <p className="text-sm font-semibold">
                {t(`roomAdmin.preset.${preset.id}` as MessageKey)}
                {current === preset.id ? <span className="ml-2 text-xs font-normal text-brand-700 dark:text-brand-300">{t('roomAdmin.preset.current')}</span> : null}
              </p>
              <p className="text-xs text-zinc-600 dark:text-zinc-400">{t(`roomAdmin.preset.${preset.id}Body` as MessageKey)}</p>
            </div>
            <Button
              size="sm"
              variant={current === preset.id ? 'outline' : 'secondary'}
              className="self-start"
              data-testid={`preset-apply-${preset.id}`}
              disabled={!canApply || busy !== null}
              loading={busy === preset.id}
              title={canApply ? undefined : t('roomAdmin.settings.readOnly')}
              onClick={() => void apply(preset)}
            >
              {t('roomAdmin.preset.apply')}
            </Button>
          </li>
        ))}
      </ul>
      {canApply && !updatesMembers ? <p className="text-xs text-zinc-600 dark:text-zinc-400">{t('roomAdmin.settings.presetsMembersNote')}</p> : null}
    </div>
  );
}
