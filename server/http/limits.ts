/**
 * Bounds on what one client may send (companion-server extensions of docs/contract.md,
 * whose v0.9.11 limiter is off by default, §2.2): a body limit per route, the room check before a large
 * body is read, and rate limits on the routes that check passwords, make captchas or send mail.
 *
 * Everything is in one table, applied to the routes as they are registered (Fastify's `onRoute`), so
 * the route modules stay about the contract. Counting is @fastify/rate-limit's (`createRateLimit`,
 * fixed windows in an LRU); a refusal is the contract's 429 `too many requests` (§2.2) with
 * `Retry-After` in seconds, which the client turns into "try again in N s".
 */
import rateLimit from '@fastify/rate-limit';
import type { Redis } from 'ioredis';
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestAsyncHookHandler, preHandlerAsyncHookHandler } from 'fastify';
import { HttpError } from '../errors';
import { requireRoom, roomIdOf, tokenOf, type ServerContext } from './guards';
import { redisWithLocalFallback } from './rate-store';

/** Body limit of every route not listed below, in bytes. Settings maps and room settings fit easily. */
export const DEFAULT_BODY_LIMIT = 64 * 1024;
/** Body limit of the sign-in, sign-up, password and mail routes: a few short strings. */
export const AUTH_BODY_LIMIT = 8 * 1024;
/** Body limit of one movie (push, edit): every field at its bound (lib/contract/validation.ts) fits. */
export const MOVIE_BODY_LIMIT = 1024 * 1024;
/** Body limit of a bulk push: 500 movies of about 8 KiB each. */
export const BULK_PUSH_BODY_LIMIT = 4 * 1024 * 1024;

/**
 * Unfinished responses one connection may have (not yet written out to the client: still being
 * made, or waiting behind a client that does not read); a request beyond them closes the connection.
 * Browsers and HTTP libraries do not pipeline: they send the next request on a connection only after
 * reading the previous answer, so they never have more than the one being answered.
 */
export const MAX_PENDING_RESPONSES = 1;
/** Response bytes that a connection's client has left unread, beyond which its next request cuts it. */
export const MAX_UNREAD_RESPONSE_BYTES = 4 * 1024 * 1024;

/** One counter: at most `max` requests per `windowMs` for each key that `key` gives (none = not counted). */
export interface RateRule {
  /** For the reader and the log; routes that share one counter share the rule object. */
  name: string;
  max: number;
  windowMs: number;
  /** `ip` counts per client address; `account` per what the body or token names (read after parsing). */
  by: 'ip' | 'account';
  /** For `by: 'account'`: the key, e.g. the lower-cased username; "" is not counted. */
  account?: (request: FastifyRequest) => string;
}

/** What one route gets: a body limit, the room check before its body is read, rate rules. */
interface RouteLimits {
  bodyLimit?: number;
  roomBeforeBody?: boolean;
  rate?: RateRule[];
}

const MINUTE = 60_000;

/** A string field of the JSON body, trimmed and lower-cased; "" for anything else (the route refuses it). */
function bodyString(request: FastifyRequest, key: string): string {
  const body = request.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return '';
  const value = (body as Record<string, unknown>)[key];
  return typeof value === 'string' ? value.trim().toLowerCase() : '';
}

const byIp = (name: string, max: number, windowMs = MINUTE): RateRule => ({ name, max, windowMs, by: 'ip' });
const byAccount = (name: string, max: number, windowMs: number, account: (request: FastifyRequest) => string): RateRule => ({
  name,
  max,
  windowMs,
  by: 'account',
  account,
});

/** The user name or email a sign-in names. */
const signInAccount = (request: FastifyRequest) => bodyString(request, 'username') || bodyString(request, 'email');
const bodyEmail = (request: FastifyRequest) => bodyString(request, 'email');
const caller = (request: FastifyRequest) => tokenOf(request);

/** The room a room sign-in names: the body's `roomId` (room login), else the request's room (§3.3). */
const roomOf = (request: FastifyRequest) => bodyString(request, 'roomId') || roomIdOf(request);

// Rules named by more than one route share one counter.
const CAPTCHA_IMAGE = byIp('captcha', 30);
const MAIL_BY_IP = byIp('mail', 5);
const MAIL_BY_EMAIL = byAccount('mail-email', 3, 10 * MINUTE, bodyEmail);
const SIGNUP_BY_IP = byIp('signup', 10, 10 * MINUTE);
const CODE_BY_EMAIL = byAccount('code-email', 10, 10 * MINUTE, bodyEmail);
const CODE_BY_IP = byIp('code', 10);
const ROOM_LOGIN_BY_IP = byIp('room-login', 30);
const ROOM_LOGIN_BY_ROOM = byAccount('room-login-room', 60, MINUTE, roomOf);
const VENDOR_LOGIN_BY_IP = byIp('vendor-login', 20);
const VENDOR_LOGIN_BY_USER = byAccount('vendor-login-user', 10, MINUTE, caller);

