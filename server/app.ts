/**
 * The companion server: the SyncTV v0.9.11 HTTP + WebSocket contract (docs/contract.md) over
 * SQLite, plus the exported web client under `/web`. `startServer` is what `server/main.ts`, the
 * server tests and the end-to-end fixtures run.
 */
import { NO_ICE_CONFIG, type IceConfig } from './rules/webrtc';
import { MessageType } from '@/lib/contract/message';
import fs from 'node:fs';
import path from 'node:path';
import compress from '@fastify/compress';
import cors from '@fastify/cors';
import Fastify, { LogController } from 'fastify';
import { TokenService } from './auth';
import { KEYS_REFRESH_MS, SigningKeys } from './signing-keys';
import { openStore } from './db';
import { installJsonParser } from './http/body';
import { DEFAULT_BODY_LIMIT, installLimits } from './http/limits';
import { DEFAULT_FRAME_ANCESTORS, installSecurityHeaders } from './http/security-headers';
import { handleError } from './http/envelope';
import { redactUrl } from './http/redact';
import type { ServerContext } from './http/guards';
import { HubRegistry } from './hub/registry';
import { connectRedisBus, redisAddress, type RedisBus } from './cluster/bus';
import { MemorySecretStore, RedisSecretStore } from './cluster/secret-store';
import { HUB_TICK_MS } from './hub/room-hub';
import { registerAdminRoutes } from './routes/admin';
import { registerMovieRoutes } from './routes/movie';
import { registerProxyRoutes } from './routes/proxy';
import { registerConvertRoutes } from './routes/convert';
import { Converter } from './transcode/converter';
import type { JobLimits } from './transcode/jobs';
import { DEFAULT_STREAM_CAPS, StreamBudget, type StreamCaps } from './http/stream-budget';
import { registerHealthRoutes } from './routes/health';
import { registerPublicRoutes } from './routes/public';
import { registerRoomRoutes } from './routes/room';
import { registerRoomAdminRoutes } from './routes/room-admin';
import { registerUserRoutes, tokenResponder } from './routes/user';
import { registerOAuth2Routes } from './routes/oauth2';
import { Mailer } from './mail/mailer';
import { OAuth2States, type EndpointOverrides } from './rules/oauth2';
import { CaptchaStore, EmailCodeStore } from './rules/verification';
import type { SiteSettings } from './db';
import { registerWebRoutes } from './routes/web';
import { attachRoomSocket, registerRoomSocketFallback } from './routes/ws';
import { DEFAULT_SOCKET_CAPS, FairUse, type SocketCaps } from './hub/fair-use';
import { clientAddressOf } from './trust-proxy';
import { ensureBuiltinUsers, ROOT_USERNAME } from './rules/users';
import { mayStay } from './rules/room-access';
import { HlsRemuxer } from './live/hls-remux';
import { LiveHub } from './live/live-hub';
import { serveRtmp, shareHttpPortWithRtmp } from './live/rtmp';
import { isBroadcastable, playArrivedBroadcast, pushTarget } from './rules/live';
import { registerVendorRoutes } from './routes/vendor';
import { AlistAccounts } from './vendors/alist-accounts';
import { AlistClient } from './vendors/alist';
import { EmbyAccounts } from './vendors/emby-accounts';
import { EmbyClient } from './vendors/emby';
import { BilibiliAccounts } from './vendors/bilibili-accounts';
import { BilibiliClient } from './vendors/bilibili';
import { VendorCipher } from './vendors/credentials';
import { SliceCache } from './proxy/slice-cache';

/** Default of `proxyCacheBytes`: 256 MiB, about 128 slices. */
export const DEFAULT_PROXY_CACHE_BYTES = 256 * 1024 * 1024;

