/** @jest-environment node */
/**
 * Serving the exported client under /web (docs/contract.md §1.2, docs/static-export.md §1.4), with a
 * small fake export shaped like `next build` output with `trailingSlash: true`.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { get, launch, tempDir, type TestServer } from './test-support/harness';

jest.setTimeout(30_000);

const PAGES: Record<string, string> = {
  'index.html': '<html>home page</html>',
  'index.txt': 'home rsc payload',
  '404.html': '<html>not found page</html>',
  'auth/login/index.html': '<html>login page</html>',
  'cinema/_/index.html': '<html>cinema page</html>',
  // The alias scripts/html-aliases.mjs writes for servers that only serve exact file names.
  'cinema/_.html': '<html>cinema page</html>',
  'cinema/_/index.txt': 'cinema rsc payload',
  'cinema/_/__next.cinema.$d$roomId.__PAGE__.txt': 'cinema segment payload',
  'joinRoom/index.html': '<html>join page without id</html>',
  'joinRoom/_/index.html': '<html>join page with id</html>',
  '_next/static/chunks/app-123.js': 'console.log("app");',
  '_next/static/chunks/big-456.js': `console.log(${JSON.stringify('synctv '.repeat(2000))});`,
  'big/index.html': `<html>${'synctv '.repeat(2000)}</html>`,
};

let server: TestServer;
let webDir: string;

beforeAll(async () => {
  webDir = tempDir('synctv-web-');
  for (const [file, content] of Object.entries(PAGES)) {
    fs.mkdirSync(path.dirname(path.join(webDir, file)), { recursive: true });
    fs.writeFileSync(path.join(webDir, file), content);
  }
  // The build's brotli copies (scripts/precompress.mjs), told apart from the files by their text.
  for (const file of ['_next/static/chunks/big-456.js', 'cinema/_/index.html']) {
    fs.writeFileSync(path.join(webDir, `${file}.br`), zlib.brotliCompressSync(`${PAGES[file]} /* the build's copy */`));
  }
  server = await launch({ webDir });
});

afterAll(async () => {
  await server?.stop();
  fs.rmSync(webDir, { recursive: true, force: true });
});

it('redirects / and /web to /web/', async () => {
  for (const target of ['/', '/web']) {
    const response = await get(server, target);
    expect(response.status).toBe(301);
    expect(response.headers.get('location')).toBe('/web/');
  }
});

it('serves the home page with no-cache', async () => {
  const response = await get(server, '/web/');
  expect(response.status).toBe(200);
  expect(response.text).toBe(PAGES['index.html']);
  expect(response.headers.get('content-type')).toContain('text/html');
  expect(response.headers.get('cache-control')).toBe('no-cache');
});

it('serves route folders with and without the trailing slash', async () => {
  expect((await get(server, '/web/auth/login/')).text).toBe(PAGES['auth/login/index.html']);
  expect((await get(server, '/web/auth/login')).text).toBe(PAGES['auth/login/index.html']);
});

it('answers any room id with the placeholder page, HTML and RSC payloads alike', async () => {
  for (const url of ['/web/cinema/0123456789abcdef0123456789abcdef/', '/web/cinema/abc']) {
    const response = await get(server, url);
    expect([url, response.status, response.text]).toEqual([url, 200, PAGES['cinema/_/index.html']]);
  }
  const payload = await get(server, '/web/cinema/abc/index.txt');
  expect(payload.text).toBe(PAGES['cinema/_/index.txt']);
  expect(payload.headers.get('content-type')).toMatch(/^text\/plain/);
  expect(payload.headers.get('cache-control')).toBe('no-cache');
  const segment = await get(server, '/web/cinema/abc/__next.cinema.$d$roomId.__PAGE__.txt');
  expect(segment.text).toBe(PAGES['cinema/_/__next.cinema.$d$roomId.__PAGE__.txt']);
  expect((await get(server, '/web/joinRoom/')).text).toBe(PAGES['joinRoom/index.html']);
  expect((await get(server, '/web/joinRoom/some-room/')).text).toBe(PAGES['joinRoom/_/index.html']);
});

it('serves hashed assets as immutable', async () => {
  const response = await get(server, '/web/_next/static/chunks/app-123.js');
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/javascript/);
  expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
});

it('answers unknown paths with the 404 page and status 404, including escapes from the folder', async () => {
  for (const url of ['/web/nope/deep', '/web/_next/static/missing.js', '/web/..%2f..%2fetc%2fpasswd', '/web/rooms/x']) {
    const response = await get(server, url);
    expect([url, response.status, response.text]).toEqual([url, 404, PAGES['404.html']]);
  }
});

it('compresses text responses: HTML and hashed scripts alike, keeping their cache headers', async () => {
  const page = await fetch(`${server.url}/web/big/`, { headers: { 'Accept-Encoding': 'gzip' } });
  expect(page.headers.get('content-encoding')).toBe('gzip');
  expect(page.headers.get('cache-control')).toBe('no-cache');
  expect(await page.text()).toBe(PAGES['big/index.html']);
  const script = await fetch(`${server.url}/web/_next/static/chunks/big-456.js`, { headers: { 'Accept-Encoding': 'gzip' } });
  expect(script.headers.get('content-encoding')).toBe('gzip');
  expect(script.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  expect(await script.text()).toBe(PAGES['_next/static/chunks/big-456.js']);
});

it("sends the build's brotli copy to a browser that accepts brotli, the placeholder room's page included, and compresses the rest itself", async () => {
  for (const [url, file] of [
    ['/web/_next/static/chunks/big-456.js', '_next/static/chunks/big-456.js'],
    ['/web/cinema/abc/', 'cinema/_/index.html'],
  ]) {
    const brotli = await fetch(`${server.url}${url}`, { headers: { 'Accept-Encoding': 'br, gzip' } });
    expect([url, brotli.status, brotli.headers.get('content-encoding')]).toEqual([url, 200, 'br']);
    expect(brotli.headers.get('vary')).toMatch(/accept-encoding/i);
    expect(await brotli.text()).toBe(`${PAGES[file]} /* the build's copy */`);
    const gzip = await fetch(`${server.url}${url}`, { headers: { 'Accept-Encoding': 'gzip' } });
    expect(await gzip.text()).toBe(PAGES[file]);
  }
});

it('serves the exact-name alias of a route page (what the route boot script loads behind other servers)', async () => {
  const response = await get(server, `/web/cinema/_.html?_route=${encodeURIComponent('/cinema/abc/')}`);
  expect(response.status).toBe(200);
  expect(response.text).toBe(PAGES['cinema/_.html']);
  expect(response.headers.get('cache-control')).toBe('no-cache');
});

it('lets a preview host on another origin call the API with the token and room headers (CORS preflight)', async () => {
  const preflight = await fetch(`${server.url}/api/room/movies`, {
    method: 'OPTIONS',
    headers: {
      Origin: 'http://preview.example',
      'Access-Control-Request-Method': 'POST',
      'Access-Control-Request-Headers': 'authorization,x-room-id,content-type',
    },
  });
  expect(preflight.status).toBeLessThan(300);
  expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
  expect(preflight.headers.get('access-control-allow-methods')).toContain('POST');
  const allowed = (preflight.headers.get('access-control-allow-headers') ?? '').toLowerCase();
  for (const header of ['authorization', 'x-room-id', 'content-type']) expect(allowed).toContain(header);
  const answer = await fetch(`${server.url}/api/public/settings`, { headers: { Origin: 'http://preview.example' } });
  expect(answer.status).toBe(200);
  expect(answer.headers.get('access-control-allow-origin')).toBe('*');
});

it('explains how to build the client when the export is missing', async () => {
  const bare = await launch({ webDir: path.join(webDir, 'missing-out') });
  try {
    const response = await get(bare, '/web/');
    expect(response.status).toBe(503);
    expect(response.text).toContain('npm run build');
  } finally {
    await bare.stop();
  }
});

describe('security headers', () => {
  const SCRIPT = 'document.documentElement.dataset.booted="1"';
  const DOCUMENT = `<!DOCTYPE html><html><head><meta charSet="utf-8"/><script>${SCRIPT}</script><script src="/web/_next/a.js"></script></head><body>secure</body></html>`;
  let secureDir: string;
  let framed: TestServer;
  let strict: TestServer;

  beforeAll(async () => {
    secureDir = tempDir('synctv-csp-');
    fs.writeFileSync(path.join(secureDir, 'index.html'), DOCUMENT);
    // The build step itself, twice: the second run must replace the policy, not add another.
    const { execFileSync } = await import('node:child_process');
    for (let run = 0; run < 2; run++) execFileSync(process.execPath, [path.resolve(__dirname, '../scripts/csp.mjs'), secureDir]);
    [strict, framed] = await Promise.all([launch({ webDir: secureDir }), launch({ webDir: secureDir, frameAncestors: "'self' https://blog.example" })]);
  });

  afterAll(async () => {
    await Promise.all([strict?.stop(), framed?.stop()]);
    fs.rmSync(secureDir, { recursive: true, force: true });
  });

  it('the build puts one policy in each document, allowing its inline script by hash and no unsafe-inline script', () => {
    const html = fs.readFileSync(path.join(secureDir, 'index.html'), 'utf8');
    const metas = html.match(/<meta http-equiv="Content-Security-Policy" content="([^"]*)"\/>/g) ?? [];
    expect(metas).toHaveLength(1);
    const { createHash } = jest.requireActual<typeof import('node:crypto')>('node:crypto');
    const hash = createHash('sha256').update(SCRIPT).digest('base64');
    const scriptSrc = /script-src ([^;"]*)/.exec(metas[0] ?? '')?.[1] ?? '';
    expect(scriptSrc.split(' ')).toEqual(["'self'", "'wasm-unsafe-eval'", `'sha256-${hash}'`]);
    expect(html).toContain(`<script>${SCRIPT}</script>`);
  });

  it('sends the document policy with frame-ancestors none, nosniff, a referrer policy and X-Frame-Options', async () => {
    const response = await get(strict, '/web/');
    expect(response.status).toBe(200);
    const policy = response.headers.get('content-security-policy') ?? '';
    expect(policy).toMatch(/script-src 'self' 'wasm-unsafe-eval' 'sha256-[^']+'/);
    expect(policy).toMatch(/object-src 'none'/);
    expect(policy.endsWith("frame-ancestors 'none'")).toBe(true);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(response.headers.get('strict-transport-security')).toBeNull();
  });

  it('allows the configured frame ancestors instead (and drops X-Frame-Options, which cannot list them)', async () => {
    const response = await get(framed, '/web/');
    expect(response.headers.get('content-security-policy')).toMatch(/frame-ancestors 'self' https:\/\/blog\.example$/);
    expect(response.headers.get('x-frame-options')).toBeNull();
  });

  it('sends nosniff on API answers too, and lets other origins load the proxy media (CORP cross-origin)', async () => {
    const response = await get(strict, '/api/public/settings');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    expect(response.headers.get('content-security-policy')).toBeNull();
  });
});
