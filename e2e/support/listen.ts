import type { IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A test server listening on loopback: its origin (`http://127.0.0.1:<port>`) and a close that drops open connections. */
export interface LoopbackServer {
  origin: string;
  close(): Promise<void>;
}

/** Starts `server` on `host` (a loopback address, 127.0.0.1 by default) at a random free port. Rejects if it cannot listen. */
export async function listenOnLoopback(server: Server, host = '127.0.0.1'): Promise<LoopbackServer> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://${host}:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        // Keep-alive and streaming connections would otherwise hold close() open.
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}

/**
 * The JSON object of a request's body ({} for an empty one), or null when it is not JSON. For the
 * stand-in servers of the tests (./alist-stand-in.ts, ./emby-stand-in.ts).
 */
export async function readJsonBody(request: IncomingMessage): Promise<Record<string, unknown> | null> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  if (chunks.length === 0) return {};
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
  } catch {
    return null;
  }
}
