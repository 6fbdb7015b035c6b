/**
 * The push body of "Add a movie" and its checks (docs/contract.md §4.5, §7.1, §8), shared by the
 * card (./add-movie-card.tsx) and the lazily loaded form (./movie-push-form.tsx).
 */
import type { MovieBase, PushedMovie } from '@/lib/contract/types';
import { validateMovieBase } from '@/lib/contract/validation';
import type { MessageKey } from '@/lib/i18n';
import '@/lib/i18n/messages/cinema';
import '@/lib/i18n/messages/movie-form';

/** A header row of the push form (`headers`, §7.1). */
export interface HeaderRow {
  key: string;
  value: string;
}

/** A subtitle or extra-source row of the push form: name, URL and type. */
export interface SourceRow {
  name: string;
  url: string;
  type: string;
}

/** The values of the push form. Only `url`, `name` and `live` are needed; the rest default to empty. */
export interface PushFields {
  url: string;
  name: string;
  live: boolean;
  /** `type` (§7.1): "" lets the server guess from the URL. */
  type?: string;
  proxy?: boolean;
  /** Converted by the server (docs/transcode.md; a companion-server extension, sent only when true). */
  convert?: boolean;
  headers?: HeaderRow[];
  subtitles?: SourceRow[];
  moreSources?: SourceRow[];
}

/**
 * Movie types a person can pick (docs/reference-client.md §1.5, and the other names its player knows:
 * m2ts, m2t, mts and mpegts.js's `mse`); "" = automatic.
 */
export const MOVIE_TYPES = ['', 'm3u8', 'mp4', 'flv', 'mpegts', 'm2ts', 'm2t', 'mts', 'mse', 'mpd', 'webm'] as const;
/** Subtitle formats (docs/reference-client.md §1.5 "Subtitles dialog"). */
export const SUBTITLE_TYPES = ['srt', 'ass', 'vtt'] as const;

const blank = (row: object) => Object.values(row).every((value) => !String(value).trim());

/** URL schemes a SyncTV server plays directly (§7.1). */
const PLAYABLE_URL = /^(https?:\/\/|magnet:)/i;

/** The contract's movie validation texts (§8), shown in the user's language. */
const MOVIE_ERRORS: Record<string, MessageKey> = {
  'url too long': 'moviePush.urlTooLong',
  'empty name': 'moviePush.nameRequired',
  'type too long': 'moviePush.typeTooLong',
};

/**
 * The push body for the form's values (trimmed), as the reference client's "direct link" type sends
 * it: `headers`, `subtitles` and `moreSources` only when a row is filled in; blank rows are dropped.
 */
export function movieBaseOf(fields: PushFields): MovieBase {
  const base: MovieBase = {
    url: fields.url.trim(),
    name: fields.name.trim(),
    live: fields.live,
    type: fields.type ?? '',
    proxy: fields.proxy ?? false,
    parentId: '',
  };
  if (fields.convert) base.convert = true;
  const headers = (fields.headers ?? []).filter((row) => !blank(row));
  if (headers.length) base.headers = Object.fromEntries(headers.map((row) => [row.key.trim(), row.value.trim()]));
  const subtitles = (fields.subtitles ?? []).filter((row) => !blank(row));
  if (subtitles.length) base.subtitles = Object.fromEntries(subtitles.map((row) => [row.name.trim(), { url: row.url.trim(), type: row.type }]));
  const sources = (fields.moreSources ?? []).filter((row) => !blank(row));
  if (sources.length) base.moreSources = sources.map((row) => ({ name: row.name.trim(), url: row.url.trim(), type: row.type }));
  return base;
}

/** A problem in one row of the advanced options: the form path (`headers.0.value`) and the message key. */
export interface RowProblem {
  path: `headers.${number}.${'key' | 'value'}` | `${'subtitles' | 'moreSources'}.${number}.${'name' | 'url'}`;
  key: MessageKey;
}

/**
 * Checks the rows of the advanced options: a header needs a name and a value, with no name twice; a
 * subtitle and an extra source need a name and an http(s) URL, with no subtitle name twice. Blank
 * rows are ignored. Returns every problem, in form order.
 */
