/**
 * What ffmpeg and ffprobe may read (docs/transcode.md "What ffmpeg reads", docs/security.md): they
 * fetch by themselves, outside the proxy's address guard, and some of their demuxers follow URLs
 * found inside what they read (an HLS playlist's segments, variants and keys; a DASH manifest; a
 * concat list; an image sequence). So:
 *
 * - they are only ever given this server's own input route (routes/proxy.ts `…/input/<token>`),
 *   which fetches through the guard and rewrites every URI of an HLS playlist into another input
 *   URL (or refuses it);
 * - every input is opened with a protocol whitelist (`http,tcp`; `crypto` too for HLS, whose AES-128
 *   segments ffmpeg reads through it) and a format whitelist of demuxers that read one stream and
 *   fetch nothing else (`MEDIA_DEMUXERS`), with `hls` only for an input the route serves as a
 *   playlist it rewrote (an input URL ending in `.m3u8`);
 * - every request they make carries a secret of this process (`INPUT_HEADER`), which nothing else
 *   has: behind a reverse proxy on the same machine every client arrives from 127.0.0.1, so the
 *   address alone does not say the request is ffmpeg's.
 */
import crypto from 'node:crypto';

/** The header ffmpeg sends with each input request: this process's secret. */
const INPUT_HEADER = 'x-synctv-input';

/** This process's input secret: random at start, never logged, never in a URL. */
const INPUT_SECRET = crypto.randomBytes(24).toString('base64url');

/** How long (s) an input token is valid: a run of ffmpeg reads its input for about the film's length. */
export const INPUT_TOKEN_TTL_SEC = 12 * 60 * 60;

/**
 * Demuxers that read the one stream they are given and open nothing else (no playlists, manifests,
 * concat lists, image sequences, devices or side files such as VobSub's `.sub`). ffmpeg's names:
 * a demuxer matches when any of its comma-separated names is listed.
 */
export const MEDIA_DEMUXERS = [
  'mov', 'matroska', 'mpegts', 'flv', 'live_flv', 'avi', 'mpeg', 'mpegvideo', 'ogg', 'wav', 'w64', 'mp3', 'aac', 'loas',
  'ac3', 'eac3', 'truehd', 'mlp', 'dts', 'dtshd', 'flac', 'asf', 'h264', 'hevc', 'm4v', 'av1', 'obu', 'ivf', 'nut', 'rm',
  'mxf', 'wtv', 'caf', 'aiff', 'amr', 'ape', 'wv', 'tta', 'srt', 'ass', 'webvtt', 'sup', 'dv', 'spdif',
];

/** The refusal of a body that is a playlist or manifest where a film was expected (companion text, in ffmpeg's log). */
export const PLAYLIST_NOT_FOLLOWED = 'a playlist found inside a film is not followed';

/** The path of an input URL of movie `movieId` (routes/proxy.ts): its token, then `extension` (`.m3u8` for a playlist, an entry's own, or ""). */
export function inputPath(movieId: string, token: string, extension: string): string {
  return `/api/room/movie/proxy/${movieId}/input/${token}${extension}`;
}

/** Whether an input URL is one the route serves as an HLS playlist (its token ends in `.m3u8`). */
export function isPlaylistInput(input: string): boolean {
  return /^https?:\/\/[^?#]*\/input\/[^/?#]+\.m3u8$/.test(input);
}

/**
 * The ffmpeg/ffprobe options that go before `-i input` (input options): the whitelists and, for an
 * input route URL, the secret header. A local file (tests, benchmarks) is read with the `file`
 * protocol only, through the same format whitelist.
 */
export function inputOptions(input: string): string[] {
  if (!/^https?:\/\//.test(input)) return ['-protocol_whitelist', 'file', '-format_whitelist', MEDIA_DEMUXERS.join(',')];
  const playlist = isPlaylistInput(input);
  return [
    ...['-protocol_whitelist', playlist ? 'http,tcp,crypto' : 'http,tcp'],
    ...['-format_whitelist', (playlist ? [...MEDIA_DEMUXERS, 'hls'] : MEDIA_DEMUXERS).join(',')],
    ...['-headers', `${INPUT_HEADER}: ${INPUT_SECRET}\r\n`],
  ];
}

/** Whether a request carries this process's input secret (compared in constant time). */
export function hasInputSecret(headers: Record<string, string | string[] | undefined>): boolean {
  const given = Buffer.from(String(headers[INPUT_HEADER] ?? ''));
  const expected = Buffer.from(INPUT_SECRET);
  return given.length === expected.length && crypto.timingSafeEqual(given, expected);
}

/**
 * The extension an input URL keeps from the address it stands for (`.ts`, `.m4s`, `.aac`…): ffmpeg's
 * HLS demuxer refuses a segment whose extension is not a media one, or does not match what it
 * holds. "" when the address has none that is short and plain.
 */
export function entryExtension(url: string): string {
  let pathname = '';
  try {
    pathname = new URL(url).pathname;
  } catch {
    return '';
  }
  const match = /\.([a-z0-9]{1,6})$/i.exec(pathname);
  return match && match[1].toLowerCase() !== 'm3u8' ? `.${match[1].toLowerCase()}` : '';
}
