import { ERROR_BODY_TIMEOUT_MS, get, post, setUnauthorizedHandler, TOKEN_STORAGE_KEY, unwrapEnvelope } from './client';
import { ApiError } from './error';
import type { UnauthorizedAction } from './unauthorized';

const ROOM_ID = '0123456789abcdef0123456789abcdef';
const fetchMock = jest.fn<Promise<Response>, [Request]>();
const realFetch = global.fetch;

function json(status: number, body: unknown, statusText = ''): Response {
  return new Response(JSON.stringify(body), { status, statusText, headers: { 'Content-Type': 'application/json' } });
}

/** The request the client handed to fetch. */
function sentRequest(call = 0): Request {
  return fetchMock.mock.calls[call][0];
}

beforeEach(() => {
  fetchMock.mockReset();
  global.fetch = fetchMock as unknown as typeof fetch;
  window.localStorage.clear();
});

afterEach(() => {
  jest.useRealTimers();
  delete process.env.NEXT_PUBLIC_API_ORIGIN;
});

afterAll(() => {
  global.fetch = realFetch;
});

/** A fetch that never answers and rejects with the abort reason once the request's signal aborts. */
function hangUntilAborted(request: Request): Promise<Response> {
  return new Promise((_, reject) => {
    request.signal.addEventListener('abort', () => reject(request.signal.reason));
  });
}

/** A body whose bytes never arrive. */
const stalledBody = () => new ReadableStream<Uint8Array>({ start() {} });

/** Fake timers that leave the microtasks fetch/Response rely on alone. */
const useFakeTimers = () => jest.useFakeTimers({ doNotFake: ['nextTick', 'queueMicrotask'] });

describe('unwrapEnvelope', () => {
  it('returns data whenever the key is present, even when it is falsy', () => {
    expect(unwrapEnvelope({ data: { a: 1 }, time: 1 })).toEqual({ a: 1 });
    expect(unwrapEnvelope({ data: 0, time: 1 })).toBe(0);
    expect(unwrapEnvelope({ data: false, time: 1 })).toBe(false);
    expect(unwrapEnvelope({ data: '', time: 1 })).toBe('');
    expect(unwrapEnvelope({ data: null, time: 1 })).toBeNull();
  });

  it('returns bodies without an envelope as they are', () => {
    expect(unwrapEnvelope({ enabled: ['github'] })).toEqual({ enabled: ['github'] });
    expect(unwrapEnvelope([1, 2])).toEqual([1, 2]);
    expect(unwrapEnvelope(null)).toBeNull();
  });
});

describe('get / post', () => {
  it('unwraps data from the envelope', async () => {
    fetchMock.mockResolvedValueOnce(json(200, { data: { total: 1, list: [] }, time: 1700000000000000 }));
    await expect(get('/api/room/list')).resolves.toEqual({ total: 1, list: [] });
  });

  it('keeps a data of 0 or false instead of returning the whole envelope', async () => {
    fetchMock.mockResolvedValueOnce(json(200, { data: 0, time: 1 }));
    await expect(get('/api/some/count')).resolves.toBe(0);
    fetchMock.mockResolvedValueOnce(json(200, { data: false, time: 1 }));
    await expect(get('/api/some/flag')).resolves.toBe(false);
  });

  it('resolves to undefined for 204 No Content and for an empty body', async () => {
    fetchMock.mockResolvedValueOnce(new Response(null, { status: 204 }));
    await expect(post('/api/user/username', { json: { username: 'x' } })).resolves.toBeUndefined();
    fetchMock.mockResolvedValueOnce(new Response('', { status: 200 }));
    await expect(get('/api/empty')).resolves.toBeUndefined();
  });

  it('sends the stored token raw in Authorization, and none without a token', async () => {
    fetchMock.mockImplementation(async () => json(200, { data: {}, time: 1 }));
    await get('/api/public/settings');
    expect(sentRequest(0).headers.get('Authorization')).toBeNull();

    window.localStorage.setItem(TOKEN_STORAGE_KEY, 'raw.jwt.value');
    await get('/api/user/me');
    expect(sentRequest(1).headers.get('Authorization')).toBe('raw.jwt.value');
  });

  it('sends X-Room-Id, the query without undefined values, and the JSON body', async () => {
    let body: unknown;
    fetchMock.mockImplementationOnce(async (request) => {
      body = await request.clone().json();
      return json(200, { data: { status: 3 }, time: 1 });
    });
    await post('/api/room/login', { roomId: ROOM_ID, json: { roomId: ROOM_ID, password: 'pw' }, searchParams: { a: 1, b: undefined } });
    const request = sentRequest();
    expect(request.method).toBe('POST');
    expect(request.headers.get('X-Room-Id')).toBe(ROOM_ID);
    const url = new URL(request.url);
    expect(url.pathname).toBe('/api/room/login');
    expect(url.search).toBe('?a=1');
    expect(body).toEqual({ roomId: ROOM_ID, password: 'pw' });
    expect(request.headers.get('Content-Type')).toBe('application/json');
  });

  it('sends a GET without body or Content-Type, and a POST of a falsy JSON value as JSON', async () => {
    let posted: unknown;
    fetchMock.mockImplementationOnce(async () => json(200, { data: [], time: 1 }));
    fetchMock.mockImplementationOnce(async (request) => {
      posted = await request.clone().text();
      return new Response(null, { status: 204 });
    });
    await get('/api/room/list', { searchParams: { page: 2, max: 10, sort: 'name', desc: true } });
    expect(sentRequest(0).method).toBe('GET');
    expect(sentRequest(0).body).toBeNull();
    expect(sentRequest(0).headers.get('Content-Type')).toBeNull();
    expect(new URL(sentRequest(0).url).search).toBe('?page=2&max=10&sort=name&desc=true');

    await post('/api/some/flag', { json: false });
    expect(posted).toBe('false');
    expect(sentRequest(1).headers.get('Content-Type')).toBe('application/json');
  });

  it('prefixes the configured API origin, without a trailing slash', async () => {
    process.env.NEXT_PUBLIC_API_ORIGIN = 'https://synctv.example.com/';
    fetchMock.mockResolvedValueOnce(json(200, { data: {}, time: 1 }));
    await get('/api/public/settings');
    expect(sentRequest().url).toBe('https://synctv.example.com/api/public/settings');
  });

  it('sends requests to the page origin when no API origin is configured', async () => {
    fetchMock.mockResolvedValueOnce(json(200, { data: {}, time: 1 }));
    await get('/api/public/settings');
    expect(sentRequest().url).toBe(`${window.location.origin}/api/public/settings`);
  });
});