export function rowProblems(fields: PushFields): RowProblem[] {
  const problems: RowProblem[] = [];
  const seenHeaders = new Set<string>();
  (fields.headers ?? []).forEach((row, index) => {
    if (blank(row)) return;
    const key = row.key.trim().toLowerCase();
    if (!key) problems.push({ path: `headers.${index}.key`, key: 'moviePush.headerIncomplete' });
    else if (!row.value.trim()) problems.push({ path: `headers.${index}.value`, key: 'moviePush.headerIncomplete' });
    else if (seenHeaders.has(key)) problems.push({ path: `headers.${index}.key`, key: 'moviePush.headerDuplicate' });
    seenHeaders.add(key);
  });
  const sourceRows = (list: 'subtitles' | 'moreSources', rows: SourceRow[] = []) => {
    const seen = new Set<string>();
    rows.forEach((row, index) => {
      if (blank(row)) return;
      const name = row.name.trim();
      if (!name) problems.push({ path: `${list}.${index}.name`, key: 'moviePush.rowNameRequired' });
      else if (list === 'subtitles' && seen.has(name)) problems.push({ path: `${list}.${index}.name`, key: 'moviePush.subtitleDuplicate' });
      seen.add(name);
      if (!/^https?:\/\//i.test(row.url.trim())) problems.push({ path: `${list}.${index}.url`, key: 'moviePush.rowUrl' });
    });
  };
  sourceRows('subtitles', fields.subtitles);
  sourceRows('moreSources', fields.moreSources);
  return problems;
}

/** Most movies one bulk push may add from the form. */
export const MAX_BULK_LINES = 100;

/**
 * A name for a movie added by URL alone: the file's name without its extension (`…/Episode%201.mp4`
 * → `Episode 1`; `…/show/index.m3u8` → `show`, since "index" says nothing), else, for a page or a
 * path without a file name, the host (`https://www.example.com/watch?v=1` → `www.example.com`).
 * "" when `url` is not an absolute URL.
 */
export function nameFromUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    return '';
  }
  const decode = (part: string) => {
    try {
      return decodeURIComponent(part);
    } catch {
      return part;
    }
  };
  const segments = parsed.pathname.split('/').filter(Boolean).map(decode);
  const file = segments.at(-1) ?? '';
  const extension = /\.[a-z0-9]{1,5}$/i.exec(file);
  if (!extension) return parsed.hostname;
  const stem = file.slice(0, extension.index).trim();
  if (stem && stem.toLowerCase() !== 'index') return stem;
  return segments.at(-2) || parsed.hostname;
}

/**
 * The bodies of a bulk push (`POST /api/room/movie/pushs`): one movie a line, either `URL` or
 * `name | URL`, sharing `live`, `type` and `proxy`. Blank lines are skipped. Returns the bodies, or
 * the first problem with its 1-based line number (an unplayable URL, too many lines, nothing given).
 */
export function bulkBases(
  text: string,
  common: Pick<PushFields, 'live' | 'type' | 'proxy'>,
): { bases: MovieBase[] } | { line: number; key: MessageKey } {
  const lines = text.split(/\r?\n/).map((line, index) => ({ line: index + 1, text: line.trim() })).filter((line) => line.text);
  if (lines.length === 0) return { line: 0, key: 'moviePush.bulkEmpty' };
  if (lines.length > MAX_BULK_LINES) return { line: lines[MAX_BULK_LINES].line, key: 'moviePush.bulkTooMany' };
  const bases: MovieBase[] = [];
  for (const { line, text: value } of lines) {
    const bar = value.lastIndexOf('|');
    const url = (bar >= 0 ? value.slice(bar + 1) : value).trim();
    const name = (bar >= 0 ? value.slice(0, bar).trim() : '') || nameFromUrl(url);
    const base = movieBaseOf({ url, name, live: common.live, type: common.type, proxy: common.proxy });
    const problem = pushProblem(base);
    if (problem) return { line, key: problem.key };
    bases.push(base);
  }
  return { bases };
}

/**
 * Checks a push body: a URL is required and must be http(s) or magnet, then the contract's rules.
 * Returns the field and message key of the first problem, or null.
 */
export function pushProblem(base: MovieBase): { field: 'url' | 'name'; key: MessageKey } | null {
  if (!base.url) return { field: 'url', key: 'moviePush.urlRequired' };
  if (!PLAYABLE_URL.test(base.url)) return { field: 'url', key: 'moviePush.urlScheme' };
  const problem = validateMovieBase(base);
  if (!problem) return null;
  // The other bounds (danmu, headers, subtitles, sources) read as the error catalogue's words.
  return { field: problem === 'empty name' || problem === 'name too long' ? 'name' : 'url', key: MOVIE_ERRORS[problem] ?? (`contract.${problem}` as MessageKey) };
}

/** Props of the lazily loaded form (./movie-push-form.tsx). */
export interface MoviePushFormProps {
  roomId: string;
  /** The folder the list shows ("" = root): new movies go there (`parentId`, §7.1). */
  parentId: string;
  /**
   * What happens once movies were added (the stored records, in order): the hall plays the first
   * one in a room where nothing plays, and says what it did. Without it the form says "added".
   */
  onPushed?: (added: PushedMovie[]) => Promise<void> | void;
}
