'use client';
/**
 * The room settings panel of the viewing hall (docs/reference-client.md §1.5 "Room settings drawer";
 * docs/contract.md §3.6, §4.4, §5.5): presets, who can come in (hidden, guests, join review, no new
 * members), what members may do (the seven `can_*` switches), the default member and guest
 * permissions, whether the room converts films browsers cannot play (a companion extension), the
 * room password, and deleting the room. Everyone signed in may read it; a control
 * the viewer may not use is disabled with the reason. Each switch saves at once (one key per
 * request, as the reference client does). Loaded when the panel is first opened.
 */
import { useAtomValue, useSetAtom } from 'jotai';
import { useRouter } from 'next/navigation';
import { useState, type ReactNode } from 'react';
import { Trash2 } from 'lucide-react';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { TextField } from '@/components/ui/field';
import { Skeleton } from '@/components/ui/skeleton';
import { Switch } from '@/components/ui/switch';
import { describeError } from '@/lib/i18n/error-text';
import { useRoomAdminActions, useRoomSettings } from '@/hooks/data/room-admin';
import type { RoomSettings } from '@/lib/contract/types';
import { validateRoomPassword } from '@/lib/contract/validation';
import { useT, type MessageKey } from '@/lib/i18n';
import { notifyError, notifySuccess } from '@/lib/notify';
import { roomAbilitiesAtom, roomInfoAtom, roomLeavingAtom, roomSettingsAtom } from '@/lib/room/atoms';
import { publicSettingsAtom } from '@/lib/session';
import { writeRoomPassword } from '@/lib/storage';
import { Drawer } from '@/components/ui/drawer';
import { permissionRows } from './permission-editor';
import { PresetPicker } from './preset-picker';
import { SWITCH_KEYS } from './presets';
import '@/lib/i18n/messages/room-admin';
import '@/lib/i18n/messages/errors';