describe('no timeout, and aborts', () => {
  it('never times out by default, like the reference client', async () => {
    useFakeTimers();
    fetchMock.mockImplementationOnce(hangUntilAborted);
    let settled = false;
    const pending = get('/api/room/movie/movies').finally(() => {
      settled = true;
    });
    await jest.advanceTimersByTimeAsync(10 * 60_000);
    expect(settled).toBe(false);
    expect(sentRequest().signal.aborted).toBe(false);
    void pending.catch(() => undefined);
  });

  it('rejects with ApiError status 0 when the caller aborts, without running the 401 rules', async () => {
    const actions: UnauthorizedAction[] = [];
    setUnauthorizedHandler((action) => actions.push(action));
    fetchMock.mockImplementationOnce(hangUntilAborted);
    const controller = new AbortController();
    const pending = get('/api/room/me', { roomId: ROOM_ID, signal: controller.signal }).catch((e: unknown) => e);
    controller.abort(new DOMException('The room changed', 'AbortError'));
    expect(await pending).toMatchObject({ name: 'ApiError', status: 0, message: 'The room changed', path: '/api/room/me' });
    expect(actions).toEqual([]);
  });

  it('rejects at once for an already aborted signal', async () => {
    fetchMock.mockImplementationOnce(async (request) => {
      if (request.signal.aborted) throw request.signal.reason;
      return json(200, { data: 1, time: 1 });
    });
    const controller = new AbortController();
    controller.abort();
    await expect(get('/api/room/me', { signal: controller.signal })).rejects.toMatchObject({ status: 0 });
  });
});

