import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A test server listening on loopback: its origin (`http://127.0.0.1:<port>`) and a close that drops open connections. */
export interface LoopbackServer {
  origin: string;
  close(): Promise<void>;
}

/** Starts `server` on 127.0.0.1 at a random free port. Rejects if it cannot listen. */
export async function listenOnLoopback(server: Server): Promise<LoopbackServer> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        // Keep-alive and streaming connections would otherwise hold close() open.
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}