export interface SettingsPanelProps {
  roomId: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

export function SettingsPanel({ roomId, open, onOpenChange }: SettingsPanelProps) {
  const t = useT();
  const abilities = useAtomValue(roomAbilitiesAtom);
  const setSharedSettings = useSetAtom(roomSettingsAtom);
  const { data, error, mutate } = useRoomSettings(roomId, abilities.isRoomAdmin, open);
  const actions = useRoomAdminActions(roomId);
  const [saving, setSaving] = useState<string | null>(null);
  const readOnlyReason = abilities.canSetRoomSettings ? undefined : t('roomAdmin.settings.readOnly');
  const serverConverts = useAtomValue(publicSettingsAtom)?.movieConvert === true;

  /** Writes one or more keys; the panel and the room's abilities show the new values at once. */
  const save = async (patch: Partial<RoomSettings>, key: string) => {
    if (!data) return;
    setSaving(key);
    const next = { ...data, ...patch };
    try {
      await mutate(
        async () => {
          await actions.updateSettings(patch);
          return next;
        },
        { optimisticData: next, rollbackOnError: true, revalidate: false },
      );
      setSharedSettings(next);
    } catch (failure) {
      notifyError(failure);
    } finally {
      setSaving(null);
    }
  };

  const applied = (patch: Partial<RoomSettings>) => {
    if (!data) return;
    const next = { ...data, ...patch };
    void mutate(next, { revalidate: false });
    setSharedSettings(next);
  };

  const toggle = (key: keyof RoomSettings, label: MessageKey, hint?: MessageKey, invert = false, disabledReason = readOnlyReason) =>
    data ? (
      <Switch
        key={key}
        id={`setting-${key}`}
        testId={`setting-${key}`}
        label={t(label)}
        hint={hint ? t(hint) : undefined}
        checked={invert ? !data[key] : Boolean(data[key])}
        busy={saving === key}
        disabledReason={disabledReason}
        onChange={(checked) => void save({ [key]: invert ? !checked : checked }, key)}
      />
    ) : null;

  return (
    <Drawer open={open} onOpenChange={onOpenChange} title={t('roomAdmin.settings.title')} closeLabel={t('roomAdmin.close')} testId="settings-panel">
      {error && !data ? (
        <p role="alert" className="rounded-lg bg-red-50 p-3 text-sm text-red-700 dark:bg-red-500/10 dark:text-red-300">
          {t('roomAdmin.settings.loadFailed', { error: describeError(error).message })}
        </p>
      ) : !data ? (
        <div className="space-y-3" aria-busy="true">
          <Skeleton className="h-24 rounded-xl" />
          <Skeleton className="h-40 rounded-xl" />
        </div>
      ) : (
        <div className="space-y-6">
          {readOnlyReason ? <p className="rounded-lg bg-zinc-100 p-3 text-sm text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300">{readOnlyReason}</p> : null}

          <Section title={t('roomAdmin.settings.presets')} hint={t('roomAdmin.settings.presetsHint')}>
            <PresetPicker roomId={roomId} settings={data} onApplied={applied} />
          </Section>

          <Section title={t('roomAdmin.settings.access')}>
            {toggle('hidden', 'roomAdmin.settings.hidden', 'roomAdmin.settings.hiddenHint')}
            {toggle('disable_guest', 'roomAdmin.settings.guests', 'roomAdmin.settings.guestsHint', true)}
            {toggle('join_need_review', 'roomAdmin.settings.review', 'roomAdmin.settings.reviewHint')}
            {toggle('disable_join_new_user', 'roomAdmin.settings.closed', 'roomAdmin.settings.closedHint')}
          </Section>

          <Section title={t('roomAdmin.settings.members')} hint={t('roomAdmin.settings.membersHint')}>
            {SWITCH_KEYS.map((key) => toggle(key, `roomAdmin.settings.${key}` as MessageKey))}
          </Section>

          {/* A companion server's extension (docs/transcode.md): a v0.9.11 server has no such setting. */}
          {data.auto_convert !== undefined ? (
            <Section title={t('roomAdmin.settings.films')}>
              {toggle('auto_convert', 'roomAdmin.settings.autoConvert', 'roomAdmin.settings.autoConvertHint', false, readOnlyReason ?? (serverConverts ? undefined : t('roomAdmin.settings.noConversion')))}
            </Section>
          ) : null}

          <MaskSection
            key={`defaults-${data.user_default_permissions}`}
            title={t('roomAdmin.settings.defaults')}
            idPrefix="default"
            mask={data.user_default_permissions}
            disabledReason={readOnlyReason}
            onSave={(mask) => save({ user_default_permissions: mask }, 'user_default_permissions')}
          />
          <MaskSection
            key={`guest-${data.guest_permissions}`}
            title={t('roomAdmin.settings.guestPermissions')}
            idPrefix="guest"
            mask={data.guest_permissions}
            disabledReason={readOnlyReason}
            onSave={(mask) => save({ guest_permissions: mask }, 'guest_permissions')}
          />

          <PasswordSection roomId={roomId} />
          <DangerSection roomId={roomId} />
        </div>
      )}
    </Drawer>
  );
}

function Section({ title, hint, children }: { title: string; hint?: string; children: ReactNode }) {
  return (
    <section className="space-y-1">
      <h3 className="text-sm font-semibold text-zinc-900 dark:text-zinc-100">{title}</h3>
      {hint ? <p className="pb-1 text-xs text-zinc-600 dark:text-zinc-400">{hint}</p> : null}
      <div className="divide-y divide-zinc-100 dark:divide-zinc-800">{children}</div>
    </section>
  );
}

interface MaskSectionProps {
  title: string;
  idPrefix: string;
  mask: number;
  disabledReason?: string;
  onSave: (mask: number) => Promise<void>;
}

/** A permission mask as 8 checkboxes with a Save button (the default member and guest permissions). */
function MaskSection({ title, idPrefix, mask, disabledReason, onSave }: MaskSectionProps) {
  const t = useT();
  const [value, setValue] = useState(mask >>> 0);
  const [busy, setBusy] = useState(false);
  return (
    <Section title={title}>
      <fieldset className="grid gap-2 py-1 sm:grid-cols-2" disabled={Boolean(disabledReason)} title={disabledReason}>
        <legend className="sr-only">{title}</legend>
        {permissionRows('member').map(([bit, label]) => (
          <Checkbox
            key={bit}
            id={`${idPrefix}-perm-${bit}`}
            data-testid={`${idPrefix}-perm-${bit}`}
            label={t(label)}
            checked={(value & bit) !== 0}
            onChange={(event) => setValue((current) => (event.target.checked ? current | bit : current & ~bit) >>> 0)}
          />
        ))}
      </fieldset>
      <div className="pt-2">
        <Button
          size="sm"
          variant="secondary"
          data-testid={`${idPrefix}-perm-save`}
          disabled={Boolean(disabledReason) || value === mask >>> 0}
          loading={busy}
          onClick={() => {
            setBusy(true);
            void onSave(value).finally(() => setBusy(false));
          }}
        >
          {t('roomAdmin.perm.save')}
        </Button>
      </div>
    </Section>
  );
}

/** Set, change or remove the room password (`POST /api/room/admin/pwd`, §3.6). */
function PasswordSection({ roomId }: { roomId: string }) {
  const t = useT();
  const actions = useRoomAdminActions(roomId);
  const abilities = useAtomValue(roomAbilitiesAtom);
  const info = useAtomValue(roomInfoAtom);
  const setInfo = useSetAtom(roomInfoAtom);
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<'set' | 'remove' | null>(null);
  const hasPassword = Boolean(info?.needPassword);
  const reason = abilities.canSetRoomPassword ? undefined : t('roomAdmin.settings.passwordWhy');

  const submit = async (next: string, kind: 'set' | 'remove') => {
    setError(null);
    if (kind === 'set') {
      if (!next) {
        setError(t('roomAdmin.settings.passwordRequired'));
        return;
      }
      const invalid = validateRoomPassword(next);
      if (invalid) {
        setError(describeError(invalid).message);
        return;
      }
    }
    setBusy(kind);
    try {
      await actions.setPassword(next);
      writeRoomPassword(roomId, next);
      if (info) setInfo({ ...info, needPassword: Boolean(next), enabledGuest: next ? false : info.enabledGuest });
      setPassword('');
      notifySuccess(t(next ? 'roomAdmin.settings.passwordSaved' : 'roomAdmin.settings.passwordRemoved'));
    } catch (failure) {
      setError(describeError(failure).message);
    } finally {
      setBusy(null);
    }
  };

  return (
    <Section title={t('roomAdmin.settings.password')}>
      <div className="space-y-3 py-1">
        <p className="text-sm text-zinc-700 dark:text-zinc-300" data-testid="room-password-state">
          {t(hasPassword ? 'roomAdmin.settings.passwordOn' : 'roomAdmin.settings.passwordOff')}
        </p>
        <form
          noValidate
          className="space-y-3"
          onSubmit={(event) => {
            event.preventDefault();
            void submit(password, 'set');
          }}
        >
          <TextField
            id="room-new-password"
            label={t('roomAdmin.settings.newPassword')}
            type="password"
            autoComplete="new-password"
            value={password}
            disabled={Boolean(reason)}
            hint={reason}
            error={error ?? undefined}
            onChange={(event) => setPassword(event.target.value)}
          />
          <div className="flex flex-wrap gap-2">
            <Button type="submit" size="sm" data-testid="room-password-save" disabled={Boolean(reason) || busy !== null} loading={busy === 'set'}>
              {t(hasPassword ? 'roomAdmin.settings.changePassword' : 'roomAdmin.settings.setPassword')}
            </Button>
            {hasPassword ? (
              <Button
                size="sm"
                variant="outline"
                data-testid="room-password-remove"
                disabled={Boolean(reason) || busy !== null}
                loading={busy === 'remove'}
                onClick={() => void submit('', 'remove')}
              >
                {t('roomAdmin.settings.removePassword')}
              </Button>
            ) : null}
          </div>
        </form>
      </div>
    </Section>
  );
}

/** Delete the room, behind a confirmation (`POST /api/room/admin/delete`). */
function DangerSection({ roomId }: { roomId: string }) {
  const t = useT();
  const actions = useRoomAdminActions(roomId);
  const router = useRouter();
  const abilities = useAtomValue(roomAbilitiesAtom);
  const info = useAtomValue(roomInfoAtom);
  const setLeaving = useSetAtom(roomLeavingAtom);
  const [confirming, setConfirming] = useState(false);
  const reason = abilities.canDeleteRoom ? undefined : t('roomAdmin.settings.deleteWhy');

  const remove = async () => {
    setLeaving(true);
    try {
      await actions.deleteRoom();
      writeRoomPassword(roomId, '');
      notifySuccess(t('roomAdmin.settings.deleted'));
      router.replace('/');
    } catch (failure) {
      setLeaving(false);
      notifyError(failure);
    }
  };

  return (
    <Section title={t('roomAdmin.settings.danger')}>
      <div className="flex flex-wrap items-center gap-3 py-2">
        <Button variant="danger" size="sm" data-testid="room-delete" disabled={Boolean(reason)} onClick={() => setConfirming(true)}>
          <Trash2 className="h-4 w-4" aria-hidden />
          {t('roomAdmin.settings.delete')}
        </Button>
        {reason ? <span className="text-xs text-zinc-600 dark:text-zinc-400">{reason}</span> : null}
      </div>
      <ConfirmDialog
        open={confirming}
        title={t('roomAdmin.settings.deleteConfirm', { name: info?.name ?? '' })}
        description={t('roomAdmin.settings.deleteBody')}
        confirmLabel={t('roomAdmin.settings.delete')}
        onConfirm={remove}
        onOpenChange={setConfirming}
      />
    </Section>
  );
}
