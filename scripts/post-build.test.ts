/**
 * @jest-environment node
 *
 * The post-build steps that rewrite the exported documents, run as `npm run build` runs them (as
 * scripts, on a small export in a temporary folder): scripts/head-scripts-first.mjs puts the inline
 * head scripts in front of the stylesheet, scripts/engine-chunks.mjs writes the engines' chunk
 * URLs into the early-start script, scripts/csp.mjs gives each document its policy, and
 * scripts/precompress.mjs writes brotli and gzip copies.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';

const script = (name: string) => path.resolve(__dirname, name);
let dir = '';

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'post-build-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const HEAD =
  '<head><meta charSet="utf-8"/><link rel="stylesheet" href="/web/_next/static/css/a.css" data-precedence="next"/>' +
  '<script src="/web/_next/static/chunks/main.js" async=""></script><script>boot()</script><script>theme()</script></head>';

describe('head-scripts-first', () => {
  it("moves the head's inline scripts, in their order, in front of the stylesheet, and a second run changes nothing", () => {
    fs.writeFileSync(path.join(dir, 'index.html'), `<!DOCTYPE html><html>${HEAD}<body><script>self.__next_f=[]</script></body></html>`);
    execFileSync(process.execPath, [script('head-scripts-first.mjs'), dir]);
    const once = fs.readFileSync(path.join(dir, 'index.html'), 'utf8');
    expect(once).toBe(
      '<!DOCTYPE html><html><head><meta charSet="utf-8"/><script>boot()</script><script>theme()</script>' +
        '<link rel="stylesheet" href="/web/_next/static/css/a.css" data-precedence="next"/><script src="/web/_next/static/chunks/main.js" async=""></script></head>' +
        '<body><script>self.__next_f=[]</script></body></html>',
    );
    execFileSync(process.execPath, [script('head-scripts-first.mjs'), dir]);
    expect(fs.readFileSync(path.join(dir, 'index.html'), 'utf8')).toBe(once);
  });
});

/** Runs a post-build script on `dir`; its exit status and what it printed on stderr. */
function runStep(name: string): { status: number; stderr: string } {
  try {
    execFileSync(process.execPath, [script(name), dir], { stdio: 'pipe' });
    return { status: 0, stderr: '' };
  } catch (error) {
    const failed = error as { status: number; stderr: Buffer };
    return { status: failed.status, stderr: failed.stderr.toString() };
  }
}

describe('what the steps rely on Next writing (a Next upgrade that changes it fails the build, saying what)', () => {
  it('head-scripts-first: a head without the stylesheet link, or without inline scripts', () => {
    fs.writeFileSync(path.join(dir, 'index.html'), '<html><head><script>boot()</script><style>a{}</style></head><body></body></html>');
    expect(runStep('head-scripts-first.mjs')).toEqual({ status: 1, stderr: expect.stringContaining('no <link rel="stylesheet" …>: Next writes its stylesheet differently now') });
    fs.writeFileSync(path.join(dir, 'index.html'), '<html><head><link rel="stylesheet" href="a.css"/><script nonce="x">boot()</script></head><body></body></html>');
    expect(runStep('head-scripts-first.mjs')).toEqual({ status: 1, stderr: expect.stringContaining('has no inline <script>') });
  });

  it('csp: documents without inline scripts, or a hall whose early start names no engine chunk', () => {
    fs.writeFileSync(path.join(dir, 'index.html'), '<html><head><script type="module" src="/web/a.js"></script></head></html>');
    expect(runStep('csp.mjs')).toEqual({ status: 1, stderr: expect.stringContaining('Next writes its documents differently now') });
    fs.writeFileSync(path.join(dir, 'index.html'), '<html><head><script>boot()</script></head></html>');
    expect(runStep('csp.mjs').status).toBe(0);
    fs.mkdirSync(path.join(dir, 'cinema', '_'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'cinema', '_', 'index.html'), '<html><head><script>early()</script></head></html>');
    expect(runStep('csp.mjs')).toEqual({ status: 1, stderr: expect.stringContaining('0 engine chunks named by an early start') });
  });

  it('html-aliases: an export without a folder per route', () => {
    fs.writeFileSync(path.join(dir, 'index.html'), '<html></html>');
    fs.writeFileSync(path.join(dir, 'rooms'), 'not a folder');
    expect(runStep('html-aliases.mjs')).toEqual({ status: 1, stderr: expect.stringContaining('no rooms/index.html to alias: Next lays the export out differently now') });
    fs.rmSync(path.join(dir, 'rooms'));
    fs.mkdirSync(path.join(dir, 'rooms'));
    fs.writeFileSync(path.join(dir, 'rooms', 'index.html'), '<html></html>');
    expect(runStep('html-aliases.mjs').status).toBe(0);
  });
});

