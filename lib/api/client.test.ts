/**
 * The real ky instance (./client.ts) against a real local HTTP server: what it sends (token, room,
 * query, body), how it unwraps the envelope, the one error shape, the 401 rules, and that it never
 * times out or retries. jsdom runs the client; the requests go through Node's fetch to the server.
 */
import http from 'node:http';
import nodeTimers from 'node:timers/promises';
import type { AddressInfo } from 'node:net';
import { getDefaultStore } from 'jotai';
import type { UserInfo } from '@/lib/contract/types';
import { tokenAtom, userAtom } from '@/lib/session';
import { STORAGE_KEYS } from '@/lib/storage';
import { ApiError } from './error';
import { resetUnauthorizedState, setNavigator, SIGN_OUT_REDIRECT_DELAY_MS } from './unauthorized';

const ROOM_ID = '0123456789abcdef0123456789abcdef';

/** One request as the server saw it. */
interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** What the server answers: status, body (a string as is, anything else as JSON), headers. */
interface Answer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** Sent as the HTTP reason phrase. */
  statusText?: string;
}

let server: http.Server;
let origin = '';
const seen: Seen[] = [];
/** Answers by path; a function may hold the answer back until the test lets it go, or drop the connection. */
let answer: (request: Seen) => Answer | 'drop' | Promise<Answer> = () => ({ status: 404, body: '404 page not found' });
let client: typeof import('./client');

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request: Seen = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString() };
      seen.push(request);
      void Promise.resolve(answer(request)).then((answered) => {
        if (answered === 'drop') {
          req.socket.destroy();
          return;
        }
        const { status, body, headers, statusText } = answered;
        const text = body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body);
        res.writeHead(status, statusText ?? http.STATUS_CODES[status], {
          'Content-Type': typeof body === 'string' ? 'text/plain' : 'application/json; charset=utf-8',
          ...headers,
        });
        res.end(text);
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // The instance takes the API origin as its prefix when the module loads.
  process.env.NEXT_PUBLIC_API_ORIGIN = `${origin}/`;
  client = await import('./client');
});

