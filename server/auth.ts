/**
 * Authentication of the companion server (docs/contract.md §3.1, §3.2): HS256 user tokens (jose)
 * with claims `u` (user id), `uv` (CRC32-IEEE of the bcrypt hash, so a password change invalidates
 * old tokens), `nbf` and `exp` (nbf + 48 h); where a request carries its token; and the rules that
 * turn a token into a user. Password hashing lives in ./passwords.
 */
import crypto from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';
import { Role } from '@/lib/contract/roles';
import type { Store, UserRecord } from './db';
import { badRequest, unauthorized } from './errors';
import { GUEST_USER_ID } from './rules/users';
import { userVersion } from './passwords';

/** Token lifetime in seconds (`jwt.expire` default 48 h). */
export const TOKEN_LIFETIME_SEC = 48 * 60 * 60;
/**
 * Lifetime (s) of a proxy target token of an on-demand playlist or DASH manifest: a player keeps the
 * playlist it loaded for the whole film, so a day. A live playlist is reloaded every few seconds, and
 * its tokens live LIVE_TARGET_TOKEN_TTL_SEC.
 */
export const TARGET_TOKEN_TTL_SEC = 24 * 60 * 60;
/** Lifetime (s) of the segment tokens of a live playlist. */
export const LIVE_TARGET_TOKEN_TTL_SEC = 10 * 60;

export { userVersion };

/**
 * The secrets a TokenService signs and verifies with (./signing-keys.ts SigningKeys): `current`
 * signs; a token verifies under any of `accepted` (the current one first); `refreshIfStale`
 * re-reads them after a failure, true when they changed.
 */
export interface KeyRing {
  readonly current: Uint8Array;
  readonly accepted: readonly Uint8Array[];
  refreshIfStale(): Promise<boolean>;
}

/** A ring of one fixed secret (tests, tools). */
export function fixedKeyRing(secret: Uint8Array): KeyRing {
  return { current: secret, accepted: [secret], refreshIfStale: async () => false };
}

/** What a proxy target token names: a URL inside a proxied movie of a room. */
export interface ProxyTarget {
  roomId: string;
  movieId: string;
  url: string;
  playlist: boolean;
  /** `url` is a folder under which the DASH proxy route serves (server/proxy/mpd.ts), not one file. */
  base?: boolean;
}

/**
 * What an input token names (docs/transcode.md "What ffmpeg reads"): one address ffmpeg may read
 * through this server's input route, for one movie of one room, until it expires.
 */
export interface InputTarget {
  roomId: string;
  movieId: string;
  /** What the movie plays when the token was made (routes/convert.ts `inputClaim`): an edit ends the token. */
  source: string;
  /** The address: "" for the movie's own source, else an entry of a playlist the route rewrote. */
  url: string;
  /** The route serves it as an HLS playlist it rewrites; else a film, whose body may be no playlist. */
  playlist: boolean;
  /** When it expires (Unix seconds). */
  expiresSec: number;
}

/**
 * Signs and checks user tokens, the movie proxy's target tokens and RTMP publish keys with HS256
 * under the site's signing secret (`keys`: the current one signs; during a rotation's grace period
 * the previous one still verifies).
 */
export class TokenService {
  constructor(private readonly keys: KeyRing) {}

  /** `check` under each accepted secret in turn, then once more after re-reading them; the first answer, or the last failure. */
  private async verifyWith<T>(check: (secret: Uint8Array) => Promise<T>): Promise<T> {
    let failure: unknown = new Error('no signing secret');
    for (let round = 0; round < 2; round++) {
      for (const secret of this.keys.accepted) {
        try {
          return await check(secret);
        } catch (error) {
          failure = error;
        }
      }
      if (round === 0 && !(await this.keys.refreshIfStale())) break;
    }
    throw failure;
  }

  /** A token for `user`: `{u, uv, nbf: now, exp: now + 48 h}` (§3.1). */
  sign(user: Pick<UserRecord, 'id' | 'hashedPassword'>): Promise<string> {
    const nowSec = Math.floor(Date.now() / 1000);
    return new SignJWT({ u: user.id, uv: userVersion(user.hashedPassword) })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setNotBefore(nowSec)
      .setExpirationTime(nowSec + TOKEN_LIFETIME_SEC)
      .sign(this.keys.current);
  }

  /**
   * A proxy target token (§4.5 `/movie/proxy/:movieId/m3u8/:targetToken`): HS256 with the same
   * secret, claims `r` (room id), `m` (movie id), `t` (target URL), `f` (the target is a playlist),
   * `b` (the target is a DASH base folder, this server's own) and `exp`, `ttlSec` from now (v0.9.11's
   * never expire: a leaked one would name its target forever).
   */
  signProxyTarget(claims: ProxyTarget, ttlSec = TARGET_TOKEN_TTL_SEC): Promise<string> {
    return new SignJWT({ r: claims.roomId, m: claims.movieId, t: claims.url, f: claims.playlist, ...(claims.base ? { b: true } : {}) })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setExpirationTime(Math.floor(Date.now() / 1000) + ttlSec)
      .sign(this.keys.current);
  }

  /**
   * The RTMP publish key of a live movie (§4.5 `publishKey`, docs/live.md): the movie id and an
   * HMAC-SHA256 (same secret, its own label) of room and movie, base64url; no expiry, so an encoder
   * keeps its settings (until the secret is rotated and its grace period ends). Checked
   * synchronously, as RTMP packets follow the publish at once.
   */
  signPublishKey(roomId: string, movieId: string): string {
    return `${movieId}.${publishSignature(this.keys.current, roomId, movieId)}`;
  }