describe('engine-chunks', () => {
  it('writes the URLs the build listed into every document and payload holding a placeholder', async () => {
    const { writeEngineChunks } = await import('./engine-chunks.mjs');
    fs.mkdirSync(path.join(dir, 'cinema', '_'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'index.html'), '<html></html>');
    fs.writeFileSync(path.join(dir, 'cinema', '_', 'index.html'), '<script>x({"hls":"__ENGINE_CHUNK__engine-hls-light__"})</script>');
    fs.writeFileSync(path.join(dir, 'cinema', '_', 'index.txt'), '"dash":"__ENGINE_CHUNK__engine-dash__"');
    const files = await writeEngineChunks(dir, { 'engine-hls-light': ['static/chunks/1.js'], 'engine-dash': ['static/chunks/2.js', 'static/chunks/3.js'] });
    expect(files).toBe(2);
    expect(fs.readFileSync(path.join(dir, 'cinema', '_', 'index.html'), 'utf8')).toBe('<script>x({"hls":"/web/_next/static/chunks/1.js"})</script>');
    expect(fs.readFileSync(path.join(dir, 'cinema', '_', 'index.txt'), 'utf8')).toBe('"dash":"/web/_next/static/chunks/2.js /web/_next/static/chunks/3.js"');
    await expect(writeEngineChunks(dir, {})).resolves.toBe(0);
    fs.writeFileSync(path.join(dir, 'cinema', '_', 'index.html'), '"__ENGINE_CHUNK__engine-mpegts__"');
    await expect(writeEngineChunks(dir, { 'engine-hls-light': ['static/chunks/1.js'] })).rejects.toThrow('no chunk for engine-mpegts');
  });
});

describe('csp', () => {
  it("allows by hash the inline scripts and, in a document that names an engine chunk, that chunk's text", async () => {
    const { withPolicy } = await import('./csp.mjs');
    const sha = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
    const engine = '(self.webpackChunk_N_E=self.webpackChunk_N_E||[]).push([[950],{}]);';
    const chunks = { '/web/_next/static/chunks/950.abc.js': engine };
    const hall = withPolicy('<html><head><script>x({"hls":"/web/_next/static/chunks/950.abc.js"})</script></head></html>', chunks);
    const policy = /content="([^"]*)"/.exec(hall)![1];
    expect(policy).toContain(sha('x({"hls":"/web/_next/static/chunks/950.abc.js"})'));
    expect(policy).toContain(sha(engine));
    expect(/script-src [^;]*/.exec(policy)![0]).not.toContain("'unsafe-inline'");
    const home = withPolicy('<html><head><script>boot()</script></head></html>', chunks);
    expect(home).not.toContain(sha(engine));
    // Run again, it replaces the policy instead of adding one.
    expect(withPolicy(hall, chunks)).toBe(hall);
  });
});

describe('precompress', () => {
  it('writes a brotli and a gzip copy of each text file worth compressing, and none of small or binary files', () => {
    const script = `console.log(${JSON.stringify('synctv '.repeat(400))});`;
    fs.mkdirSync(path.join(dir, '_next', 'static', 'chunks'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'index.html'), '<html>small</html>');
    fs.writeFileSync(path.join(dir, '_next', 'static', 'chunks', 'a.js'), script);
    fs.writeFileSync(path.join(dir, 'font.woff2'), Buffer.alloc(4096, 7));
    execFileSync(process.execPath, [path.resolve(__dirname, 'precompress.mjs'), dir]);
    const chunk = path.join(dir, '_next', 'static', 'chunks', 'a.js');
    expect(zlib.brotliDecompressSync(fs.readFileSync(`${chunk}.br`)).toString()).toBe(script);
    expect(zlib.gunzipSync(fs.readFileSync(`${chunk}.gz`)).toString()).toBe(script);
    expect(fs.readFileSync(`${chunk}.br`).length).toBeLessThan(script.length / 10);
    expect(fs.existsSync(path.join(dir, 'index.html.br'))).toBe(false);
    expect(fs.existsSync(path.join(dir, 'font.woff2.br'))).toBe(false);
  });

  it('reuses the copies of unchanged bytes from its cache, compresses changed ones afresh and forgets the rest', async () => {
    const { precompress } = await import('./precompress.mjs');
    const cache = path.join(dir, 'cache');
    const exported = path.join(dir, 'out');
    const write = (name: string, text: string) => fs.writeFileSync(path.join(exported, name), `console.log(${JSON.stringify(text.repeat(400))});`);
    fs.mkdirSync(exported);
    write('a.js', 'kept ');
    write('b.js', 'changed ');
    await expect(precompress(exported, cache)).resolves.toMatchObject({ files: 2, cached: 0 });
    expect(fs.readdirSync(cache)).toHaveLength(4);
    write('b.js', 'changed again ');
    await expect(precompress(exported, cache)).resolves.toMatchObject({ files: 2, cached: 1 });
    for (const name of ['a.js', 'b.js']) {
      const text = fs.readFileSync(path.join(exported, name), 'utf8');
      expect(zlib.brotliDecompressSync(fs.readFileSync(path.join(exported, `${name}.br`))).toString()).toBe(text);
      expect(zlib.gunzipSync(fs.readFileSync(path.join(exported, `${name}.gz`))).toString()).toBe(text);
    }
    // b.js's first bytes are no longer in the export, so their copies left the cache.
    expect(fs.readdirSync(cache)).toHaveLength(4);
  });
});
