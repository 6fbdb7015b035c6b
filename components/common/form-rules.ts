import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { z } from 'zod/mini';
import { describeError, type ErrorField } from '@/lib/i18n/error-text';
import type { MessageKey } from '@/lib/i18n';
import { isRegistered } from '@/lib/i18n/messages';
import '@/lib/i18n/messages/errors';

/**
 * A zod string checked by one of lib/contract/validation.ts's validators, so that forms and the
 * server share one rule set; the issue message is the contract's error string (translated by `formErrorText`).
 */
export function contractString(validate: (value: string) => string | null) {
  return z.string().check(contractCheck(validate));
}

/**
 * `contractString` for a user or room name: trimmed first (the parsed value, which the form submits,
 * has no leading or trailing white space), so that a blank name is refused as empty.
 */
export function contractName(validate: (value: string) => string | null) {
  return z.string().check(z.trim(), contractCheck(validate));
}

/** The check of `contractString` and `contractName`: the validator's text becomes the issue message. */
function contractCheck(validate: (value: string) => string | null) {
  return z.superRefine((value: string, ctx) => {
    const error = validate(value);
    if (error) ctx.addIssue({ code: 'custom', message: error, input: value });
  });
}

/**
 * The text to show for a form error message: a catalogue key set by a form's own rule
 * (e.g. `register.mismatch`), a contract error text (from the error catalogue), or the message as
 * it is (already in words: a server error placed by `placeFormError`).
 */
export function formErrorText(t: (key: MessageKey) => string, message: string | undefined): string | undefined {
  if (!message) return undefined;
  if (isRegistered(message)) return t(message as MessageKey);
  if (isRegistered(`contract.${message}`)) return t(`contract.${message}` as MessageKey);
  return message;
}

/**
 * Shows a failed submit's error once, where it belongs (lib/i18n/error-text.ts): on the form field it
 * is about, focused (`fields` maps the error's field onto the form's own, e.g. `{ roomPassword:
 * 'password' }`), or else as the form's own message, which this returns (null when a field took it).
 * A form never also toasts it.
 */
export function placeFormError<F extends FieldValues>(
  error: unknown,
  fields: Partial<Record<ErrorField, Path<F>>>,
  setError: UseFormSetError<F>,
): string | null {
  const { message, field } = describeError(error);
  const target = field ? fields[field] : undefined;
  if (!target) return message;
  setError(target, { type: 'server', message }, { shouldFocus: true });
  return null;
}
