'use client';
/**
 * Sharing a room (docs/reference-client.md §1.5 "Share" and the room id's copy button): the join link
 * `<origin>/web/joinRoom/<id>/` on the site's address (lib/share-link.ts; a link that only works on
 * this machine says so, with what to do), optionally with the password (`?pwd=`, checked first with `POST
 * /api/room/pwd/check`, §3.6), a copy button, the link as a QR code (qrcode.react) for phones, and
 * the room id with its own copy button (for the join screen's id field). Loaded when first opened.
 */
import { QRCodeSVG } from 'qrcode.react';
import { useState } from 'react';
import { Check, Copy } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { TextField } from '@/components/ui/field';
import { describeError } from '@/lib/i18n/error-text';
import { checkRoomPassword } from '@/hooks/data/room-admin';
import { useT } from '@/lib/i18n';
import { notifySuccess } from '@/lib/notify';
import { readRoomPassword, writeRoomPassword } from '@/lib/storage';
import { onlyThisMachine, shareLink, shareOrigin } from '@/lib/share-link';
import { publicSettingsAtom, userAtom } from '@/lib/session';
import { Role } from '@/lib/contract/roles';
import { Notice } from '@/components/common/notice';
import { useAtomValue } from 'jotai';
import Link from 'next/link';
import { Modal } from '@/components/ui/drawer';
import { CopyRow } from '@/components/ui/copy-row';
import '@/lib/i18n/messages/room-admin';


export interface ShareDialogProps {
  roomId: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The room has a password (`needPassword`). */
  needPassword: boolean;
}

export function ShareDialog({ roomId, open, onOpenChange, needPassword }: ShareDialogProps) {
  const t = useT();
  const [withPassword, setWithPassword] = useState(false);
  const [password, setPassword] = useState(() => readRoomPassword(roomId));
  // The password that the server confirmed, so the link and QR code only ever carry a right one.
  const [checked, setChecked] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);
  const [copyFailed, setCopyFailed] = useState(false);
  const [idCopy, setIdCopy] = useState<'idle' | 'copied' | 'failed'>('idle');

  const copyId = async () => {
    try {
      await navigator.clipboard.writeText(roomId);
      setIdCopy('copied');
      notifySuccess(t('roomAdmin.share.idCopied'));
    } catch {
      setIdCopy('failed');
    }
  };

  const included = withPassword && checked !== null && checked === password ? checked : '';
  // The site's address as its admin set it leads; else the address this page was opened at (lib/share-link.ts).
  const origin = shareOrigin(useAtomValue(publicSettingsAtom)?.siteAddress, window.location.origin);
  const link = shareLink(origin, roomId, included);
  const isAdmin = (useAtomValue(userAtom)?.role ?? 0) >= Role.Admin;

  const verify = async (): Promise<boolean> => {
    if (checked === password) return true;
    setChecking(true);
    setError(null);
    try {
      const { valid } = await checkRoomPassword(roomId, password);
      if (!valid) {
        setError(t('roomAdmin.share.wrongPassword'));
        return false;
      }
      setChecked(password);
      writeRoomPassword(roomId, password);
      return true;
    } catch (failure) {
      setError(describeError(failure).message);
      return false;
    } finally {
      setChecking(false);
    }
  };

  const copy = async () => {
    if (withPassword && !(await verify())) return;
    const text = shareLink(origin, roomId, withPassword ? password : '');
    try {
      await navigator.clipboard.writeText(text);
      setCopyFailed(false);
      notifySuccess(t('roomAdmin.share.copied'));
    } catch {
      setCopyFailed(true);
    }
  };

  return (
    <Modal open={open} onOpenChange={onOpenChange} title={t('roomAdmin.share.title')} closeLabel={t('roomAdmin.close')} testId="share-dialog">
      <div className="space-y-4">
        {needPassword ? (
          <div className="space-y-3">
            <Checkbox
              id="share-with-password"
              data-testid="share-with-password"
              label={t('roomAdmin.share.withPassword')}
              hint={t('roomAdmin.share.withPasswordHint')}
              checked={withPassword}
              onChange={(event) => setWithPassword(event.target.checked)}
            />
            {withPassword ? (
              <form
                noValidate
                onSubmit={(event) => {
                  event.preventDefault();
                  void verify();
                }}
              >
                <TextField
                  id="share-password"
                  label={t('roomAdmin.share.password')}
                  type="password"
                  autoComplete="off"
                  value={password}
                  error={error ?? undefined}
                  onChange={(event) => {
                    setPassword(event.target.value);
                    setError(null);
                  }}
                  onBlur={() => password && void verify()}
                />
              </form>
            ) : null}
          </div>
        ) : null}

        {onlyThisMachine(origin) ? (
          <Notice tone="warning" testId="share-local-only">
            <p>{t('roomAdmin.share.localOnly', { host: new URL(origin).host })}</p>
            <p className="mt-1">
              {isAdmin ? (
                <>
                  {t('roomAdmin.share.localOnlyAdmin')}{' '}
                  <Link href="/admin" className="font-medium underline">
                    {t('roomAdmin.share.openAdmin')}
                  </Link>
                </>
              ) : (
                t('roomAdmin.share.localOnlyUser')
              )}
            </p>
          </Notice>
        ) : null}
        <CopyRow id="share-link" label={t('roomAdmin.share.link')} value={link} failure={copyFailed ? t('roomAdmin.share.copyFailed') : null}>
          <Button data-testid="share-copy" loading={checking} onClick={() => void copy()}>
            <Copy className="h-4 w-4" aria-hidden />
            {checking ? t('roomAdmin.share.checking') : t('roomAdmin.share.copy')}
          </Button>
        </CopyRow>

        <CopyRow id="share-room-id" label={t('roomAdmin.share.roomId')} value={roomId} failure={idCopy === 'failed' ? t('roomAdmin.share.copyIdFailed') : null}>
          <Button variant="outline" data-testid="share-copy-id" onClick={() => void copyId()}>
            {idCopy === 'copied' ? <Check className="h-4 w-4" aria-hidden /> : <Copy className="h-4 w-4" aria-hidden />}
            {t('roomAdmin.share.copyId')}
          </Button>
        </CopyRow>

        <figure className="flex flex-col items-center gap-2">
          <div className="rounded-xl bg-white p-3" data-testid="share-qr" data-value={link}>
            <QRCodeSVG value={link} size={176} marginSize={0} title={t('roomAdmin.share.qr')} />
          </div>
          <figcaption className="text-xs text-zinc-600 dark:text-zinc-400">{t('roomAdmin.share.qr')}</figcaption>
        </figure>
      </div>
    </Modal>
  );
}
