/**
 * The submit of a form whose failure is shown once, where it belongs (docs/errors.md): on the field
 * it is about, focused, or as the form's own message (`placeFormError`).
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import type { ErrorField } from '@/lib/i18n/error-text';
import { placeFormError } from './form-rules';

/** Where a failed submit's error goes: the error's field (lib/i18n/error-text.ts) → the form's field. */
export type ErrorFields<F extends FieldValues> = Partial<Record<ErrorField, Path<F>>>;

/** A form's submit runner: `failure` is the message that no field took (null: none). */
export interface FormAction<F extends FieldValues> {
  failure: string | null;
  /** Shows `text` as the form's own message (null clears it): a failure found before any request. */
  setFailure: (text: string | null) => void;
  /**
   * Clears the last failure and runs `action`; what it throws is placed by `placeFormError` on
   * `fields` (the hook's own unless given). Never rejects.
   */
  run: (action: () => Promise<void>, fields?: ErrorFields<F>) => Promise<void>;
}

/** The submit runner of a react-hook-form form: its `setError` and where errors go by default. */
export function useFormAction<F extends FieldValues>(setError: UseFormSetError<F>, fields: ErrorFields<F>): FormAction<F> {
  const [failure, setFailure] = useState<string | null>(null);
  const defaults = useRef(fields);
  useEffect(() => {
    defaults.current = fields;
  });
  const run = useCallback(
    async (action: () => Promise<void>, placed?: ErrorFields<F>) => {
      setFailure(null);
      try {
        await action();
      } catch (error) {
        setFailure(placeFormError(error, placed ?? defaults.current, setError));
      }
    },
    [setError],
  );
  return { failure, setFailure, run };
}
