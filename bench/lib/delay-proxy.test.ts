/** @jest-environment node */
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { startDelayProxy, type DelayProxy } from './delay-proxy';

const DELAY_MS = 150;

let echo: net.Server;
let proxy: DelayProxy;

beforeAll(async () => {
  echo = net.createServer((socket) => socket.pipe(socket));
  await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
  proxy = await startDelayProxy({ targetPort: (echo.address() as AddressInfo).port, delayMs: DELAY_MS });
});

afterAll(async () => {
  await proxy.close();
  await new Promise<void>((resolve) => echo.close(() => resolve()));
});

/** Connects through the proxy, sends `chunks` (`gapMs` apart) and resolves with what came back and when. */
function exchange(chunks: string[], gapMs: number, expectedLength: number): Promise<{ text: string; firstReplyMs: number }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port: proxy.port, host: '127.0.0.1' });
    const started = performance.now();
    let text = '';
    let firstReplyMs = -1;
    socket.on('error', reject);
    socket.on('data', (data) => {
      if (firstReplyMs < 0) firstReplyMs = performance.now() - started;
      text += data.toString();
      if (text.length >= expectedLength) {
        socket.end();
        resolve({ text, firstReplyMs });
      }
    });
    socket.on('connect', () => {
      chunks.forEach((chunk, i) => setTimeout(() => socket.write(chunk), i * gapMs));
    });
  });
}

describe('startDelayProxy', () => {
  it('delays each direction by the configured time (a round trip takes twice as long)', async () => {
    const { text, firstReplyMs } = await exchange(['ping'], 0, 4);
    expect(text).toBe('ping');
    expect(firstReplyMs).toBeGreaterThanOrEqual(2 * DELAY_MS - 5);
    expect(firstReplyMs).toBeLessThan(2 * DELAY_MS + 150);
  });

  it('keeps the order of chunks sent in quick succession', async () => {
    const chunks = Array.from({ length: 40 }, (_, i) => `<${i}>`);
    const { text } = await exchange(chunks, 3, chunks.join('').length);
    expect(text).toBe(chunks.join(''));
  });
});
