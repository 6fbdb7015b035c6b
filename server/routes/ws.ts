/**
 * The room WebSocket `GET /api/room/ws?roomId=` (docs/contract.md §6.1, §6.2) on the HTTP
 * server's `upgrade` event. Authentication and the room middleware run before the upgrade, and a
 * failure is answered as a plain HTTP error envelope. Only binary frames are accepted: a text frame
 * or an undecodable frame closes that one socket; nothing a client sends can stop the process.
 */
import crypto from 'node:crypto';
import type { IncomingMessage, Server } from 'node:http';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { decodeMessage, type Message } from '@/lib/contract/message';
import { authenticateToken, readCredentials, userVersion } from '../auth';
import { errorEnvelope } from '../http/envelope';
import { badRequest, HttpError } from '../errors';
import { requireRoom, type ServerContext } from '../http/guards';
import { admitFrame, chatFrame, errorFrame, handleClientMessage, leaveWebRtc } from '../hub/messages';
import type { Connection } from '../hub/room-hub';
import { admitted, personKey, TOO_MANY_CONNECTIONS, type Admission, type FairUse } from '../hub/fair-use';
import { resolveRoomAccess, type RoomAccess } from '../rules/room-access';
import { GUEST_USER_ID } from '../rules/users';

/** Path of the room socket. */
export const ROOM_SOCKET_PATH = '/api/room/ws';
/** Largest accepted frame (bytes). A chat line is at most 4 KiB and an SDP offer a few; 64 KiB is generous. */
const MAX_FRAME_BYTES = 64 * 1024;

/** Close codes used for bad frames (RFC 6455). */
const CLOSE_UNSUPPORTED_DATA = 1003;
const CLOSE_POLICY_VIOLATION = 1008;
const CLOSE_INVALID_PAYLOAD = 1007;
const CLOSE_INTERNAL_ERROR = 1011;

/** Per-request handshake data kept for `handleProtocols`. */
const offeredProtocol = new WeakMap<IncomingMessage, string>();

/** Answers a refused upgrade with an HTTP response on the raw socket and closes it. */
function refuse(socket: Duplex, status: number, body: string, contentType: string): void {
  if (socket.destroyed) return;
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\n` +
      `Content-Type: ${contentType}\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Access-Control-Allow-Origin: *\r\n' +
      'Connection: close\r\n\r\n' +
      body,
  );
}

/** Who may hold how many sockets (../hub/fair-use.ts), and the client's address of a request. */
export interface SocketFairUse {
  fairUse: FairUse;
  /** The client's address: the peer's, or the one a trusted proxy names (../trust-proxy.ts). */
  clientAddress(request: IncomingMessage): string;
}

/**
 * Serves the room socket on `server`. Returns the WebSocketServer so the caller can close it.
 * Every other upgrade path gets `404 page not found`. A socket beyond its person's or address's cap
 * (`fair`) is opened only to get ERROR `too many connections` and a 1008 close with that reason.
 */