describe('errors', () => {
  it('throws ApiError with the status, the server error text and the path', async () => {
    fetchMock.mockResolvedValueOnce(json(400, { error: 'not support sort', time: 1 }));
    const error = await get('/api/room/list', { searchParams: { sort: 'x' } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 400, message: 'not support sort', path: '/api/room/list' });
  });

  it('falls back to the status text when the error body is not an envelope', async () => {
    fetchMock.mockResolvedValueOnce(new Response('', { status: 500, statusText: 'Internal Server Error' }));
    await expect(get('/api/room/info')).rejects.toMatchObject({ status: 500, message: 'Internal Server Error' });
  });

  it('turns a network failure into ApiError with status 0 and a message naming the request', async () => {
    const failure = new TypeError('Failed to fetch');
    fetchMock.mockRejectedValueOnce(failure);
    const error = await get('/api/user/me').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 0,
      path: '/api/user/me',
      message: `Request failed due to a network error: GET ${window.location.origin}/api/user/me`,
    });
    expect((error as ApiError).cause).toBe(failure);
  });

  it('does not retry a failed call', async () => {
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    await expect(get('/api/room/list')).rejects.toMatchObject({ status: 0 });
    fetchMock.mockResolvedValueOnce(new Response('', { status: 503, statusText: 'Service Unavailable' }));
    await expect(get('/api/room/list')).rejects.toMatchObject({ status: 503 });
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('reports a non-JSON error body by its status text, or by the status when there is none', async () => {
    fetchMock.mockResolvedValueOnce(new Response('<html>Bad gateway</html>', { status: 502, statusText: 'Bad Gateway', headers: { 'Content-Type': 'text/html' } }));
    await expect(get('/api/room/info')).rejects.toMatchObject({ status: 502, message: 'Bad Gateway' });

    // gin's 404 for an unknown route is plain text (server-contract.md §1.2); HTTP/2 has no status text.
    fetchMock.mockResolvedValueOnce(new Response('404 page not found', { status: 404, headers: { 'Content-Type': 'text/plain' } }));
    await expect(post('/api/nope')).rejects.toMatchObject({
      status: 404,
      path: '/api/nope',
      message: `Request failed with status code 404: POST ${window.location.origin}/api/nope`,
    });
  });

  it('ignores a JSON error body without an error text', async () => {
    fetchMock.mockResolvedValueOnce(json(500, { data: null, time: 1 }, 'Internal Server Error'));
    await expect(get('/api/room/info')).rejects.toMatchObject({ status: 500, message: 'Internal Server Error' });
  });

  it('falls back to the status text when an error body stalls', async () => {
    useFakeTimers();
    fetchMock.mockResolvedValueOnce(new Response(stalledBody(), { status: 500, statusText: 'Internal Server Error' }));
    const pending = get('/api/room/info').catch((e: unknown) => e);
    await jest.advanceTimersByTimeAsync(ERROR_BODY_TIMEOUT_MS);
    expect(await pending).toMatchObject({ name: 'ApiError', status: 500, message: 'Internal Server Error' });
  });

  it('throws ApiError when a successful answer is not JSON (e.g. an HTML page)', async () => {
    fetchMock.mockResolvedValueOnce(new Response('<!doctype html><html></html>', { status: 200, headers: { 'Content-Type': 'text/html' } }));
    await expect(get('/api/public/settings')).rejects.toMatchObject({
      name: 'ApiError',
      status: 200,
      path: '/api/public/settings',
      message: `The server's answer is not JSON: GET ${window.location.origin}/api/public/settings`,
    });
  });
});

describe('401 handling', () => {
  const actions: UnauthorizedAction[] = [];
  beforeEach(() => {
    actions.length = 0;
    setUnauthorizedHandler((action) => actions.push(action));
  });

  it('sends a 401 on a movie route to the room join screen and still rejects', async () => {
    fetchMock.mockResolvedValueOnce(json(401, { error: 'user is not a member', time: 1 }));
    await expect(get('/api/room/movie/movies', { roomId: ROOM_ID })).rejects.toMatchObject({ status: 401 });
    expect(actions).toEqual([{ kind: 'joinRoom', roomId: ROOM_ID }]);
  });

  it('signs out on a 401 from /api/user/me', async () => {
    fetchMock.mockResolvedValueOnce(json(401, { error: 'authentication failed', time: 1 }));
    await expect(get('/api/user/me')).rejects.toMatchObject({ status: 401, message: 'authentication failed' });
    expect(actions).toEqual([{ kind: 'signOut' }]);
  });

  it('runs the 401 rules before the caller sees the error, with the server text in the error', async () => {
    const order: string[] = [];
    setUnauthorizedHandler((action) => order.push(`handler ${action.kind}`));
    fetchMock.mockResolvedValueOnce(json(401, { error: 'authentication token expired', time: 1 }));
    await get('/api/room/me', { roomId: ROOM_ID }).catch((e: ApiError) => order.push(`caller ${e.status} ${e.message}`));
    expect(order).toEqual(['handler joinRoom', 'caller 401 authentication token expired']);
  });

  it('signs out on a 401 from a room path that carries no room id', async () => {
    fetchMock.mockResolvedValueOnce(new Response('', { status: 401, statusText: 'Unauthorized' }));
    await expect(get('/api/room/movie/current')).rejects.toMatchObject({ status: 401, message: 'Unauthorized' });
    expect(actions).toEqual([{ kind: 'signOut' }]);
  });

  it('does not run the 401 rules for other errors', async () => {
    fetchMock.mockResolvedValueOnce(json(403, { error: 'password error', time: 1 }));
    await expect(post('/api/room/login', { json: {} })).rejects.toMatchObject({ status: 403 });
    expect(actions).toEqual([]);
  });
});
