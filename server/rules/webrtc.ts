/**
 * The ICE servers of voice chat (docs/voice.md): what `GET /api/room/webrtc/iceServers` gives a
 * member who may use voice. STUN URLs as configured; TURN URLs with short-lived credentials in the
 * TURN REST convention that coturn's `use-auth-secret` checks: the username is
 * `<expiry, Unix s>:<user id>` and the credential is base64(HMAC-SHA1(shared secret, username)).
 * A v0.9.11 server has no such route; the client then falls back to its build's list.
 */
import { createHmac } from 'node:crypto';
import { Permission } from '@/lib/contract/roles';
import { forbidden } from '../errors';
import { hasMemberPermission } from './permissions';
import { subjectOf, type RoomAccess } from './room-access';

/** The server's ICE configuration (env `STUN_URLS`, `TURN_URLS`, `TURN_SECRET`, `TURN_TTL`). */
export interface IceConfig {
  stunUrls: readonly string[];
  turnUrls: readonly string[];
  /** coturn's `static-auth-secret`; TURN URLs are served only with it. */
  turnSecret: string;
  /** How long TURN credentials last, seconds. */
  turnTtlSec: number;
}

/** One RTCIceServer as the client's RTCPeerConnection takes it. */
export interface IceServer {
  urls: string[];
  username?: string;
  credential?: string;
}

/** Default lifetime of TURN credentials: a day, long enough for a film and a reconnect. */
export const DEFAULT_TURN_TTL_SEC = 24 * 60 * 60;

/** No ICE servers configured: the client uses its build's list. */
export const NO_ICE_CONFIG: IceConfig = { stunUrls: [], turnUrls: [], turnSecret: '', turnTtlSec: DEFAULT_TURN_TTL_SEC };

/** The TURN REST credentials of `userId` that expire `ttlSec` after `nowMs` (Unix ms). */
export function turnCredentials(secret: string, userId: string, nowMs: number, ttlSec: number): { username: string; credential: string } {
  const username = `${Math.floor(nowMs / 1000) + ttlSec}:${userId}`;
  return { username, credential: createHmac('sha1', secret).update(username).digest('base64') };
}

/**
 * `{ iceServers }` for the caller of a room route: 403 `no permission to use webrtc` (the text of
 * the socket's refusal, §6.4) without the WebRTC permission; an empty list when nothing is configured.
 */
export function iceServersFor(access: RoomAccess, config: IceConfig, nowMs: number): { iceServers: IceServer[] } {
  if (!hasMemberPermission(subjectOf(access), access.settings, Permission.WebRTC)) throw forbidden('no permission to use webrtc');
  const iceServers: IceServer[] = [];
  if (config.stunUrls.length > 0) iceServers.push({ urls: [...config.stunUrls] });
  if (config.turnUrls.length > 0 && config.turnSecret) {
    iceServers.push({ urls: [...config.turnUrls], ...turnCredentials(config.turnSecret, access.user.id, nowMs, config.turnTtlSec) });
  }
  return { iceServers };
}
