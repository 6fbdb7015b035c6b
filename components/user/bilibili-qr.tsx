'use client';
/**
 * Binding a bilibili account by QR code (docs/vendors.md "bilibili"): a code from
 * `GET /api/vendor/bilibili/login/qr`, drawn with qrcode.react, then `POST …/login/qr {key}` every 2 s
 * (as the reference client, one at a time) until bilibili says it was confirmed in its app (the
 * server has then bound the account) or it expired, which offers a new code. SMS sign-in is not offered: it needs
 * bilibili's Geetest captcha, a script from Geetest's servers that this site does not load.
 * Loaded when the user asks to bind.
 */
import { useCallback, useEffect, useState } from 'react';
import { QRCodeSVG } from 'qrcode.react';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { useErrorDescription } from '@/hooks/use-error-description';
import { newBilibiliQr, useBilibiliQrPoll } from '@/hooks/data/vendors';
import type { BilibiliQrStatus } from '@/lib/contract/types';
import { useT } from '@/lib/i18n';
import { notifySuccess } from '@/lib/notify';
import '@/lib/i18n/messages/vendors';

/** How often (ms) the sign-in's state is asked, as the reference client does. */
export const QR_POLL_MS = 2000;

export function BilibiliQr({ onDone }: { onDone: (bound: boolean) => void }) {
  const t = useT();
  const [code, setCode] = useState<{ url: string; key: string } | null>(null);
  const [status, setStatus] = useState<BilibiliQrStatus>('notScanned');
  const [failure, setFailure] = useState<unknown>(null);
  const failureText = useErrorDescription(failure)?.message;
  const pollBilibiliQr = useBilibiliQrPoll();

  const fetchCode = useCallback(() => {
    setCode(null);
    setFailure(null);
    setStatus('notScanned');
    newBilibiliQr().then(setCode, setFailure);
  }, []);
  useEffect(fetchCode, [fetchCode]);

  // One poll at a time: the next is asked QR_POLL_MS after the previous one answered.
  useEffect(() => {
    if (!code || status === 'expired' || status === 'success' || failure) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout>;
    const poll = () =>
      pollBilibiliQr(code.key).then(
        (next) => {
          if (stopped) return;
          setStatus(next);
          if (next === 'success') {
            stopped = true;
            notifySuccess(t('bilibili.bound'));
            onDone(true);
            return;
          }
          timer = setTimeout(poll, QR_POLL_MS);
        },
        (error: unknown) => !stopped && setFailure(error),
      );
    timer = setTimeout(poll, QR_POLL_MS);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [code, status, failure, onDone, t, pollBilibiliQr]);

  return (
    <div className="space-y-3 rounded-lg border border-zinc-200 p-3 dark:border-zinc-800" data-testid="bilibili-qr">
      <div className="flex flex-wrap items-center gap-4">
        <div className="grid h-[200px] w-[200px] place-items-center rounded-md bg-white p-2">
          {code && status !== 'expired' ? (
            <QRCodeSVG value={code.url} size={184} role="img" aria-label={t('bilibili.qrLabel')} data-testid="bilibili-qr-code" />
          ) : failure || status === 'expired' ? null : (
            <Spinner className="h-6 w-6 text-zinc-400" />
          )}
        </div>
        <div className="min-w-0 flex-1 basis-48 space-y-2 text-sm">
          <p role="status" data-testid="bilibili-qr-status" className={status === 'expired' || failure ? 'text-red-600 dark:text-red-400' : ''}>
            {failure ? failureText : t(`bilibili.qr.${status}`)}
          </p>
          {status === 'expired' || failure ? (
            <Button variant="outline" size="sm" data-testid="bilibili-qr-reload" onClick={fetchCode}>
              {t('bilibili.qrReload')}
            </Button>
          ) : null}
          <p className="text-xs text-zinc-500 dark:text-zinc-400">{t('bilibili.smsNote')}</p>
        </div>
      </div>
      <Button variant="ghost" size="sm" onClick={() => onDone(false)}>
        {t('platforms.cancel')}
      </Button>
    </div>
  );
}