/** Options of `startServer`. */
export interface StartServerOptions {
  /** TCP port; 0 picks a free one. Default 0. */
  port?: number;
  /** Interface to bind. Default 127.0.0.1 (main.ts passes 0.0.0.0). */
  host?: string;
  /** Directory of `synctv.db` and the JWT secret; created when missing. */
  dataDir: string;
  /** The Next export to serve under /web. Default `./out`. */
  webDir?: string;
  /** Password for the first-start `root` user; random (and printed once) when absent. */
  rootPassword?: string;
  /**
   * What the log shows (pretty-printed): `info` adds one line per request (method, URL, status, time),
   * `warn` (main.ts's default) and `error` only problems, `silent` (the default here) nothing.
   */
  logLevel?: LogLevel;
  /** Hub ticker period in ms (VIEWER_COUNT / ping, §6.6). Default 5000; tests shorten it. */
  hubTickMs?: number;
  /**
   * IP addresses the movie proxy may reach although they are private or loopback (main.ts reads
   * `PROXY_ALLOW_ADDRESSES`, comma-separated). Default none; the site setting `allow_proxy_to_local`
   * opens every private address instead.
   */
  proxyAllowAddresses?: string[];
  /** Voice chat's STUN and TURN servers (main.ts reads STUN_URLS, TURN_URLS, TURN_SECRET, TURN_TTL). Default none. */
  ice?: IceConfig;
  /** RTMP pushes on the HTTP port (docs/live.md; main.ts: RTMP=off turns it off). Default on, as in v0.9.11. */
  rtmp?: boolean;
  /**
   * The ffmpeg that remuxes pushes into HLS (docs/live.md) and converts films browsers cannot decode
   * (docs/transcode.md; its ffprobe beside it); main.ts reads FFMPEG. False: pushes play as HTTP-FLV
   * only and nothing converts. Default `ffmpeg` on the PATH; when it is missing, the same.
   */
  ffmpeg?: string | false;
  /**
   * Site settings written on first start only (rows that do not exist yet), e.g. the SMTP settings
   * main.ts reads from the environment. Later changes are made in the settings table.
   */
  initialSettings?: Partial<SiteSettings>;
  /** Tests only (main.ts never sets it): every image captcha shows and accepts this answer. */
  fixedCaptchaAnswer?: string;
  /** Tests only: endpoints that replace a provider's built-in ones (a local OAuth2 server). */
  oauth2Endpoints?: EndpointOverrides;
  /**
   * Multiplies every rate limit (./http/limits.ts; default 1, 0 = off). The end-to-end tests turn
   * them off: their browsers all come from 127.0.0.1.
   */
  rateLimitScale?: number;
  /**
   * Which proxies' `X-Forwarded-For` names the client: their comma-separated addresses or CIDR
   * ranges, such as `127.0.0.1,10.0.0.0/8` (Fastify's `trustProxy`), never "any" (./trust-proxy.ts).
   * Default none: behind nginx or Caddy set it, or every visitor shares the proxy's address and its
   * rate limits. main.ts reads `TRUST_PROXY`.
   */
  trustProxy?: false | string;
  /**
   * Most room sockets one user, and one address, may hold on this instance (../hub/fair-use.ts;
   * default DEFAULT_SOCKET_CAPS, 20 and 100), multiplied by `rateLimitScale`; 0 = no cap. main.ts
   * reads `MAX_SOCKETS_PER_USER` and `MAX_SOCKETS_PER_ADDRESS`.
   */
  socketCaps?: SocketCaps;
  /**
   * Open responses of the proxy, live and convert routes at once, per viewer and per room
   * (./http/stream-budget.ts; default DEFAULT_STREAM_CAPS, 16 and 256), multiplied by
   * `rateLimitScale`; 0 = no cap. main.ts reads `MAX_STREAMS_PER_USER` and `MAX_STREAMS_PER_ROOM`.
   */
  streamCaps?: StreamCaps;
  /**
   * A response socket that takes nothing for this long is closed (ms, default 120000): a client that
   * stops reading cannot hold its response in memory. The room WebSocket is not affected.
   */
  idleTimeoutMs?: number;
  /**
   * Who may show the app in a frame: the CSP `frame-ancestors` sources of every document (default
   * `'none'`, e.g. `'self' https://blog.example`). main.ts reads `FRAME_ANCESTORS`.
   */
  frameAncestors?: string;
  /**
   * Redis for more than one instance (docs/deployment.md "Running more than one instance"): every
   * room broadcast, kick and close reaches the sockets of every instance through its pub/sub, and
   * viewer counts cover them all. Default none: this process alone. main.ts reads `REDIS_URL`.
   */
  redisUrl?: string;
  /**
   * The PostgreSQL database to keep users, rooms, movies, settings and chat in (`postgres://…`,
   * docs/deployment.md "Storage"); default none: the SQLite file `<dataDir>/synctv.db`. main.ts
   * reads `DATABASE_URL`.
   */
  databaseUrl?: string;
  /**
   * The signing secret of every instance (at least 32 characters; ./signing-keys.ts); default none:
   * the database keeps one. main.ts reads `JWT_SECRET`.
   */
  jwtSecret?: string;
  /**
   * The secret that seals users' vendor credentials (AList, Emby; at least 32 characters;
   * ./vendors/credentials.ts); default none: the file `<dataDir>/vendor-secret`, created on first
   * start. Several instances need the same one. main.ts reads `VENDOR_SECRET`.
   */
  vendorSecret?: string;
  /**
   * Memory the movie proxy's shared slices may take (bytes; ./proxy/slice-cache.ts), default
   * DEFAULT_PROXY_CACHE_BYTES; 0 turns the cache off (every viewer's range goes to the source).
   * main.ts reads `PROXY_CACHE_BYTES`.
   */
  proxyCacheBytes?: number;
  /**
   * How long (ms) an Emby or Jellyfin transcode nobody fetched runs before this server stops it
   * (./vendors/emby-accounts.ts TRANSCODE_IDLE_MS, a minute); tests shorten it.
   */
  embyTranscodeIdleMs?: number;
  /**
   * One server standing in for every bilibili host (`BILIBILI_API_ORIGIN`, e.g. the tests' stand-in
   * `http://127.0.0.2:8123`); unset, bilibili itself (docs/vendors.md "bilibili").
   */
  bilibiliOrigin?: string;
  /**
   * How long (ms) a conversion nobody asks anything of is kept (./transcode/registry.ts IDLE_CLOSE_MS,
   * two minutes); tests shorten it. Conversions need `ffmpeg` (off with `ffmpeg: false`).
   */
  convertIdleMs?: number;
  /**
   * Probes, keyframe scans and subtitle extractions at once, on this instance and for one user
   * (./transcode/jobs.ts; default 4 and 2; 0 = no limit). main.ts reads `CONVERT_MAX_READS` and
   * `CONVERT_MAX_READS_PER_USER`.
   */
  convertReads?: JobLimits;
  /** During a rotation of `jwtSecret`: the secret it replaces, still accepted for 48 h. main.ts reads `JWT_PREVIOUS_SECRET`. */
  jwtPreviousSecret?: string;
  /** Prefix of the Redis channel, so that two sites can share one Redis (default `synctv`). main.ts reads `REDIS_PREFIX`. */
  redisPrefix?: string;
  /**
   * With Redis: the URL at which the other instances reach this one, to fetch the RTMP pushes it
   * holds for their viewers. Default `http://127.0.0.1:<port>` (instances on one host), or the bound
   * address when it is a specific one. main.ts reads `INSTANCE_URL`.
   */
  instanceUrl?: string;
}

