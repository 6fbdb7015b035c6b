/**
 * Plural forms in message texts: `{n, plural, one {# room found} other {# rooms found}}`,
 * the one part of ICU message syntax the catalogue uses, resolved with `Intl.PluralRules`. A namespace
 * whose texts have plural forms imports this module, which installs itself into `translate`.
 */
import { setPluralFormatter, type Locale } from './messages';

/**
 * Replaces each `{name, plural, one {…} other {…}}` in `text` by the case that `Intl.PluralRules`
 * picks for the number `params[name]` in `locale` (`one` or `other`: the only categories of English
 * and Chinese); `#` in the case becomes the number. A form whose parameter is not a number stays.
 */
export function fillPlurals(locale: Locale, text: string, params: Record<string, string | number>): string {
  return text.replace(/\{(\w+), plural, one \{([^{}]*)\} other \{([^{}]*)\}\}/g, (whole, name: string, one: string, other: string) => {
    const count = Number(params[name]);
    return Number.isFinite(count) ? (new Intl.PluralRules(locale).select(count) === 'one' ? one : other).replace(/#/g, String(count)) : whole;
  });
}

setPluralFormatter(fillPlurals);
