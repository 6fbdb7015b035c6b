/**
 * Rewriting an HLS playlist for the movie proxy (docs/contract.md §4.5): every URI in it (media
 * segments, variant playlists, and the `URI="…"` of tags such as EXT-X-KEY, EXT-X-MAP, EXT-X-MEDIA)
 * is resolved against the playlist's own URL and replaced by a proxy URL, so that a viewer's player
 * fetches everything through the server. Pure.
 */

/** Largest playlist the proxy reads (bytes), as in v0.9.11. */
export const MAX_PLAYLIST_BYTES = 3 * 1024 * 1024;

/** Whether a response is an HLS playlist: by content type, or by the URL's extension. */
export function isPlaylist(url: string, contentType: string | undefined): boolean {
  if (contentType && /mpegurl/i.test(contentType)) return true;
  return /\.m3u8?$/i.test(new URL(url).pathname);
}

/**
 * The playlist `text` (fetched from `baseUrl`) with each URI replaced by `proxied(absoluteUrl,
 * isPlaylist)`: a URI line right after `#EXT-X-STREAM-INF` or a `URI` attribute of
 * `#EXT-X-MEDIA` / `#EXT-X-I-FRAME-STREAM-INF` is a playlist, anything else a segment or key.
 *
 * Lines are split as ffmpeg's HLS reader splits them (LF, CR, CRLF or NUL: a lone CR would otherwise
 * hide a second line from this rewriter that ffmpeg still reads), and a `URI` attribute is rewritten
 * quoted or not (ffmpeg reads `URI=http://…` unquoted too); the result is written with LF and quotes.
 */
export function rewritePlaylist(text: string, baseUrl: string, proxied: (url: string, playlist: boolean) => string): string {
  const absolute = (uri: string) => {
    try {
      return new URL(uri, baseUrl).href;
    } catch {
      // No address at all: one the proxy refuses (`unsupported scheme`), never the text itself.
      return 'about:invalid';
    }
  };
  let nextIsPlaylist = false;
  return text
    .split(/\r\n|[\r\n\u0000]/)
    .map((line) => {
      const trimmed = line.trim();
      if (!trimmed) return line;
      if (trimmed.startsWith('#')) {
        const playlistTag = /^#EXT-X-(MEDIA|I-FRAME-STREAM-INF):/.test(trimmed);
        if (trimmed.startsWith('#EXT-X-STREAM-INF')) nextIsPlaylist = true;
        return line.replace(/([:,]\s*)URI=(?:"([^"]*)"|([^,"]*))/gi, (_match, before: string, quoted: string | undefined, bare: string | undefined) => `${before}URI="${proxied(absolute((quoted ?? bare ?? '').trim()), playlistTag)}"`);
      }
      const playlist = nextIsPlaylist;
      nextIsPlaylist = false;
      return proxied(absolute(trimmed), playlist);
    })
    .join('\n');
}