/** A running server. `url` has no trailing slash, e.g. `http://127.0.0.1:41234`. */
export interface RunningServer {
  url: string;
  port: number;
  /**
   * Shuts down gracefully: /readyz answers 503 at once, every room socket is closed with
   * SHUTDOWN_CLOSE (dropped after a second without an answer), the server stops accepting
   * connections and finishes the requests under way, and the database closes last.
   */
  close(): Promise<void>;
}

/** Levels of the server's log, least to most verbose (`LOG_LEVEL` of main.ts). */
export const LOG_LEVELS = ['silent', 'error', 'warn', 'info', 'debug'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Default of `idleTimeoutMs`. */
const IDLE_TIMEOUT_MS = 120_000;
/** The close frame every room socket gets when the server shuts down: 1012 Service Restart, so the client reconnects (to this server once it is back, or to another instance). */
export const SHUTDOWN_CLOSE = { code: 1012, reason: 'server restarting' } as const;
/** How long (ms) a shutdown waits for the room sockets to answer their close frame before dropping them. */
const SOCKET_CLOSE_WAIT_MS = 1000;

/**
 * Opens the data directory, creates the built-in users on first start, and listens.
 * Throws when the data directory is unusable or the port is taken.
 */
export async function startServer(options: StartServerOptions): Promise<RunningServer> {
  const dataDir = path.resolve(options.dataDir);
  const webDir = path.resolve(options.webDir ?? './out');
  const host = options.host ?? '127.0.0.1';
  const frameAncestors = options.frameAncestors?.trim() || DEFAULT_FRAME_ANCESTORS;
  // Readable by the owner only: the SQLite file when there is one.
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const store = await openStore({ dataDir, databaseUrl: options.databaseUrl }, options.initialSettings);
  let keys: SigningKeys;
  try {
    keys = await SigningKeys.open(store, { dataDir, jwtSecret: options.jwtSecret, jwtPreviousSecret: options.jwtPreviousSecret });
  } catch (error) {
    await store.close();
    throw error;
  }
  let cipher: VendorCipher;
  try {
    cipher = VendorCipher.open(dataDir, options.vendorSecret);
  } catch (error) {
    await store.close();
    throw error;
  }
  // Every vendor call goes through the movie proxy's guard (docs/security.md): a private or loopback
  // host only when the admin allows it.
  const vendorPolicy = async () => ({ allowLocal: (await store.settings.get()).allow_proxy_to_local, allowAddresses: options.proxyAllowAddresses ?? [] });
  let bus: RedisBus | null = null;
  try {
    bus = options.redisUrl ? await connectRedisBus(options.redisUrl, options.redisPrefix) : null;
  } catch (error) {
    await store.close();
    throw new Error(`cannot reach Redis at ${redisAddress(options.redisUrl ?? '')}: ${(error as Error).message}`);
  }
  /** True once `close()` has begun (/readyz answers 503). */
  let stopping = false;
  // Captcha answers, mailed codes and OAuth2 states: in Redis when there is one, so any instance can
  // check them; else one bounded store each in this process.
  const secrets = () => (bus ? new RedisSecretStore(bus.client, bus.prefix) : new MemorySecretStore());
  const live =
    options.rtmp === false
      ? null
      : new LiveHub(
          (roomId, movieId) => isBroadcastable(store, roomId, movieId),
          () => context.hubs.liveChanged(),
          // A push arrived: the room plays it when it plays nothing or the broadcaster may change the movie.
          (roomId, movieId) =>
            void playArrivedBroadcast(store, roomId, movieId, Date.now()).then(
              (broadcaster) => broadcaster && context.hubs.notify(roomId, MessageType.CURRENT, { userId: broadcaster.id, username: broadcaster.username }),
              (error: unknown) => app.log.warn({ err: error, roomId, movieId }, 'could not play an arrived broadcast'),
            ),
        );
  const context: ServerContext = {
    store,
    tokens: new TokenService(keys),
    hubs: new HubRegistry(options.hubTickMs ?? HUB_TICK_MS, bus),
    proxyAllowAddresses: options.proxyAllowAddresses ?? [],
    ice: options.ice ?? NO_ICE_CONFIG,
    live,
    hls: live && options.ffmpeg !== false ? new HlsRemuxer(live, options.ffmpeg ?? 'ffmpeg') : null,
    captchas: new CaptchaStore(secrets(), options.fixedCaptchaAnswer),
    codes: new EmailCodeStore(secrets()),
    mailer: new Mailer(),
    states: new OAuth2States(secrets()),
    endpoints: options.oauth2Endpoints ?? {},
    sliceCache: options.proxyCacheBytes === 0 ? null : new SliceCache(options.proxyCacheBytes ?? DEFAULT_PROXY_CACHE_BYTES),
    alist: new AlistAccounts(store, cipher, new AlistClient(vendorPolicy)),
    emby: new EmbyAccounts(store, cipher, new EmbyClient(vendorPolicy), options.embyTranscodeIdleMs),
    bilibili: new BilibiliAccounts(store, cipher, new BilibiliClient(options.bilibiliOrigin ?? '')),
    streams: new StreamBudget(scaledStreamCaps(options)),
    converter: options.ffmpeg === false ? null : new Converter(path.join(dataDir, 'conversions'), options.ffmpeg ?? 'ffmpeg', options.convertIdleMs, undefined, options.convertReads),
  };
  // After the instances could not tell each other (Redis down, events lost), each re-checks its
  // sockets against the database (docs/deployment.md "Running more than one instance").
  context.hubs.setAccessCheck((roomId, userId, userVersion) => mayStay(store, roomId, userId, userVersion));
  const tokenResponse = tokenResponder(context.tokens);

  const logLevel = options.logLevel ?? 'silent';
  const app = Fastify({
    logger:
      logLevel === 'silent'
        ? false
        : { level: logLevel, transport: { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname,reqId' } } },
    // Fastify logs two lines per request (received, completed); the hook below writes one.
    logController: new LogController({ disableRequestLogging: true }),
    // Per route in ./http/limits.ts; this is the bound of anything registered outside it.
    bodyLimit: DEFAULT_BODY_LIMIT,
    connectionTimeout: options.idleTimeoutMs ?? IDLE_TIMEOUT_MS,
    trustProxy: options.trustProxy ?? false,
    // The movie proxy's target tokens carry a URL in a path segment (§4.5).
    routerOptions: { maxParamLength: 16 * 1024 },
    forceCloseConnections: true,
  });
  if (!options.trustProxy) {
    // Behind a proxy without TRUST_PROXY every visitor shares the proxy's address, its rate limits
    // and its socket cap (docs/deployment.md "Configuration"): said once, where the operator looks.
    let warned = false;
    app.addHook('onRequest', async (request) => {
      if (warned || request.headers['x-forwarded-for'] === undefined) return;
      warned = true;
      request.log.warn(`requests arrive through a proxy (X-Forwarded-For from ${request.ip}) but TRUST_PROXY is not set: every visitor counts as ${request.ip} for the rate limits and the socket caps; set TRUST_PROXY=${request.ip}`);
    });
  }
  app.addHook('onResponse', async (request, reply) => {
    request.log.info(`${request.method} ${redactUrl(request.url)} ${reply.statusCode} ${reply.elapsedTime.toFixed(1)} ms`);
  });

  try {
    const root = await ensureBuiltinUsers(store, options.rootPassword);
    if (root.password) {
      // Printed whatever the log level: it is the one way to learn the password.
      console.log(`created user "${ROOT_USERNAME}" with password: ${root.password} (shown once; change it after signing in)`);
    }

    installJsonParser(app);
    await installLimits(app, context, { rateLimitScale: options.rateLimitScale, redis: bus?.client, redisPrefix: bus?.prefix });
    app.setErrorHandler(handleError);
    app.setNotFoundHandler((_request, reply) => reply.code(404).type('text/plain').send('404 page not found'));
    await app.register(cors, { origin: '*', methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'], exposedHeaders: ['Retry-After'] });
    await app.register(compress, { global: true });
    await installSecurityHeaders(app, frameAncestors);

    registerHealthRoutes(app, { store, bus, stopping: () => stopping, misconfigured: () => keys.problem });
    registerPublicRoutes(app, context);
    registerUserRoutes(app, context, tokenResponse);
    registerOAuth2Routes(app, context, tokenResponse);
    registerRoomRoutes(app, context);
    registerRoomAdminRoutes(app, context);
    registerMovieRoutes(app, context);
    registerAdminRoutes(app, context);
    registerProxyRoutes(app, context);
    registerConvertRoutes(app, context, context.converter);
    registerVendorRoutes(app, context);
    registerRoomSocketFallback(app, context);
    await registerWebRoutes(app, webDir, frameAncestors);

    await app.listen({ port: options.port ?? 0, host });
  } catch (error) {
    await app.close().catch(() => undefined);
    context.hubs.closeAll();
    context.converter?.close();
    await bus?.close();
    await store.close();
    throw error;
  }

  // The signing secret: a disagreement with the other instances keeps this one unready, said in the
  // log (whatever the log level) when found and when it ends; a rotation is picked up within seconds.
  const reportKeys = (problem: string | null) =>
    problem ? console.error(`not ready: ${problem} (docs/deployment.md "The signing secret")`) : console.error('the signing secret agrees with the other instances again: ready');
  if (keys.problem) reportKeys(keys.problem);
  keys.onProblem(reportKeys);
  const keysTimer = setInterval(() => void keys.refresh().catch(() => undefined), KEYS_REFRESH_MS);
  keysTimer.unref();
  const scale = options.rateLimitScale ?? 1;
  const caps = options.socketCaps ?? DEFAULT_SOCKET_CAPS;
  const wss = attachRoomSocket(app.server, context, app.log, {
    // Scaled with the rate limits: off (0) in the end-to-end tests, whose browsers all come from 127.0.0.1.
    fairUse: new FairUse({ perUser: Math.round(caps.perUser * scale), perAddress: Math.round(caps.perAddress * scale) }),
    clientAddress: clientAddressOf(options.trustProxy ?? false),
  });
  let closeRtmpSockets: (() => void) | null = null;
  if (live) {
    const authorize = async (roomId: string, key: string) => {
      const target = await pushTarget(store, context.tokens, roomId, key);
      // What an operator needs when an encoder says only "failed to connect".
      if (!target) app.log.warn(`refused an RTMP push to room ${roomId.slice(0, 64)}: the stream key is not that of a live movie of this room`);
      return target;
    };
    closeRtmpSockets = shareHttpPortWithRtmp(app.server, (socket) => serveRtmp(socket, live, authorize, (message) => app.log.warn(message)));
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : (options.port ?? 0);
  const urlHost = host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;

  // Where the other instances reach this one (docs/deployment.md "Running more than one instance").
  const reachable = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : urlHost;
  const instanceUrl = options.instanceUrl?.replace(/\/+$/, '') || `http://${reachable}:${port}`;
  if (live && bus) context.hubs.shareLive(instanceUrl, () => live.publishing());
  const converter = context.converter;
  if (converter) context.hubs.shareConversions(instanceUrl, (roomId, movieId) => converter.keepOnly(roomId, movieId));

  let closing: Promise<void> | null = null;
  return {
    url: `http://${urlHost}:${port}`,
    port,
    close() {
      closing ??= (async () => {
        // From now on /readyz answers 503; then every room socket gets its close frame, and those
        // that have not answered it within a second are dropped. Fastify's close then stops
        // accepting connections and waits for the requests under way; the store closes last.
        stopping = true;
        clearInterval(keysTimer);
        context.hubs.closeAll(SHUTDOWN_CLOSE);
        context.hls?.close();
        context.live?.close();
        context.emby.close();
        context.bilibili.close();
        context.converter?.close();
        closeRtmpSockets?.();
        await Promise.race([
          Promise.all([...wss.clients].map((client) => new Promise((resolve) => client.once('close', resolve)))),
          new Promise((resolve) => setTimeout(resolve, SOCKET_CLOSE_WAIT_MS).unref()),
        ]);
        for (const client of wss.clients) client.terminate();
        await new Promise<void>((resolve) => wss.close(() => resolve()));
        await app.close();
        context.mailer.close();
        await bus?.close();
        await store.close();
      })();
      return closing;
    },
  };
}

/** The media routes' caps of `options`, multiplied by `rateLimitScale` (at least 1; a scale of 0 means no cap, as the tests run). */
function scaledStreamCaps(options: Pick<StartServerOptions, 'streamCaps' | 'rateLimitScale'>): StreamCaps {
  const caps = options.streamCaps ?? DEFAULT_STREAM_CAPS;
  const scale = options.rateLimitScale ?? 1;
  const scaled = (cap: number) => (cap === 0 || scale === 0 ? 0 : Math.max(1, Math.round(cap * scale)));
  return { perUser: scaled(caps.perUser), perRoom: scaled(caps.perRoom) };
}
