/**
 * Every key this client keeps in the browser's storage, and the only code that reads or writes them.
 *
 * localStorage (kept across visits), with the reference client's names where it has them
 * (docs/reference-client.md §6):
 * - `userToken`: the raw JWT (docs/contract.md §3.2), sent as `Authorization` by lib/api/client.ts;
 * - `isDarkMode`: "true" or "false" (read before first paint by components/layout/theme-script.ts);
 * - `locale`: "zh" or "en";
 * - `danmaku`: the viewer's danmaku overlay settings (JSON `{enabled, opacity, density}`);
 * - `theater`: "true" while the viewing hall is in theater mode (the video across the window);
 * - `room-<roomId>-pwd`: a room's password as typed, to prefill the join form;
 * - `uname`: the last username signed in with "remember me" (the reference client's key), to prefill
 *   the login form. Passwords are never stored (the reference client keeps one in plain text);
 * - `debug`: "sync" shows the sync overlay in the viewing hall, as `?debug=sync` does (docs/sync.md
 *   "Debugging"); set by hand or by the end-to-end tests.
 *
 * sessionStorage (this tab only):
 * - `userToken`: the raw JWT instead of localStorage when the person signed in without "remember me",
 *   so that the session ends with the tab;
 * - `cinema-chat-<roomId>`: the room's recent chat lines (JSON), so that a reload keeps the conversation;
 * - `room-<roomId>-setup`: "1" for a room this tab just created, until its creator picks a preset or
 *   dismisses the offer in the viewing hall.
 *
 * Storage may be unavailable (private browsing with storage blocked, quota exceeded, the prerender in
 * Node): reads then give null and writes are dropped, and the app keeps working for this page.
 */

/** The fixed localStorage keys. */
export const STORAGE_KEYS = {
  token: 'userToken',
  darkMode: 'isDarkMode',
  locale: 'locale',
  danmaku: 'danmaku',
  theater: 'theater',
  username: 'uname',
  debug: 'debug',
} as const;

/** Keys that signing out keeps: display preferences, the remembered username and the debug flag, not part of anyone's session. */
const PREFERENCE_KEYS: readonly string[] = [STORAGE_KEYS.darkMode, STORAGE_KEYS.locale, STORAGE_KEYS.danmaku, STORAGE_KEYS.theater, STORAGE_KEYS.username, STORAGE_KEYS.debug];

type Area = 'localStorage' | 'sessionStorage';

function storage(area: Area): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window[area];
  } catch {
    return null;
  }
}

function read(key: string, area: Area = 'localStorage'): string | null {
  try {
    return storage(area)?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

/** Writes `value`, or removes the key when `value` is null. */
function write(key: string, value: string | null, area: Area = 'localStorage'): void {
  try {
    if (value === null) storage(area)?.removeItem(key);
    else storage(area)?.setItem(key, value);
  } catch {
    /* quota exceeded or storage blocked: this value is just not kept */
  }
}

/** The stored raw JWT (kept on this device, or in this tab only), or null (none, or no storage). */
export function readToken(): string | null {
  return read(STORAGE_KEYS.token) || read(STORAGE_KEYS.token, 'sessionStorage') || null;
}

/**
 * Stores the raw JWT; null removes it. `remember` keeps it on this device (localStorage, as the
 * reference client does) or in this tab only (sessionStorage, gone when the tab closes); left out,
 * a new token (a password change) goes where the current one is.
 */
export function writeToken(token: string | null, remember?: boolean): void {
  const lasting = remember ?? !read(STORAGE_KEYS.token, 'sessionStorage');
  write(STORAGE_KEYS.token, lasting ? token || null : null);
  write(STORAGE_KEYS.token, lasting ? null : token || null, 'sessionStorage');
}

/** The username the login form starts with ("" when none was remembered). */
export function readRememberedUsername(): string {
  return read(STORAGE_KEYS.username) ?? '';
}

/** Remembers the username for the login form ("" forgets it). */
export function writeRememberedUsername(username: string): void {
  write(STORAGE_KEYS.username, username || null);
}

/** Stores the dark-mode choice ("true"/"false", as the reference client). */
export function writeDarkMode(on: boolean): void {
  write(STORAGE_KEYS.darkMode, String(on));
}

/** The stored UI language as written ("zh" or "en" when valid), or null. */
export function readLocale(): string | null {
  return read(STORAGE_KEYS.locale);
}

/** Stores the UI language. */
export function writeLocale(locale: string): void {
  write(STORAGE_KEYS.locale, locale);
}

/** The stored danmaku settings, parsed but unchecked, or null. */
export function readDanmakuSettings(): unknown {
  const raw = read(STORAGE_KEYS.danmaku);
  if (!raw) return null;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return null;
  }
}

/** Stores the danmaku settings (as JSON). */
export function writeDanmakuSettings(settings: unknown): void {
  write(STORAGE_KEYS.danmaku, JSON.stringify(settings));
}

/** The stored debug flag ("sync" turns on the sync overlay, "sync-record" only its record), or null. */
export function readDebugFlag(): string | null {
  return read(STORAGE_KEYS.debug);
}

/** Whether the viewing hall was last left in theater mode (false when never chosen). */
export function readTheater(): boolean {
  return read(STORAGE_KEYS.theater) === 'true';
}

/** Remembers theater mode for the next visit to any room. */
export function writeTheater(on: boolean): void {
  write(STORAGE_KEYS.theater, String(on));
}

/** localStorage key of a room's cached password, as in the reference client. */
export function roomPasswordKey(roomId: string): string {
  return `room-${roomId}-pwd`;
}

/** The cached password of a room, or "". */
export function readRoomPassword(roomId: string): string {
  return read(roomPasswordKey(roomId)) ?? '';
}

/** Remembers a room password for this device; "" forgets it. */
export function writeRoomPassword(roomId: string, password: string): void {
  write(roomPasswordKey(roomId), password || null);
}

function chatKey(roomId: string): string {
  return `cinema-chat-${roomId}`;
}

/** The chat lines saved for a room in this tab, parsed but unchecked, or null. */
export function readChatLines(roomId: string): unknown {
  const raw = read(chatKey(roomId), 'sessionStorage');
  if (!raw) return null;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return null;
  }
}

/** Saves a room's chat lines for this tab (as JSON). */
export function writeChatLines(roomId: string, lines: unknown): void {
  write(chatKey(roomId), JSON.stringify(lines), 'sessionStorage');
}

function setupKey(roomId: string): string {
  return `room-${roomId}-setup`;
}

/** Whether the viewing hall should offer the room presets (a room this tab just created). */
export function readRoomSetupPending(roomId: string): boolean {
  return read(setupKey(roomId), 'sessionStorage') === '1';
}

/** Marks (true) or clears (false) the presets offer of a room for this tab. */
export function writeRoomSetupPending(roomId: string, pending: boolean): void {
  write(setupKey(roomId), pending ? '1' : null, 'sessionStorage');
}

/**
 * Ends the session on this device: removes the token, every cached room password and whatever else
 * localStorage holds (a reference client served from the same origin leaves `uname`, `email` and a
 * plain-text `password` behind), and keeps only the theme and language choices, so that signing out
 * does not also flip them. The reference client clears everything, preferences included.
 */
export function clearSession(): void {
  write(STORAGE_KEYS.token, null, 'sessionStorage');
  const local = storage('localStorage');
  if (!local) return;
  try {
    const kept = PREFERENCE_KEYS.map((key) => [key, local.getItem(key)] as const);
    local.clear();
    for (const [key, value] of kept) if (value !== null) local.setItem(key, value);
  } catch {
    /* storage blocked: nothing stored to clear */
  }
}
