/**
 * The push body of "Add a movie" and its checks (server-contract.md §4.5, §7.1, §8), shared by the
 * card (./movie-push-form.tsx) and the lazily loaded form (./movie-push-fields.tsx).
 */
import type { MovieBase } from '@/lib/contract/types';
import { validateMovieBase } from '@/lib/contract/validation';
import type { MessageKey } from '@/lib/i18n';
import '@/lib/i18n/messages/cinema';

/** The values of the push form. */
export interface PushFields {
  url: string;
  name: string;
  live: boolean;
}

/** URL schemes a SyncTV server plays directly (§7.1). */
const PLAYABLE_URL = /^(https?:\/\/|magnet:)/i;

/** The contract's movie validation texts (§8), shown in the user's language. */
const MOVIE_ERRORS: Record<string, MessageKey> = {
  'url too long': 'cinema.push.urlTooLong',
  'empty name': 'cinema.push.nameRequired',
  'type too long': 'cinema.push.typeTooLong',
};

/** The push body for the form's values (trimmed), as the reference client's "direct link" type sends it. */
export function movieBaseOf(fields: PushFields): MovieBase {
  return { url: fields.url.trim(), name: fields.name.trim(), live: fields.live, type: '', proxy: false, parentId: '' };
}

/**
 * Checks a push body: a URL is required and must be http(s) or magnet, then the contract's rules.
 * Returns the field and message key of the first problem, or null.
 */
export function pushProblem(base: MovieBase): { field: 'url' | 'name'; key: MessageKey } | null {
  if (!base.url) return { field: 'url', key: 'cinema.push.urlRequired' };
  if (!PLAYABLE_URL.test(base.url)) return { field: 'url', key: 'cinema.push.urlScheme' };
  const problem = validateMovieBase(base);
  if (!problem) return null;
  return { field: problem === 'empty name' ? 'name' : 'url', key: MOVIE_ERRORS[problem] ?? 'cinema.push.urlScheme' };
}

/** Props of the lazily loaded form (./movie-push-fields.tsx). */
export interface MoviePushFieldsProps {
  roomId: string;
  /** The folder the list shows ("" = root): new movies go there (`parentId`, §7.1). */
  parentId: string;
}