// The media routes (the proxy, live, converted movies): a player asks for a playlist or a segment
// every second or two, a seek for a few at once; these leave a tab or ten that much, and stop a
// script that would make this server relay or convert as fast as it can (docs/security.md).
const MEDIA_BY_IP = byIp('media', 3000);
const MEDIA_BY_USER = byAccount('media-user', 1200, MINUTE, caller);
const MEDIA_BY_ROOM = byAccount('media-room', 12000, MINUTE, (request) => roomIdOf(request));
const MEDIA = { rate: [MEDIA_BY_IP, MEDIA_BY_USER, MEDIA_BY_ROOM] };

/** The media routes, by Fastify's route URL (each also answers HEAD, counted the same). */
export const MEDIA_ROUTES = [
  '/api/room/movie/proxy/:movieId',
  '/api/room/movie/proxy/:movieId/m3u8/:targetToken',
  '/api/room/movie/proxy/:movieId/dash/:baseToken/*',
  '/api/room/movie/live/flv/:movieId',
  '/api/room/movie/live/hls/list/:movieId',
  '/api/room/movie/live/hls/data/:roomId/:movieId/:dataId',
  '/api/room/movie/convert/:movieId/index.m3u8',
  '/api/room/movie/convert/:movieId/subtitle/:file',
  '/api/room/movie/convert/:movieId/:segment',
];

/**
 * The limits by `METHOD path` (Fastify's route URL). Per-IP rules run before the body is read;
 * per-account rules after. The defaults are per minute unless a window is given.
 */
export const ROUTE_LIMITS: Readonly<Record<string, RouteLimits>> = {
  'POST /api/user/login': { bodyLimit: AUTH_BODY_LIMIT, rate: [byIp('login', 20), byAccount('login-account', 10, MINUTE, signInAccount)] },
  'POST /api/user/signup': { bodyLimit: AUTH_BODY_LIMIT, rate: [SIGNUP_BY_IP] },
  'POST /api/user/signup/email': { bodyLimit: AUTH_BODY_LIMIT, rate: [SIGNUP_BY_IP, CODE_BY_EMAIL] },
  'GET /api/user/signup/email/captcha': { rate: [CAPTCHA_IMAGE] },
  'POST /api/user/signup/email/captcha': { bodyLimit: AUTH_BODY_LIMIT, rate: [MAIL_BY_IP, MAIL_BY_EMAIL] },
  'GET /api/user/retrieve/email/captcha': { rate: [CAPTCHA_IMAGE] },
  'POST /api/user/retrieve/email/captcha': { bodyLimit: AUTH_BODY_LIMIT, rate: [MAIL_BY_IP, MAIL_BY_EMAIL] },
  'POST /api/user/retrieve/email': { bodyLimit: AUTH_BODY_LIMIT, rate: [CODE_BY_IP, CODE_BY_EMAIL] },
  'GET /api/user/bind/email/captcha': { rate: [CAPTCHA_IMAGE] },
  'POST /api/user/bind/email/captcha': { bodyLimit: AUTH_BODY_LIMIT, rate: [MAIL_BY_IP, MAIL_BY_EMAIL] },
  'POST /api/user/bind/email': { bodyLimit: AUTH_BODY_LIMIT, rate: [CODE_BY_IP, byAccount('bind-user', 10, MINUTE, caller)] },
  'POST /api/user/password': { bodyLimit: AUTH_BODY_LIMIT, rate: [byIp('password', 10), byAccount('password-user', 10, MINUTE, caller)] },
  'POST /api/user/username': { bodyLimit: AUTH_BODY_LIMIT },
  'POST /api/room/login': { bodyLimit: AUTH_BODY_LIMIT, rate: [ROOM_LOGIN_BY_IP, ROOM_LOGIN_BY_ROOM] },
  'POST /api/room/pwd/check': { bodyLimit: AUTH_BODY_LIMIT, rate: [ROOM_LOGIN_BY_IP, ROOM_LOGIN_BY_ROOM] },
  'POST /api/room/create': { bodyLimit: AUTH_BODY_LIMIT, rate: [byIp('room-create', 20)] },
  // Each one makes this server sign in to another: a password guesser must not use it as a relay.
  'POST /api/vendor/alist/login': { bodyLimit: AUTH_BODY_LIMIT, rate: [VENDOR_LOGIN_BY_IP, VENDOR_LOGIN_BY_USER] },
  'POST /api/vendor/emby/login': { bodyLimit: AUTH_BODY_LIMIT, rate: [VENDOR_LOGIN_BY_IP, VENDOR_LOGIN_BY_USER] },
  'POST /api/room/movie/push': { bodyLimit: MOVIE_BODY_LIMIT, roomBeforeBody: true },
  'POST /api/room/movie/edit': { bodyLimit: MOVIE_BODY_LIMIT, roomBeforeBody: true },
  'POST /api/room/movie/pushs': { bodyLimit: BULK_PUSH_BODY_LIMIT, roomBeforeBody: true },
  ...Object.fromEntries(MEDIA_ROUTES.flatMap((url) => [[`GET ${url}`, MEDIA], [`HEAD ${url}`, MEDIA]])),
};

