/**
 * The room link's early start (./early-start.ts): the inline script as the browser runs it (its text,
 * evaluated against a fake window), and the session's side that takes its answers once.
 */
import { gzipSync } from 'node:zlib';
import { DecompressionStream } from 'node:stream/web';
import { earlyStartConfig, earlyStartScript, EARLY_ANSWER_MAX_AGE_MS, engineChunkPlaceholder, takeEarlyAnswer, takeEarlyMedia, type EarlyStart, type EarlyStartHost } from './early-start';

const HLS_CHUNK = '/web/_next/static/chunks/engine-hls-light.abc123.js';

interface FakeHost extends EarlyStartHost {
  requests: { url: string; headers: Record<string, string>; priority?: string }[];
  links: { rel: string; as: string; href: string; fetchPriority: string }[];
  /** Inline scripts as they were put in the document, and whether each was taken out again. */
  scripts: { text: string; removed: boolean }[];
}

/** The document's body size on the wire and unpacked: the same when the server did not compress it. */
type DocumentSizes = { encodedBodySize: number; decodedBodySize: number };

/**
 * A window at `pathname` whose fetch answers each path with `answers[path]` (404 otherwise): the
 * body as JSON, or as it is when it is a string (a playlist, a segment) or bytes. By default the
 * document came compressed (`document` sizes) and the window has Compression Streams.
 */
function fakeHost(
  pathname: string,
  answers: Record<string, { status: number; body: unknown }>,
  token: string | null = 'jwt-1',
  document: DocumentSizes | null = { encodedBodySize: 6000, decodedBodySize: 24000 },
): FakeHost {
  const requests: FakeHost['requests'] = [];
  const links: FakeHost['links'] = [];
  const scripts: FakeHost['scripts'] = [];
  return {
    requests,
    links,
    scripts,
    location: { pathname, origin: 'https://watch.example' },
    localStorage: { getItem: (key) => (key === 'userToken' ? token : null) },
    sessionStorage: { getItem: () => null },
    fetch: async (url, init) => {
      requests.push({ url, headers: init.headers, ...(init.priority ? { priority: init.priority } : {}) });
      const answer = answers[new URL(url, 'https://watch.example').pathname] ?? { status: 404, body: { error: 'not found' } };
      const bytes: Uint8Array<ArrayBuffer> = ArrayBuffer.isView(answer.body) ? new Uint8Array(answer.body as Uint8Array) : new TextEncoder().encode(typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body));
      return {
        status: answer.status,
        body: new Response(bytes).body,
        text: async () => new TextDecoder().decode(bytes),
        arrayBuffer: async () => bytes.slice().buffer,
      };
    },
    performance: { now: () => requests.length * 100, getEntriesByType: () => (document ? [document] : []) },
    URL,
    DecompressionStream: DecompressionStream as unknown as EarlyStartHost['DecompressionStream'],
    Response: Response as unknown as EarlyStartHost['Response'],
    document: {
      createElement: ((tag: string) => (tag === 'script' ? { text: '' } : { rel: '', as: '', href: '', fetchPriority: '' })) as EarlyStartHost['document']['createElement'],
      head: {
        appendChild: (node) => {
          if ('text' in (node as object)) scripts.push({ text: (node as { text: string }).text, removed: false });
          else links.push(node as FakeHost['links'][number]);
          return node;
        },
        removeChild: (node) => {
          const script = scripts.find((entry) => entry.text === (node as { text: string }).text && !entry.removed);
          if (script) script.removed = true;
          return node;
        },
      },
    },
  };
}

