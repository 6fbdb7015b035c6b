'use client';
import { RefreshCw } from 'lucide-react';
import { useCallback, useEffect, useState, type ComponentProps } from 'react';
import type { FieldValues, UseFormReturn } from 'react-hook-form';
import type { ErrorFields, FormAction } from '@/components/common/use-form-action';
import { getCaptcha, sendEmailCode, type Captcha, type EmailFlow } from '@/hooks/data/account';
import { validateCaptchaAnswer } from '@/lib/contract/validation';
import { useT } from '@/lib/i18n';
import { TextField } from '@/components/ui/field';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import '@/lib/i18n/messages/auth';
import '@/lib/i18n/messages/account';

/**
 * The image captcha of an email flow (docs/contract.md §4.2): loads one on mount, and `reload()`
 * fetches a new one (after every send, since the server spends a captcha on its first check).
 */
export function useCaptcha(flow: EmailFlow) {
  const [captcha, setCaptcha] = useState<Captcha | null>(null);
  const [failed, setFailed] = useState(false);
  const reload = useCallback(() => {
    setFailed(false);
    setCaptcha(null);
    getCaptcha(flow).then(setCaptcha, () => setFailed(true));
  }, [flow]);
  useEffect(reload, [reload]);
  return { captcha, failed, reload };
}

/** The fields that the send step of every email-code form reads. */
interface CodeRequestFields extends FieldValues {
  email: string;
  answer: string;
}

/**
 * The send step of an email-code form (§4.2): `send` checks the address and the captcha answer at
 * their fields and asks the person to confirm the address (`confirming`, shown by SendCodeConfirm,
 * as the reference client does: a code mailed to a mistyped address is lost); `confirmSend` then
 * posts `POST /api/user/{flow}/email/captcha`, and on any outcome clears the answer and loads a new
 * captcha (the server spent the old one). Its failures go through the form's `action`
 * (components/common/use-form-action.ts): at the address or the answer, or as the form's message.
 */
export function useEmailCodeSender<F extends CodeRequestFields>(
  flow: EmailFlow,
  form: UseFormReturn<F>,
  action: Pick<FormAction<F>, 'setFailure' | 'run'>,
  initialSentTo: string | null = null,
) {
  const captcha = useCaptcha(flow);
  const [sentTo, setSentTo] = useState<string | null>(initialSentTo);
  const [sending, setSending] = useState(false);
  const [confirming, setConfirming] = useState<string | null>(null);
  // The form's own field names are `email` and `answer`; its wider type is not needed here.
  const fields = form as unknown as UseFormReturn<CodeRequestFields>;

  const send = async () => {
    action.setFailure(null);
    const answerError = validateCaptchaAnswer(fields.getValues('answer'));
    if (answerError) fields.setError('answer', { type: 'required', message: answerError });
    if (!(await fields.trigger('email')) || answerError || !captcha.captcha) return;
    setConfirming(fields.getValues('email'));
  };

  const confirmSend = async () => {
    setConfirming(null);
    if (!captcha.captcha) return;
    const { email, answer } = fields.getValues();
    const { captchaId } = captcha.captcha;
    setSending(true);
    await action.run(
      async () => {
        await sendEmailCode(flow, { email, captchaId, answer });
        setSentTo(email);
      },
      { email: 'email', captcha: 'answer' } as ErrorFields<F>,
    );
    setSending(false);
    fields.setValue('answer', '');
    captcha.reload();
  };
  return { captcha, sentTo, sending, send, confirming, confirmSend, cancelSend: () => setConfirming(null) };
}

/** "Send the code to this address?" before a code is mailed (useEmailCodeSender's `confirming`). */
export function SendCodeConfirm({ sender }: { sender: Pick<ReturnType<typeof useEmailCodeSender>, 'confirming' | 'confirmSend' | 'cancelSend'> }) {
  const t = useT();
  // Kept while the dialog closes, so that its text does not change under the person.
  const [shown, setShown] = useState('');
  if (sender.confirming && sender.confirming !== shown) setShown(sender.confirming);
  return (
    <ConfirmDialog
      open={sender.confirming !== null}
      title={t('account.confirmSendTitle')}
      description={t('account.confirmSendBody', { email: sender.confirming ?? shown })}
      confirmLabel={t('account.confirmSendOk')}
      onConfirm={sender.confirmSend}
      onOpenChange={(open) => {
        if (!open) sender.cancelSend();
      }}
    />
  );
}

export interface CaptchaFieldProps extends Omit<ComponentProps<'input'>, 'id'> {
  id: string;
  error?: string;
  state: ReturnType<typeof useCaptcha>;
}

/** The captcha answer input with its image beside it; clicking the image loads a new one. */
export function CaptchaField({ id, error, state, ...inputProps }: CaptchaFieldProps) {
  const t = useT();
  return (
    <div className="flex items-start gap-3">
      <div className="min-w-0 flex-1">
        <TextField id={id} label={t('account.captcha')} error={error} inputMode="numeric" autoComplete="off" {...inputProps} />
      </div>
      <button
        type="button"
        onClick={state.reload}
        data-testid={`${id}-image`}
        aria-label={t('account.captchaImage')}
        title={t('account.captchaImage')}
        className="mt-6 inline-flex h-10 w-32 shrink-0 cursor-pointer items-center justify-center overflow-hidden rounded-lg border border-zinc-300 bg-zinc-100 text-xs text-zinc-500 dark:border-zinc-700 dark:bg-zinc-800 dark:text-zinc-400"
      >
        {state.captcha ? (
          // A data URL from the server: next/image cannot optimise it, and the export has no image server.
          // eslint-disable-next-line @next/next/no-img-element
          <img src={state.captcha.captchaBase64} alt="" className="h-full w-full object-contain" />
        ) : state.failed ? (
          <span className="px-2 text-center">{t('account.captchaFailed')}</span>
        ) : (
          <RefreshCw className="h-4 w-4 animate-spin" aria-label={t('account.captchaLoading')} />
        )}
      </button>
    </div>
  );
}