/** How the limits are applied. */
export interface LimitOptions {
  /**
   * Multiplies every rate rule's `max` (default 1); 0 turns the rate limits off, as the end-to-end
   * tests do (their browsers all come from 127.0.0.1).
   */
  rateLimitScale?: number;
  /**
   * Redis to count in, shared by every instance (docs/deployment.md "Running more than one
   * instance"); default this process's memory. While Redis fails, each instance counts on its own.
   */
  redis?: Redis;
  /** Key prefix in Redis (`REDIS_PREFIX`). */
  redisPrefix?: string;
}

/** 429 `too many requests` (§2.2) with `Retry-After` (whole seconds, at least 1). */
function tooManyRequests(reply: FastifyReply, retryAfterSec: number): HttpError {
  reply.header('retry-after', String(Math.max(1, Math.ceil(retryAfterSec))));
  return new HttpError(429, 'too many requests');
}

/**
 * Registers @fastify/rate-limit (not globally) and the `onRoute` hook that gives each route its
 * limits. Must run before the routes are registered. `context` serves the room check.
 */
export async function installLimits(app: FastifyInstance, context: ServerContext, options: LimitOptions = {}): Promise<void> {
  const scale = options.rateLimitScale ?? 1;
  cutOffSlowReaders(app);
  await app.register(rateLimit, {
    global: false,
    hook: 'onRequest',
    // With Redis, counted there, and in this process while Redis does not answer (./rate-store.ts).
    ...(options.redis ? { store: redisWithLocalFallback(options.redis, `${options.redisPrefix ?? 'synctv'}:rate:`) } : {}),
  });

  type Check = ReturnType<FastifyInstance['createRateLimit']>;
  const checks = new Map<RateRule, Check>();
  const checkFor = (rule: RateRule): Check => {
    let check = checks.get(rule);
    if (!check) {
      // The rule's name is part of the key: the plugin's Redis store gives every rule made by
      // createRateLimit one key space.
      const keyGenerator = (request: FastifyRequest) => `${rule.name}:${rule.by === 'ip' ? request.ip : (rule.account?.(request) ?? '')}`;
      check = app.createRateLimit({ max: Math.max(1, Math.round(rule.max * scale)), timeWindow: rule.windowMs, keyGenerator });
      checks.set(rule, check);
    }
    return check;
  };

  const limiter = (rules: RateRule[]) => async (request: FastifyRequest, reply: FastifyReply) => {
    for (const rule of rules) {
      if (rule.by === 'account' && !rule.account?.(request)) continue;
      const result = await checkFor(rule)(request);
      if (!result.isAllowed && result.isExceeded) throw tooManyRequests(reply, result.ttlInSeconds);
    }
  };

  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const limits = methods.map((method) => ROUTE_LIMITS[`${method} ${route.url}`]).find(Boolean);
    if (!limits) {
      route.bodyLimit ??= DEFAULT_BODY_LIMIT;
      return;
    }
    route.bodyLimit ??= limits.bodyLimit ?? DEFAULT_BODY_LIMIT;
    const onRequest: onRequestAsyncHookHandler[] = [];
    const preHandler: preHandlerAsyncHookHandler[] = [];
    const rules = scale > 0 ? (limits.rate ?? []) : [];
    const ipRules = rules.filter((rule) => rule.by === 'ip');
    const accountRules = rules.filter((rule) => rule.by === 'account');
    if (ipRules.length) onRequest.push(limiter(ipRules));
    // A large body is read only for someone who may post to the room (a guest too, when allowed).
    if (limits.roomBeforeBody) onRequest.push(async (request) => void (await requireRoom(context, request)));
    if (accountRules.length) preHandler.push(limiter(accountRules));
    route.onRequest = [...toArray(route.onRequest), ...onRequest];
    route.preHandler = [...toArray(route.preHandler), ...preHandler];
  });
}

/**
 * A client that sends requests and does not read the answers (a "slow reader") would make the server
 * hold every answer in memory. Each connection's unfinished responses are counted; a request that
 * finds `MAX_PENDING_RESPONSES` of them, or more than `MAX_UNREAD_RESPONSE_BYTES` waiting in the
 * socket's buffer, closes the connection without an answer. (A connection that reads nothing at all
 * is also closed by the idle timeout, `connectionTimeout`.)
 */
function cutOffSlowReaders(app: FastifyInstance): void {
  const pending = new WeakMap<object, number>();
  app.addHook('onRequest', (request, reply, done) => {
    const socket = request.raw.socket;
    const count = (pending.get(socket) ?? 0) + 1;
    if (count > MAX_PENDING_RESPONSES || socket.writableLength > MAX_UNREAD_RESPONSE_BYTES) {
      reply.hijack();
      socket.destroy();
      return;
    }
    pending.set(socket, count);
    // 'close' comes once the response is written out, or when the connection goes.
    reply.raw.once('close', () => pending.set(socket, (pending.get(socket) ?? 1) - 1));
    done();
  });
}

function toArray<T>(value: T | T[] | undefined): T[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}
