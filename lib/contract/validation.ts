/**
 * Validation rules of the SyncTV v0.9.11 contract (docs/contract.md §8), one set used by the
 * client's forms and by the companion server. Each validator returns the contract's error text,
 * or null when the value is valid. Lengths are counted in UTF-8 bytes (one Han character is 3).
 */

const encoder = new TextEncoder();

/** UTF-8 byte length of `value`. */
export function byteLength(value: string): number {
  return encoder.encode(value).length;
}

/** P: ASCII printable, 0x20–0x7E including the space. */
const PRINTABLE = /^[\x20-\x7e]*$/;
/** P+Han: ASCII printable plus CJK Han characters. */
const PRINTABLE_OR_HAN = /^[\x20-\x7e\p{Script=Han}]*$/u;

/**
 * A user, room or movie name as it is checked and stored: without leading and trailing white space
 * (a companion-server and client rule: v0.9.11 stores a name as sent, so a name of spaces
 * made a user or room that showed no name). The client trims before sending, the server again.
 */
export function normalizeName(name: string): string {
  return name.trim();
}

/** Username: 1–32 bytes, P+Han (signup, login, rename); a blank one is `username is empty`. */
export function validateUsername(username: string): string | null {
  if (!username.trim()) return 'username is empty';
  if (byteLength(username) > 32) return 'username too long';
  if (!PRINTABLE_OR_HAN.test(username)) return 'username has invalid char';
  return null;
}

/** User password: 1–32 bytes, P only. */
export function validateUserPassword(password: string): string | null {
  if (!password) return 'user password empty';
  if (byteLength(password) > 32) return 'password too long';
  if (!PRINTABLE.test(password)) return 'password has invalid char';
  return null;
}

/** Fewest characters of a new user password (a companion-server and client rule; v0.9.11 takes 1). */
export const MIN_USER_PASSWORD_LENGTH = 8;

/**
 * A password being set (sign-up, password change, reset, an admin's new user or new password): the
 * contract's rules, then at least MIN_USER_PASSWORD_LENGTH characters (`password too short`). Signing
 * in checks only `validateUserPassword`, so that older and v0.9.11 accounts with shorter passwords
 * keep working.
 */
export function validateNewUserPassword(password: string): string | null {
  const invalid = validateUserPassword(password);
  if (invalid) return invalid;
  if (password.length < MIN_USER_PASSWORD_LENGTH) return 'password too short';
  return null;
}

/** Room name: 1–32 bytes, P+Han, not blank (uniqueness is the server's check: `room already exists`). */
export function validateRoomName(name: string): string | null {
  if (!name.trim()) return 'empty room name';
  if (byteLength(name) > 32) return 'room name too long';
  if (!PRINTABLE_OR_HAN.test(name)) return 'room name has invalid char';
  return null;
}

/** Room password: empty (no password) or 1–32 bytes, P only. */
export function validateRoomPassword(password: string): string | null {
  if (!password) return null;
  if (byteLength(password) > 32) return 'password too long';
  if (!PRINTABLE.test(password)) return 'password has invalid char';
  return null;
}

/** Largest chat message, in bytes (§6.4). */
export const MAX_CHAT_BYTES = 4096;

/** Chat message: 1–4096 bytes. */
export function validateChat(content: string): string | null {
  if (!content) return 'message is empty';
  if (byteLength(content) > MAX_CHAT_BYTES) return 'message too long';
  return null;
}

/**
 * The largest position (s) a STATUS may carry: 10^7 s, about 115 days, longer than any movie or
 * broadcast (a companion-server bound; v0.9.11 takes any finite number and broadcasts it).
 */
export const MAX_POSITION_SEC = 10_000_000;

/** Playback rates browsers accept (Chromium's HTMLMediaElement range), the bounds of a STATUS's rate. */
export const MIN_PLAYBACK_RATE = 0.0625;
export const MAX_PLAYBACK_RATE = 16;

/**
 * A STATUS's values (§6.4; a companion-server check, v0.9.11 stores what it gets): `currentTime`
 * (seconds) finite, >= 0 and at most MAX_POSITION_SEC, `playbackRate` finite within what browsers accept. Returns
 * `invalid current time` / `invalid playback rate`, or null.
 */
export function validatePlaybackStatus(status: { currentTime: number; playbackRate: number }): string | null {
  if (!Number.isFinite(status.currentTime) || status.currentTime < 0 || status.currentTime > MAX_POSITION_SEC) return 'invalid current time';
  if (!(status.playbackRate >= MIN_PLAYBACK_RATE && status.playbackRate <= MAX_PLAYBACK_RATE)) return 'invalid playback rate';
  return null;
}

/** Ids of users, rooms and movies: UUIDv4 as 32 lowercase hex characters without dashes (§3.3). */
export function isId(value: unknown): value is string {
  return typeof value === 'string' && value.length === 32;
}

/** Largest movie URL, in bytes (§7.1). */
export const MAX_MOVIE_URL_BYTES = 8192;
/** Largest movie type, in bytes (§7.1). */
export const MAX_MOVIE_TYPE_BYTES = 32;