afterAll(async () => {
  delete process.env.NEXT_PUBLIC_API_ORIGIN;
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const navigations: string[] = [];

beforeEach(() => {
  seen.length = 0;
  navigations.length = 0;
  window.localStorage.clear();
  setNavigator({ push: (path) => navigations.push(`push ${path}`), replace: (path) => navigations.push(`replace ${path}`) });
  resetUnauthorizedState();
  getDefaultStore().set(tokenAtom, null);
  getDefaultStore().set(userAtom, null);
});

afterEach(() => {
  jest.useRealTimers();
  resetUnauthorizedState();
});

const envelope = (data: unknown) => ({ data, time: 1_700_000_000_000_000 });
const failure = (error: string) => ({ error, time: 1_700_000_000_000_000 });

describe('the envelope', () => {
  it('unwraps data, also when it is 0, false, "" or null', async () => {
    answer = ({ url }) => ({ status: 200, body: envelope(url.includes('list') ? { total: 1, list: [] } : url.includes('zero') ? 0 : url.includes('no') ? false : url.includes('empty') ? '' : null) });
    await expect(client.get('/api/room/list')).resolves.toEqual({ total: 1, list: [] });
    await expect(client.get('/api/zero')).resolves.toBe(0);
    await expect(client.get('/api/no')).resolves.toBe(false);
    await expect(client.get('/api/empty')).resolves.toBe('');
    await expect(client.get('/api/null')).resolves.toBeNull();
  });

  it('returns bodies without an envelope as they are (/oauth2/enabled, /api/user/providers)', async () => {
    answer = () => ({ status: 200, body: { enabled: ['github'] } });
    await expect(client.get('/oauth2/enabled')).resolves.toEqual({ enabled: ['github'] });
  });

  it('resolves to undefined for 204 No Content and for an empty 200', async () => {
    answer = ({ url }) => (url.includes('username') ? { status: 204 } : { status: 200 });
    await expect(client.post('/api/user/username', { json: { username: 'x' } })).resolves.toBeUndefined();
    await expect(client.get('/api/empty')).resolves.toBeUndefined();
  });

  it('keeps the status of 201 Created answers and unwraps them too', async () => {
    answer = () => ({ status: 201, body: envelope({ roomId: ROOM_ID, status: 3 }) });
    await expect(client.post('/api/room/create', { json: {} })).resolves.toEqual({ roomId: ROOM_ID, status: 3 });
  });
});

describe('what is sent', () => {
  beforeEach(() => {
    answer = () => ({ status: 200, body: envelope({}) });
  });

  it('sends the stored token raw in Authorization, and no Authorization without one', async () => {
    await client.get('/api/public/settings');
    expect(seen[0].headers.authorization).toBeUndefined();

    window.localStorage.setItem(STORAGE_KEYS.token, 'raw.jwt.value');
    await client.get('/api/user/me');
    expect(seen[1].headers.authorization).toBe('raw.jwt.value');
  });

  it('sends X-Room-Id on room calls only', async () => {
    await client.get('/api/room/me', { roomId: ROOM_ID });
    await client.get('/api/room/list');
    expect(seen[0].headers['x-room-id']).toBe(ROOM_ID);
    expect(seen[1].headers['x-room-id']).toBeUndefined();
  });

  it('sends the query without undefined values and the JSON body of a POST', async () => {
    await client.post('/api/room/login', { json: { roomId: ROOM_ID, password: 'pw' }, searchParams: { a: 1, b: undefined, c: true } });
    expect(seen[0]).toMatchObject({ method: 'POST', url: '/api/room/login?a=1&c=true' });
    expect(seen[0].headers['content-type']).toBe('application/json');
    expect(JSON.parse(seen[0].body)).toEqual({ roomId: ROOM_ID, password: 'pw' });
  });

  it('sends a GET without a body or Content-Type, and a POST of a falsy JSON value as JSON', async () => {
    await client.get('/api/room/list', { searchParams: { page: 2, max: 10, sort: 'name' } });
    expect(seen[0]).toMatchObject({ method: 'GET', url: '/api/room/list?page=2&max=10&sort=name', body: '' });
    expect(seen[0].headers['content-type']).toBeUndefined();

    await client.post('/api/some/flag', { json: false });
    expect(seen[1].body).toBe('false');
    expect(seen[1].headers['content-type']).toBe('application/json');
  });

  it('prefixes the API origin (configured with a trailing slash) to the origin-absolute path', async () => {
    expect(client.apiOrigin()).toBe(origin);
    await client.get('/api/public/settings');
    expect(seen[0].url).toBe('/api/public/settings');
  });
});

describe('errors', () => {
  it('throws one ApiError with the status, the server error text and the path', async () => {
    answer = () => ({ status: 400, body: failure('not support sort') });
    const error = await client.get('/api/room/list', { searchParams: { sort: 'x' } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 400, message: 'not support sort', path: '/api/room/list' });
  });

  it('reports a body that is not an envelope by its status text, or by the status and request', async () => {
    answer = () => ({ status: 502, body: '<html>Bad gateway</html>', headers: { 'Content-Type': 'text/html' } });
    await expect(client.get('/api/room/info')).rejects.toMatchObject({ status: 502, message: 'Bad Gateway' });

    // gin's 404 for an unknown route is plain text (docs/contract.md §1.2); HTTP/2 has no status text.
    answer = () => ({ status: 404, body: '404 page not found', statusText: '' });
    await expect(client.post('/api/nope')).rejects.toMatchObject({
      status: 404,
      path: '/api/nope',
      message: `Request failed with status code 404: POST ${origin}/api/nope`,
    });
  });

  it('ignores a JSON error body without an error text', async () => {
    answer = () => ({ status: 500, body: envelope(null) });
    await expect(client.get('/api/room/info')).rejects.toMatchObject({ status: 500, message: 'Internal Server Error' });
  });

  it('throws ApiError when a successful answer is not JSON (e.g. an HTML page)', async () => {
    answer = () => ({ status: 200, body: '<!doctype html><html></html>', headers: { 'Content-Type': 'text/html' } });
    await expect(client.get('/api/public/settings')).rejects.toMatchObject({
      name: 'ApiError',
      status: 200,
      path: '/api/public/settings',
      message: `The server's answer is not JSON: GET ${origin}/api/public/settings`,
    });
  });

  it('turns a dropped connection into ApiError status 0 naming the request, and retries nothing', async () => {
    answer = () => 'drop';
    const error = await client.get('/api/user/me').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 0, path: '/api/user/me', message: `Request failed due to a network error: GET ${origin}/api/user/me` });
    // fetch's TypeError, from Node's realm (the page's `TypeError` is jsdom's).
    expect((error as ApiError).cause).toMatchObject({ name: 'TypeError' });

    answer = () => ({ status: 503, body: '', statusText: 'Service Unavailable' });
    await expect(client.get('/api/room/list')).rejects.toMatchObject({ status: 503, message: 'Service Unavailable' });
    await expect(client.post('/api/room/create', { json: {} })).rejects.toMatchObject({ status: 503 });
    expect(seen.map((request) => request.url)).toEqual(['/api/user/me', '/api/room/list', '/api/room/create']);
  });

  it('rejects with ApiError status 0 when the caller aborts', async () => {
    let release: () => void = () => undefined;
    answer = () => new Promise<Answer>((resolve) => (release = () => resolve({ status: 200, body: envelope(1) })));
    const controller = new AbortController();
    const pending = client.get('/api/room/me', { roomId: ROOM_ID, signal: controller.signal }).catch((e: unknown) => e);
    await waitFor(() => seen.length === 1);
    controller.abort(new DOMException('The room changed', 'AbortError'));
    expect(await pending).toMatchObject({ name: 'ApiError', status: 0, message: 'The room changed', path: '/api/room/me' });
    release();
    expect(navigations).toEqual([]);
  });
});

