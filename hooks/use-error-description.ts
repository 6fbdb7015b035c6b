'use client';
import { useEffect, useState } from 'react';
import { describeError, errorCatalogueLoaded, loadErrorCatalogue, type ErrorDescription } from '@/lib/i18n/error-text';
import { useLocale } from '@/lib/i18n';

/**
 * An error state's words for people (lib/i18n/error-text.ts), in the UI language. The error
 * catalogue is loaded the first time an error is shown, so screens that never fail do not download
 * it; until it has arrived (a moment), this gives null. Null also for no error.
 */
export function useErrorDescription(error: unknown): ErrorDescription | null {
  // Re-described when the language changes.
  useLocale();
  const [loaded, setLoaded] = useState(errorCatalogueLoaded);
  const hasError = error !== null && error !== undefined;
  useEffect(() => {
    if (!hasError || loaded) return;
    let alive = true;
    loadErrorCatalogue().then(
      () => alive && setLoaded(true),
      // Offline, say: the raw text is better than nothing.
      () => alive && setLoaded(true),
    );
    return () => {
      alive = false;
    };
  }, [hasError, loaded]);
  if (!hasError || !loaded) return null;
  return describeError(error);
}