/** Largest movie name accepted before the §7.1 truncation to 256 bytes (a companion-server bound). */
export const MAX_MOVIE_NAME_BYTES = 4096;
/** Largest `danmu` / `streamDanmu` URL, in bytes (a companion-server bound). */
export const MAX_MOVIE_LINK_BYTES = MAX_MOVIE_URL_BYTES;
/** Largest header value, in bytes (a companion-server bound). */
export const MAX_HEADER_VALUE_BYTES = 4096;
/** Largest header name, subtitle name, source name, in bytes (companion-server bounds). */
export const MAX_MOVIE_LABEL_BYTES = 256;
/** Most entries in `headers`, `subtitles`, `moreSources` (companion-server bounds). */
export const MAX_MOVIE_ENTRIES = 32;
/** Largest movie as JSON, in bytes (a companion-server bound: 100 such movies make a 6.4 MB list page). */
export const MAX_MOVIE_JSON_BYTES = 64 * 1024;
/** Most movies in one bulk push (`POST /api/room/movie/pushs`, a companion-server bound). */
export const MAX_PUSH_COUNT = 500;
/** Most ids in one delete (`POST /api/room/movie/delete`, a companion-server bound). */
export const MAX_DELETE_IDS = 1000;

const tooLong = (value: string | undefined, max: number) => Boolean(value) && byteLength(value as string) > max;

/**
 * Movie base fields checked on push and edit (§7.1, §8): the contract's `url too long`, `empty name`,
 * `type too long`, then the companion server's bounds on every other field, each naming the field:
 * `name too long` (> 4096 bytes; shorter names are still truncated to 256), `danmu too long`,
 * `streamDanmu too long` (> 8192), `too many headers` / `too many subtitles` / `too many moreSources`
 * (> 32 entries), `header name too long` (> 256) / `header value too long` (> 4096),
 * `subtitle name too long` / `subtitle url too long` / `subtitle type too long`, and the same three
 * for `source`, and `movie too large` beyond 64 KiB of JSON in all. Returns the first problem's text or null.
 */
export function validateMovieBase(base: Partial<MovieFields>): string | null {
  if (tooLong(base.url, MAX_MOVIE_URL_BYTES)) return 'url too long';
  if (!base.name?.trim()) return 'empty name';
  if (tooLong(base.type, MAX_MOVIE_TYPE_BYTES)) return 'type too long';
  if (tooLong(base.name, MAX_MOVIE_NAME_BYTES)) return 'name too long';
  if (tooLong(base.danmu, MAX_MOVIE_LINK_BYTES)) return 'danmu too long';
  if (tooLong(base.streamDanmu, MAX_MOVIE_LINK_BYTES)) return 'streamDanmu too long';
  const headers = Object.entries(base.headers ?? {});
  if (headers.length > MAX_MOVIE_ENTRIES) return 'too many headers';
  for (const [name, value] of headers) {
    if (tooLong(name, MAX_MOVIE_LABEL_BYTES)) return 'header name too long';
    if (tooLong(value, MAX_HEADER_VALUE_BYTES)) return 'header value too long';
  }
  const subtitles = Object.entries(base.subtitles ?? {});
  if (subtitles.length > MAX_MOVIE_ENTRIES) return 'too many subtitles';
  for (const [name, subtitle] of subtitles) {
    const problem = sourceProblem('subtitle', { name, ...subtitle });
    if (problem) return problem;
  }
  const sources = base.moreSources ?? [];
  if (sources.length > MAX_MOVIE_ENTRIES) return 'too many moreSources';
  for (const source of sources) {
    const problem = sourceProblem('source', source);
    if (problem) return problem;
  }
  if (byteLength(JSON.stringify(base)) > MAX_MOVIE_JSON_BYTES) return 'movie too large';
  return null;
}

/** The fields of a MovieBase that validateMovieBase reads (lib/contract/types.ts has the whole shape). */
interface MovieFields {
  url: string;
  name: string;
  type: string;
  danmu: string;
  streamDanmu: string;
  headers: Record<string, string>;
  subtitles: Record<string, { url: string; type: string }>;
  moreSources: { name: string; type: string; url: string }[];
}

function sourceProblem(kind: 'subtitle' | 'source', entry: { name: string; url: string; type: string }): string | null {
  if (tooLong(entry.name, MAX_MOVIE_LABEL_BYTES)) return `${kind} name too long`;
  if (tooLong(entry.url, MAX_MOVIE_URL_BYTES)) return `${kind} url too long`;
  if (tooLong(entry.type, MAX_MOVIE_TYPE_BYTES)) return `${kind} type too long`;
  return null;
}

/** Longest email address, in bytes (§8). */
export const MAX_EMAIL_BYTES = 128;
const EMAIL_PATTERN = /^[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}$/;

/** Email: `local@domain.tld` (TLD of 2+ letters), at most 128 bytes (§8). */
export function validateEmail(email: string): string | null {
  if (!email) return 'email is empty';
  if (byteLength(email) > MAX_EMAIL_BYTES) return 'email is too long';
  if (!EMAIL_PATTERN.test(email)) return 'invalid email';
  return null;
}

/** The image captcha's answer: non-empty (§8). */
export function validateCaptchaAnswer(answer: string): string | null {
  return answer ? null : 'answer is empty';
}

/** The mailed code: non-empty (§8). */
export function validateEmailCode(code: string): string | null {
  return code ? null : 'captcha is empty';
}
