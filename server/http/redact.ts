/**
 * Log hygiene: a request URL with the values of its credential parameters replaced, so that a token
 * sent as `?token=` (§3.2: the proxy and WebSocket URLs carry it) never reaches the log.
 */

/** Query parameters whose values are credentials. */
const SECRET_PARAMS = new Set(['token']);

/** `url` (a path with an optional query) with every secret parameter's value replaced by `[redacted]`. */
export function redactUrl(url: string): string {
  const query = url.indexOf('?');
  if (query < 0) return url;
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
  return `${url.slice(0, query)}?${redacted}`;
}
