/**
 * A TCP proxy on 127.0.0.1 that delays every chunk by a fixed time in each direction, in order.
 * The benchmark puts one in front of the companion server and opens one client's page through it,
 * so that client's HTTP requests *and* WebSocket frames arrive late, like on a slow network.
 * (Chromium's network emulation over CDP throttles HTTP but does not delay WebSocket frames.)
 */
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';

/** A running proxy: `origin` is `http://127.0.0.1:<port>`. */
export interface DelayProxy {
  port: number;
  origin: string;
  close(): Promise<void>;
}

export interface DelayProxyOptions {
  /** Port of the server behind the proxy (on `targetHost`, default 127.0.0.1). */
  targetPort: number;
  targetHost?: string;
  /** Added one-way delay, ms, applied to each chunk in both directions. */
  delayMs: number;
}

/**
 * Forwards `from` to `to`, each chunk `delayMs` after it arrived and never out of order; the end of
 * `from` is forwarded (as `to.end()`) after the data before it.
 */
function pipeDelayed(from: net.Socket, to: net.Socket, delayMs: number): void {
  const queue: { dueMs: number; chunk: Buffer | null }[] = [];
  let timer: NodeJS.Timeout | null = null;
  const flush = () => {
    timer = null;
    const now = performance.now();
    while (queue.length > 0 && queue[0].dueMs <= now + 0.5) {
      const { chunk } = queue.shift()!;
      if (to.destroyed) return;
      if (chunk === null) to.end();
      else to.write(chunk);
    }
    schedule();
  };
  const schedule = () => {
    if (timer !== null || queue.length === 0) return;
    timer = setTimeout(flush, Math.max(0, queue[0].dueMs - performance.now()));
  };
  from.on('data', (chunk: Buffer) => {
    queue.push({ dueMs: performance.now() + delayMs, chunk });
    schedule();
  });
  from.on('end', () => {
    queue.push({ dueMs: performance.now() + delayMs, chunk: null });
    schedule();
  });
  from.on('close', () => {
    // A reset (not a clean end) closes the other side once the data already in flight is out.
    if (timer === null && queue.length === 0) to.destroy();
    else setTimeout(() => to.destroy(), delayMs + 50).unref();
  });
}

/** Starts the proxy on a random port of 127.0.0.1. Rejects when it cannot listen. */
export async function startDelayProxy(options: DelayProxyOptions): Promise<DelayProxy> {
  const { targetPort, targetHost = '127.0.0.1', delayMs } = options;
  const sockets = new Set<net.Socket>();
  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    // Errors (a peer's reset) end the pair through 'close'; unhandled, they would crash the bench.
    socket.on('error', () => socket.destroy());
  };
  const server = net.createServer((client) => {
    client.setNoDelay(true);
    const upstream = net.connect({ port: targetPort, host: targetHost });
    upstream.setNoDelay(true);
    track(client);
    track(upstream);
    pipeDelayed(client, upstream, delayMs);
    pipeDelayed(upstream, client, delayMs);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    port,
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
