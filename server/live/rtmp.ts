/**
 * RTMP ingest on the HTTP port (docs/live.md), as v0.9.11 does by default: the first byte of a
 * connection tells RTMP (its handshake starts with version 3) from HTTP (an ASCII method), and each
 * goes to its own server. The RTMP protocol itself (handshake, chunks, AMF commands, media
 * messages) is node-media-server's; this file only connects it to the room's rules.
 *
 * Push URL: `rtmp://{host}/{roomId}/{publishKey}` (§4.5 `publishKey`: app = room id, stream name =
 * the key). A push whose key does not verify for that room, or whose movie is gone, is closed.
 * Playing over RTMP (v0.9.11's `rtmp_player`) is not offered: browsers play HTTP-FLV.
 */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import Rtmp from 'node-media-server/src/protocol/rtmp.js';
import type AVPacket from 'node-media-server/src/core/avpacket.js';
import type { LiveHub, LivePublication } from './live-hub';

/** The first byte of an RTMP handshake (C0: protocol version 3). */
const RTMP_VERSION = 0x03;
/** A connection that says nothing for this long before its first byte is closed, ms. */
const FIRST_BYTE_TIMEOUT_MS = 30_000;
/** An RTMP connection silent for this long is closed (an encoder sends many packets a second), ms. */
const RTMP_IDLE_TIMEOUT_MS = 30_000;
/**
 * An RTMP connection must have its push accepted (handshake, connect, publish, the key checked)
 * this long after its first byte, or it is closed: an encoder does all of it in well under a second,
 * and nothing else may hold a connection by sending a byte now and then, ms.
 */
export const RTMP_PUBLISH_DEADLINE_MS = 5000;
/**
 * Bytes an RTMP connection may send before its push is accepted: the handshake (3 KB), the commands
 * (a few hundred bytes) and what an encoder sends while the key is checked (a key frame); more is not
 * an encoder (a stream of zeros kept a core busy without this bound).
 */
export const RTMP_PRE_PUBLISH_BYTES = 4 * 1024 * 1024;
/** Largest RTMP message before a push is accepted (connect, createStream, publish are a few hundred bytes). */
const MAX_COMMAND_BYTES = 64 * 1024;
/** Largest RTMP message of an accepted push (a 4K key frame is a few MB). */
const MAX_MEDIA_MESSAGE_BYTES = 16 * 1024 * 1024 - 1;
/** Chunk streams one connection may open (encoders use three to six). */
const MAX_CHUNK_STREAMS = 16;
/** Packets kept while a push waits for its authorization (the store's answer); more closes it. */
const MAX_WAITING_PACKETS = 1024;

/**
 * The parser's internals that bound its memory: it allocates each chunk stream's message buffer
 * at the length the peer announces (up to 16 MB) on up to 65,599 chunk streams, so unchecked a few
 * bytes could make it allocate gigabytes.
 */
interface RtmpParserInternals {
  inPackets: Map<number, unknown>;
  parserPacket: { header: { length: number } };
  packetAlloc(): void;
}

/** Makes `rtmp` refuse (throw from parserData) a message over `maxBytes()` or a chunk stream over MAX_CHUNK_STREAMS. */
function boundParser(rtmp: Rtmp, maxBytes: () => number): void {
  const parser = rtmp as unknown as RtmpParserInternals;
  const alloc = parser.packetAlloc.bind(parser);
  parser.packetAlloc = () => {
    if (parser.inPackets.size > MAX_CHUNK_STREAMS) throw new Error('too many chunk streams');
    if (parser.parserPacket.header.length > maxBytes()) throw new Error('message too large');
    alloc();
  };
}

/** Where a verified push goes. */
export interface PushTarget {
  roomId: string;
  movieId: string;
}

/**
 * Routes the connections of `server` by their first byte: RTMP to `onRtmp`, anything else to the
 * HTTP server's own handling (which then sees the connection as if nothing had read from it).
 * Returns a function that destroys the connections the HTTP server does not know of (those still
 * waiting for their first byte, and the RTMP ones), for the server's shutdown.
 */
