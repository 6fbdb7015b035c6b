import type { MessageKey } from '@/lib/i18n';

/**
 * The translation of one of the contract's validation strings (lib/contract/validation.ts returns them in
 * English, as the server does), or the string itself when the catalogue has no entry.
 */
export function contractText(t: (key: MessageKey) => string, text: string | undefined): string | undefined {
  if (!text) return undefined;
  const key = `contract.${text}` as MessageKey;
  const translated = t(key);
  return translated === key ? text : translated;
}
