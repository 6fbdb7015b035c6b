/**
 * CLI entry of the companion server (`npm start`). Environment: PORT (default 8080), HOST (default
 * 0.0.0.0), DATA_DIR (default ./data), ROOT_PASSWORD (first start only), WEB_DIR (default ./out),
 * LOG_LEVEL (silent, error, warn (default), info: one line per request, debug), PROXY_ALLOW_ADDRESSES
 * (comma-separated IP addresses the movie proxy may reach although they are private), TRUST_PROXY
 * (behind a reverse proxy: the proxies' addresses/CIDRs, comma-separated, never `true`; then
 * `X-Forwarded-For` names the client for the rate limits and the log), MAX_SOCKETS_PER_USER and
 * MAX_SOCKETS_PER_ADDRESS (room sockets per person and per address on one instance, default 20 and
 * 100, 0 = no cap; docs/security.md "Room sockets"), MAX_STREAMS_PER_USER and MAX_STREAMS_PER_ROOM
 * (open responses of the proxy, live and convert routes per viewer and per room, default 16 and 256,
 * 0 = no cap; docs/security.md "The proxy's budget"), FRAME_ANCESTORS (who may frame
 * the app: CSP sources, default `'none'`), STUN_URLS, TURN_URLS, TURN_SECRET, TURN_TTL (voice chat's
 * ICE servers, docs/voice.md), RTMP (`off` turns off RTMP pushes on the HTTP port; default on,
 * docs/live.md), FFMPEG (the ffmpeg that remuxes pushes into HLS and converts films browsers cannot
 * decode, docs/transcode.md, default `ffmpeg` on the PATH; `off` for HTTP-FLV only and no
 * conversion), CONVERT_MAX_READS and CONVERT_MAX_READS_PER_USER (probes, keyframe scans and subtitle
 * extractions at once on this instance and for one user, default 4 and 2, 0 = no limit;
 * docs/transcode.md "Limits"), DATABASE_URL (`postgres://…`: PostgreSQL instead of the SQLite file,
 * docs/deployment.md "Storage"), JWT_SECRET and JWT_PREVIOUS_SECRET (the signing secret of every
 * instance, and the one it replaces during a rotation; default: the database keeps one,
 * docs/deployment.md "The signing secret"), REDIS_URL, REDIS_PREFIX and INSTANCE_URL (more than one instance over one data
 * directory: room broadcasts through Redis pub/sub, docs/deployment.md "Running more than one instance").
 * First start only (they seed the email settings of docs/contract.md §5.6; later changes go to the
 * settings table): SMTP_HOST (also turns `enable_email` on), SMTP_PORT (587), SMTP_PROTOCOL (TLS, SSL
 * or TCP), SMTP_USERNAME, SMTP_PASSWORD, SMTP_FROM.
 */
import { LOG_LEVELS, startServer, type LogLevel } from './app';
import { DEFAULT_TURN_TTL_SEC, type IceConfig } from './rules/webrtc';
import { SMTP_PROTOCOLS, type SiteSettings } from './db/settings';
import { bcryptCost } from './passwords';
import { trustProxyFromEnv } from './trust-proxy';
import { DEFAULT_SOCKET_CAPS } from './hub/fair-use';
import { DEFAULT_STREAM_CAPS } from './http/stream-budget';
import { DEFAULT_READS_PER_SERVER, DEFAULT_READS_PER_USER } from './transcode/jobs';

/** The email settings given in the environment (first start). Throws on an invalid port or protocol. */
function emailSettingsFromEnv(env: NodeJS.ProcessEnv): Partial<SiteSettings> {
  if (!env.SMTP_HOST) return {};
  const port = Number(env.SMTP_PORT || 587);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error(`SMTP_PORT must be 1-65535, got ${env.SMTP_PORT}`);
  const protocol = (env.SMTP_PROTOCOL || 'TLS').toUpperCase();
  if (!(SMTP_PROTOCOLS as readonly string[]).includes(protocol)) {
    throw new Error(`SMTP_PROTOCOL must be one of ${SMTP_PROTOCOLS.join(', ')}, got ${env.SMTP_PROTOCOL}`);
  }
  return {
    enable_email: true,
    smtp_host: env.SMTP_HOST,
    smtp_port: port,
    smtp_protocol: protocol,
    smtp_username: env.SMTP_USERNAME ?? '',
    smtp_password: env.SMTP_PASSWORD ?? '',
    smtp_from: env.SMTP_FROM ?? '',
  };
}

/** A comma-separated list, trimmed, empty entries dropped. */
function listOf(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
}

/**
 * Voice chat's ICE servers (docs/voice.md): STUN_URLS and TURN_URLS (comma-separated `stun:` and
 * `turn:`/`turns:` URLs), TURN_SECRET (coturn's `static-auth-secret`), TURN_TTL (seconds the TURN
 * credentials last, default a day). Throws on a TURN_URLS without TURN_SECRET or a bad TURN_TTL.
 */
