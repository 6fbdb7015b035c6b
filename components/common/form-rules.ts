import { z } from 'zod';
import { contractText } from './contract-text';
import type { MessageKey } from '@/lib/i18n';

/**
 * A zod string checked by one of lib/contract/validation.ts's validators, so that forms and the server share
 * one rule set; the issue message is the contract's error string (translated by `formErrorText`).
 */
export function contractString(validate: (value: string) => string | null) {
  return z.string().superRefine((value, ctx) => {
    const error = validate(value);
    if (error) ctx.addIssue({ code: 'custom', message: error });
  });
}

/**
 * The text to show for a form error message: a catalogue key set by a form's own rule
 * (e.g. `register.mismatch`), a contract validation string, or the message as is.
 */
export function formErrorText(t: (key: MessageKey) => string, message: string | undefined): string | undefined {
  if (!message) return undefined;
  const direct = t(message as MessageKey);
  if (direct !== message) return direct;
  return contractText(t, message);
}