export function attachRoomSocket(server: Server, context: ServerContext, log: FastifyBaseLogger, fair: SocketFairUse): WebSocketServer {
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: MAX_FRAME_BYTES,
    // The whole Sec-WebSocket-Protocol value is the token (§6.1); echo it when it is one protocol.
    handleProtocols: (protocols, request) => {
      const offered = offeredProtocol.get(request);
      return offered && protocols.size === 1 && protocols.has(offered) ? offered : false;
    },
  });

  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    upgrade(request, socket, head).catch((error: unknown) => {
      log.error({ err: error }, 'websocket upgrade failed');
      refuse(socket, 500, JSON.stringify(errorEnvelope('internal server error')), 'application/json; charset=utf-8');
    });
  });

  async function upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (url.pathname !== ROOM_SOCKET_PATH || request.method !== 'GET') {
      refuse(socket, 404, '404 page not found', 'text/plain');
      return;
    }
    const credentials = readCredentials(request.headers, url.searchParams.get('token') ?? undefined, true);
    const header = request.headers['x-room-id'];
    const roomId = (Array.isArray(header) ? header[0] : header) || url.searchParams.get('roomId') || '';
    const protocol = request.headers['sec-websocket-protocol'];
    if (typeof protocol === 'string' && protocol) offeredProtocol.set(request, protocol);
    const address = fair.clientAddress(request);
    // Over a cap already? Then refused before the database is asked (the signature alone names the person).
    const claimed = credentials.token ? await context.tokens.verify(credentials.token).then((claims) => claims.userId, () => null) : GUEST_USER_ID;
    if (claimed !== null) {
      const over = fair.fairUse.over(personKey(claimed, claimed === GUEST_USER_ID, address), address, Date.now());
      if (over) {
        tooManyConnections(request, socket, head, address, claimed, over);
        return;
      }
    }
    let access: RoomAccess;
    try {
      const user = credentials.token ? await authenticateToken(context.store, context.tokens, credentials.token) : null;
      access = await resolveRoomAccess(context.store, user, roomId);
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      // Every middleware failure is a 401 before the upgrade (§6.1), whatever the HTTP route would say.
      refuse(socket, 401, JSON.stringify(errorEnvelope(error.message)), 'application/json; charset=utf-8');
      return;
    }
    if (socket.destroyed) return;
    const admission = fair.fairUse.admit(personKey(access.user.id, access.user.id === GUEST_USER_ID, address), address, Date.now());
    if (!admitted(admission)) {
      tooManyConnections(request, socket, head, address, access.user.id, admission.over);
      return;
    }
    // The TCP socket's end ends the admission, whether the WebSocket opened or not.
    socket.once('close', () => fair.fairUse.release(admission, Date.now()));
    // The room's recent chat, read before the upgrade so that the socket is registered (and its
    // first frames handled) as soon as it opens; unread when the hub's cached frames are current.
    const version = await context.store.chat.latestId(access.room.id);
    const history = context.hubs.get(access.room.id)?.historyAt(version) ?? (await context.store.chat.recent(access.room.id)).map(chatFrame);
    if (socket.destroyed) return;
    wss.handleUpgrade(request, socket, head, (ws) => {
      // The history's frames (up to 100) and the VIEWER_COUNT leave in one write, not one system
      // call each: a rolling restart brings hundreds of sockets at once (docs/benchmarks.md).
      socket.cork();
      try {
        onConnection(ws, access, admission, { version, frames: history });
      } finally {
        socket.uncork();
      }
    });
  }

  /** A socket beyond a cap, logged and opened only to be told why: a browser cannot read the status of a refused upgrade. */
  function tooManyConnections(request: IncomingMessage, socket: Duplex, head: Buffer, address: string, userId: string, over: 'user' | 'address'): void {
    log.warn({ address, userId, over }, 'room socket refused: too many connections');
    wss.handleUpgrade(request, socket, head, (ws) => {
      ws.send(errorFrame(TOO_MANY_CONNECTIONS), { binary: true });
      ws.close(CLOSE_POLICY_VIOLATION, TOO_MANY_CONNECTIONS);
    });
  }

  function onConnection(socket: WebSocket, access: RoomAccess, admission: Admission, history: { version: number; frames: Uint8Array[] }): void {
    const hub = context.hubs.getOrCreate(access.room.id);
    const connection: Connection = {
      id: crypto.randomUUID(),
      userId: access.user.id,
      userVersion: access.isGuest ? null : userVersion(access.user.hashedPassword),
      socket,
      rtcJoined: false,
      buckets: admission.buckets,
    };
    // ws reports protocol violations (bad opcode, oversized frame) here and then closes the socket.
    socket.on('error', (error) => log.debug({ err: error }, 'room socket error'));
    // Closed for flooding: its person opens no socket for a while (../hub/fair-use.ts).
    connection.buckets.onFlood = () => fair.fairUse.penalize(admission.personKey, Date.now());
    socket.on('close', () => {
      if (!connection.rtcJoined) {
        hub.unregister(connection);
        return;
      }
      context.store.users
        .findById(connection.userId)
        .then(
          (user) => leaveWebRtc(hub, connection, { userId: connection.userId, username: user?.username ?? '' }, true),
          (error: unknown) => log.error({ err: error }, 'room socket close failed'),
        )
        .finally(() => hub.unregister(connection));
    });
    // One message at a time, in the order they came: each may read and write the store.
    let handled = Promise.resolve();
    socket.on('message', (data: RawData, isBinary: boolean) => {
      const nowMs = Date.now();
      // Beyond the person's budget a frame is dropped here, unread and unqueued: a flood costs little.
      if (socket.readyState !== socket.OPEN || !admitFrame(connection, nowMs)) return;
      handled = handled.then(() => handle(data, isBinary, nowMs));
    });
    const handle = async (data: RawData, isBinary: boolean, nowMs: number): Promise<void> => {
      if (socket.readyState !== socket.OPEN) return; // closing: what is still in flight is dropped unread
      if (!isBinary) {
        socket.close(CLOSE_UNSUPPORTED_DATA, 'binary frames only');
        return;
      }
      let message: Message;
      try {
        message = decodeMessage(toBytes(data));
      } catch {
        socket.close(CLOSE_INVALID_PAYLOAD, 'malformed message');
        return;
      }
      try {
        await handleClientMessage({ store: context.store, hub, connection, nowMs }, message);
      } catch (error) {
        log.error({ err: error }, 'room socket message failed');
        socket.close(CLOSE_INTERNAL_ERROR, 'internal error');
      }
    };
    // The room's recent chat first, as ordinary CHAT frames (a companion-server extension).
    hub.register(connection, hub.history(history.version, () => history.frames));
  }

  return wss;
}

/**
 * A plain GET of the socket path (no upgrade): the room middleware still applies (401s as for the
 * socket), then 400, as v0.9.11's upgrader answers a request that is not a WebSocket handshake.
 */
export function registerRoomSocketFallback(app: FastifyInstance, context: ServerContext): void {
  app.get(ROOM_SOCKET_PATH, async (request) => {
    await requireRoom(context, request);
    throw badRequest('websocket: the client is not using the websocket protocol');
  });
}

function toBytes(data: RawData): Uint8Array {
  if (Array.isArray(data)) return Buffer.concat(data);
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  return data;
}