/** Runs the script text as the browser would, with `host` as `window`. */
function runScript(host: FakeHost, chunks: Record<string, string> = { [engineChunkPlaceholder('engine-hls-light')]: HLS_CHUNK }, apiOrigin = '') {
  let script = earlyStartScript(earlyStartConfig('/web', apiOrigin));
  for (const [placeholder, url] of Object.entries(chunks)) script = script.split(placeholder).join(url);
  new Function('window', script)(host);
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
const current = (url: string, type = '') => ({ status: 200, body: { data: { movie: { id: 'm1', base: { url, type } }, status: { isPlaying: true, currentTime: 5, playbackRate: 1 } } } });

describe('the early-start script', () => {
  it("asks for the room and its current movie with the stored token and the room's id, and preloads the HLS engine", async () => {
    const host = fakeHost('/web/cinema/a1b2/', { '/api/room/movie/current': current('https://media.example/v/index.m3u8') });
    runScript(host);
    await settle();
    expect(host.requests.map((request) => request.url)).toEqual([
      'https://watch.example/api/user/me',
      'https://watch.example/api/public/settings',
      'https://watch.example/api/room/me',
      'https://watch.example/api/room/info',
      'https://watch.example/api/room/movie/current',
      // The room plays: its playlist, not a segment (where hls.js starts depends on when it starts).
      'https://media.example/v/index.m3u8',
    ]);
    expect(host.requests[5].headers).toEqual({});
    expect(host.requests[0].headers).toEqual({ Authorization: 'jwt-1' });
    expect(host.requests[2].headers).toEqual({ Authorization: 'jwt-1', 'X-Room-Id': 'a1b2' });
    expect(host.links).toEqual([{ rel: 'preload', as: 'script', fetchPriority: 'low', href: HLS_CHUNK }]);
    expect(host.__synctvEarlyStart).toMatchObject({ roomId: 'a1b2', token: 'jwt-1' });
  });

  it('sends no Authorization and does not ask for the user without a token, and asks the configured API origin', async () => {
    const host = fakeHost('/web/cinema/a1b2', {}, null);
    runScript(host, {}, 'https://api.example');
    await settle();
    expect(host.requests[0]).toEqual({ url: 'https://api.example/api/public/settings', headers: {} });
    expect(host.requests[1]).toEqual({ url: 'https://api.example/api/room/me', headers: { 'X-Room-Id': 'a1b2' } });
  });

  it('does nothing outside a room and on the bare placeholder document', () => {
    for (const pathname of ['/web/', '/web/rooms/', '/web/cinema/_/', '/web/cinema/a/b/']) {
      const host = fakeHost(pathname, {});
      runScript(host);
      expect(host.requests).toEqual([]);
      expect(host.__synctvEarlyStart).toBeUndefined();
    }
  });

  it('preloads nothing for a native movie, with no current movie, or before the chunk names are written', async () => {
    const cases: [Record<string, { status: number; body: unknown }>, Record<string, string>?][] = [
      [{ '/api/room/movie/current': current('https://media.example/film.mp4') }],
      [{ '/api/room/movie/current': { status: 200, body: { data: { movie: null, status: {} } } } }],
      [{ '/api/room/movie/current': current('https://media.example/v/index', 'm3u8') }, {}],
      [{ '/api/room/movie/current': { status: 401, body: { error: 'unauthorized' } } }],
    ];
    for (const [answers, chunks] of cases) {
      const host = fakeHost('/web/cinema/r1/', answers);
      runScript(host, chunks);
      await settle();
      expect(host.links).toEqual([]);
    }
  });

  it('preloads every chunk of an engine built into several', async () => {
    const host = fakeHost('/web/cinema/r1/', { '/api/room/movie/current': current('https://media.example/a.mpd') });
    runScript(host, { [engineChunkPlaceholder('engine-dash')]: '/web/_next/static/chunks/1.js /web/_next/static/chunks/2.js' });
    await settle();
    expect(host.links.map((link) => link.href)).toEqual(['/web/_next/static/chunks/1.js', '/web/_next/static/chunks/2.js']);
  });

  it('takes the type before the extension, as the player does', async () => {
    const host = fakeHost('/web/cinema/r1/', { '/api/room/movie/current': current('https://media.example/live', ' M3U8 ') });
    runScript(host);
    await settle();
    expect(host.links.map((link) => link.href)).toEqual([HLS_CHUNK]);
  });
});

describe("the early-start script's engine behind a server that does not compress", () => {
  const CODE = '(self.webpackChunk_N_E=self.webpackChunk_N_E||[]).push([[950],{}]);'.repeat(50);
  const UNCOMPRESSED = { encodedBodySize: 24000, decodedBodySize: 24000 };
  const hlsMovie = { '/api/room/movie/current': current('https://media.example/v/index.m3u8') };

  it('runs the chunk from its gzip copy as an inline script, preloads nothing, and settles `engine` after it ran', async () => {
    const host = fakeHost('/web/cinema/r1/', { ...hlsMovie, [`${HLS_CHUNK}.gz`]: { status: 200, body: gzipSync(CODE) } }, 'jwt-1', UNCOMPRESSED);
    runScript(host);
    await (host.__synctvEarlyStart as EarlyStart).engine;
    expect(host.requests.find((request) => request.url.endsWith('.gz'))).toEqual({ url: `${HLS_CHUNK}.gz`, headers: {}, priority: 'low' });
    expect(host.scripts).toEqual([{ text: CODE, removed: true }]);
    expect(host.links).toEqual([]);
  });

  it('preloads the chunk itself when the copy is missing, is the home page (a SPA fallback) or does not unpack', async () => {
    const bodies: { status: number; body: unknown }[] = [
      { status: 404, body: 'not found' },
      { status: 200, body: '<!DOCTYPE html><html></html>' },
      { status: 200, body: gzipSync(CODE).subarray(0, 40) },
    ];
    for (const body of bodies) {
      const host = fakeHost('/web/cinema/r1/', { ...hlsMovie, [`${HLS_CHUNK}.gz`]: body }, 'jwt-1', UNCOMPRESSED);
      runScript(host);
      await (host.__synctvEarlyStart as EarlyStart).engine;
      expect(host.scripts).toEqual([]);
      expect(host.links).toEqual([{ rel: 'preload', as: 'script', fetchPriority: 'low', href: HLS_CHUNK }]);
    }
  });

  it('preloads the chunk itself when the document came compressed, when its size is not known yet, or without Compression Streams', async () => {
    const hosts = [
      fakeHost('/web/cinema/r1/', hlsMovie),
      fakeHost('/web/cinema/r1/', hlsMovie, 'jwt-1', { encodedBodySize: 0, decodedBodySize: 0 }),
      fakeHost('/web/cinema/r1/', hlsMovie, 'jwt-1', null),
      { ...fakeHost('/web/cinema/r1/', hlsMovie, 'jwt-1', UNCOMPRESSED), DecompressionStream: undefined },
    ];
    for (const host of hosts) {
      runScript(host);
      await (host.__synctvEarlyStart as EarlyStart).engine;
      expect(host.requests.some((request) => request.url.endsWith('.gz'))).toBe(false);
      expect(host.links.map((link) => link.href)).toEqual([HLS_CHUNK]);
    }
  });
});

describe("the early-start script's media", () => {
  const PLAYLIST = ['#EXTM3U', '#EXT-X-TARGETDURATION:2', '#EXTINF:2.000,', 'seg0.ts', '#EXTINF:2.000,', 'seg1.ts', '#EXTINF:2.000,', 'sub/seg2.ts', '#EXT-X-ENDLIST', ''].join('\n');
  const paused = (base: Record<string, unknown>, currentTime = 0) => ({ status: 200, body: { data: { movie: { id: 'm1', base }, status: { currentTime } } } });
  const early = (host: FakeHost) => host.__synctvEarlyStart as EarlyStart;
  const mediaUrls = (host: FakeHost) => host.requests.slice(5).map((request) => request.url);

  it("fetches a paused room's playlist and the segment at its position, for the player to take", async () => {
    const host = fakeHost('/web/cinema/r1/', { '/api/room/movie/current': paused({ url: 'https://media.example/v/index.m3u8' }, 4.5), '/v/index.m3u8': { status: 200, body: PLAYLIST }, '/v/sub/seg2.ts': { status: 200, body: 'TS' } });
    runScript(host);
    await settle();
    expect(mediaUrls(host)).toEqual(['https://media.example/v/index.m3u8', 'https://media.example/v/sub/seg2.ts']);
    const segment = await early(host).media?.['https://media.example/v/sub/seg2.ts'].promise;
    expect(new TextDecoder().decode(segment?.data as ArrayBuffer)).toBe('TS');
    expect(segment?.receivedAt).toBeGreaterThanOrEqual(segment?.requestedAt ?? Infinity);
    await expect(early(host).media?.['https://media.example/v/index.m3u8'].promise).resolves.toMatchObject({ data: PLAYLIST });
  });

  it('asks for a server-relative movie at the API origin, the first segment at 0 s and none past the end', async () => {
    const host = fakeHost('/web/cinema/r1/', { '/api/room/movie/current': paused({ url: '/api/movie/proxy/r1/m1' , type: 'm3u8' }), '/api/movie/proxy/r1/m1': { status: 200, body: PLAYLIST } });
    runScript(host, {}, 'https://api.example');
    await settle();
    expect(mediaUrls(host)).toEqual(['https://api.example/api/movie/proxy/r1/m1', 'https://api.example/api/movie/proxy/r1/seg0.ts']);

    const past = fakeHost('/web/cinema/r1/', { '/api/room/movie/current': paused({ url: 'https://media.example/v/index.m3u8' }, 6), '/v/index.m3u8': { status: 200, body: PLAYLIST } });
    runScript(past);
    await settle();
    expect(mediaUrls(past)).toEqual(['https://media.example/v/index.m3u8']);
  });

  it('fetches only the playlist when hls.js chooses what comes next, and nothing with headers, live or a broadcast', async () => {
    const only = (playlist: string) => ({ '/api/room/movie/current': paused({ url: 'https://media.example/v/index.m3u8' }), '/v/index.m3u8': { status: 200, body: playlist } });
    for (const playlist of [
      '#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=800000\nlow/index.m3u8\n',
      PLAYLIST.replace('#EXT-X-ENDLIST', ''),
      PLAYLIST.replace('#EXTM3U', '#EXTM3U\n#EXT-X-MAP:URI="init.mp4"'),
      PLAYLIST.replace('#EXTM3U', '#EXTM3U\n#EXT-X-KEY:METHOD=AES-128,URI="k"'),
    ]) {
      const host = fakeHost('/web/cinema/r1/', only(playlist));
      runScript(host);
      await settle();
      expect(mediaUrls(host)).toEqual(['https://media.example/v/index.m3u8']);
    }
    for (const base of [{ headers: { Referer: 'x' } }, { live: true }, { rtmpSource: true }]) {
      const host = fakeHost('/web/cinema/r1/', { '/api/room/movie/current': paused({ url: 'https://media.example/v/index.m3u8', ...base }) });
      runScript(host);
      await settle();
      expect(mediaUrls(host)).toEqual([]);
      expect(early(host).media).toBeUndefined();
    }
  });

  it('keeps a failed or refused fetch as null', async () => {
    const host = fakeHost('/web/cinema/r1/', { '/api/room/movie/current': paused({ url: 'https://media.example/v/index.m3u8' }) });
    runScript(host);
    await settle();
    await expect(early(host).media?.['https://media.example/v/index.m3u8'].promise).resolves.toBeNull();
    expect(mediaUrls(host)).toHaveLength(1);
  });
});

describe('takeEarlyMedia', () => {
  const media = { url: 'https://m.example/a.m3u8', data: '#EXTM3U', requestedAt: 1, firstByteAt: 2, receivedAt: 3 };
  const install = (startedAtMs = Date.now()) => {
    (window as unknown as { __synctvEarlyStart?: EarlyStart }).__synctvEarlyStart = {
      roomId: 'r1',
      token: '',
      startedAtMs,
      answers: {},
      media: { 'https://m.example/a.m3u8': { binary: false, promise: Promise.resolve(media) } },
    };
  };
  afterEach(() => delete (window as unknown as { __synctvEarlyStart?: EarlyStart }).__synctvEarlyStart);

  it('gives a fetched file once, for the same URL and kind of body', async () => {
    install();
    expect(takeEarlyMedia('https://m.example/b.m3u8', false)).toBeNull();
    await expect(takeEarlyMedia('https://m.example/a.m3u8', false)).resolves.toEqual(media);
    expect(takeEarlyMedia('https://m.example/a.m3u8', false)).toBeNull();
    install();
    expect(takeEarlyMedia('https://m.example/a.m3u8', true)).toBeNull();
  });

  it('gives nothing from an old start or without one', () => {
    install(Date.now() - EARLY_ANSWER_MAX_AGE_MS - 1);
    expect(takeEarlyMedia('https://m.example/a.m3u8', false)).toBeNull();
    delete (window as unknown as { __synctvEarlyStart?: EarlyStart }).__synctvEarlyStart;
    expect(takeEarlyMedia('https://m.example/a.m3u8', false)).toBeNull();
  });
});

describe('takeEarlyAnswer', () => {
  const answer = (status: number, body: unknown) => Promise.resolve({ status, text: JSON.stringify(body), requestedAtMs: 100, receivedAtMs: 400 });
  const install = (early: Partial<EarlyStart>) => {
    (window as unknown as { __synctvEarlyStart?: EarlyStart }).__synctvEarlyStart = { roomId: 'r1', token: 'jwt-1', startedAtMs: Date.now(), answers: {}, ...early };
  };
  afterEach(() => delete (window as unknown as { __synctvEarlyStart?: EarlyStart }).__synctvEarlyStart);

  it("gives a 2xx envelope's data with its times, once", async () => {
    install({ answers: { me: answer(200, { data: { role: 3 } }) } });
    await expect(takeEarlyAnswer('me', 'r1', 'jwt-1')).resolves.toEqual({ data: { role: 3 }, requestedAtMs: 100, receivedAtMs: 400 });
    await expect(takeEarlyAnswer('me', 'r1', 'jwt-1')).resolves.toBeNull();
  });

  it("drops the room's other answers when the membership answer is not a success (the hall after a join asks again)", async () => {
    install({ answers: { me: answer(401, { error: 'unauthorized' }), info: answer(200, { data: { name: 'r' } }), current: answer(200, { data: {} }) } });
    await expect(takeEarlyAnswer('me', 'r1', 'jwt-1')).resolves.toBeNull();
    await expect(takeEarlyAnswer('info', 'r1', 'jwt-1')).resolves.toBeNull();
    await expect(takeEarlyAnswer('current', 'r1', 'jwt-1')).resolves.toBeNull();
  });

  it("gives the start-up's answers whatever the room, for the same token", async () => {
    install({ answers: { user: answer(200, { data: { id: 'u1' } }), settings: answer(200, { data: { guestEnable: true } }) } });
    await expect(takeEarlyAnswer('user', null, 'jwt-2')).resolves.toBeNull();
    await expect(takeEarlyAnswer('settings', null, 'jwt-1')).resolves.toMatchObject({ data: { guestEnable: true } });
  });

  it('gives null for an error answer, a failed request, another room or token, an old start, or no start', async () => {
    install({ answers: { me: answer(401, { error: 'unauthorized' }), info: Promise.resolve({ status: 0, text: '', requestedAtMs: 1, receivedAtMs: 2 }) } });
    await expect(takeEarlyAnswer('me', 'r1', 'jwt-1')).resolves.toBeNull();
    await expect(takeEarlyAnswer('info', 'r1', 'jwt-1')).resolves.toBeNull();
    install({ answers: { current: answer(200, { data: {} }) } });
    await expect(takeEarlyAnswer('current', 'r2', 'jwt-1')).resolves.toBeNull();
    install({ answers: { current: answer(200, { data: {} }) } });
    await expect(takeEarlyAnswer('current', 'r1', 'jwt-2')).resolves.toBeNull();
    install({ startedAtMs: Date.now() - EARLY_ANSWER_MAX_AGE_MS - 1, answers: { current: answer(200, { data: {} }) } });
    await expect(takeEarlyAnswer('current', 'r1', 'jwt-1')).resolves.toBeNull();
    delete (window as unknown as { __synctvEarlyStart?: EarlyStart }).__synctvEarlyStart;
    await expect(takeEarlyAnswer('current', 'r1', 'jwt-1')).resolves.toBeNull();
  });
});
