/**
 * Absolute URL of a client route under the export's basePath, e.g.
 * `webUrl('http://127.0.0.1:1234', '/cinema/abc')` → `http://127.0.0.1:1234/web/cinema/abc/`.
 * Adds `/web` and the trailing slash of the export (trailingSlash: true), keeping a query string after it.
 */
export function webUrl(origin: string, route: string): string {
  const [pathPart, query] = route.split(/\?(.*)/s, 2);
  const trimmed = pathPart.replace(/^\/+|\/+$/g, '');
  return `${origin}/web/${trimmed ? `${trimmed}/` : ''}${query ? `?${query}` : ''}`;
}
