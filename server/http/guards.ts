/**
 * The `user` and `room*` middleware levels of docs/contract.md §3.4 for HTTP handlers: each
 * handler calls the guard it needs first and gets the authenticated caller back.
 */
import type { Converter } from '../transcode/converter';
import type { StreamBudget } from './stream-budget';
import type { IceConfig } from '../rules/webrtc';
import type { HlsRemuxer } from '../live/hls-remux';
import type { LiveHub } from '../live/live-hub';
import type { FastifyRequest } from 'fastify';
import { authenticateToken, readCredentials, type TokenService } from '../auth';
import type { Store, UserRecord } from '../db';
import type { HubRegistry } from '../hub/registry';
import type { Mailer } from '../mail/mailer';
import type { EndpointOverrides, OAuth2States } from '../rules/oauth2';
import type { CaptchaStore, EmailCodeStore } from '../rules/verification';
import { resolveRoomAccess, type RoomAccess, type RoomLevel } from '../rules/room-access';
import { forbidden, unauthorized } from '../errors';
import { Role } from '@/lib/contract/roles';
import { queryValue } from './query';
import type { AlistAccounts } from '../vendors/alist-accounts';
import type { EmbyAccounts } from '../vendors/emby-accounts';
import type { BilibiliAccounts } from '../vendors/bilibili-accounts';
import type { SliceCache } from '../proxy/slice-cache';

/** What every route module needs. */
export interface ServerContext {
  store: Store;
  tokens: TokenService;
  hubs: HubRegistry;
  /** Addresses the movie proxy may reach although they are private (env `PROXY_ALLOW_ADDRESSES`). */
  proxyAllowAddresses: readonly string[];
  /** Voice chat's STUN and TURN servers (../rules/webrtc.ts). */
  ice: IceConfig;
  /** Live streams pushed over RTMP (../live/live-hub.ts); null when RTMP is off. */
  live: LiveHub | null;
  /** HLS of those streams, remuxed by ffmpeg (../live/hls-remux.ts); null when RTMP or ffmpeg is off. */
  hls: HlsRemuxer | null;
  /** Image captchas of the email flows (§4.2). */
  captchas: CaptchaStore;
  /** Mailed codes of the email flows (§4.2). */
  codes: EmailCodeStore;
  mailer: Mailer;
  /** OAuth2 flows in progress (§4.7). */
  states: OAuth2States;
  /** OAuth2 endpoint overrides (tests); empty in production. */
  endpoints: EndpointOverrides;
  /** The movie proxy's shared slices (../proxy/slice-cache.ts); null when `PROXY_CACHE_BYTES` is 0. */
  sliceCache: SliceCache | null;
  /** Users' AList accounts and what rooms play from them (../vendors/alist-accounts.ts). */
  alist: AlistAccounts;
  /** Users' Emby and Jellyfin accounts and what rooms play from them (../vendors/emby-accounts.ts). */
  emby: EmbyAccounts;
  /** Users' bilibili accounts and what rooms play from bilibili (../vendors/bilibili-accounts.ts). */
  bilibili: BilibiliAccounts;
  /** Movies this server converts (../transcode/converter.ts, docs/transcode.md); null when ffmpeg is off. */
  converter: Converter | null;
  /** The open responses of the proxy, live and convert routes, per viewer and room (./stream-budget.ts). */
  streams: StreamBudget;
}

/** `http://<Host header>`: the origin of links when the `host` setting is empty (§4.2, §4.7). */
export function requestOrigin(request: FastifyRequest): string {
  return `http://${request.headers.host ?? 'localhost'}`;
}

/** The raw token of a request (header, then `?token=`), "" for none: proxy URLs carry it on (§3.2). */
export function tokenOf(request: FastifyRequest): string {
  return readCredentials(request.headers, queryValue(request.query, 'token'), false).token;
}

/**
 * `user` level: a valid token of a real (non-guest) user. Throws 401 `authentication token is
 * empty` without a token, else the texts of `authenticateToken`.
 */
export async function requireUser(context: ServerContext, request: FastifyRequest): Promise<UserRecord> {
  const token = tokenOf(request);
  if (!token) throw unauthorized('authentication token is empty');
  return authenticateToken(context.store, context.tokens, token);
}

/**
 * `admin` and `root` levels (§3.4): `user`, then site role Admin(4)/Root(5) for `admin` and Root for
 * `root`. Throws the `user` level's 401s, then 403 `user is not an administrator` / `user is not a
 * root user`.
 */
export async function requireSiteAdmin(context: ServerContext, request: FastifyRequest, level: 'admin' | 'root' = 'admin'): Promise<UserRecord> {
  const user = await requireUser(context, request);
  if (level === 'root' && user.role !== Role.Root) throw forbidden('user is not a root user');
  if (user.role < Role.Admin) throw forbidden('user is not an administrator');
  return user;
}

/** The room id of a request: header `X-Room-Id`, then `?roomId=`, then a `:roomId` path param (§3.3). */
export function roomIdOf(request: FastifyRequest): string {
  const header = request.headers['x-room-id'];
  const fromHeader = Array.isArray(header) ? header[0] : header;
  const params = request.params as Record<string, string | undefined> | undefined;
  return fromHeader || queryValue(request.query, 'roomId') || params?.roomId || '';
}

/** `room` levels (§3.4): a user token or none (guest), then the room middleware rules. */
export async function requireRoom(
  context: ServerContext,
  request: FastifyRequest,
  level: RoomLevel = 'room',
): Promise<RoomAccess> {
  const token = tokenOf(request);
  const user = token ? await authenticateToken(context.store, context.tokens, token) : null;
  return await resolveRoomAccess(context.store, user, roomIdOf(request), level);
}
