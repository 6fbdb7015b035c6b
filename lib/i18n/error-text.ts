/**
 * Errors for people: the message to show for a failure, in the UI language, and the form field it
 * belongs to. A text of the contract (or of the companion server) reads as its entry in the error
 * catalogue (lib/i18n/messages/errors.ts); a failure without a server text reads as what happened
 * (no connection, an HTTP status); only a server text we do not know is shown as it is.
 * The catalogue must be loaded (`import '@/lib/i18n/messages/errors'`): forms import it; lib/notify
 * and error states (hooks/use-error-description.ts) load it when the first error is shown, through
 * `loadErrorCatalogue`.
 */
import { isRegistered, type MessageKey } from '@/lib/i18n/messages';
import { t } from '@/lib/i18n';
import { ApiError } from '@/lib/api/error';

let catalogue: Promise<unknown> | null = null;

/** Loads the error catalogue (once; a failed load is retried by the next call). */
export function loadErrorCatalogue(): Promise<unknown> {
  catalogue ??= import('@/lib/i18n/messages/errors').catch((error: unknown) => {
    catalogue = null;
    throw error;
  });
  return catalogue;
}

/** True once the error catalogue is loaded. */
export function errorCatalogueLoaded(): boolean {
  return isRegistered('error.network');
}

/** The form fields an error can belong to (a form maps them onto its own fields). */
export type ErrorField = 'username' | 'password' | 'email' | 'captcha' | 'roomId' | 'roomName' | 'roomPassword' | 'url' | 'name' | 'message';

/** Which field each contract text is about (docs/contract.md §8). */
const FIELDS: Record<string, ErrorField> = {
  'user not found': 'username',
  'username is empty': 'username',
  'username too long': 'username',
  'username has invalid char': 'username',
  'user already exists': 'username',
  'password incorrect': 'password',
  'user password empty': 'password',
  'password too long': 'password',
  'password too short': 'password',
  'password has invalid char': 'password',
  'password is the same': 'password',
  'email is empty': 'email',
  'email is too long': 'email',
  'invalid email': 'email',
  'invalid email format': 'email',
  'email not in white list': 'email',
  'email already exists': 'email',
  'email already bind': 'email',
  'this email same as current email': 'email',
  'answer is empty': 'captcha',
  'captcha is empty': 'captcha',
  'captcha verify failed': 'captcha',
  'email captcha verify failed': 'captcha',
  'invalid room ID': 'roomId',
  'invalid room id': 'roomId',
  'room not found': 'roomId',
  'password error': 'roomPassword',
  'room must need password': 'roomPassword',
  'room must no need password': 'roomPassword',
  'room password empty': 'roomPassword',
  'room already exists': 'roomName',
  'empty room name': 'roomName',
  'room name too long': 'roomName',
  'room name has invalid char': 'roomName',
  'url too long': 'url',
  'unsupported scheme': 'url',
  'local ip is not allowed': 'url',
  'host is required': 'url',
  'host is invalid': 'url',
  'vendor server unreachable': 'url',
  'vendor server answered unexpectedly': 'url',
  'alist: this AList is too old, update it': 'url',
  'emby: no Emby or Jellyfin answers at this address': 'url',
  'alist password is incorrect': 'password',
  'emby: user name or password is incorrect': 'password',
  'username is required': 'username',
  'empty name': 'name',
  'name too long': 'name',
  'danmu too long': 'url',
  'streamDanmu too long': 'url',
  'message is empty': 'message',
  'message too long': 'message',
};

/** Texts with a variable part, by the catalogue entry they read as. */
const PATTERNS: Array<[RegExp, string]> = [
  [/^unsupported scheme: /, 'unsupported scheme'],
  [/^unknown message type: /, 'unknown message type'],
  [/^setting .+ not found$/, 'setting not found'],
  [/^setting \S+ must /, 'invalid setting value'],
  [/^vendor .+ is not supported/, 'vendor not supported'],
  // An unknown key in a room settings patch (v0.9.11's database error text).
  [/^no such column: /, 'unknown room setting'],
  [/^the movie source answered \d+/, 'the movie source answered an error'],
  // AList's own words after `alist: ` (docs/vendors.md); other AList texts are shown as they come.
  [/^alist: password is incorrect or you have no permission/, 'alist folder password'],
  [/^alist: password is incorrect/, 'alist password is incorrect'],
  [/^alist: .*object not found/, 'alist file not found'],
  [/^path is dir: /, 'path is dir'],
  [/^backend .+ not found$/, 'backend not found'],
  [/^emby: the server answered \d+/, 'emby server answered an error'],
];

/** What to show for a failure. */
export interface ErrorDescription {
  /** The message in the UI language (or the server's own text when it is unknown). */
  message: string;
  /** The form field it is about, when it is about one. */
  field?: ErrorField;
  /** The contract text it came from (the key of FIELDS and of the catalogue), when known. */
  text?: string;
  /** The HTTP status of a failed call (0: no answer came); absent for other errors. */
  status?: number;
}

/** The catalogue entry of a server text: the text itself, a pattern, or the known text after a `…: ` wrapper. */
function knownText(raw: string): string | undefined {
  if (isRegistered(`contract.${raw}`)) return raw;
  for (const [pattern, text] of PATTERNS) if (pattern.test(raw)) return text;
  // "push movie error: no permission", "register client error: room not found", …
  const cut = raw.lastIndexOf(': ');
  if (cut >= 0) return knownText(raw.slice(cut + 2));
  return undefined;
}

/**
 * Describes any thrown value (an ApiError, an Error, a server text) for a person. See the module
 * comment. Aborts (status 0 with the caller's own reason) read as a network failure too; callers that
 * abort on purpose do not show them.
 */
export function describeError(error: unknown): ErrorDescription {
  const description = describe(error);
  return error instanceof ApiError ? { ...description, status: error.status } : description;
}

function describe(error: unknown): ErrorDescription {
  if (error instanceof ApiError && error.status === 429 && error.retryAfterSec) {
    return { message: t('error.retryAfter', { seconds: error.retryAfterSec }), text: 'too many requests' };
  }
  if (error instanceof ApiError && error.source !== 'server') {
    if (error.source === 'network') return { message: t('error.network') };
    if (error.source === 'not-json') return { message: t('error.notJson') };
    if (error.status === 429) return { message: t('contract.too many requests'), text: 'too many requests' };
    return { message: t('error.status', { status: error.status }) };
  }
  const raw = error instanceof Error ? error.message : String(error);
  if (/^json: cannot unmarshal/.test(raw)) return { message: t('error.malformed') };
  const text = knownText(raw);
  if (text === undefined) return { message: raw };
  return { message: t(`contract.${text}` as MessageKey), field: FIELDS[text], text };
}
