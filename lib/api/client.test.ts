import { get, post, setUnauthorizedHandler, TOKEN_STORAGE_KEY, unwrapEnvelope } from './client';
import { ApiError } from './error';
import type { UnauthorizedAction } from './unauthorized';

const ROOM_ID = '0123456789abcdef0123456789abcdef';
const fetchMock = jest.fn<Promise<Response>, [Request]>();
const realFetch = global.fetch;

function json(status: number, body: unknown, statusText = ''): Response {
  return new Response(JSON.stringify(body), { status, statusText, headers: { 'Content-Type': 'application/json' } });
}

/** The request ky handed to fetch. */
function sentRequest(call = 0): Request {
  return fetchMock.mock.calls[call][0];
}

beforeEach(() => {
  fetchMock.mockReset();
  global.fetch = fetchMock as unknown as typeof fetch;
  window.localStorage.clear();
});

afterAll(() => {
  global.fetch = realFetch;
});

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

  it('turns a network failure into ApiError with status 0', async () => {
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    await expect(get('/api/user/me')).rejects.toMatchObject({ name: 'ApiError', status: 0, path: '/api/user/me' });
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

  it('does not run the 401 rules for other errors', async () => {
    fetchMock.mockResolvedValueOnce(json(403, { error: 'password error', time: 1 }));
    await expect(post('/api/room/login', { json: {} })).rejects.toMatchObject({ status: 403 });
    expect(actions).toEqual([]);
  });
});
