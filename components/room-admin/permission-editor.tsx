'use client';
/**
 * The permission editor of one member (or of the guests): the 8 member bits, or for a room admin the
 * 6 admin bits, each a checkbox with a plain-language label (docs/contract.md §5.4). Saving sends
 * one call (§4.4: `member/permissions` or `admin/permissions`); the member gets MY_STATUS.
 */
import { useState } from 'react';
import { Checkbox } from '@/components/ui/checkbox';
import { Button } from '@/components/ui/button';
import { describeError } from '@/lib/i18n/error-text';
import { useRoomAdminActions } from '@/hooks/data/room-admin';
import { AdminPermission, Permission } from '@/lib/contract/roles';
import { useT, type MessageKey } from '@/lib/i18n';
import { notifySuccess } from '@/lib/notify';
import { Modal } from '@/components/ui/drawer';
import '@/lib/i18n/messages/room-admin';
import '@/lib/i18n/messages/errors';

/** Which mask the editor changes. */
export type PermissionKind = 'member' | 'admin' | 'guest';

export interface PermissionTarget {
  userId: string;
  username: string;
  kind: PermissionKind;
  /** The mask as it is now (uint32). */
  mask: number;
}

const MEMBER_BITS = Object.entries(Permission) as [keyof typeof Permission, number][];
const ADMIN_BITS = Object.entries(AdminPermission) as [keyof typeof AdminPermission, number][];

/** The checkbox rows of a kind: [bit, label key]. */
export function permissionRows(kind: PermissionKind): [number, MessageKey][] {
  return kind === 'admin'
    ? ADMIN_BITS.map(([name, bit]) => [bit, `roomAdmin.adminPerm.${name}` as MessageKey])
    : MEMBER_BITS.map(([name, bit]) => [bit, `roomAdmin.perm.${name}` as MessageKey]);
}

export interface PermissionEditorProps {
  roomId: string;
  target: PermissionTarget | null;
  /** Closes the editor (also after a successful save; the member lists are read again). */
  onClose: () => void;
}

export function PermissionEditor({ roomId, target, onClose }: PermissionEditorProps) {
  const t = useT();
  return (
    <Modal
      open={target !== null}
      onOpenChange={(open) => !open && onClose()}
      title={target ? (target.kind === 'guest' ? t('roomAdmin.perm.guestTitle') : t('roomAdmin.perm.title', { name: target.username })) : ''}
      description={target?.kind === 'guest' ? t('roomAdmin.perm.guestNote') : target?.kind === 'admin' ? t('roomAdmin.perm.adminAll') : undefined}
      closeLabel={t('roomAdmin.close')}
      testId="permission-editor"
    >
      {target ? <EditorBody key={`${target.userId}:${target.kind}`} roomId={roomId} target={target} onClose={onClose} /> : null}
    </Modal>
  );
}

function EditorBody({ roomId, target, onClose }: { roomId: string; target: PermissionTarget; onClose: () => void }) {
  const t = useT();
  const actions = useRoomAdminActions(roomId);
  const [mask, setMask] = useState(target.mask >>> 0);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const rows = permissionRows(target.kind);

  const save = async () => {
    setBusy(true);
    setError(null);
    // Keep bits this editor does not show (uint32 masks may carry more than the named bits).
    const shown = rows.reduce((all, [bit]) => all | bit, 0);
    const value = ((target.mask & ~shown) | mask) >>> 0;
    try {
      if (target.kind === 'admin') await actions.setAdminPermissions(target.userId, value);
      else await actions.setMemberPermissions(target.userId, value);
      notifySuccess(t('roomAdmin.done.permissions', { name: target.username }));
      onClose();
    } catch (failure) {
      setError(describeError(failure).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      <fieldset className="space-y-3">
        <legend className="mb-3 text-sm font-medium text-zinc-700 dark:text-zinc-300">
          {target.kind === 'admin' ? t('roomAdmin.perm.admin') : t('roomAdmin.perm.member')}
        </legend>
        {rows.map(([bit, label]) => (
          <Checkbox
            key={bit}
            id={`perm-${target.kind}-${bit}`}
            data-testid={`perm-bit-${bit}`}
            label={t(label)}
            checked={(mask & bit) !== 0}
            onChange={(event) => setMask((current) => (event.target.checked ? current | bit : current & ~bit) >>> 0)}
          />
        ))}
      </fieldset>
      {error ? (
        <p role="alert" className="mt-3 text-sm text-red-600 dark:text-red-400">
          {error}
        </p>
      ) : null}
      <div className="mt-5 flex justify-end gap-2">
        <Button variant="outline" size="sm" onClick={onClose} disabled={busy}>
          {t('roomAdmin.close')}
        </Button>
        <Button type="submit" size="sm" loading={busy} data-testid="perm-save">
          {busy ? t('roomAdmin.perm.saving') : t('roomAdmin.perm.save')}
        </Button>
      </div>
    </form>
  );
}
