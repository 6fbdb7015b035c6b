/**
 * Log hygiene: a request URL with the values of its credential parameters replaced, so that a token
 * sent as `?token=` (§3.2: the proxy and WebSocket URLs carry it) never reaches the log, and with the
 * tokens the movie proxy carries in its paths replaced too (the input, playlist-entry, DASH-base and
 * live-segment tokens of routes/proxy.ts, and anything else shaped like a JWT).
 */

/** Path segments that follow these name a token (routes/proxy.ts). */
const TOKEN_AFTER = new Set(['input', 'm3u8', 'dash']);
/** A JWT (three base64url parts, the first `{"`), or an input token (`<claims>.<signature>`, both long). */
const TOKEN_SHAPE = /^(eyJ[\w-]*\.[\w-]*\.[\w-]*|[\w-]{24,}\.[\w-]{40,})(\.\w{1,8})?$/;

/** `path` with each token in it replaced by `[redacted]` (an extension it ends with kept). */
function redactPath(path: string): string {
  const segments = path.split('/');
  return segments
    .map((segment, index) => {
      const afterName = index > 0 && TOKEN_AFTER.has(segments[index - 1]) && segments[index - 2] !== undefined && /^[0-9a-f]{32}$/.test(segments[index - 2]);
      if (!afterName && !TOKEN_SHAPE.test(segment)) return segment;
      const extension = /\.(ts|png|m3u8|m4s|mp4|aac|vtt)$/i.exec(segment)?.[0] ?? '';
      return `[redacted]${extension}`;
    })
    .join('/');
}

/** Query parameters whose values are credentials. */
const SECRET_PARAMS = new Set(['token']);

/** `url` (a path with an optional query) with every secret parameter's value and every token in its path replaced by `[redacted]`. */
export function redactUrl(url: string): string {
  const query = url.indexOf('?');
  if (query < 0) return redactPath(url);
  const redacted = url
    .slice(query + 1)
    .split('&')
    .map((pair) => {
      const name = pair.split('=', 1)[0];
      let decoded = name;
      try {
        decoded = decodeURIComponent(name);
      } catch {
        // A malformed escape keeps the raw name.
      }
      return SECRET_PARAMS.has(decoded.toLowerCase()) ? `${name}=[redacted]` : pair;
    })
    .join('&');
  return `${redactPath(url.slice(0, query))}?${redacted}`;
}