describe('no timeout', () => {
  it('waits for a slow answer however long it takes (ky would give up after 10 s by default)', async () => {
    let release: () => void = () => undefined;
    answer = () => new Promise<Answer>((resolve) => (release = () => resolve({ status: 200, body: envelope('late') })));
    // Fake timers in the page: ky's timeout would be one of them. Node's fetch keeps real timers.
    jest.useFakeTimers({ doNotFake: ['nextTick', 'queueMicrotask'] });
    let settled = false;
    const pending = client.get('/api/room/movie/movies').finally(() => {
      settled = true;
    });
    await waitFor(() => seen.length === 1);
    await jest.advanceTimersByTimeAsync(10 * 60_000);
    expect(settled).toBe(false);
    jest.useRealTimers();
    release();
    await expect(pending).resolves.toBe('late');
  });
});

describe('the 401 rules', () => {
  const user: UserInfo = { id: 'u'.repeat(32), username: 'ann', email: '', createdAt: 0, role: 3 };

  beforeEach(() => {
    window.localStorage.setItem(STORAGE_KEYS.token, 'raw.jwt.value');
    window.localStorage.setItem(STORAGE_KEYS.darkMode, 'true');
    window.localStorage.setItem(STORAGE_KEYS.locale, 'en');
    window.localStorage.setItem(`room-${ROOM_ID}-pwd`, 'secret');
    getDefaultStore().set(tokenAtom, 'raw.jwt.value');
    getDefaultStore().set(userAtom, user);
  });

  it.each(['/api/room/movie/movies', '/api/room/movie/push', '/api/room/admin/delete', '/api/room/admin/pwd', '/api/room/delete', '/api/room/pwd', '/api/room/me'])(
    'a 401 on %s sends the user to /joinRoom/<X-Room-Id> and keeps the session',
    async (path) => {
      answer = () => ({ status: 401, body: failure('user is not a member') });
      await expect(client.post(path, { roomId: ROOM_ID })).rejects.toMatchObject({ status: 401, message: 'user is not a member', path });
      expect(navigations).toEqual([`push /joinRoom/${ROOM_ID}/`]);
      expect(window.localStorage.getItem(STORAGE_KEYS.token)).toBe('raw.jwt.value');
      expect(getDefaultStore().get(userAtom)).toEqual(user);
    },
  );

  it('navigates once for a burst of room 401s', async () => {
    answer = () => ({ status: 401, body: failure('user is not a member') });
    await Promise.all([
      client.get('/api/room/me', { roomId: ROOM_ID }).catch(() => undefined),
      client.get('/api/room/movie/current', { roomId: ROOM_ID }).catch(() => undefined),
      client.get('/api/room/movie/movies', { roomId: ROOM_ID }).catch(() => undefined),
    ]);
    expect(navigations).toEqual([`push /joinRoom/${ROOM_ID}/`]);
  });

  it('any other 401 clears the session from storage at once and goes home after 1000 ms', async () => {
    jest.useFakeTimers({ doNotFake: ['nextTick', 'queueMicrotask'] });
    answer = () => ({ status: 401, body: failure('authentication token expired') });
    const order: string[] = [];
    await client.get('/api/room/info', { roomId: ROOM_ID }).catch((e: ApiError) => {
      order.push(`caller ${e.status} ${e.message}`);
      // The rules ran before the caller saw the error.
      order.push(`token ${window.localStorage.getItem(STORAGE_KEYS.token)}`);
    });
    expect(order).toEqual(['caller 401 authentication token expired', 'token null']);
    expect(window.localStorage.getItem(`room-${ROOM_ID}-pwd`)).toBeNull();
    expect(window.localStorage.getItem(STORAGE_KEYS.darkMode)).toBe('true');
    expect(window.localStorage.getItem(STORAGE_KEYS.locale)).toBe('en');
    expect(getDefaultStore().get(userAtom)).toBeNull();
    expect(getDefaultStore().get(tokenAtom)).toBeNull();

    jest.advanceTimersByTime(SIGN_OUT_REDIRECT_DELAY_MS - 1);
    expect(navigations).toEqual([]);
    jest.advanceTimersByTime(1);
    expect(navigations).toEqual(['replace /']);
  });

  it('signs out for a 401 on /api/user/me, and for a room path without X-Room-Id, with one trip home', async () => {
    jest.useFakeTimers({ doNotFake: ['nextTick', 'queueMicrotask'] });
    answer = () => ({ status: 401, body: '', statusText: 'Unauthorized' });
    await expect(client.get('/api/user/me')).rejects.toMatchObject({ status: 401, message: 'Unauthorized' });
    await expect(client.get('/api/room/movie/current')).rejects.toMatchObject({ status: 401 });
    expect(window.localStorage.getItem(STORAGE_KEYS.token)).toBeNull();
    jest.advanceTimersByTime(SIGN_OUT_REDIRECT_DELAY_MS);
    expect(navigations).toEqual(['replace /']);
  });

  it('leaves the session alone for other errors, 403 included', async () => {
    answer = () => ({ status: 403, body: failure('password error') });
    await expect(client.post('/api/room/login', { json: {} })).rejects.toMatchObject({ status: 403 });
    answer = () => ({ status: 500, body: failure('get room member failed: room or member not found') });
    await expect(client.get('/api/room/me', { roomId: ROOM_ID })).rejects.toMatchObject({ status: 500 });
    expect(navigations).toEqual([]);
    expect(window.localStorage.getItem(STORAGE_KEYS.token)).toBe('raw.jwt.value');
  });
});

/** Waits until `condition` holds (at most 2 s), on Node's own timers (the page's may be faked). */
async function waitFor(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !condition(); i += 1) await nodeTimers.setTimeout(10);
  if (!condition()) throw new Error('condition not met');
}