export function shareHttpPortWithRtmp(server: Server, onRtmp: (socket: Socket) => void): () => void {
  const httpListeners = server.listeners('connection') as ((socket: Socket) => void)[];
  const ours = new Set<Socket>();
  server.removeAllListeners('connection');
  server.on('connection', (socket: Socket) => {
    ours.add(socket);
    socket.once('close', () => ours.delete(socket));
    // Until the HTTP server or the RTMP session takes the socket, its errors are ours to absorb.
    const ignoreError = () => undefined;
    socket.on('error', ignoreError);
    socket.setTimeout(FIRST_BYTE_TIMEOUT_MS, () => socket.destroy());
    const onReadable = () => {
      const chunk = socket.read() as Buffer | null;
      if (chunk === null) {
        socket.once('readable', onReadable);
        return;
      }
      socket.unshift(chunk);
      socket.setTimeout(0);
      socket.removeListener('error', ignoreError);
      if (chunk[0] === RTMP_VERSION) {
        onRtmp(socket);
      } else {
        ours.delete(socket);
        for (const listener of httpListeners) listener.call(server, socket);
      }
    };
    socket.once('readable', onReadable);
  });
  return () => {
    for (const socket of ours) socket.destroy();
    ours.clear();
  };
}

/**
 * Serves one RTMP connection: `authorize(app, streamName)` answers the push target, or null to refuse.
 * A protocol error, a refused push, a play request, silence, a push not accepted within
 * RTMP_PUBLISH_DEADLINE_MS or more than RTMP_PRE_PUBLISH_BYTES before it closes this connection only;
 * `warn` is told why, with the peer's address, for the last two.
 */
export function serveRtmp(
  socket: Socket,
  hub: LiveHub,
  authorize: (app: string, streamName: string) => Promise<PushTarget | null>,
  warn: (message: string) => void = () => undefined,
): void {
  const rtmp = new Rtmp();
  let target: PushTarget | null = null;
  let publication: LivePublication | null = null;
  /** The push's authorization while the store answers; the publish and the first packets wait for it. */
  let authorizing: Promise<void> | null = null;
  let pushRequested = false;
  const waiting: AVPacket[] = [];
  // A push that waits for its authorization may already send a key frame.
  boundParser(rtmp, () => (publication || (pushRequested && authorizing) ? MAX_MEDIA_MESSAGE_BYTES : MAX_COMMAND_BYTES));
  const close = () => socket.destroy();

  rtmp.onOutputCallback = (buffer) => {
    if (!socket.destroyed) socket.write(buffer);
  };
  rtmp.onConnectCallback = (request) => {
    authorizing = authorize(request.app, request.name).then(
      (answer) => {
        target = answer;
        authorizing = null;
        if (!target) close();
      },
      () => {
        authorizing = null;
        close();
      },
    );
  };
  rtmp.onPushCallback = () => {
    pushRequested = true;
    const start = () => {
      if (!target || socket.destroyed) return;
      publication = hub.publish(target.roomId, target.movieId, { close });
      for (const packet of waiting.splice(0)) publication.packet(packet);
    };
    if (authorizing) void authorizing.then(start);
    else start();
  };
  rtmp.onPlayCallback = close;
  rtmp.onPacketCallback = (packet) => {
    if (publication) publication.packet(packet);
    else if (waiting.push(packet) > MAX_WAITING_PACKETS) close();
  };

  const address = socket.remoteAddress ?? '?';
  let received = 0;
  const deadline = setTimeout(() => {
    if (publication) return;
    warn(`closed an RTMP connection from ${address}: no push accepted within ${RTMP_PUBLISH_DEADLINE_MS / 1000} s of its first byte`);
    close();
  }, RTMP_PUBLISH_DEADLINE_MS);
  socket.once('close', () => clearTimeout(deadline));

  socket.on('data', (data: Buffer) => {
    if (!publication) {
      received += data.length;
      if (received > RTMP_PRE_PUBLISH_BYTES) {
        warn(`closed an RTMP connection from ${address}: ${received} bytes before a push was accepted`);
        close();
        return;
      }
    }
    let problem: string | null;
    try {
      problem = rtmp.parserData(data);
    } catch (error) {
      problem = (error as Error).message;
    }
    if (problem !== null) close();
  });
  socket.on('error', () => undefined);
  // The HTTP server's sockets allow half-open connections: an encoder that hangs up ends it here.
  socket.on('end', close);
  socket.on('close', () => publication?.end());
  socket.setTimeout(RTMP_IDLE_TIMEOUT_MS, close);
}
