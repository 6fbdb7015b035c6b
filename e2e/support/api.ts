import type { CreateRoomResponse, Envelope, ErrorEnvelope, MovieBase, PushedMovie, TokenResponse } from '../../lib/contract/types';

/**
 * Seeds state through the companion server's HTTP API (docs/contract.md §2, §4), for tests whose
 * subject is not the sign-up or room-creation screens themselves. Node's fetch, no browser.
 */
export class SeedApi {
  constructor(private readonly origin: string) {}

  /** `POST /api/user/signup` → the raw JWT. Throws on any error envelope or a token-less answer. */
  async signup(username: string, password: string): Promise<string> {
    return tokenOf(await this.call<TokenResponse>('POST', '/api/user/signup', { json: { username, password } }));
  }

  /** `POST /api/user/login` → the raw JWT. */
  async login(username: string, password: string): Promise<string> {
    return tokenOf(await this.call<TokenResponse>('POST', '/api/user/login', { json: { username, password } }));
  }

  /** `POST /api/room/create` (201) → the 32-hex room id. An empty password makes an open room. */
  async createRoom(token: string, roomName: string, password = '', hidden = false): Promise<string> {
    const room = await this.call<CreateRoomResponse>('POST', '/api/room/create', {
      token,
      json: { roomName, password, settings: { hidden } },
    });
    return room.roomId;
  }

  /** `POST /api/room/login`: makes the user a member of the room (an open room when `password` is empty). */
  async joinRoom(token: string, roomId: string, password = ''): Promise<void> {
    await this.call<unknown>('POST', '/api/room/login', { token, json: { roomId, password } });
  }

  /** `POST /api/room/movie/push` into the room's root folder → the new movie's id. */
  async pushMovie(token: string, roomId: string, base: MovieBase): Promise<string> {
    const movie = await this.call<PushedMovie>('POST', '/api/room/movie/push', { token, roomId, json: base });
    return movie.id;
  }

  /** `POST /api/room/movie/current`: makes the movie current, which starts it playing at 0 s (§4.5). */
  async setCurrent(token: string, roomId: string, movieId: string): Promise<void> {
    await this.call<undefined>('POST', '/api/room/movie/current', { token, roomId, json: { id: movieId } });
  }

  /** `GET /api/user/me` → the user's id. */
  async userId(token: string): Promise<string> {
    return (await this.call<{ id: string }>('GET', '/api/user/me', { token })).id;
  }

  /** `POST /api/room/admin/members/member/permissions`: the member's permission bits (the creator's `token`). */
  async setMemberPermissions(token: string, roomId: string, memberToken: string, permissions: number): Promise<void> {
    const id = await this.userId(memberToken);
    await this.call<undefined>('POST', '/api/room/admin/members/member/permissions', { token, roomId, json: { id, permissions } });
  }

  /** `GET /api/user/me` status code only, for asserting that a token is (still) accepted. */
  async meStatus(token: string): Promise<number> {
    const res = await fetch(`${this.origin}/api/user/me`, { headers: { Authorization: token } });
    await res.body?.cancel();
    return res.status;
  }

  /** Any call without throwing: the status and the parsed JSON body (envelope or not), for asserting refusals. */
  async request(
    method: string,
    path: string,
    opts: { token?: string; roomId?: string; json?: unknown } = {},
  ): Promise<{ status: number; body: Record<string, unknown> | undefined; headers: Headers }> {
    const headers: Record<string, string> = {};
    if (opts.token) headers.Authorization = opts.token;
    if (opts.roomId) headers['X-Room-Id'] = opts.roomId;
    if (opts.json !== undefined) headers['Content-Type'] = 'application/json';
    const res = await fetch(`${this.origin}${path}`, { method, headers, body: opts.json === undefined ? undefined : JSON.stringify(opts.json) });
    const text = await res.text();
    return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : undefined, headers: res.headers };
  }

  private async call<T>(method: string, path: string, opts: { token?: string; roomId?: string; json?: unknown }): Promise<T> {
    const headers: Record<string, string> = {};
    if (opts.token) headers.Authorization = opts.token;
    if (opts.roomId) headers['X-Room-Id'] = opts.roomId;
    if (opts.json !== undefined) headers['Content-Type'] = 'application/json';
    const res = await fetch(`${this.origin}${path}`, {
      method,
      headers,
      body: opts.json === undefined ? undefined : JSON.stringify(opts.json),
    });
    const text = await res.text();
    const body = text ? (JSON.parse(text) as Envelope<T> & Partial<ErrorEnvelope>) : undefined;
    if (!res.ok || body?.error) {
      throw new Error(`${method} ${path} → ${res.status} ${body?.error ?? text}`);
    }
    return body?.data as T;
  }
}

function tokenOf(answer: TokenResponse): string {
  if (!answer?.token) throw new Error(`no token in answer: ${JSON.stringify(answer)}`);
  return answer.token;
}

let counter = 0;

/**
 * A username unique within this run and between runs sharing a data directory, within the
 * contract's 32-byte limit (docs/contract.md §8), e.g. `alice-k3x9q2-1`.
 */
export function uniqueName(prefix: string): string {
  counter += 1;
  const name = `${prefix}-${Date.now().toString(36).slice(-6)}${process.pid.toString(36)}-${counter}`;
  if (name.length > 32) throw new Error(`test name ${name} is over 32 bytes; use a shorter prefix`);
  return name;
}
