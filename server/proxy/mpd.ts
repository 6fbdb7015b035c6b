/**
 * Rewriting a DASH manifest (MPD) for the movie proxy (docs/hosting.md "The proxy"): a DASH player
 * builds its segment addresses from the manifest's `BaseURL` elements (or, without one, from the
 * manifest's own address) and its segment templates, so the proxy cannot list them the way it lists
 * an HLS playlist's. Instead every base becomes a proxy base (`/api/room/movie/proxy/<movie>/dash/
 * <signed base>/`), under which the player's segment requests come through the server; the route
 * resolves the rest of the path against the signed base and never leaves it. Pure.
 *
 * - No `BaseURL` before the first `Period`: one is added first in the `MPD`, the manifest's folder.
 * - A `BaseURL` before the first `Period` (the manifest's own): resolved against the manifest's
 *   address and replaced.
 * - Any other absolute `BaseURL` (a Period's or a Representation's on another host): replaced.
 * - Any other relative `BaseURL`: kept; it resolves under the proxy base above it.
 */

/** Whether a response is a DASH manifest: by content type, or by the URL's extension. */
export function isDashManifest(url: string, contentType: string | undefined): boolean {
  if (contentType && /dash\+xml/i.test(contentType)) return true;
  return /\.mpd$/i.test(new URL(url).pathname);
}

const BASE_URL = /<BaseURL(\s[^>]*)?>([^<]*)<\/BaseURL>/g;

/** `&amp;` and the other four XML entities back to text, and text to an element's content. */
const decodeXml = (text: string) => text.replace(/&(amp|lt|gt|quot|apos);/g, (_match, name: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" })[name] ?? '');
const encodeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * The manifest `text` (fetched from `manifestUrl`) with its bases replaced by `proxied(absoluteBase)`
 * as the module comment says. A base always ends with `/` (a folder), so that relative segment
 * addresses resolve under it.
 */
export function rewriteMpd(text: string, manifestUrl: string, proxied: (base: string) => string): string {
  const firstPeriod = text.search(/<Period[\s>]/);
  const folder = (url: string) => (url.endsWith('/') ? url : new URL('.', url).href);
  let ownBase = false;
  const rewritten = text.replace(BASE_URL, (match, attributes: string | undefined, content: string, offset: number) => {
    const value = decodeXml(content.trim());
    const beforePeriods = firstPeriod < 0 || offset < firstPeriod;
    if (beforePeriods) ownBase = true;
    if (!beforePeriods && !/^[a-z][a-z0-9+.-]*:/i.test(value)) return match;
    return `<BaseURL${attributes ?? ''}>${encodeXml(proxied(folder(new URL(value, manifestUrl).href)))}</BaseURL>`;
  });
  if (ownBase) return rewritten;
  // The first child of <MPD …>: right after its opening tag.
  return rewritten.replace(/<MPD(\s[^>]*)?>/, (tag) => `${tag}<BaseURL>${encodeXml(proxied(folder(manifestUrl)))}</BaseURL>`);
}

/**
 * The address a proxy base route serves: `rest` (the path after the base, as the player asked for
 * it) resolved against `base`, or null when it would leave the base (`..`, another host).
 */
export function underBase(base: string, rest: string): string | null {
  const target = new URL(rest, base);
  return target.href.startsWith(base) ? target.href : null;
}