  /** The movie id a publish key for `roomId` names, or null when it does not verify. */
  verifyPublishKey(roomId: string, key: string): string | null {
    const [movieId, signature, ...rest] = key.split('.');
    if (!movieId || !signature || rest.length > 0) return null;
    const given = Buffer.from(signature);
    return this.keys.accepted.some((secret) => {
      const expected = Buffer.from(publishSignature(secret, roomId, movieId));
      return given.length === expected.length && crypto.timingSafeEqual(given, expected);
    })
      ? movieId
      : null;
  }

  /**
   * An input token (`<claims>.<signature>`, base64url; HMAC-SHA256 under the signing secret with its
   * own label): synchronous, as a conversion makes one for each run of ffmpeg.
   */
  signInput(target: InputTarget): string {
    const claims = Buffer.from(JSON.stringify([target.roomId, target.movieId, target.source, target.url, target.playlist ? 1 : 0, target.expiresSec])).toString('base64url');
    return `${claims}.${inputSignature(this.keys.current, claims)}`;
  }

  /** What an input token names, or null when it does not verify, is malformed or has expired. */
  verifyInput(token: string, nowSec = Date.now() / 1000): InputTarget | null {
    const [claims, signature, ...rest] = token.split('.');
    if (!claims || !signature || rest.length > 0) return null;
    const given = Buffer.from(signature);
    const signed = this.keys.accepted.some((secret) => {
      const expected = Buffer.from(inputSignature(secret, claims));
      return given.length === expected.length && crypto.timingSafeEqual(given, expected);
    });
    if (!signed) return null;
    try {
      const [roomId, movieId, source, url, playlist, expiresSec] = JSON.parse(Buffer.from(claims, 'base64url').toString()) as unknown[];
      if (typeof roomId !== 'string' || typeof movieId !== 'string' || typeof source !== 'string' || typeof url !== 'string' || typeof expiresSec !== 'number') return null;
      if (expiresSec < nowSec) return null;
      return { roomId, movieId, source, url, playlist: playlist === 1, expiresSec };
    } catch {
      return null;
    }
  }

  /** The claims of a proxy target token; throws 400 `invalid proxy target` when it does not verify or has expired. */
  async verifyProxyTarget(token: string): Promise<ProxyTarget> {
    try {
      const { payload } = await this.verifyWith((secret) => jwtVerify(token, secret, { algorithms: ['HS256'] }));
      if (typeof payload.r !== 'string' || typeof payload.m !== 'string' || typeof payload.t !== 'string' || typeof payload.exp !== 'number') throw new Error('claims');
      return { roomId: payload.r, movieId: payload.m, url: payload.t, playlist: payload.f === true, base: payload.b === true };
    } catch {
      throw badRequest('invalid proxy target');
    }
  }

  /**
   * The claims of a valid token. Signature, algorithm, `nbf` and `exp` must pass; otherwise
   * 401 `authentication failed` (also for an expired token, as in v0.9.11).
   */
  async verify(token: string): Promise<{ userId: string; version: number }> {
    try {
      const { payload } = await this.verifyWith((secret) => jwtVerify(token, secret, { algorithms: ['HS256'] }));
      if (typeof payload.u !== 'string' || typeof payload.uv !== 'number') throw new Error('claims');
      return { userId: payload.u, version: payload.uv };
    } catch {
      throw unauthorized('authentication failed');
    }
  }
}

function inputSignature(secret: Uint8Array, claims: string): string {
  return crypto.createHmac('sha256', secret).update(`convert-input\u0000${claims}`).digest('base64url');
}

function publishSignature(secret: Uint8Array, roomId: string, movieId: string): string {
  return crypto.createHmac('sha256', secret).update(`rtmp-publish\u0000${roomId}\u0000${movieId}`).digest('base64url');
}

/**
 * The user a token belongs to (§3.1). Throws 401 with the contract's text: `authentication failed`,
 * `user not found`, `authentication token expired` (password changed), `user account has been banned`,
 * `user account is pending approval`. A guest token is refused.
 */
export async function authenticateToken(store: Store, tokens: TokenService, token: string): Promise<UserRecord> {
  const claims = await tokens.verify(token);
  if (claims.userId.length !== 32 || claims.userId === GUEST_USER_ID) throw unauthorized('authentication failed');
  const user = await store.users.findById(claims.userId);
  if (!user) throw unauthorized('user not found');
  if (userVersion(user.hashedPassword) !== claims.version) throw unauthorized('authentication token expired');
  if (user.role === Role.Banned) throw unauthorized('user account has been banned');
  if (user.role === Role.Pending) throw unauthorized('user account is pending approval');
  return user;
}

/** Where a request's token and room id come from (§3.2, §3.3). */
export interface RequestCredentials {
  /** The token without a leading `Bearer `, or "" when none was sent. */
  token: string;
  /** Which source matched: the WebSocket subprotocol must be echoed only when it carried the token. */
  source: 'authorization' | 'subprotocol' | 'query' | null;
}

function firstHeader(value: string | string[] | undefined): string {
  return (Array.isArray(value) ? value[0] : value) ?? '';
}

/**
 * The token of a request: header `Authorization`, then (WebSocket upgrades only) the whole
 * `Sec-WebSocket-Protocol` value, then `?token=`. One leading literal `Bearer ` is removed.
 */
export function readCredentials(
  headers: Record<string, string | string[] | undefined>,
  queryToken: string | undefined,
  websocket: boolean,
): RequestCredentials {
  const candidates: [RequestCredentials['source'], string][] = [
    ['authorization', firstHeader(headers.authorization)],
    ['subprotocol', websocket ? firstHeader(headers['sec-websocket-protocol']) : ''],
    ['query', queryToken ?? ''],
  ];
  for (const [source, value] of candidates) {
    if (value) return { token: value.startsWith('Bearer ') ? value.slice('Bearer '.length) : value, source };
  }
  return { token: '', source: null };
}