function iceConfigFromEnv(env: NodeJS.ProcessEnv): IceConfig {
  const turnUrls = listOf(env.TURN_URLS);
  const turnSecret = env.TURN_SECRET ?? '';
  if (turnUrls.length > 0 && !turnSecret) throw new Error('TURN_URLS needs TURN_SECRET (the static-auth-secret of the TURN server)');
  const turnTtlSec = env.TURN_TTL ? Number(env.TURN_TTL) : DEFAULT_TURN_TTL_SEC;
  if (!Number.isInteger(turnTtlSec) || turnTtlSec < 60) throw new Error(`TURN_TTL must be a whole number of seconds, at least 60, got ${env.TURN_TTL}`);
  return { stunUrls: listOf(env.STUN_URLS), turnUrls, turnSecret, turnTtlSec };
}

/** RTMP=off (or false, 0, no) turns RTMP pushes off (docs/live.md); anything else, or unset, keeps them on. Throws on an unknown word. */
function rtmpFromEnv(value: string | undefined): boolean {
  const word = (value ?? '').trim().toLowerCase();
  if (['', 'on', 'true', '1', 'yes'].includes(word)) return true;
  if (['off', 'false', '0', 'no'].includes(word)) return false;
  throw new Error(`RTMP must be on or off, got ${value}`);
}

/** `PROXY_CACHE_BYTES`: bytes (a whole number, or with MiB/GiB), 0 = off; undefined when unset (the default). Throws otherwise. */
function proxyCacheBytesFromEnv(value: string | undefined): number | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  const match = /^(\d+)\s*(|MiB|GiB)$/i.exec(text);
  if (!match) throw new Error(`PROXY_CACHE_BYTES must be a number of bytes, or of MiB or GiB (256MiB), 0 for no cache, got ${text}`);
  const unit = match[2].toLowerCase();
  return Number(match[1]) * (unit === 'gib' ? 1024 ** 3 : unit === 'mib' ? 1024 ** 2 : 1);
}

/** A cap from the environment: a whole number ≥ 0 (0 = no cap), or `fallback` when unset. Throws otherwise. */
function capFromEnv(name: string, fallback: number): number {
  const text = process.env[name]?.trim();
  if (!text) return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a whole number, 0 for no limit, got ${text}`);
  return value;
}

async function main(): Promise<void> {
  const port = Number(process.env.PORT ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be 0-65535, got ${process.env.PORT}`);
  const logLevel = (process.env.LOG_LEVEL || 'warn').toLowerCase() as LogLevel;
  if (!LOG_LEVELS.includes(logLevel)) throw new Error(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got ${process.env.LOG_LEVEL}`);
  bcryptCost(); // throws on a BCRYPT_COST that is not 4-31, before anything starts
  const server = await startServer({
    port,
    host: process.env.HOST || '0.0.0.0',
    dataDir: process.env.DATA_DIR || './data',
    webDir: process.env.WEB_DIR || './out',
    rootPassword: process.env.ROOT_PASSWORD || undefined,
    proxyAllowAddresses: listOf(process.env.PROXY_ALLOW_ADDRESSES),
    bilibiliOrigin: process.env.BILIBILI_API_ORIGIN || undefined,
    initialSettings: emailSettingsFromEnv(process.env),
    logLevel,
    trustProxy: trustProxyFromEnv(process.env.TRUST_PROXY),
    socketCaps: {
      perUser: capFromEnv('MAX_SOCKETS_PER_USER', DEFAULT_SOCKET_CAPS.perUser),
      perAddress: capFromEnv('MAX_SOCKETS_PER_ADDRESS', DEFAULT_SOCKET_CAPS.perAddress),
    },
    frameAncestors: process.env.FRAME_ANCESTORS || undefined,
    ice: iceConfigFromEnv(process.env),
    rtmp: rtmpFromEnv(process.env.RTMP),
    streamCaps: {
      perUser: capFromEnv('MAX_STREAMS_PER_USER', DEFAULT_STREAM_CAPS.perUser),
      perRoom: capFromEnv('MAX_STREAMS_PER_ROOM', DEFAULT_STREAM_CAPS.perRoom),
    },
    convertReads: {
      perServer: capFromEnv('CONVERT_MAX_READS', DEFAULT_READS_PER_SERVER) || Number.POSITIVE_INFINITY,
      perUser: capFromEnv('CONVERT_MAX_READS_PER_USER', DEFAULT_READS_PER_USER) || Number.POSITIVE_INFINITY,
    },
    // FFMPEG=off: pushes play as HTTP-FLV only and nothing converts; otherwise the ffmpeg that remuxes them into HLS and converts films.
    ffmpeg: process.env.FFMPEG?.trim().toLowerCase() === 'off' ? false : process.env.FFMPEG?.trim() || 'ffmpeg',
    databaseUrl: process.env.DATABASE_URL?.trim() || undefined,
    jwtSecret: process.env.JWT_SECRET?.trim() || undefined,
    jwtPreviousSecret: process.env.JWT_PREVIOUS_SECRET?.trim() || undefined,
    vendorSecret: process.env.VENDOR_SECRET?.trim() || undefined,
    proxyCacheBytes: proxyCacheBytesFromEnv(process.env.PROXY_CACHE_BYTES),
    redisUrl: process.env.REDIS_URL?.trim() || undefined,
    redisPrefix: process.env.REDIS_PREFIX?.trim() || undefined,
    instanceUrl: process.env.INSTANCE_URL?.trim() || undefined,
  });
  console.log(`SyncTV companion server: http://localhost:${server.port}/web/`);

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: shutting down`);
    server.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
